import ScoutCore
import Testing
@testable import ScoutSchedule
import ScoutTime

/// Small helpers shared by the suites.
enum T {
    static func zone(_ id: String) -> Zone { try! Zone(identifier: id, path: "timezone") }
    static func instant(_ text: String) -> Instant { try! Instant.parse(text, path: "t") }
    static func wall(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> LocalDateTime {
        LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s)!
    }
    static func reminder(_ activity: String, _ start: LocalDateTime, _ frequency: Frequency,
                         created: String? = nil) -> Reminder {
        Reminder(activity: activity, start: start, frequency: frequency, created: created.map(instant))
    }
    /// A reminder for `"walk"`.
    static func reminder(_ start: LocalDateTime, _ frequency: Frequency) -> Reminder {
        Reminder(activity: "walk", start: start, frequency: frequency)
    }
    /// The fires of a single reminder.
    static func fires(_ zone: String, now: String, _ reminder: Reminder, count: Int = 3,
                      quiet: WakingHours? = nil, busy: [(String, String)] = []) -> [Fire] {
        let request = ScheduleRequest(
            zone: T.zone(zone), now: instant(now), reminders: [reminder], count: count,
            wakingHours: quiet ?? .standard, avoidQuietHours: quiet != nil,
            busy: busy.map { BusyInterval(start: instant($0.0), end: instant($0.1)) }, avoidBusy: !busy.isEmpty)
        return Schedule.compute(request).reminders[0].fires
    }
    /// The fires' instants as written (RFC 3339 in the zone's offset).
    static func texts(_ fires: [Fire]) -> [String] { fires.map(\.at.rfc3339) }
}

/// Hand-checked examples. Expected instants were worked out from the published rules, not
/// from the code: EU summer time runs from 01:00 UTC on the last Sunday of March to 01:00
/// UTC on the last Sunday of October (2026-03-29 and 2026-10-25; 2028-03-26); Dublin is
/// GMT (+00:00) in winter and IST (+01:00) in summer, so its gap is 01:00–02:00 local and
/// its repeated hour 01:00–02:00. New York is −05:00/−04:00 with changes at 02:00 local on
/// 2026-03-08 and 2026-11-01. Lord Howe is +10:30/+11:00, changing at 02:00 local on the
/// first Sundays of April and October. Kolkata is +05:30 all year.
@Suite struct ScheduleExampleTests {
    @Test func dailyKeepsWallClockAcrossSpringForward() {
        let fires = T.fires("Europe/Dublin", now: "2026-03-26T12:00:00Z",
                            T.reminder(T.wall(2026, 3, 27, 8, 0), .daily), count: 4)
        #expect(fires.map(\.at.seconds) == [
            "2026-03-27T08:00:00Z", "2026-03-28T08:00:00Z", "2026-03-29T07:00:00Z", "2026-03-30T07:00:00Z",
        ].map { T.instant($0).seconds })
        #expect(T.texts(fires) == ["2026-03-27T08:00:00Z", "2026-03-28T08:00:00Z",
                                   "2026-03-29T08:00:00+01:00", "2026-03-30T08:00:00+01:00"])
        #expect(fires.allSatisfy { $0.at == $0.nominal && $0.movedFor.isEmpty })
    }

    @Test func dailyKeepsWallClockAcrossFallBack() {
        let fires = T.fires("Europe/Dublin", now: "2026-10-24T00:00:00Z",
                            T.reminder(T.wall(2026, 10, 1, 8, 0), .daily))
        #expect(fires.map(\.at) == ["2026-10-24T07:00:00Z", "2026-10-25T08:00:00Z", "2026-10-26T08:00:00Z"].map(T.instant))
        #expect(T.texts(fires) == ["2026-10-24T08:00:00+01:00", "2026-10-25T08:00:00Z", "2026-10-26T08:00:00Z"])
    }

    @Test func wallTimeInTheGapShiftsForward() {
        // Dublin skips 01:00–02:00 on 2026-03-29: 01:30 fires at 02:30 IST, 24 h after the day before.
        let fires = T.fires("Europe/Dublin", now: "2026-03-27T12:00:00Z",
                            T.reminder(T.wall(2026, 3, 20, 1, 30), .daily))
        #expect(T.texts(fires) == ["2026-03-28T01:30:00Z", "2026-03-29T02:30:00+01:00", "2026-03-30T01:30:00+01:00"])
        #expect(fires.map(\.at) == ["2026-03-28T01:30:00Z", "2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"].map(T.instant))
        // 02:30 (the time in the request's example) exists in Dublin that day: no shift.
        let later = T.fires("Europe/Dublin", now: "2026-03-29T00:00:00Z", T.reminder(T.wall(2026, 3, 29, 2, 30), .once))
        #expect(T.texts(later) == ["2026-03-29T02:30:00+01:00"])
        // New York skips 02:00–03:00 on 2026-03-08.
        let ny = T.fires("America/New_York", now: "2026-03-01T00:00:00Z", T.reminder(T.wall(2026, 3, 8, 2, 30), .once))
        #expect(T.texts(ny) == ["2026-03-08T03:30:00-04:00"])
        #expect(ny.map(\.at) == [T.instant("2026-03-08T07:30:00Z")])
    }

    @Test func repeatedWallTimeFiresOnceAtItsFirstOccurrence() {
        let fires = T.fires("Europe/Dublin", now: "2026-10-23T12:00:00Z",
                            T.reminder(T.wall(2026, 10, 1, 1, 30), .daily), count: 3)
        #expect(fires.map(\.at) == ["2026-10-24T00:30:00Z", "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"].map(T.instant))
        #expect(T.texts(fires) == ["2026-10-24T01:30:00+01:00", "2026-10-25T01:30:00+01:00", "2026-10-26T01:30:00Z"])
        // Asked between the two occurrences, the second one is not a fire.
        let between = T.fires("Europe/Dublin", now: "2026-10-25T00:45:00Z", T.reminder(T.wall(2026, 10, 1, 1, 30), .daily),
                              count: 1)
        #expect(T.texts(between) == ["2026-10-26T01:30:00Z"])
        let ny = T.fires("America/New_York", now: "2026-10-31T00:00:00Z", T.reminder(T.wall(2026, 11, 1, 1, 30), .once))
        #expect(ny.map(\.at) == [T.instant("2026-11-01T05:30:00Z")])
    }

    @Test func monthlyFromThe31stClampsWithoutDrift() {
        let fires = T.fires("Europe/Dublin", now: "2026-01-01T00:00:00Z",
                            T.reminder(T.wall(2026, 1, 31, 8, 0), .monthly), count: 6)
        #expect(T.texts(fires) == ["2026-01-31T08:00:00Z", "2026-02-28T08:00:00Z", "2026-03-31T08:00:00+01:00",
                                   "2026-04-30T08:00:00+01:00", "2026-05-31T08:00:00+01:00", "2026-06-30T08:00:00+01:00"])
        // 2028 is a leap year (and its summer time starts on March 26).
        let leap = T.fires("Europe/Dublin", now: "2028-01-01T00:00:00Z",
                           T.reminder(T.wall(2028, 1, 31, 8, 0), .monthly), count: 4)
        #expect(T.texts(leap) == ["2028-01-31T08:00:00Z", "2028-02-29T08:00:00Z", "2028-03-31T08:00:00+01:00",
                                  "2028-04-30T08:00:00+01:00"])
        // From the 30th: February clamps, March is the 30th again.
        let thirtieth = T.fires("UTC", now: "2026-01-01T00:00:00Z", T.reminder(T.wall(2026, 1, 30, 9, 15), .monthly))
        #expect(T.texts(thirtieth) == ["2026-01-30T09:15:00Z", "2026-02-28T09:15:00Z", "2026-03-30T09:15:00Z"])
        // Asked in March 2027, the anchor is still the 31st.
        let later = T.fires("UTC", now: "2027-02-28T09:00:00Z", T.reminder(T.wall(2026, 1, 31, 8, 0), .monthly), count: 2)
        #expect(T.texts(later) == ["2027-03-31T08:00:00Z", "2027-04-30T08:00:00Z"])
    }

    @Test func weeklyKeepsWeekdayAndWallClockAcrossDST() {
        // Saturdays 2026-03-21, 03-28, 04-04 (Sunday is 03-29).
        let fires = T.fires("Europe/Dublin", now: "2026-03-20T00:00:00Z", T.reminder(T.wall(2026, 3, 21, 9, 0), .weekly))
        #expect(fires.map(\.at) == ["2026-03-21T09:00:00Z", "2026-03-28T09:00:00Z", "2026-04-04T08:00:00Z"].map(T.instant))
        let z = T.zone("Europe/Dublin")
        #expect(fires.allSatisfy { z.local($0.at).weekday == 6 && z.local($0.at).hour == 9 })
        let ny = T.fires("America/New_York", now: "2026-10-20T00:00:00Z", T.reminder(T.wall(2026, 10, 25, 18, 0), .weekly))
        #expect(ny.map(\.at) == ["2026-10-25T22:00:00Z", "2026-11-01T23:00:00Z", "2026-11-08T23:00:00Z"].map(T.instant))
        #expect(T.texts(ny) == ["2026-10-25T18:00:00-04:00", "2026-11-01T18:00:00-05:00", "2026-11-08T18:00:00-05:00"])
    }

    @Test func newYorkDailyAcrossBothChanges() {
        let spring = T.fires("America/New_York", now: "2026-03-07T00:00:00Z", T.reminder(T.wall(2026, 3, 1, 8, 0), .daily))
        #expect(spring.map(\.at) == ["2026-03-07T13:00:00Z", "2026-03-08T12:00:00Z", "2026-03-09T12:00:00Z"].map(T.instant))
        let fall = T.fires("America/New_York", now: "2026-10-31T00:00:00Z", T.reminder(T.wall(2026, 3, 1, 8, 0), .daily))
        #expect(fall.map(\.at) == ["2026-10-31T12:00:00Z", "2026-11-01T13:00:00Z", "2026-11-02T13:00:00Z"].map(T.instant))
    }

    @Test func nonHourOffsets() {
        let kolkata = T.fires("Asia/Kolkata", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 1, 1, 8, 0), .daily))
        #expect(T.texts(kolkata) == ["2026-06-01T08:00:00+05:30", "2026-06-02T08:00:00+05:30", "2026-06-03T08:00:00+05:30"])
        #expect(kolkata[0].at == T.instant("2026-06-01T02:30:00Z"))
        // Lord Howe moves its clocks by 30 minutes: 02:00 → 02:30 on 2026-10-04.
        let lh = T.fires("Australia/Lord_Howe", now: "2026-10-02T00:00:00Z", T.reminder(T.wall(2026, 9, 1, 8, 0), .daily))
        #expect(lh.map(\.at) == ["2026-10-02T21:30:00Z", "2026-10-03T21:00:00Z", "2026-10-04T21:00:00Z"].map(T.instant))
        #expect(T.texts(lh) == ["2026-10-03T08:00:00+10:30", "2026-10-04T08:00:00+11:00", "2026-10-05T08:00:00+11:00"])
        // 02:15 falls in that 30-minute gap and moves forward by 30 minutes.
        let gap = T.fires("Australia/Lord_Howe", now: "2026-10-01T00:00:00Z", T.reminder(T.wall(2026, 10, 3, 2, 15), .daily))
        #expect(T.texts(gap) == ["2026-10-03T02:15:00+10:30", "2026-10-04T02:45:00+11:00", "2026-10-05T02:15:00+11:00"])
        #expect(gap.map(\.at) == ["2026-10-02T15:45:00Z", "2026-10-03T15:45:00Z", "2026-10-04T15:15:00Z"].map(T.instant))
    }

    @Test func aSkippedDayGivesNoFireOfItsOwn() {
        // Pacific/Apia went from -10:00 to +14:00 at 2011-12-30T10:00:00Z: December 30 never
        // happened there. Its 12:00 shifts onto December 31's, which fires once.
        let fires = T.fires("Pacific/Apia", now: "2011-12-27T00:00:00Z", T.reminder(T.wall(2011, 12, 28, 12, 0), .daily),
                            count: 4)
        #expect(fires.map(\.at) == ["2011-12-28T22:00:00Z", "2011-12-29T22:00:00Z", "2011-12-30T22:00:00Z",
                                    "2011-12-31T22:00:00Z"].map(T.instant))
        #expect(T.texts(fires) == ["2011-12-28T12:00:00-10:00", "2011-12-29T12:00:00-10:00", "2011-12-31T12:00:00+14:00",
                                   "2012-01-01T12:00:00+14:00"])
    }

    @Test func onceAndTheBoundaryAtNow() {
        let r = T.reminder(T.wall(2026, 6, 1, 9, 0), .once)
        #expect(T.texts(T.fires("UTC", now: "2026-06-01T08:59:59Z", r)) == ["2026-06-01T09:00:00Z"])
        // A fire exactly at now is due now, not next.
        #expect(T.fires("UTC", now: "2026-06-01T09:00:00Z", r).isEmpty)
        #expect(T.fires("UTC", now: "2026-06-02T00:00:00Z", r).isEmpty)
        let daily = T.reminder(T.wall(2026, 6, 1, 9, 0), .daily)
        #expect(T.texts(T.fires("UTC", now: "2026-06-03T09:00:00Z", daily, count: 1)) == ["2026-06-04T09:00:00Z"])
        #expect(T.texts(T.fires("UTC", now: "2026-06-03T08:59:59Z", daily, count: 1)) == ["2026-06-03T09:00:00Z"])
    }

    @Test func futureStartFiresFirstAtTheStart() {
        let fires = T.fires("Europe/Dublin", now: "2026-01-01T00:00:00Z", T.reminder(T.wall(2026, 7, 4, 18, 30), .weekly))
        #expect(T.texts(fires) == ["2026-07-04T18:30:00+01:00", "2026-07-11T18:30:00+01:00", "2026-07-18T18:30:00+01:00"])
    }

    @Test func countIsHonouredUpToTheMaximum() {
        let fires = T.fires("UTC", now: "2026-01-01T00:00:00Z", T.reminder(T.wall(2025, 1, 1, 6, 0), .daily), count: 100)
        #expect(fires.count == 100)
        #expect(fires.first?.at == T.instant("2026-01-01T06:00:00Z"))
        #expect(fires.last?.at == T.instant("2026-04-10T06:00:00Z"))
    }

    // MARK: Replacement

    @Test func newerCreatedReplacesOlderWhateverTheOrder() {
        let newer = T.reminder("walk", T.wall(2026, 1, 1, 8, 0), .daily, created: "2026-01-02T10:00:00Z")
        let older = T.reminder("walk", T.wall(2026, 1, 1, 9, 0), .daily, created: "2026-01-01T10:00:00+05:00")
        let feed = T.reminder("feed", T.wall(2026, 1, 1, 7, 0), .daily)
        let s = Schedule.compute(ScheduleRequest(zone: T.zone("UTC"), now: T.instant("2026-02-01T00:00:00Z"),
                                                 reminders: [newer, feed, older]))
        #expect(s.reminders.map(\.reminder) == [feed, newer])
        #expect(s.replaced == [older])
    }

    @Test func laterInListReplacesWithoutCreated() {
        let a = T.reminder("walk", T.wall(2026, 1, 1, 8, 0), .daily)
        let b = T.reminder("walk", T.wall(2026, 1, 1, 9, 0), .weekly, created: "2026-01-01T00:00:00Z")
        let c = T.reminder("walk", T.wall(2026, 1, 1, 10, 0), .monthly)
        let s = Schedule.compute(ScheduleRequest(zone: T.zone("UTC"), now: T.instant("2026-02-01T00:00:00Z"),
                                                 reminders: [a, b, c]))
        #expect(s.reminders.map(\.reminder) == [c])
        #expect(s.replaced == [a, b])
        // Equal created: the later one in the list wins.
        let d = T.reminder("walk", T.wall(2026, 1, 1, 11, 0), .daily, created: "2026-01-01T00:00:00Z")
        let e = T.reminder("walk", T.wall(2026, 1, 1, 12, 0), .daily, created: "2026-01-01T00:00:00Z")
        let s2 = Schedule.compute(ScheduleRequest(zone: T.zone("UTC"), now: T.instant("2026-02-01T00:00:00Z"),
                                                  reminders: [d, e]))
        #expect(s2.reminders.map(\.reminder) == [e])
        #expect(s2.replaced == [d])
    }

    @Test func remindersAreOrderedByFirstFireThenActivity() {
        let now = "2026-06-01T00:00:00Z"
        let rs = [
            T.reminder("walk", T.wall(2026, 6, 1, 9, 0), .daily),
            T.reminder("brush", T.wall(2026, 6, 1, 9, 0), .weekly),
            T.reminder("vet", T.wall(2026, 5, 1, 9, 0), .once),         // passed: no fires, last
            T.reminder("feed", T.wall(2026, 6, 1, 7, 0), .daily),
            T.reminder("bath", T.wall(2026, 5, 1, 10, 0), .once),       // passed too
        ]
        let s = Schedule.compute(ScheduleRequest(zone: T.zone("UTC"), now: T.instant(now), reminders: rs))
        #expect(s.reminders.map(\.reminder.activity) == ["feed", "brush", "walk", "bath", "vet"])
    }

    // MARK: Quiet hours and busy intervals (Dublin in June: +01:00)

    @Test func quietFireMovesToTheStartOfWakingHours() {
        let early = T.fires("Europe/Dublin", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 6, 1, 6, 0), .daily),
                            count: 2, quiet: .standard)
        #expect(T.texts(early) == ["2026-06-01T07:00:00+01:00", "2026-06-02T07:00:00+01:00"])
        #expect(early.map(\.nominal.rfc3339) == ["2026-06-01T06:00:00+01:00", "2026-06-02T06:00:00+01:00"])
        #expect(early.allSatisfy { $0.movedFor == [.quietHours] })
        // Late in the evening: to the next morning.
        let late = T.fires("Europe/Dublin", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 6, 1, 23, 0), .daily),
                           count: 1, quiet: .standard)
        #expect(T.texts(late) == ["2026-06-02T07:00:00+01:00"])
        // 22:00 is quiet, 21:59 and 07:00 are not.
        let edge = T.fires("Europe/Dublin", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 6, 1, 21, 59), .daily),
                           count: 1, quiet: .standard)
        #expect(edge[0].movedFor.isEmpty)
        let ten = T.fires("Europe/Dublin", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 6, 1, 22, 0), .once),
                          quiet: .standard)
        #expect(T.texts(ten) == ["2026-06-02T07:00:00+01:00"])
        // Without avoid_quiet_hours nothing moves.
        #expect(T.texts(T.fires("Europe/Dublin", now: "2026-06-01T00:00:00Z",
                                T.reminder(T.wall(2026, 6, 1, 6, 0), .once))) == ["2026-06-01T06:00:00+01:00"])
    }

    @Test func wakingHoursThatWrapMidnight() {
        let night = WakingHours(startMinute: 22 * 60, endMinute: 6 * 60)!
        #expect(night.isQuiet(minuteOfDay: 12 * 60) && !night.isQuiet(minuteOfDay: 23 * 60) && !night.isQuiet(minuteOfDay: 0))
        #expect(night.isQuiet(minuteOfDay: 6 * 60) && !night.isQuiet(minuteOfDay: 5 * 60 + 59))
        let fires = T.fires("UTC", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 6, 1, 12, 0), .daily),
                            count: 1, quiet: night)
        #expect(T.texts(fires) == ["2026-06-01T22:00:00Z"])
        let allDay = WakingHours(startMinute: 0, endMinute: 1440)!
        #expect((0..<1440).allSatisfy { !allDay.isQuiet(minuteOfDay: $0) })
        #expect(WakingHours(startMinute: 600, endMinute: 600) == nil)
    }

    @Test func busyFireMovesToTheEndOfTheInterval() {
        let fires = T.fires("Europe/Dublin", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 6, 1, 8, 0), .daily),
                            count: 2, busy: [("2026-06-01T07:30:00+01:00", "2026-06-01T09:00:00+01:00")])
        #expect(T.texts(fires) == ["2026-06-01T09:00:00+01:00", "2026-06-02T08:00:00+01:00"])
        #expect(fires.map(\.movedFor) == [[.busy], []])
        #expect(fires[0].nominal.rfc3339 == "2026-06-01T08:00:00+01:00")
        // Half-open: a fire at the start moves, a fire at the end does not.
        let atStart = T.fires("UTC", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 6, 1, 8, 0), .once),
                              busy: [("2026-06-01T08:00:00Z", "2026-06-01T08:30:00Z")])
        #expect(T.texts(atStart) == ["2026-06-01T08:30:00Z"])
        let atEnd = T.fires("UTC", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 6, 1, 8, 0), .once),
                            busy: [("2026-06-01T07:00:00Z", "2026-06-01T08:00:00Z")])
        #expect(T.texts(atEnd) == ["2026-06-01T08:00:00Z"] && atEnd[0].movedFor.isEmpty)
    }

    @Test func busyPushesIntoQuietHoursThenToTheNextMorning() {
        let fires = T.fires("Europe/Dublin", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 6, 1, 21, 0), .once),
                            quiet: .standard, busy: [("2026-06-01T20:30:00+01:00", "2026-06-01T22:30:00+01:00")])
        #expect(T.texts(fires) == ["2026-06-02T07:00:00+01:00"])
        #expect(fires[0].movedFor == [.busy, .quietHours])
        // And from quiet hours into a morning meeting.
        let morning = T.fires("Europe/Dublin", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 6, 1, 23, 0), .once),
                              quiet: .standard, busy: [("2026-06-02T06:45:00+01:00", "2026-06-02T08:15:00+01:00")])
        #expect(T.texts(morning) == ["2026-06-02T08:15:00+01:00"])
        #expect(morning[0].movedFor == [.quietHours, .busy])
    }

    @Test func chainedBusyIntervals() {
        // Adjacent, then overlapping, given out of order and with different offsets.
        let busy = [("2026-06-01T08:00:00Z", "2026-06-01T08:30:00Z"),      // 09:00–09:30 local
                    ("2026-06-01T07:30:00+01:00", "2026-06-01T09:00:00+01:00"),
                    ("2026-06-01T09:20:00+01:00", "2026-06-01T09:45:00+01:00")]
        let fires = T.fires("Europe/Dublin", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 6, 1, 8, 0), .once),
                            busy: busy)
        #expect(T.texts(fires) == ["2026-06-01T09:45:00+01:00"])
        #expect(fires[0].movedFor == [.busy, .busy, .busy])
        // A long interval containing a short one moves past both at once.
        let nested = T.fires("UTC", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 6, 1, 8, 0), .once),
                             busy: [("2026-06-01T07:00:00Z", "2026-06-01T12:00:00Z"),
                                    ("2026-06-01T07:30:00Z", "2026-06-01T08:30:00Z")])
        #expect(T.texts(nested) == ["2026-06-01T12:00:00Z"] && nested[0].movedFor == [.busy])
    }

    @Test func movedPastTheNextFireIsSkipped() {
        // Busy from Monday 07:00 to Thursday 12:00: the fires of Mon, Tue and Wed would all
        // land at Thursday 12:00 after the next scheduled fire; only Thursday's is kept.
        let fires = T.fires("UTC", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 5, 1, 8, 0), .daily),
                            count: 3, busy: [("2026-06-01T07:00:00Z", "2026-06-04T12:00:00Z")])
        #expect(T.texts(fires) == ["2026-06-04T12:00:00Z", "2026-06-05T08:00:00Z", "2026-06-06T08:00:00Z"])
        #expect(fires.map(\.nominal) == ["2026-06-04T08:00:00Z", "2026-06-05T08:00:00Z", "2026-06-06T08:00:00Z"].map(T.instant))
        // Landing exactly on the next fire is a skip too (no two fires at one instant).
        let exact = T.fires("UTC", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 5, 1, 8, 0), .daily),
                            count: 2, busy: [("2026-06-01T07:00:00Z", "2026-06-02T08:00:00Z")])
        #expect(T.texts(exact) == ["2026-06-02T08:00:00Z", "2026-06-03T08:00:00Z"])
        #expect(exact.map(\.movedFor) == [[], []])
        // A year-long interval costs no more than a short one and leaves one catch-up fire.
        let year = T.fires("UTC", now: "2026-06-01T00:00:00Z", T.reminder(T.wall(2026, 5, 1, 8, 0), .daily),
                           count: 2, busy: [("2026-06-01T07:00:00Z", "2027-06-01T07:30:00Z")])
        #expect(T.texts(year) == ["2027-06-01T07:30:00Z", "2027-06-01T08:00:00Z"])
        #expect(year[0].nominal == T.instant("2027-05-31T08:00:00Z"))
    }

    @Test func aFireMovedPastNowIsStillNext() {
        // Scheduled 06:00 (before now, 06:30) but moved to 07:00 (after now).
        let fires = T.fires("Europe/Dublin", now: "2026-06-01T06:30:00+01:00", T.reminder(T.wall(2026, 5, 1, 6, 0), .daily),
                            count: 2, quiet: .standard)
        #expect(T.texts(fires) == ["2026-06-01T07:00:00+01:00", "2026-06-02T07:00:00+01:00"])
        #expect(fires[0].nominal.rfc3339 == "2026-06-01T06:00:00+01:00")
        // Moved exactly to now: due now, not next.
        let due = T.fires("Europe/Dublin", now: "2026-06-01T07:00:00+01:00", T.reminder(T.wall(2026, 5, 1, 6, 0), .daily),
                          count: 1, quiet: .standard)
        #expect(T.texts(due) == ["2026-06-02T07:00:00+01:00"])
    }

    @Test func clocksFallingBackIntoWakingHoursEndQuietHoursEarly() {
        // Waking 07:00–01:30. On 2026-10-25 Dublin's clocks go back from 02:00 IST to 01:00
        // GMT (at 01:00Z): a 01:45 IST fire (00:45Z) is quiet, and at 01:00Z the clocks
        // show 01:00, a waking time again.
        let waking = WakingHours(startMinute: 7 * 60, endMinute: 90)!
        let fires = T.fires("Europe/Dublin", now: "2026-10-24T12:00:00Z", T.reminder(T.wall(2026, 10, 25, 1, 45), .once),
                            quiet: waking)
        #expect(T.texts(fires) == ["2026-10-25T01:00:00Z"])
        #expect(fires[0].movedFor == [.quietHours] && fires[0].nominal == T.instant("2026-10-25T00:45:00Z"))
        // Any other night: to 07:00.
        let other = T.fires("Europe/Dublin", now: "2026-10-24T12:00:00Z", T.reminder(T.wall(2026, 10, 26, 1, 45), .once),
                            quiet: waking)
        #expect(T.texts(other) == ["2026-10-26T07:00:00Z"])
    }

    @Test func wakingStartInAGapIsTheMomentClocksJumpPastIt() {
        // Waking from 01:30 in Dublin: on 2026-03-29 the clocks jump from 01:00 to 02:00,
        // so a quiet 00:30 fire moves to 02:00 IST (01:00Z), the first waking instant.
        let waking = WakingHours(startMinute: 90, endMinute: 22 * 60)!
        let fires = T.fires("Europe/Dublin", now: "2026-03-28T12:00:00Z", T.reminder(T.wall(2026, 3, 29, 0, 30), .once),
                            quiet: waking)
        #expect(T.texts(fires) == ["2026-03-29T02:00:00+01:00"])
    }
}
