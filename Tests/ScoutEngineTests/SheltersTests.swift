import Foundation
import ScoutCatalog
import ScoutCore
@testable import ScoutEngine
import ScoutJSON
import ScoutTestSupport
import Testing

/// A shelter's animals are the animal records whose `shelter_id` names it (`Shelters.swift`):
/// after every write — animals arriving, edited, moving between shelters, leaving, a shelter
/// rewritten or closed — each shelter's list, its typed animals, its `animal` filter and the
/// animal names its text holds equal an oracle that only tracks each animal's shelter.
@Suite struct SheltersTests {
    static let names = ["Burek", "Mruczek", "Kropka", "Pickle", "Zephyr", "Saffron"]
    static let species = ["dog", "cat", "rabbit", "kot"]

    static func shelter(_ id: String, name: String = "Przystań") -> PointRecord {
        PointRecord(id: id, kind: .shelter, point: GeoPoint(lat: 52.1 + Double(id.utf8.count % 7) / 10, lon: 17.0), fields: [
            ("name", .string(name)), ("type", .string("shelter")),
            ("address", .object([("town", .string("Wrocław")), ("country", .string("PL"))])),
        ])
    }

    static func animal(_ id: String, shelter: String, name: String, species: String, adoptable: Bool = true) -> PointRecord {
        PointRecord(id: id, kind: .animal, point: GeoPoint(lat: 52.1, lon: 17.0), fields: [
            ("shelter_id", .string(shelter)), ("species", .string(species)), ("name", .string(name)),
            ("age_years", .number("3")), ("size", .string("small")), ("adoptable", .bool(adoptable)),
        ])
    }

    /// What the oracle keeps of an animal.
    struct Known { var shelter: String; var name: String; var species: String }

    /// Everything a caller can see of the shelters: each one's listed animal ids (answer and
    /// typed record), in id order.
    static func listings(_ e: Engine, _ ids: [String]) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for (id, hit) in zip(ids, try e.get(kind: .shelter, ids: ids)) {
            guard let hit else { continue }
            let listed = hit.fields.first { $0.0 == "animals" }?.1.array?.map { $0["id"]?.string ?? "?" } ?? []
            guard case .shelter(let s) = hit.record else { Issue.record("\(id) is not a shelter"); continue }
            #expect(s.animals.map(\.id) == listed, "\(id): typed animals and the answer's list differ")
            // The list shows each animal's own fields, without its shelter_id.
            for a in hit.fields.first(where: { $0.0 == "animals" })?.1.array ?? [] {
                #expect(a["shelter_id"] == nil && a["name"]?.string != nil)
            }
            out[id] = listed
        }
        return out
    }

    static func canonical(_ s: String) -> String { s == "kot" ? "cat" : s }

    static func check(_ e: Engine, _ shelters: Set<String>, _ animals: [String: Known], _ what: String) throws {
        let want = Dictionary(uniqueKeysWithValues: shelters.map { s in
            (s, animals.filter { $0.value.shelter == s }.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        })
        #expect(try listings(e, shelters.sorted()) == want, "\(what)")
        // Every animal the oracle has is stored, and nothing else.
        let stored = e.kinds.contains("animal") ? try e.search(SearchQuery(kind: "animal", area: nil, limit: 1_000, sort: .id)).hits.map(\.id) : []
        #expect(stored == animals.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, "\(what): animals stored")
        for sp in ["dog", "cat", "rabbit"] {
            let filter = try RecordFilter.parse(try JSONReader.parse(#"{"animal":{"species":"\#(sp)"}}"#), kind: "shelter", today: CallsSample.today)
            let got = try e.search(SearchQuery(kind: "shelter", area: nil, limit: 100, sort: .id, filter: filter)).hits.map(\.id)
            let expected = shelters.filter { s in animals.values.contains { $0.shelter == s && canonical($0.species) == sp } }
            #expect(got == expected.sorted(), "\(what): shelters with a \(sp)")
        }
        for name in names {
            let got = try e.search(SearchQuery(kind: "shelter", area: nil, limit: 100, sort: .id, text: name)).hits.map(\.id)
            let expected = shelters.filter { s in animals.values.contains { $0.shelter == s && $0.name == name } }
            #expect(got == expected.sorted(), "\(what): shelters with an animal named \(name)")
        }
    }

    @Test(arguments: 0..<TestScale.count(short: 4, full: 40))
    func aShelterListsExactlyTheAnimalsThatNameIt(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(7_300 + seed))
        let e = Engine(catalog: CallsSample.catalog)
        var shelters = Set<String>(), animals: [String: Known] = [:]
        for s in 0..<3 { try e.upsert([Self.shelter("shelter-\(s)")]); shelters.insert("shelter-\(s)") }
        let pool = (0..<5).map { "shelter-\($0)" }
        for step in 0..<60 {
            let what = "seed \(seed) step \(step)"
            switch rng.int(0...6) {
            case 0, 1:
                // Animals arrive or are rewritten (perhaps at another shelter); one naming no
                // shelter fails the whole batch.
                var batch: [PointRecord] = [], next = animals
                for _ in 0..<rng.int(1...3) {
                    let id = "animal-\(rng.int(0...11))", s = rng.pick(pool), name = rng.pick(Self.names), sp = rng.pick(Self.species)
                    batch.append(Self.animal(id, shelter: s, name: name, species: sp))
                    next[id] = Known(shelter: s, name: name, species: sp)
                }
                if batch.allSatisfy({ shelters.contains($0.fields[0].1.string!) }) {
                    try e.upsert(batch)
                    animals = next
                } else {
                    let before = try Self.listings(e, pool)
                    #expect(throws: ScoutError.self) { try e.upsert(batch) }
                    do { try e.upsert(batch) } catch {
                        #expect(error.path?.hasSuffix(".shelter_id") == true && error.message.contains("names no shelter"), "\(what): \(error)")
                    }
                    #expect(try Self.listings(e, pool) == before, "\(what): a refused write changes nothing")
                }
            case 2:
                // A patch moves an animal or renames it.
                guard let id = animals.keys.sorted().first(where: { _ in rng.chance(0.4) }) else { continue }
                let s = rng.pick(pool)
                if rng.chance(0.5) {
                    do {
                        try e.patch(kind: .animal, record: id, set: [("shelter_id", .string(s))])
                        #expect(shelters.contains(s), "\(what): moved to a missing shelter")
                        animals[id]!.shelter = s
                    } catch {
                        #expect(!shelters.contains(s) && error.path == "set.shelter_id", "\(what): \(error)")
                    }
                } else {
                    let name = rng.pick(Self.names)
                    try e.patch(kind: .animal, record: id, set: [("name", .string(name))])
                    animals[id]!.name = name
                }
            case 3:
                // Animals leave (unknown ids are ignored).
                let ids = (0..<rng.int(1...3)).map { _ in "animal-\(rng.int(0...11))" }
                try e.remove(kind: .animal, ids: ids)
                for id in ids { animals[id] = nil }
            case 4:
                // A shelter is written again (renamed): its animals stay listed. Or a new one
                // arrives with its first animal in the same batch.
                let s = rng.pick(pool)
                if shelters.contains(s) || rng.chance(0.5) {
                    try e.upsert([Self.shelter(s, name: rng.pick(["Przystań", "Azyl", "Ostoja"]))])
                } else {
                    let id = "animal-\(rng.int(0...11))", name = rng.pick(Self.names)
                    try e.upsert([Self.animal(id, shelter: s, name: name, species: "dog"), Self.shelter(s)])
                    animals[id] = Known(shelter: s, name: name, species: "dog")
                }
                shelters.insert(s)
            case 5:
                // A shelter closes: its animals go with it.
                let s = rng.pick(pool)
                try e.remove(kind: .shelter, ids: [s])
                shelters.remove(s)
                animals = animals.filter { $0.value.shelter != s }
            default:
                // A shelter written with its own list is refused: the list is derived.
                let s = rng.pick(pool)
                var r = Self.shelter(s)
                r.fields.append(("animals", .array([.object([("id", .string("animal-0"))])])))
                do {
                    try e.upsert([r])
                    Issue.record("\(what): a shelter with an animals list was taken")
                } catch {
                    #expect(error.path == "records[0].animals" && error.message.contains("kind animal"), "\(what): \(error)")
                }
            }
            try Self.check(e, shelters, animals, what)
        }
        // A snapshot keeps only each record's own fields; the lists come back from the animals.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scout-shelters-\(getpid())-\(seed).snap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try e.writeSnapshot(to: path, dataDirectory: Repository.data)
        let restored = try Engine(snapshot: path)
        try Self.check(restored, shelters, animals, "seed \(seed) restored")
    }

    /// The sample catalogue: every shelter lists the animals of `animals.jsonl` that name it,
    /// and a new animal is in its shelter's list at once.
    @Test func theSampleSheltersListTheirAnimals() throws {
        let e = CallsSample.engine
        var byShelter: [String: [String]] = [:]
        for a in CallsSample.animals { byShelter[a["shelter_id"] as! String, default: []].append(a["id"] as! String) }
        let ids = CallsSample.shelters.map { $0["id"] as! String }
        let listed = try Self.listings(e, ids)
        #expect(listed.count == 500 && listed.values.reduce(0) { $0 + $1.count } == 10_000)
        for id in ids { #expect(listed[id] == (byShelter[id] ?? []).sorted(), "\(id)") }

        let fresh = Engine(catalog: CallsSample.catalog)
        try fresh.upsert(CallsSample.records([CallsSample.lines("shelters")[0]]))
        try fresh.upsert([Self.animal("animal-new", shelter: "shelter-0001", name: "Pickle", species: "pies")])
        let hit = try #require(try fresh.get(kind: .shelter, ids: ["shelter-0001"])[0])
        #expect(hit.fields.first { $0.0 == "animals" }?.1 == .array([.object([
            ("id", .string("animal-new")), ("species", .string("pies")), ("name", .string("Pickle")), ("age_years", .number("3")),
            ("size", .string("small")), ("adoptable", .bool(true)),
        ])]))
    }
}
