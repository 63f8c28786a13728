import Foundation
import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutTestSupport
import Testing

/// Owners and visibility (`Access.swift`): a record that belongs to users is read by its
/// owners and those it is shared with, a care entry by whoever may read its pet, and to
/// anyone else a private record is indistinguishable from a missing one. Tested as a prober
/// would: every answer a user gets — hits, totals, cursors, relevance scores, matched and
/// dropped words, errors — equals the answer of an engine that never held the records that
/// user may not read.
@Suite struct AccessTests {
    static let catalog = CallsSample.catalog
    static let users = ["u0", "u1", "u2", "u3", "u4"]
    static let words = ["walk", "muddy", "rabbit", "park", "vet", "jab", "carrots", "limp", "kettlebell", "squat", "beach", "ate", "half",
                        "dinner", "stairs", "cough"]

    /// A random world of pets (one or two owners; private, shared or public), their care
    /// entries, personal lists and programs (public ones and users' private copies).
    static func world(seed: Int) -> [PointRecord] {
        var rng = SplitMix64(seed: UInt64(9_100 + seed))
        var records: [[(String, JSONValue)]] = []
        func strings(_ s: [String]) -> JSONValue { .array(s.map { .string($0) }) }
        func access(_ owners: [String]) -> [(String, JSONValue)] {
            var f: [(String, JSONValue)] = [("owners", strings(owners))]
            switch rng.int(0...3) {
            case 0: f.append(("visibility", .string("public")))
            case 1: f.append(("visibility", .string("shared"))); f.append(("shared_with", strings([rng.pick(users)])))
            default: break
            }
            return f
        }
        func sentence() -> String { (0..<rng.int(1...5)).map { _ in rng.pick(words) }.joined(separator: " ") }
        var pets: [(id: String, readers: [String])] = []
        for p in 0..<rng.int(6...12) {
            let owners = Array(Set((0..<rng.int(1...2)).map { _ in rng.pick(users) })).sorted()
            let a = access(owners)
            var f: [(String, JSONValue)] = [("id", .string("pet-\(p)")), ("kind", .string("pet")), ("name", .string(rng.pick(["Rex", "Mia", "Bo", "Kiwi"]))),
                                            ("species", .string(rng.pick(["dog", "cat", "królik"])))]
            f += a
            records.append(f)
            var readers = owners
            if case .array(let shared)? = a.first(where: { $0.0 == "shared_with" })?.1 { readers += shared.compactMap(\.string) }
            pets.append(("pet-\(p)", readers))
        }
        for c in 0..<rng.int(10...40) {
            let pet = rng.pick(pets)
            records.append([("id", .string("care-\(c)")), ("kind", .string("care")), ("pet_id", .string(pet.id)),
                            ("type", .string(rng.pick(["walk", "feeding", "vet_visit", "fetch"]))),
                            ("start", .string("2026-11-\(10 + rng.int(0...15))T\(10 + rng.int(0...9)):00:00Z")),
                            ("comment", .string(sentence())), ("logged_by", .string(rng.pick(pet.readers)))]
                           + (rng.chance(0.5) ? [("verdict", .string(rng.pick(["enjoyed", "neutral", "disliked"])))] : []))
        }
        for l in 0..<rng.int(2...6) {
            records.append([("id", .string("list-\(l)")), ("kind", .string("list")), ("name", .string(sentence())),
                            ("item_kind", .string(rng.pick(["gym", "animal"]))), ("items", strings(["gym-\(l)", "gym-\(l + 1)"]))] + access([rng.pick(users)]))
        }
        for p in 0..<rng.int(4...10) {
            var f: [(String, JSONValue)] = [("id", .string("program-\(p)")), ("kind", .string("program")), ("name", .string(sentence())),
                                            ("goal", .string("strength")), ("level", .string("beginner")), ("weeks", .number("4")),
                                            ("days_per_week", .number("3")), ("author", .string(rng.pick(users))),
                                            ("description", .string(sentence())),
                                            ("exercises", .array([.object([("name", .string(rng.pick(words))), ("sets", .number("3")), ("reps", .number("10"))])]))]
            if rng.chance(0.5) { f += access([rng.pick(users)]) }
            records.append(f)
        }
        // One public record of each kind, so every kind exists in every user's world.
        records.append([("id", .string("pet-open")), ("kind", .string("pet")), ("name", .string("Open")), ("species", .string("dog")),
                        ("owners", strings(["u0"])), ("visibility", .string("public"))])
        records.append([("id", .string("care-open")), ("kind", .string("care")), ("pet_id", .string("pet-open")), ("type", .string("walk")),
                        ("start", .string("2026-11-20T09:00:00Z")), ("comment", .string(sentence())), ("logged_by", .string("u0"))])
        records.append([("id", .string("list-open")), ("kind", .string("list")), ("name", .string("open")), ("item_kind", .string("gym")),
                        ("items", strings([])), ("owners", strings(["u1"])), ("visibility", .string("public"))])
        records.append([("id", .string("program-open")), ("kind", .string("program")), ("name", .string(sentence())),
                        ("goal", .string("mobility")), ("level", .string("beginner")), ("weeks", .number("2")),
                        ("days_per_week", .number("2")), ("author", .string("u2")),
                        ("exercises", .array([.object([("name", .string("plank")), ("sets", .number("3")), ("seconds", .number("30"))])]))])
        return records.map { try! PointRecord.from(json: .object($0), defaultKind: nil, path: "") }
    }

    /// The records `user` may read: pets and lists they own or see, their pets' care entries,
    /// public programs and their own copies.
    static func visible(_ records: [PointRecord], to user: String?) -> [PointRecord] {
        func typed(_ r: PointRecord) -> CatalogRecord {
            try! catalog.record(kind: r.kind, fields: r.fields, path: "")
        }
        let readablePets = Set(records.filter { $0.kind == .pet && (typed($0).access?.isVisible(to: user) ?? true) }.map(\.id))
        return records.filter { r in
            if case .care(let e) = typed(r) { return readablePets.contains(e.petID) }
            return typed(r).access?.isVisible(to: user) ?? true
        }
    }

    static func engine(_ records: [PointRecord]) throws -> Engine {
        let e = Engine(catalog: catalog)
        // Pets first: a care entry's pet must be there.
        try e.upsert(records.filter { $0.kind == .pet })
        try e.upsert(records.filter { $0.kind != .pet })
        return e
    }

    /// An answer in full: hits with everything a caller sees, totals, cursor, words; or the error.
    static func describe(_ body: () throws(ScoutError) -> SearchResult) -> String {
        do throws(ScoutError) {
            let r = try body()
            let hits = r.hits.map { h in
                "\(h.id) \(h.relevance.map { String(format: "%.9f", $0) } ?? "-") \(h.matchedWords) \(h.fields.map(\.0))"
            }
            return "total \(r.total) next \(r.nextAfter ?? "-") dropped \(r.droppedWords) note \(r.note ?? "-")\n" + hits.joined(separator: "\n")
        } catch {
            return "error \(error.code.rawValue) \(error.path ?? "") \(error.message)"
        }
    }

    /// A pet's log, newest first (read from the entries of the pets named), equals the
    /// brute-force order of every entry of those pets: latest start first, then id; paged.
    @Test(arguments: 0..<TestScale.count(short: 3, full: 20))
    func aPetsLogIsItsEntriesNewestFirst(seed: Int) throws {
        let all = Self.world(seed: 100 + seed)
        // Every pet public, so a listing without a user holds nothing back.
        let open = try Self.engine(all.map { r in
            var r = r
            if r.kind == .pet {
                let readers = r.fields.filter { $0.0 == "owners" || $0.0 == "shared_with" }.flatMap { $0.1.array ?? [] }
                r.fields = r.fields.filter { !["owners", "visibility", "shared_with"].contains($0.0) }
                    + [("owners", .array(readers)), ("visibility", .string("public"))]
            }
            return r
        })
        var rng = SplitMix64(seed: UInt64(300 + seed))
        let pets = all.filter { $0.kind == .pet }.map(\.id)
        let entries: [(id: String, pet: String, start: Int64)] = all.filter { $0.kind == .care }.compactMap { r in
            guard case .care(let c) = try! Self.catalog.record(kind: .care, fields: r.fields, path: "") else { return nil }
            return (r.id, c.petID, c.start.seconds)
        }
        /// Pages through a care listing with its cursor; every page's total is the whole log's.
        func log(_ filter: RecordFilter, want: [String], _ tag: String) throws {
            var q = SearchQuery(kind: .care, area: nil, limit: rng.int(1...4), filter: filter)
            var got: [String] = []
            repeat {
                let page = try open.search(q)
                #expect(page.total == want.count, "\(tag)")
                got += page.hits.map(\.id)
                q.after = page.nextAfter
            } while q.after != nil
            #expect(got == want, "\(tag): \(got) vs \(want)")
        }
        func newestFirst(_ e: [(id: String, pet: String, start: Int64)]) -> [String] {
            e.sorted { a, b in a.start != b.start ? a.start > b.start : a.id.utf8.lexicographicallyPrecedes(b.id.utf8) }.map(\.id)
        }
        for _ in 0..<20 {
            let asked = Set((0..<rng.int(1...3)).map { _ in rng.pick(pets) })
            try log(.careEntries(.pet(asked)), want: newestFirst(entries.filter { asked.contains($0.pet) }), "\(asked)")
        }
        // An owner's log: the entries of every pet they own, newest first (here every reader owns).
        let owners: [String: Set<String>] = Dictionary(uniqueKeysWithValues: all.filter { $0.kind == .pet }.map { r in
            (r.id, Set(r.fields.filter { $0.0 == "owners" || $0.0 == "shared_with" }.flatMap { $0.1.array ?? [] }.compactMap(\.string)))
        })
        for user in Self.users {
            try log(.careEntries(.petOwner([user])), want: newestFirst(entries.filter { owners[$0.pet]?.contains(user) == true }), "owner \(user)")
        }
    }

    @Test(arguments: 0..<TestScale.count(short: 4, full: 40))
    func aProberLearnsNothingOfRecordsTheyMayNotRead(seed: Int) throws {
        let all = Self.world(seed: seed)
        let real = try Self.engine(all)
        var rng = SplitMix64(seed: UInt64(7_700 + seed))
        let allIDs = all.map(\.id) + ["no-such-id"]
        for user in Self.users.map(Optional.some) + [nil, "stranger"] {
            let oracle = try Self.engine(Self.visible(all, to: user))
            for round in 0..<40 {
                let kind = rng.pick([RecordKind.pet, .care, .list, .program])
                let tag = "seed \(seed) user \(user ?? "nil") round \(round) \(kind)"
                // get, with ids of every kind and user.
                let ids = (0..<rng.int(1...6)).map { _ in rng.pick(allIDs) }
                let got = try real.get(kind: kind, ids: ids, user: user).map { $0?.id ?? "nil" }
                #expect(got == (try oracle.get(kind: kind, ids: ids, user: user).map { $0?.id ?? "nil" }), "get \(tag)")
                // A listing: any order the kind has, a filter, text, a page and a cursor.
                var q = SearchQuery(kind: kind, area: nil, limit: rng.int(1...4))
                q.user = user
                let sorts: [ScoutEngine.SortOrder?] = [nil, .id, .name] + (kind == .care ? [.newest] : []) + (kind == .program ? [.rating] : [])
                q.sort = rng.pick(sorts)
                if rng.chance(0.5) {
                    q.text = (0..<rng.int(1...3)).map { _ in rng.pick(Self.words) + (rng.chance(0.2) ? "x" : "") }.joined(separator: " ")
                    if rng.chance(0.3) { q.sort = .relevance }
                    q.words = rng.chance(0.2) ? .all : .most
                }
                if rng.chance(0.4) {
                    switch kind {
                    case .care: q.filter = rng.chance(0.5) ? .careEntries(.pet([rng.pick(all.filter { $0.kind == .pet }).id]))
                        : .careEntries(.petOwner([rng.pick(Self.users)]))
                    case .pet: q.filter = .pets(.owner([rng.pick(Self.users)]))
                    case .list: q.filter = .lists(.owner([rng.pick(Self.users)]))
                    default: q.filter = .programs(.author([rng.pick(Self.users)]))
                    }
                }
                if rng.chance(0.3) { q.after = rng.pick(allIDs) }
                for page in 0..<6 {
                    let a = Self.describe { () throws(ScoutError) in try real.search(q) }
                    let b = Self.describe { () throws(ScoutError) in try oracle.search(q) }
                    #expect(a == b, "\(tag) page \(page)\n\(a)\n---\n\(b)")
                    guard a == b, let next = try? real.search(q).nextAfter else { break }
                    q.after = next
                }
                // Spatial queries find none of these kinds' records, for anyone.
                let nearest = Self.describe { () throws(ScoutError) in
                    try real.nearest(NearestQuery(kind: kind, from: GeoPoint(lat: 53.3, lon: -6.2), k: 3))
                }
                #expect(nearest == Self.describe { () throws(ScoutError) in
                    try oracle.nearest(NearestQuery(kind: kind, from: GeoPoint(lat: 53.3, lon: -6.2), k: 3))
                }, "nearest \(tag)")
            }
        }
    }
}
