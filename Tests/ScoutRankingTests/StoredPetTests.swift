import Foundation
import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutRanking
import ScoutRecommend
import ScoutRecommendJSON
import ScoutTestSupport
import ScoutTime
import Testing

/// A pet tracker's day through the library (`StoredPets.swift`): co-owners store a pet and
/// log its care, read the log newest first, and get this or that and the week's progress
/// from the stored log (``Engine/storedPet(_:user:)``): the same answers as the same data given
/// inline. Nobody else reads the pet.
@Suite struct StoredPetTests {
    @Test func aPetTrackersDayThroughTheLibrary() throws {
        let catalog = try Catalog.load(dataDirectory: Repository.data)
        let engine = Engine(catalog: catalog)
        let recommender = try Recommender.load(dataDirectory: Repository.data, breeds: catalog.breeds)
        func record(_ id: String, _ kind: RecordKind, _ fields: [(String, JSONValue)]) -> PointRecord {
            PointRecord(id: id, kind: kind, point: nil, fields: fields)
        }
        try engine.upsert([record("pet-rex", .pet, [("name", .string("Rex")), ("species", .string("pies")), ("breed", .string("Lab")),
                                                    ("birth_date", .string("2020-03-01")), ("weight_kg", .number("31")),
                                                    ("conditions", .array([.string("arthritis"), .string("itchy ears")])),
                                                    ("owners", .array([.string("u-anna"), .string("u-tom")]))])])
        let entries: [(String, String, String, Double, String?)] = [
            ("c1", "feeding", "2026-06-08T07:30:00+01:00", 0, nil), ("c2", "sniff_walk", "2026-06-08T08:00:00+01:00", 30, "enjoyed"),
            ("c3", "walk", "2026-06-09T18:00:00+01:00", 25, nil), ("c4", "fetch", "2026-06-09T10:00:00+01:00", 15, "disliked"),
            ("c5", "vet_visit", "2026-06-10T10:00:00+01:00", 40, nil),
        ]
        try engine.upsert(entries.map { e in
            record(e.0, .care, [("pet_id", .string("pet-rex")), ("type", .string(e.1)), ("start", .string(e.2)),
                                ("minutes", .number(FieldReader.text(e.3))), ("logged_by", .string(e.0 == "c3" ? "u-tom" : "u-anna"))]
                   + (e.4.map { [("verdict", JSONValue.string($0))] } ?? []))
        })
        // Newest first, as either owner reads it.
        var q = SearchQuery(kind: .care, area: nil, limit: 10, filter: .careEntries(.pet(["pet-rex"])))
        q.user = "u-tom"
        #expect(try engine.search(q).hits.map(\.id) == ["c5", "c3", "c4", "c2", "c1"])
        // The stored pet as the recommender takes it, and the same data inline.
        let rex = try engine.storedPet("pet-rex", user: "u-anna")
        #expect(rex.profile.breed?.name == "Labrador Retriever" && rex.profile.species == .dog && rex.profile.conditions == [.arthritis])
        let inlineLog = try entries.sorted { $0.2 < $1.2 }.map { e in
            LogEntry(type: try recommender.logTypes.read(e.1, path: ""), start: try Instant.parse(e.2, path: ""), minutes: e.3)
        }
        let inlineFeedback = try entries.sorted { $0.2 < $1.2 }.compactMap { e -> Feedback? in
            guard let v = e.4 else { return nil }
            return Feedback(activity: e.1, rating: Enjoyment(rawValue: v)!, at: try Instant.parse(e.2, path: ""))
        }
        #expect(rex.log == inlineLog && rex.feedback == inlineFeedback)
        let now = try Instant.parse("2026-06-10T18:30:00+01:00", path: "now")
        let zone = try catalog.zones.zone("Europe/Dublin", path: "zone")
        let context = RecommendationContext(now: now, zone: zone, location: GeoPoint(lat: 53.27, lon: -9.05), weather: Weather(temperatureC: 16))
        let inlinePet = PetProfile(name: "Rex", species: .dog, breed: catalog.breeds.breed(named: "Labrador Retriever"),
                                   birthDate: LocalDate(year: 2020, month: 3, day: 1)!, weightKg: 31, conditions: [.arthritis])
        let byID = recommender.recommendActivities(ActivityRequest(pet: rex.profile, context: context, log: rex.log, feedback: rex.feedback, seed: 3))
        let inline = recommender.recommendActivities(ActivityRequest(pet: inlinePet, context: context, log: inlineLog, feedback: inlineFeedback, seed: 3))
        #expect(byID.recommendations.map(\.activity.id) == inline.recommendations.map(\.activity.id) && !byID.recommendations.isEmpty)
        #expect(byID.recommendations.map(\.breakdown.score) == inline.recommendations.map(\.breakdown.score))
        let monday = try Instant.parse("2026-06-08T00:00:00+01:00", path: ""), next = try Instant.parse("2026-06-15T00:00:00+01:00", path: "")
        let week = recommender.progress(pet: rex.profile, log: rex.log, from: monday, to: next, zone: zone, now: now)
        #expect(week.categories.map(\.done) == recommender.progress(pet: inlinePet, log: inlineLog, from: monday, to: next, zone: zone, now: now)
            .categories.map(\.done))
        // Anyone else: as missing as a pet that does not exist.
        #expect(throws: ScoutError(.notFound, "no pet pet-rex that this user may read", path: "pet_id")) { try engine.storedPet("pet-rex", user: "u-eve") }
        #expect(throws: ScoutError(.notFound, "no pet pet-rex that this user may read", path: "pet_id")) { try engine.storedPet("pet-rex", user: nil) }
    }

    /// With the recommender's catalogue, a verdict that names a two-offer answer's offer is
    /// feedback on that offer: its moment, and the other offer passed over; without the
    /// catalogue, or with an id it does not read, or one of another activity, a verdict on the
    /// activity alone.
    @Test func aVerdictOnAnOfferCarriesItsMomentAndTheOfferPassedOver() throws {
        let catalog = try Catalog.load(dataDirectory: Repository.data)
        let engine = Engine(catalog: catalog)
        let recommender = try Recommender.load(dataDirectory: Repository.data, breeds: catalog.breeds)
        try engine.upsert([PointRecord(id: "pet-rex", kind: .pet, point: nil,
                                       fields: [("name", .string("Rex")), ("species", .string("dog")), ("birth_date", .string("2020-03-01")), ("owners", .array([.string("u-anna")]))])])
        let rex = try engine.storedPet("pet-rex", user: "u-anna")
        let now = try Instant.parse("2026-06-10T18:30:00+01:00", path: "now")
        let context = RecommendationContext(now: now, zone: try catalog.zones.zone("Europe/Dublin", path: "zone"),
                                            location: GeoPoint(lat: 53.27, lon: -9.05), weather: Weather(temperatureC: 16))
        let pair = recommender.recommendActivities(ActivityRequest(pet: rex.profile, context: context, count: 2, seed: 5)).recommendations
        try #require(pair.count == 2)
        let (taken, passed) = (pair[0], pair[1])
        func care(_ id: String, _ type: String, _ recommendation: String) -> PointRecord {
            PointRecord(id: id, kind: .care, point: nil, fields: [
                ("pet_id", .string("pet-rex")), ("type", .string(type)), ("start", .string("2026-06-10T18:4\(id.suffix(1)):00+01:00")),
                ("logged_by", .string("u-anna")), ("verdict", .string("enjoyed")), ("recommendation", .string(recommendation))])
        }
        let other = recommender.catalog.activities.first { $0.id != taken.activity.id }!.id
        try engine.upsert([care("c1", taken.activity.id, taken.id.description), care("c2", "fetch", "fetch.000000000000"),
                           care("c3", other, taken.id.description)])
        let read = try engine.storedPet("pet-rex", user: "u-anna", activities: recommender.catalog).feedback
        try #require(read.count == 3)
        #expect(read[0].activity == taken.activity.id && read[0].moment == taken.id.moment && read[0].rating == .enjoyed)
        #expect(read[0].over.map(\.activity) == [passed.activity.id] && read[0].over.first?.moment == passed.id.moment)
        #expect(read[1].activity == "fetch" && read[1].moment == nil && read[1].over.isEmpty, "an id the catalogue does not read")
        #expect(read[2].activity == other && read[2].moment == nil && read[2].over.isEmpty, "an id of another activity")
        let plain = try engine.storedPet("pet-rex", user: "u-anna").feedback
        #expect(plain.allSatisfy { $0.moment == nil && $0.over.isEmpty } && plain.map(\.activity) == read.map(\.activity))
    }
}
