import Foundation
import ScoutJSON
import ScoutTestSupport
import ScoutWorker
import Testing

/// A pet tracker's day through real `scout serve` pipes (`StoredPets.swift`): two co-owners
/// log feeds, walks and a vet visit with comments, read the pet's recent activity newest
/// first, keep its reminders on the pet, and ask for the dashboard (`progress`), this or
/// that (`recommend_activities`) and the reminders' times (`schedule`) by the pet's id:
/// the same answers as the inline requests with the same data. Nobody else reads any of it.
@Suite struct StoredPetTests {
    /// Rex, shared by Anna and Tom; his reminders kept on his record.
    static let pet = #"{"id":"pet-rex","kind":"pet","name":"Rex","species":"pies","breed":"Border Collie","birth_date":"2021-04-02","weight_kg":19,"owners":["u-anna","u-tom"],"reminders":[{"type":"feeding","start":"2026-06-01T07:30","frequency":"daily"},{"type":"walk","start":"2026-06-01T18:00","frequency":"daily"}]}"#
    /// The week's log: (id, type, start, minutes, comment, who, verdict).
    static let log: [(String, String, String, Int, String, String, String?)] = [
        ("c1", "feeding", "2026-06-08T07:30:00+01:00", 0, "ate it all", "u-anna", nil),
        ("c2", "brisk_walk", "2026-06-08T08:00:00+01:00", 45, "muddy fields", "u-tom", "enjoyed"),
        ("c3", "feeding", "2026-06-08T18:00:00+01:00", 0, "left the carrots", "u-tom", nil),
        ("c4", "fetch", "2026-06-09T10:00:00+01:00", 20, "fetch on the beach", "u-anna", "enjoyed"),
        ("c5", "walk", "2026-06-09T18:00:00+01:00", 30, "", "u-anna", nil),
        ("c6", "vet_visit", "2026-06-10T10:00:00+01:00", 40, "booster jab, slightly limping after", "u-tom", nil),
        ("c7", "puzzle_feeder", "2026-06-09T19:00:00+01:00", 15, "bored quickly", "u-tom", "disliked"),
    ]
    static func entry(_ e: (String, String, String, Int, String, String, String?)) -> String {
        #"{"id":"\#(e.0)","kind":"care","pet_id":"pet-rex","type":"\#(e.1)","start":"\#(e.2)","minutes":\#(e.3),"comment":"\#(e.4)","logged_by":"\#(e.5)""#
            + (e.6.map { #","verdict":"\#($0)""# } ?? "") + "}"
    }
    /// The inline log and feedback the stored ones stand for, oldest first.
    static let inlineLog = "[" + log.sorted { $0.2 < $1.2 }.map { #"{"type":"\#($0.1)","start":"\#($0.2)","minutes":\#($0.3)}"# }
        .joined(separator: ",") + "]"
    static let inlineFeedback = "[" + log.sorted { $0.2 < $1.2 }.compactMap { e in
        e.6.map { #"{"activity":"\#(e.1)","rating":"\#($0)","at":"\#(e.2)"}"# } }.joined(separator: ",") + "]"
    static let rexInline = #"{"name":"Rex","species":"dog","breed":"Border Collie","birth_date":"2021-04-02","weight_kg":19}"#
    static let moment = #""now":"2026-06-10T18:30:00+01:00","timezone":"Europe/Dublin""#
    static let outside = #""location":{"lat":53.2707,"lon":-9.0568},"weather":{"temperature_c":17,"condition":"cloudy","wind_kmh":20},"seed":7"#

    static func answers(_ requests: [String]) throws -> [JSONValue] {
        let r = try ScoutProcess.serve(requests, arguments: ["--data", Repository.data])
        #expect(r.status == 0 && r.lines.count == requests.count)
        return try r.lines.map { try json($0) }
    }

    @Test func aPetTrackersDayByPetIDAnswersAsTheInlineRequests() throws {
        let writes = [#"{"op":"upsert","records":[\#(Self.pet)]}"#,
                      #"{"op":"upsert","records":[\#(Self.log.map(Self.entry).joined(separator: ","))]}"#]
        let reads = [
            // Recent activity, newest first, by either owner.
            #"{"op":"search","kind":"care","filter":{"pet_id":"pet-rex"},"sort":"newest","limit":3,"user":"u-tom","fields":["type","comment","logged_by"]}"#,
            #"{"op":"search","kind":"care","filter":{"pet_id":"pet-rex","type":["feeding","walk"]},"sort":"newest","user":"u-anna","fields":false}"#,
            #"{"op":"search","kind":"care","text":"limping","user":"u-anna","fields":false}"#,
            // Dashboard and this or that, by id and inline.
            #"{"op":"progress","pet_id":"pet-rex","user":"u-anna",\#(Self.moment)}"#,
            #"{"op":"progress","pet":\#(Self.rexInline),\#(Self.moment),"log":\#(Self.inlineLog)}"#,
            #"{"op":"recommend_activities","pet_id":"pet-rex","user":"u-tom",\#(Self.moment),\#(Self.outside)}"#,
            #"{"op":"recommend_activities","pet":\#(Self.rexInline),\#(Self.moment),\#(Self.outside),"log":\#(Self.inlineLog),"feedback":\#(Self.inlineFeedback)}"#,
            #"{"op":"schedule","pet_id":"pet-rex","user":"u-tom","timezone":"Europe/Dublin","now":"2026-06-10T18:30:00+01:00","count":2}"#,
            #"{"op":"schedule","timezone":"Europe/Dublin","now":"2026-06-10T18:30:00+01:00","count":2,"reminders":[{"type":"feeding","start":"2026-06-01T07:30","frequency":"daily"},{"type":"walk","start":"2026-06-01T18:00","frequency":"daily"}]}"#,
            // Inline fields win over the stored ones.
            #"{"op":"progress","pet_id":"pet-rex","user":"u-anna",\#(Self.moment),"log":[]}"#,
            // Anyone else: as if there were no Rex.
            #"{"op":"progress","pet_id":"pet-rex","user":"u-eve",\#(Self.moment)}"#,
            #"{"op":"progress","pet_id":"pet-nobody","user":"u-eve",\#(Self.moment)}"#,
            #"{"op":"search","kind":"care","filter":{"pet_id":"pet-rex"},"user":"u-eve"}"#,
            #"{"op":"get","kind":"pet","ids":["pet-rex"]}"#,
        ]
        let a = try Self.answers(writes + reads).dropFirst(2).map { $0["result"] ?? $0["error"]! }
        #expect(a[0]["results"]?.array?.compactMap { $0["id"]?.string } == ["c6", "c7", "c5"])
        #expect(a[0]["results"]?.array?.first?["fields"]?["logged_by"]?.string == "u-tom" && a[0]["total"]?.double == 7)
        #expect(a[1]["results"]?.array?.compactMap { $0["id"]?.string } == ["c5", "c3", "c1"])
        #expect(a[2]["results"]?.array?.compactMap { $0["id"]?.string } == ["c6"])
        #expect(a[3] == a[4], "progress by pet id answers as inline:\n\(a[3])\n\(a[4])")
        #expect(a[3]["week"] != nil)
        #expect(a[5] == a[6], "recommend_activities by pet id answers as inline")
        #expect(a[5]["recommendations"]?.array?.isEmpty == false)
        #expect(a[7] == a[8], "schedule by pet id answers as inline")
        #expect(a[9] != a[3], "an inline log wins over the stored one")
        #expect(a[10]["code"] == a[11]["code"] && a[10]["path"] == a[11]["path"]
                && a[10]["message"]?.string?.replacingOccurrences(of: "pet-rex", with: "pet-nobody") == a[11]["message"]?.string,
                "a pet the user may not read is as missing as one that does not exist")
        #expect(a[10]["code"]?.string == "not_found")
        #expect(a[12]["total"]?.double == 0 && a[13]["results"]?.array?.isEmpty == true)
    }

    /// A care entry that names the offer it answers (`recommendation`, an id of a two-offer
    /// answer) is read by pet id as inline feedback naming that offer: learnt in the offer's
    /// moment and as taken over the other offer, which changes the next answer against the
    /// same verdict on the activity alone. An id the catalogue does not read leaves the
    /// verdict on the activity.
    @Test func aVerdictOnAnOfferIsReadByPetIDAsTheChoiceItWas() throws {
        let ask = #""op":"recommend_activities","count":2,\#(Self.moment),\#(Self.outside)"#
        let first = try Self.answers([#"{\#(ask),"pet":\#(Self.rexInline)}"#])[0]
        let offers = try #require(first["result"]?["recommendations"]?.array)
        try #require(offers.count == 2)
        let taken = try #require(offers[0]["id"]?.string), activity = try #require(offers[0]["activity"]?.string)
        #expect(taken.split(separator: ".").count == 3, "an id of an answer of two names the other offer: \(taken)")
        let at = "2026-06-10T18:40:00+01:00", at2 = "2026-06-10T19:10:00+01:00"
        func care(_ id: String, _ type: String, _ start: String, _ recommendation: String) -> String {
            #"{"id":"\#(id)","kind":"care","pet_id":"pet-rex","type":"\#(type)","start":"\#(start)","minutes":20,"logged_by":"u-anna","verdict":"enjoyed","recommendation":"\#(recommendation)"}"#
        }
        // What the stored entries are inline: the log, and the verdicts on the offer or on the activity.
        let later = #""now":"2026-06-11T18:30:00+01:00","timezone":"Europe/Dublin",\#(Self.outside),"log":[{"type":"\#(activity)","start":"\#(at)","minutes":20},{"type":"fetch","start":"\#(at2)","minutes":20}]"#
        let fetch = #"{"activity":"fetch","rating":"enjoyed","at":"\#(at2)"}"#
        let reads = [
            #"{"op":"recommend_activities","count":2,"pet_id":"pet-rex","user":"u-anna","now":"2026-06-11T18:30:00+01:00","timezone":"Europe/Dublin",\#(Self.outside)}"#,
            #"{"op":"recommend_activities","count":2,"pet":\#(Self.rexInline),\#(later),"feedback":[{"recommendation":"\#(taken)","rating":"enjoyed","at":"\#(at)"},\#(fetch)]}"#,
            #"{"op":"recommend_activities","count":2,"pet":\#(Self.rexInline),\#(later),"feedback":[{"activity":"\#(activity)","rating":"enjoyed","at":"\#(at)"},\#(fetch)]}"#,
        ]
        let a = try Self.answers([#"{"op":"upsert","records":[\#(Self.pet)]}"#,
                                  #"{"op":"upsert","records":[\#(care("c1", activity, at, taken)),\#(care("c2", "fetch", at2, "fetch.000000000000"))]}"#] + reads)
        #expect(a[1]["ok"] == .bool(true), "\(a[1])")
        let byID = a[2]["result"], asOffer = a[3]["result"], asActivity = a[4]["result"]
        #expect(byID != nil && byID == asOffer, "by pet id as the inline feedback naming the offer:\n\(String(describing: byID))\n\(String(describing: asOffer))")
        #expect(asOffer != asActivity, "the offer's moment and the choice over the other change the answer")
    }

    @Test func badCareEntriesAreRefusedAndChangeNothing() throws {
        func care(_ fields: String) -> String {
            #"{"op":"upsert","records":[{"id":"x","kind":"care","pet_id":"pet-rex","start":"2026-06-08T07:30:00Z","logged_by":"u-anna",\#(fields)}]}"#
        }
        let lines = try Self.answers([
            #"{"op":"upsert","records":[\#(Self.pet)]}"#,
            #"{"op":"upsert","records":[{"id":"x","kind":"care","pet_id":"pet-none","type":"walk","start":"2026-06-08T07:30:00Z","logged_by":"u-anna"}]}"#,
            care(#""type":"walkk""#),
            care(#""type":"walk","minutes":-5"#),
            care(#""type":"walk","verdict":"loved""#),
            care(#""type":"other""#),
            #"{"op":"upsert","records":[{"id":"x","kind":"care","pet_id":"pet-rex","type":"walk","start":"2099-01-01T00:00:00Z","logged_by":"u-anna"}]}"#,
            #"{"op":"upsert","records":[{"id":"x","kind":"care","pet_id":"pet-rex","type":"walk","start":"2026-06-08T07:30:00Z","logged_by":"u-eve"}]}"#,
            #"{"op":"search","kind":"care","user":"u-anna"}"#,
        ])
        let errors = lines.dropFirst().prefix(7).map { ($0["error"]?["code"]?.string ?? "ok", $0["error"]?["path"]?.string ?? "", $0["error"]?["message"]?.string ?? "") }
        #expect(errors.map(\.0) == Array(repeating: "invalid_request", count: 7), "\(errors)")
        #expect(errors.map(\.1) == ["records[0].pet_id", "records[0].type", "records[0].minutes", "records[0].verdict", "records[0].label",
                                    "records[0].start", "records[0].logged_by"])
        #expect(errors[1].2.contains("did you mean \"walk\""), "\(errors[1].2)")
        // A refused write changes nothing: no care entry was ever stored.
        #expect(lines.last?["error"]?["code"]?.string == "not_found" && lines.last?["error"]?["path"]?.string == "kind", "\(lines.last!)")
    }

    /// A pet keeps one reminder per type, each one `schedule` could read: a second walk
    /// reminder, a reminder of an unknown activity, an unknown frequency and a bad start are
    /// refused at their field, and the pet stays as it was.
    @Test func aPetKeepsOneReminderPerType() throws {
        func pet(_ reminders: String) -> String {
            Self.pet.replacingOccurrences(of: #""reminders":[{"type":"feeding","start":"2026-06-01T07:30","frequency":"daily"},"#, with: #""reminders":[\#(reminders),"#)
        }
        let lines = try Self.answers([
            #"{"op":"upsert","records":[\#(Self.pet)]}"#,
            #"{"op":"upsert","records":[\#(pet(#"{"type":"walk","start":"2026-06-01T07:00","frequency":"daily"}"#))]}"#,
            #"{"op":"upsert","records":[\#(pet(#"{"type":"fetchh","start":"2026-06-01T07:00","frequency":"daily"}"#))]}"#,
            #"{"op":"upsert","records":[\#(pet(#"{"type":"feeding","start":"2026-06-01T07:00","frequency":"hourly"}"#))]}"#,
            #"{"op":"upsert","records":[\#(pet(#"{"type":"feeding","start":"June","frequency":"daily"}"#))]}"#,
            #"{"op":"upsert","records":[\#(pet(#"{"type":"grooming","start":"2026-06-01T09:00","frequency":"monthly"}"#))]}"#,
            #"{"op":"get","kind":"pet","ids":["pet-rex"],"user":"u-anna","fields":["reminders"]}"#,
        ])
        let errors = lines.dropFirst().prefix(4).map { ($0["error"]?["code"]?.string ?? "ok", $0["error"]?["path"]?.string ?? "", $0["error"]?["message"]?.string ?? "") }
        #expect(errors.map(\.0) == Array(repeating: "invalid_request", count: 4), "\(errors)")
        #expect(errors.map(\.1) == ["records[0].reminders[1].type", "records[0].reminders[0].type", "records[0].reminders[0].frequency",
                                    "records[0].reminders[0].start"], "\(errors)")
        #expect(errors[0].2.contains("one reminder per type") && errors[1].2.contains("did you mean \"fetch\""), "\(errors)")
        // A good change is kept: grooming in place of feeding, the walk as it was.
        let kept = lines.last?["result"]?["results"]?.array?.first?["fields"]?["reminders"]?.array?.compactMap { $0["type"]?.string }
        #expect(lines[5]["ok"] == .bool(true) && kept == ["grooming", "walk"], "\(lines.last!)")
    }
}
