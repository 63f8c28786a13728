import Foundation
import ScoutJSON
import ScoutTestSupport
import Testing

/// Any pet and the care log through real `scout serve` pipes: species without a
/// profile get generic needs and say so; bad species words and unknown log types are
/// `invalid_request` with the path (and "did you mean"); care-log entries are accepted by
/// `recommend_activities`, `progress` and `schedule`; `progress`'s care goals match counts per
/// local day made here with Foundation's calendar.
@Suite(.serialized) struct AnyPetTests {
    static func serve(_ requests: [String]) throws -> [JSONValue] {
        let r = try ScoutProcess.serve(requests, arguments: ["--data", Repository.data])
        #expect(r.status == 0)
        #expect(r.lines.count == requests.count)
        return try r.lines.map { try json($0) }
    }

    /// `goals.other` of data/weights.json (weekly goals of species without a profile), read
    /// with JSONSerialization.
    static let otherGoals: [String: Double] = {
        let data = FileManager.default.contents(atPath: Repository.data + "/weights.json")!
        let w = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return ((w["goals"] as! [String: Any])["other"] as! [String: NSNumber]).mapValues(\.doubleValue)
    }()

    /// Ids of the activities data/activities.json lists for `other` (any animal without a
    /// profile), read with JSONSerialization.
    static let anyPetActivities: Set<String> = {
        let data = FileManager.default.contents(atPath: Repository.data + "/activities.json")!
        let doc = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        let acts = doc["activities"] as! [[String: Any]]
        return Set(acts.filter { ($0["species"] as! [String]).contains("other") }.map { $0["id"] as! String })
    }()

    static let place = #""now":"2026-06-10T18:30:00+01:00","timezone":"Europe/Dublin","location":{"lat":53.27,"lon":-9.05},"weather":{"temperature_c":16}"#
    static let clock = #""now":"2026-06-10T18:30:00+01:00","timezone":"Europe/Dublin""#
    static let rex = #""pet":{"name":"Rex","species":"dog","breed":"Border Collie","birth_date":"2021-04-02"}"#

    @Test func ferretsHorsesAndFishGetGenericNeedsAndSaySo() throws {
        let words = ["ferret": "ferrets", "horse": "horses", "fish": "fish", "bearded_dragon": "bearded dragons"]
        let order = words.keys.sorted()
        let lines = try Self.serve(order.flatMap { w in [
            #"{"id":"r-\#(w)","op":"recommend_activities","pet":{"name":"Pip","species":"\#(w)","breed":"Labrador Retriever","birth_date":"2025-01-01","weight_kg":2},\#(Self.place),"count":3}"#,
            #"{"id":"p-\#(w)","op":"progress","pet":{"species":"\#(w)","birth_date":"2025-01-01"},\#(Self.clock),"log":[{"type":"feeding","start":"2026-06-09T08:00:00+01:00"},{"type":"vet_visit","start":"2026-06-09T10:00:00+01:00"}]}"#,
        ] })
        let other = Self.otherGoals
        for (i, w) in order.enumerated() {
            let note = "Scout has no profile for \(words[w]!) yet: general needs used"
            let r = try #require(lines[2 * i]["result"], "\(lines[2 * i])")
            #expect(r["pet"]?["species"]?.string == w)
            #expect(r["pet"]?["generic_needs"] == .bool(true))
            #expect(r["pet"]?["life_stage"]?.string == "adult")
            #expect(r["pet"]?["weight_status"]?.string == "unknown", "the breed given is a dog's and is not read")
            for (k, v) in other {
                let parts = k.split(separator: "_")
                #expect(r["pet"]?["weekly_goals"]?[String(parts[0])]?[String(parts[1])]?.double == v, "\(w) \(k)")
            }
            #expect(r["notes"]?.array?.first?.string == note)
            #expect(r["notes"]?.array?.last?.string == "only activities written for any kind of pet are offered")
            // Never a dog's activities: only those written for any animal, the note the first reason.
            let recommendations = try #require(r["recommendations"]?.array)
            #expect(recommendations.count == 3)
            for rec in recommendations {
                #expect(Self.anyPetActivities.contains(rec["activity"]?.string ?? ""), "\(rec)")
                #expect(rec["reasons"]?.array?.first?.string == note, "\(rec)")
            }
            #expect(r["excluded"]?.array?.isEmpty == true, "at 18:30 in June with a free calendar every one of them fits")
            #expect(r["next_window"] == .null)
            let p = try #require(lines[2 * i + 1]["result"], "\(lines[2 * i + 1])")
            #expect(p["pet"]?["generic_needs"] == .bool(true))
            #expect(p["notes"]?.array?.compactMap(\.string) == [note, "Scout has no care goals for \(words[w]!) yet"])
            #expect(p["care_goals"]?.array?.isEmpty == true)
            #expect(p["care_log"]?["feeding"]?.int == 1 && p["care_log"]?["vet_visit"]?.int == 1 && p["care_log"]?["walk"]?.int == 0)
        }
    }

    @Test func badSpeciesWordsAreRefusedWithThePath() throws {
        let bad = [#""Ferret""#, #""ferret2""#, #""""#, "\"\(String(repeating: "a", count: 33))\"", "12", #""guinea pig""#, #""żółw""#, "null"]
        var requests: [String] = []
        for b in bad {
            requests.append(#"{"op":"recommend_activities","pet":{"species":\#(b),"birth_date":"2020-01-01"},\#(Self.place)}"#)
            requests.append(#"{"op":"progress","pet":{"species":\#(b),"birth_date":"2020-01-01"},\#(Self.clock)}"#)
        }
        let lines = try Self.serve(requests)
        for (i, v) in lines.enumerated() {
            if bad[i / 2] == "null" {
                // An absent species is a dog, as it always was.
                #expect(v["result"]?["pet"]?["species"]?.string == "dog", "\(v)")
                continue
            }
            #expect(v["ok"] == .bool(false), "\(requests[i])")
            #expect(v["error"]?["code"]?.string == "invalid_request", "\(v)")
            #expect(v["error"]?["path"]?.string == "pet.species", "\(v)")
        }
        #expect(lines[0]["error"]?["message"]?.string?.contains(#"did you mean "ferret""#) == false, "the word is not echoed")
        #expect(lines[10]["error"]?["message"]?.string?.contains(#"did you mean "guinea_pig""#) == true, "\(lines[10])")
    }

    @Test func careEntriesAreAcceptedAndUnknownTypesNameTheClosest() throws {
        func log(_ entries: String) -> String { #"{"op":"progress",\#(Self.rex),\#(Self.clock),"log":[\#(entries)]}"# }
        let lines = try Self.serve([
            log(#"{"type":"feeding","start":"2026-06-08T07:30:00+01:00"},{"type":"walk","start":"2026-06-08T08:00:00+01:00","minutes":40},{"type":"vet_visit","start":"2026-06-09T15:00:00+01:00","minutes":30},{"type":"grooming","start":"2026-06-09T20:00:00+01:00"},{"type":"medication","start":"2026-06-10T08:00:00+01:00"},{"type":"other","start":"2026-06-10T09:00:00+01:00"},{"activity":"feeding","start":"2026-06-08T18:00:00+01:00"},{"type":"brisk_walk","start":"2026-06-09T08:00:00+01:00","minutes":45},{"activity":"fetch","start":"2026-06-09T09:00:00+01:00","minutes":20}"#),
            log(#"{"type":"feedin","start":"2026-06-08T07:30:00+01:00"}"#),
            log(#"{"activity":"vet_vist","start":"2026-06-08T07:30:00+01:00"}"#),
            log(#"{"type":"feeding","activity":"feeding","start":"2026-06-08T07:30:00+01:00"}"#),
            log(#"{"start":"2026-06-08T07:30:00+01:00"}"#),
            log(#"{"type":"brisk_walk","start":"2026-06-08T07:30:00+01:00"}"#),
            log(#"{"type":"Feeding","start":"2026-06-08T07:30:00+01:00"}"#),
            #"{"op":"recommend_activities",\#(Self.rex),\#(Self.place),"feedback":[{"activity":"feeding","rating":"enjoyed","at":"2026-06-09T10:00:00Z"}]}"#,
        ])
        let p = try #require(lines[0]["result"], "\(lines[0])")
        #expect(p["care_log"] == (try json(#"{"feeding":2,"walk":1,"vet_visit":1,"grooming":1,"medication":1,"other":1}"#)))
        let categories = try #require(p["categories"]?.array)
        #expect(categories[0]["done"]?.double == 105, "walk 40 + brisk_walk 45 + fetch 20 exercise minutes")
        #expect(categories[4]["done"]?.double == 1, "grooming is a care session")
        let meals = try #require(p["care_goals"]?.array?.first { $0["goal"]?.string == "meals" })
        #expect(meals["days"]?.array?.compactMap { $0["done"]?.int } == [2, 0, 0, 0, 0, 0, 0])
        let walks = try #require(p["care_goals"]?.array?.first { $0["goal"]?.string == "walks" })
        #expect(walks["days"]?.array?.prefix(3).compactMap { $0["done"]?.int } == [1, 1, 0], "a care walk and a brisk walk count as walks")
        let errors: [(Int, String, String?)] = [
            (1, "log[0].type", "feeding"), (2, "log[0].activity", "vet_visit"), (3, "log[0].activity", nil), (4, "log[0].type", nil),
            (5, "log[0].minutes", nil), (6, "log[0].type", "feeding"), (7, "feedback[0].activity", nil),
        ]
        for (i, path, closest) in errors {
            // A rating of something that is not an activity: not_found (docs/protocol.md).
            #expect(lines[i]["error"]?["code"]?.string == (path.hasPrefix("feedback") ? "not_found" : "invalid_request"), "\(lines[i])")
            #expect(lines[i]["error"]?["path"]?.string == path, "\(lines[i])")
            if let closest { #expect(lines[i]["error"]?["message"]?.string?.contains("did you mean \"\(closest)\"") == true, "\(lines[i])") }
        }
    }

    /// A walk in the care log is exercise for `recommend_activities` too: the needs-gap term of
    /// a physical activity is 1 − 120 / 560 for a Border Collie with a 120-minute walk.
    @Test func aCareWalkClosesTheExerciseGap() throws {
        let lines = try Self.serve([
            #"{"op":"recommend_activities",\#(Self.rex),"now":"2026-06-10T14:00:00+01:00","timezone":"Europe/Dublin","location":{"lat":53.27,"lon":-9.05},"weather":{"temperature_c":16},"mode":"best","count":10,"log":[{"type":"walk","start":"2026-06-10T08:00:00+01:00","minutes":120},{"type":"feeding","start":"2026-06-10T07:00:00+01:00"}]}"#,
        ])
        let recs = try #require(lines[0]["result"]?["recommendations"]?.array, "\(lines[0])")
        let physical = try #require(recs.first { $0["category"]?.string == "physical" })
        let gap = physical["breakdown"]?.array?.first { $0["term"]?.string == "needs_gap" }?["value"]?.double
        #expect(gap.map { abs($0 - (1 - 120.0 / 560)) < 1e-4 } == true, "\(String(describing: gap))")
        #expect(lines[0]["result"]?["notes"]?.array?.isEmpty == true)
        #expect(lines[0]["result"]?["pet"]?["generic_needs"] == .bool(false))
    }

    /// Meals per local day in Dublin against counts made here with Foundation's calendar, for
    /// random logs across the week (the entries written in UTC, so local days must be found).
    @Test func mealsPerLocalDayMatchACalendarCount() throws {
        var rng = SplitMix64(seed: 12)
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "Europe/Dublin")!
        let weekStart = cal.date(from: DateComponents(year: 2026, month: 6, day: 8))!
        let now = cal.date(from: DateComponents(year: 2026, month: 6, day: 11, hour: 12))!
        let iso = ISO8601DateFormatter()
        var requests: [String] = []
        var expected: [(days: [Int], missing: Int, extra: Int, met: Int)] = []
        for _ in 0..<12 {
            var days = [Int](repeating: 0, count: 7)
            var entries: [String] = []
            for _ in 0..<rng.int(0...20) {
                let t = weekStart.addingTimeInterval(Double(rng.int(-86_400...(8 * 86_400))))
                entries.append(#"{"type":"\#(rng.chance(0.8) ? "feeding" : "medication")","start":"\#(iso.string(from: t))"}"#)
                let d = cal.dateComponents([.day], from: weekStart, to: cal.startOfDay(for: t)).day!
                if entries.last!.contains("feeding"), t >= weekStart, (0..<7).contains(d) { days[d] += 1 }
            }
            // Rex is an adult: 2 meals a day, at most 2; Monday to Thursday are judged.
            let judged = days.prefix(4)
            expected.append((days, judged.map { max(0, 2 - $0) }.reduce(0, +), judged.map { max(0, $0 - 2) }.reduce(0, +),
                             judged.filter { $0 == 2 }.count))
            requests.append(#"{"op":"progress",\#(Self.rex),"now":"\#(iso.string(from: now))","timezone":"Europe/Dublin","log":[\#(entries.joined(separator: ","))]}"#)
        }
        let lines = try Self.serve(requests)
        for (i, e) in expected.enumerated() {
            let meals = try #require(lines[i]["result"]?["care_goals"]?.array?.first { $0["goal"]?.string == "meals" }, "\(lines[i])")
            #expect(meals["at_least"]?.int == 2 && meals["at_most"]?.int == 2)
            #expect(meals["days"]?.array?.compactMap { $0["done"]?.int } == e.days, "\(requests[i])")
            #expect(meals["days"]?.array?.compactMap { $0["judged"] } == [true, true, true, true, false, false, false].map(JSONValue.bool))
            #expect(meals["missing"]?.int == e.missing && meals["extra"]?.int == e.extra && meals["days_met"]?.int == e.met, "\(meals)")
            #expect(meals["met"] == .bool(e.missing == 0 && e.extra == 0))
        }
    }

    @Test func scheduleAcceptsCareTypesAndEchoesThem() throws {
        let lines = try Self.serve([
            #"{"op":"schedule","timezone":"Europe/Dublin","now":"2026-03-28T21:00:00Z","reminders":[{"type":"feeding","start":"2026-03-01T07:30","frequency":"daily"},{"activity":"Heartworm pill","type":"medication","start":"2026-03-01T09:00","frequency":"monthly"},{"type":"vet_visit","start":"2026-04-02T10:00","frequency":"once"},{"type":"grooming","start":"2026-03-01T18:00","frequency":"weekly"},{"type":"walk","start":"2026-03-01T08:00","frequency":"daily"},{"type":"other","start":"2026-03-01T12:00","frequency":"daily"}],"count":1}"#,
            #"{"op":"schedule","timezone":"Europe/Dublin","now":"2026-03-28T21:00:00Z","reminders":[{"activity":"x","type":"vet_vist","start":"2026-03-01T09:00","frequency":"monthly"}]}"#,
        ])
        let reminders = try #require(lines[0]["result"]?["reminders"]?.array, "\(lines[0])")
        #expect(Set(reminders.compactMap { $0["type"]?.string }) == ["feeding", "medication", "vet_visit", "grooming", "walk", "other"])
        #expect(reminders.first { $0["type"]?.string == "medication" }?["activity"]?.string == "Heartworm pill")
        #expect(reminders.first { $0["type"]?.string == "feeding" }?["activity"]?.string == "feeding")
        #expect(reminders.allSatisfy { $0["next"]?.array?.count == 1 })
        #expect(lines[1]["error"]?["code"]?.string == "invalid_request")
        #expect(lines[1]["error"]?["path"]?.string == "reminders[0].type")
        #expect(lines[1]["error"]?["message"]?.string?.contains(#"did you mean "vet_visit""#) == true, "\(lines[1])")
    }

    /// A reminder for a catalogue activity: the `schedule` op passes the catalogue's
    /// vocabulary (`recommender.logTypes`), so activity ids are types too.
    @Test func scheduleAcceptsCatalogueActivities() throws {
        let lines = try Self.serve([
            #"{"op":"schedule","timezone":"Europe/Dublin","now":"2026-03-28T21:00:00Z","reminders":[{"type":"brisk_walk","start":"2026-03-01T08:00","frequency":"daily"}]}"#,
        ])
        #expect(lines[0]["result"]?["reminders"]?.array?.first?["type"]?.string == "brisk_walk", "\(lines[0])")
    }
}

private extension JSONValue {
    /// A whole number's value.
    var int: Int? { double.flatMap { $0 == $0.rounded() ? Int($0) : nil } }
}
