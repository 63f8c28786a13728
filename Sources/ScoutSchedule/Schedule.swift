import ScoutTime

/// The next fires of one reminder.
public struct ReminderSchedule: Sendable {
    /// The reminder (the newest one for its activity).
    public var reminder: Reminder
    /// Its next fires, in order; fewer than requested only for a ``Frequency/once``
    /// reminder (one fire, or none once its start has passed).
    public var fires: [Fire]

    /// A reminder with its fires.
    public init(reminder: Reminder, fires: [Fire]) {
        self.reminder = reminder
        self.fires = fires
    }
}

/// The next firing times of a set of reminders, as a person reading a clock expects them.
///
/// ```swift
/// let dublin = try Zone(identifier: "Europe/Dublin", path: "timezone")
/// let walk = Reminder(activity: "walk", start: LocalDateTime(year: 2026, month: 3, day: 28, hour: 8, minute: 0)!,
///                     frequency: .daily)
/// let s = Schedule.compute(ScheduleRequest(zone: dublin, now: try Instant.parse("2026-03-28T00:00:00Z", path: "now"),
///                                          reminders: [walk]))
/// s.reminders[0].fires.map(\.at.rfc3339)
/// // ["2026-03-28T08:00:00Z", "2026-03-29T08:00:00+01:00", "2026-03-30T08:00:00+01:00"]
/// ```
///
/// **Wall-clock times.** Occurrences are wall times in the request's zone, and each one is
/// turned into an instant on its own day, so a daily 08:00 reminder fires at 08:00 on the
/// local clock before and after a DST change (the UTC instant moves by the change).
/// - A wall time that a spring-forward gap skips fires shifted forward by the gap: 01:30
///   on 2026-03-29 in Europe/Dublin (clocks jump 01:00 → 02:00) fires at 02:30 IST, as
///   ScoutTime's ``WallTimeResolution/standard`` resolves it.
/// - A wall time that a fall-back overlap repeats fires once, at its first occurrence:
///   01:30 on 2026-10-25 in Dublin fires at 01:30 IST (00:30Z), not again at 01:30 GMT.
/// - A day that a zone skips entirely (Pacific/Apia, 2011-12-30) gives no fire of its own:
///   its shifted time is the next day's fire, which is listed once.
///
/// **Frequencies.** See ``Frequency``: monthly reminders on the 29th–31st fire on the last
/// day of a shorter month and go back to their day afterwards (Jan 31 → Feb 28 → Mar 31 →
/// Apr 30); weekly ones keep their weekday; a `once` reminder fires at its start only.
///
/// **Which fires.** Only fires strictly after `now` are listed. A fire exactly at `now` is
/// due now: it is the caller's to deliver on this tick, not a next fire (so a `once`
/// reminder whose start is at or before `now` has none). A start in the future fires first
/// at the start itself. Whether a fire is after `now` is judged by the instant it fires at,
/// after moves: a 06:00 fire moved out of quiet hours to 07:00 is still listed at 06:30.
///
/// **One reminder per activity.** Reminders are taken in list order; each one replaces the
/// one kept so far for its activity when it is newer — a later or equal `created` when both
/// have one, otherwise simply because it comes later in the list. The replaced reminders
/// are listed in ``replaced``, in request order. Activities are compared exactly
/// (`"Walk"` and `"walk"` are two activities).
///
/// **Moves** (when the request asks for them). A fire in a busy interval `[start, end)`
/// moves to the interval's end; a fire in quiet hours moves to the next start of waking
/// hours (07:00 by default) — or, should the clocks fall back into waking hours before
/// then, to the moment they do (waking hours ending at 01:30, a 01:45 fire on the night the
/// clocks go back from 02:00 to 01:00 fires at the second 01:00). When clocks skip the
/// start of waking hours, the fire moves to the moment they jump past it. Moves repeat
/// until the fire is free, so a fire may be moved
/// by a meeting into the night and then to the next morning (`moved: ["busy",
/// "quiet_hours"]`); busy intervals are checked before quiet hours. The final instant is
/// the first instant at or after the scheduled one that is free of both.
///
/// **Skipped fires.** A moved fire must still come before the reminder's next scheduled
/// fire; otherwise it is dropped, and the next fire stands in for it. So a daily reminder
/// during a three-day busy interval does not fire three times when the interval ends: the
/// last scheduled fire before the end fires at the end (if that is before the next one),
/// and the others are skipped. Fires therefore stay strictly increasing, and each reminder
/// still gets `count` fires (unless it is `once`).
///
/// Instants are written with the zone's UTC offset at that instant: 08:00 in Dublin in
/// June is `2026-06-01T08:00:00+01:00`.
public struct Schedule: Sendable {
    /// The zone the schedule was computed in.
    public var zone: Zone
    /// The kept reminders and their fires, ordered by first fire, then activity (reminders
    /// without fires come last).
    public var reminders: [ReminderSchedule]
    /// Reminders replaced by a newer one for the same activity, in request order.
    public var replaced: [Reminder]

    /// A schedule with the given parts.
    public init(zone: Zone, reminders: [ReminderSchedule], replaced: [Reminder]) {
        self.zone = zone
        self.reminders = reminders
        self.replaced = replaced
    }

    /// Computes the next `request.count` fires of the newest reminder of each activity (see
    /// the type's documentation for the rules).
    /// - Complexity: O(r · (c + b) · log b) for r reminders, c fires each and b busy
    ///   intervals, with a few time-zone lookups per fire; skipping a long busy interval
    ///   costs O(1) occurrences, not one per occurrence inside it.
    public static func compute(_ request: ScheduleRequest) -> Schedule {
        let (kept, replaced) = newestPerActivity(request.reminders)
        let mover = Mover(zone: request.zone, waking: request.avoidQuietHours ? request.wakingHours : nil,
                          busy: request.avoidBusy ? request.busy : [])
        var schedules = kept.map { ReminderSchedule(reminder: $0, fires: fires(of: $0, request, mover)) }
        schedules.sort { a, b in
            switch (a.fires.first, b.fires.first) {
            case let (x?, y?) where x.at != y.at: return x.at < y.at
            case (_?, nil): return true
            case (nil, _?): return false
            default: return a.reminder.activity < b.reminder.activity
            }
        }
        return Schedule(zone: request.zone, reminders: schedules, replaced: replaced)
    }

    /// The newest reminder of each activity (in order of first appearance) and the others
    /// (in request order).
    static func newestPerActivity(_ reminders: [Reminder]) -> (kept: [Reminder], replaced: [Reminder]) {
        var slot: [String: Int] = [:]          // activity → position in `winners`
        var winners: [Int] = []                // request indices
        for (i, r) in reminders.enumerated() {
            guard let s = slot[r.activity] else {
                slot[r.activity] = winners.count
                winners.append(i)
                continue
            }
            let current = reminders[winners[s]]
            if let a = current.created, let b = r.created, b < a { continue }
            winners[s] = i
        }
        let won = Set(winners)
        return (winners.map { reminders[$0] }, reminders.indices.filter { !won.contains($0) }.map { reminders[$0] })
    }

    /// The next fires of one reminder.
    static func fires(of reminder: Reminder, _ request: ScheduleRequest, _ mover: Mover) -> [Fire] {
        let zone = request.zone, now = request.now
        func scheduled(_ k: Int) -> Instant? { reminder.occurrence(k).map { zone.instant(of: $0) } }
        // Start a little before `now`: the last occurrence at or before it may have been
        // moved past it.
        var k = reminder.occurrenceIndex(before: zone.local(now).date)
        guard var current = scheduled(k) else { return [] }
        var fires: [Fire] = []
        fires.reserveCapacity(request.count)
        // Each pass lists a fire or skips one; skips jump over long busy intervals, so this
        // bound is never reached in practice; it only guarantees termination.
        var passes = 4 * (request.count + request.busy.count) + 64
        while fires.count < request.count, passes > 0 {
            passes -= 1
            // The next occurrence strictly after this one (one on a skipped day lands on the
            // following day's and is dropped).
            var j = k + 1
            var next = scheduled(j)
            while let n = next, n <= current { j += 1; next = scheduled(j) }
            let (at, reasons) = mover.settle(current)
            if let n = next, at >= n {
                // Skipped: every occurrence before `at` lands on `at` too; jump to the last
                // few of them.
                let jump = reminder.occurrenceIndex(before: zone.local(at).date)
                if jump > j, let n = scheduled(jump), n > current { j = jump; next = n }
            } else if at > now {
                fires.append(Fire(at: at, nominal: current, movedFor: reasons))
            }
            guard let n = next else { break }
            k = j
            current = n
        }
        return fires
    }

    /// `YYYY-MM-DDTHH:MM`, or `YYYY-MM-DDTHH:MM:SS` when the seconds are not zero.
    package static func wallText(_ t: LocalDateTime) -> String {
        let full = t.description
        return t.second == 0 ? String(full.dropLast(3)) : full
    }
}
