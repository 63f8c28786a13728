import PropertyBased
import ScoutCore
import ScoutJSON
import ScoutRecommendJSON
import ScoutTestSupport
import Testing
@testable import ScoutSchedule
import ScoutTime

/// Reminders' `type` in the care-log vocabulary: care types and catalogue
/// activities are accepted and echoed, an unknown type is `invalid_request` with the closest
/// known types, and a type never changes when a reminder fires.
@Suite struct ReminderTypeTests {
    static let careWords = ["feeding", "walk", "vet_visit", "grooming", "medication", "other"]
    static let activities = LogTypeVocabulary(activityIDs: ["brisk_walk", "fetch", "brushing", "cat_brushing"])
    static let ok = #""timezone":"Europe/Dublin","now":"2026-03-28T21:00:00Z""#

    static func read(_ reminders: String, types: LogTypeVocabulary = .careTypes) throws(ScoutError) -> ScheduleRequest {
        try ScheduleRequest.read(try! JSONReader.parse("{\(ok),\"reminders\":[\(reminders)]}"), types: types)
    }

    @Test func careTypesAreReadEchoedAndNameTheReminder() throws {
        let r = try Self.read("""
            {"type":"feeding","start":"2026-03-01T07:30","frequency":"daily"},
            {"activity":"Heartworm pill","type":"medication","start":"2026-03-01T09:00","frequency":"monthly"},
            {"type":"vet_visit","start":"2026-04-02T10:00","frequency":"once"},
            {"activity":"evening walk","start":"2026-03-01T19:00","frequency":"daily"}
            """)
        #expect(r.reminders.map(\.type) == [.care(.feeding), .care(.medication), .care(.vetVisit), nil])
        #expect(r.reminders.map(\.activity) == ["feeding", "Heartworm pill", "vet_visit", "evening walk"],
                "a reminder without an activity is named by its type")
        var w = JSONWriter()
        Schedule.compute(r).write(into: &w)
        let out = String(decoding: w.bytes, as: UTF8.self)
        #expect(out.contains(#"{"activity":"feeding","type":"feeding","frequency":"daily","start":"2026-03-01T07:30","next":["#))
        #expect(out.contains(#"{"activity":"Heartworm pill","type":"medication","frequency":"monthly""#))
        #expect(out.contains(#"{"activity":"evening walk","frequency":"daily""#), "no type, none written")
    }

    @Test func activitiesNeedTheCataloguesVocabulary() throws {
        let text = #"{"type":"brisk_walk","start":"2026-03-01T08:00","frequency":"daily"}"#
        #expect(try Self.read(text, types: Self.activities).reminders[0].type == .activity("brisk_walk"))
        let e = #expect(throws: ScoutError.self) { try Self.read(text) }
        #expect(e?.code == .invalidRequest && e?.path == "reminders[0].type")
        #expect(e?.message.contains("types are feeding, walk, vet_visit, grooming, medication, other") == true, "\(String(describing: e))")
    }

    @Test(arguments: [
        ("feedin", "feeding"), ("vet_vist", "vet_visit"), ("grooming_", "grooming"), ("Walk", "walk"), ("medicaton", "medication"),
        ("brisk_wakl", "brisk_walk"), ("fetc", "fetch"),
    ])
    func anUnknownTypeNamesTheClosestKnownOne(_ word: String, _ closest: String) {
        let e = #expect(throws: ScoutError.self) {
            try Self.read(#"{"type":"\#(word)","start":"2026-03-01T08:00","frequency":"daily"}"#, types: Self.activities)
        }
        #expect(e?.code == .invalidRequest && e?.path == "reminders[0].type")
        #expect(e?.message.contains("did you mean \"\(closest)\"") == true, "\(String(describing: e))")
        #expect(e?.message.contains("\"\(word)\"") == false, "the unknown word is not repeated")
    }

    @Test(arguments: [
        (#"{"type":7,"start":"2026-03-01T08:00","frequency":"daily"}"#, ScoutError.Code.invalidRequest, "reminders[0].type"),
        (#"{"type":"","start":"2026-03-01T08:00","frequency":"daily"}"#, .invalidRequest, "reminders[0].type"),
        (#"{"start":"2026-03-01T08:00","frequency":"daily"}"#, .invalidRequest, "reminders[0].activity"),
        (#"{"type":"feeding","activity":"","start":"2026-03-01T08:00","frequency":"daily"}"#, .invalidRequest, "reminders[0].activity"),
        (#"{"typ":"feeding","start":"2026-03-01T08:00","frequency":"daily"}"#, .invalidRequest, "reminders[0].typ"),
    ])
    func badTypesAndNamesAreRefusedWithThePath(_ reminder: String, _ code: ScoutError.Code, _ path: String) {
        let e = #expect(throws: ScoutError.self) { try Self.read(reminder, types: Self.activities) }
        #expect(e?.code == code && e?.path == path, "\(String(describing: e))")
    }

    /// Any word: accepted exactly when it is a care type or one of the catalogue's ids, as the
    /// type it names; otherwise refused at the path without repeating the word.
    @Test func theVocabularyAcceptsExactlyItsWords() async {
        let known = Self.careWords + Self.activities.activityIDs
        let letters = Array("abefgiklmnorstvw_")
        await propertyCheck(count: 400, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var word = rng.pick(known)
            switch rng.int(0...3) {
            case 0: break
            case 1: word = String(word.dropLast(rng.int(0...2)))
            case 2: word += rng.pick(["", "s", "_", "x", "2"])
            default: word = String((0..<rng.int(0...12)).map { _ in rng.pick(letters) })
            }
            let expected: LogType? = Self.careWords.contains(word) ? .care(CareType(rawValue: word)!)
                : Self.activities.activityIDs.contains(word) ? .activity(word) : nil
            #expect(Self.activities.type(word) == expected)
            do throws(ScoutError) {
                let t = try Self.activities.read(word, path: "log[3].type")
                #expect(t == expected && t.word == word)
            } catch {
                #expect(expected == nil)
                #expect(error.code == .invalidRequest && error.path == "log[3].type")
                #expect(!error.message.contains("\"\(word)\""), "only known words are quoted: \(word): \(error.message)")
            }
        }
    }

    /// A type is a label: reminders with and without one fire at the same instants.
    @Test func aTypeNeverMovesAFire() async {
        let zones = ["Europe/Dublin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia", "UTC"]
        await propertyCheck(count: 60, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let zone = T.zone(rng.pick(zones))
            let now = Instant(seconds: 1_767_225_600 + rng.int64(0...(365 * 86_400)))
            var plain: [Reminder] = []
            for i in 0..<rng.int(1...6) {
                let d = zone.local(now).date.adding(days: rng.int(-40...10))
                plain.append(Reminder(activity: "r\(i % 3)", start: LocalDateTime(date: d, hour: rng.int(0...23), minute: rng.int(0...59))!,
                                      frequency: rng.pick(Frequency.allCases)))
            }
            let typed = plain.map { r -> Reminder in
                var t = r
                t.type = rng.chance(0.5) ? .care(rng.pick(CareType.allCases)) : .activity("fetch")
                return t
            }
            let count = rng.int(1...5), avoid = rng.chance(0.5)
            let a = Schedule.compute(ScheduleRequest(zone: zone, now: now, reminders: plain, count: count, avoidQuietHours: avoid))
            let b = Schedule.compute(ScheduleRequest(zone: zone, now: now, reminders: typed, count: count, avoidQuietHours: avoid))
            #expect(a.reminders.map(\.fires) == b.reminders.map(\.fires))
            #expect(a.reminders.map(\.reminder.activity) == b.reminders.map(\.reminder.activity))
            #expect(a.replaced.map(\.activity) == b.replaced.map(\.activity))
        }
    }

    @Test func oneReminderPerActivityAlsoForTypedOnes() throws {
        let r = try Self.read("""
            {"type":"feeding","start":"2026-03-01T07:30","frequency":"daily"},
            {"type":"feeding","start":"2026-03-01T08:00","frequency":"daily"},
            {"activity":"breakfast","type":"feeding","start":"2026-03-01T07:00","frequency":"daily"}
            """)
        let s = Schedule.compute(r)
        #expect(s.reminders.map(\.reminder.activity).sorted() == ["breakfast", "feeding"])
        #expect(s.replaced.map(\.start) == [T.wall(2026, 3, 1, 7, 30)])
    }
}
