import Foundation
import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
@testable import ScoutEngine
import ScoutGeodesy
import ScoutIndex
import ScoutJSON
import ScoutTestSupport
import ScoutTime
import Testing

/// The query planner: every plan — index walk, filter first, the key's own tree and
/// the automatic choice — gives the brute-force answer, for filters from common to matching nothing.
@Suite struct PlannerTests {
    /// Breeds from common to rare, and ones no sample dog has (zero matches).
    static let breeds = ["Mixed", "Labrador Retriever", "Border Collie", "Pug", "Chinook", "Affenpinscher", "Bulldog", "Poodle"]

    /// Weight conditions from common to matching no sample dog (the heaviest weighs 128.8 kg).
    static let weights = [#"{"min": 5, "max": 25}"#, #"{"min": 76}"#, #"{"min": 92}"#, #"{"min": 110}"#, #"{"max": 1.5}"#,
                          #"{"min": 200}"#, "[3, 40]"]

    /// Age conditions (ranges of birth days), from common to matching no sample dog.
    static let ages = [#"{"max": 0.5}"#, #"{"min": 14}"#, #"{"min": 2, "max": 6}"#, #"{"min": 30}"#, "[3, 4.5]"]

    /// A random dog filter: a breed condition (posting lists) with or without numeric ones,
    /// or numeric conditions alone (value columns).
    static func filter(_ rng: inout SplitMix64) -> (RecordFilter, String) {
        var members: [String] = []
        if Int.random(in: 0..<3, using: &rng) > 0 {
            let n = Int.random(in: 1...3, using: &rng)
            let chosen = (0..<n).map { _ in breeds.randomElement(using: &rng)! }
            members.append(#""breed": [\#(chosen.map { "\"\($0)\"" }.joined(separator: ","))]"#)
            if Bool.random(using: &rng) { members.append(#""available": true"#) }
            if Bool.random(using: &rng) { members.append(#""weight_kg": {"min": 5, "max": 25}"#) }
        } else if Bool.random(using: &rng) {
            // Numeric conditions only (value columns): from common to matching nothing.
            members.append(#""weight_kg": \#(weights.randomElement(using: &rng)!)"#)
            if Bool.random(using: &rng) { members.append(#""available": \#(Bool.random(using: &rng))"#) }
            if Bool.random(using: &rng) { members.append(#""owner_experience": [\#(Int.random(in: 1...5, using: &rng)), 5]"#) }
            if Int.random(in: 0..<3, using: &rng) == 0 { members.append(#""age_years": \#(ages.randomElement(using: &rng)!)"#) }
        } else {
            // Reviews, breed traits and the handler's experience (value columns too).
            repeat {
                if Bool.random(using: &rng) { members.append(reviewCondition(&rng)) }
                if Int.random(in: 0..<3, using: &rng) == 0 { members.append(traitCondition(&rng)) }
                if Int.random(in: 0..<3, using: &rng) == 0 {
                    members.append(#""handler_experience": \#(Double(Int.random(in: 2...10, using: &rng)) / 2)"#)
                }
            } while members.isEmpty
            if Int.random(in: 0..<4, using: &rng) == 0 { members.append(#""weight_kg": \#(weights.randomElement(using: &rng)!)"#) }
        }
        let text = "{" + members.joined(separator: ",") + "}"
        let f = try! RecordFilter.parse(Sample.json(text), kind: "dog", today: Sample.today, breeds: Sample.catalog.breeds,
                                        species: Sample.catalog.species)
        return (f, text)
    }

    /// A random condition on one of a dog's review aggregates, from any dog (no ratings
    /// needed) to none.
    static func reviewCondition(_ rng: inout SplitMix64) -> String {
        let name = FilterRange.dogReviews.randomElement(using: &rng)!
        // Half-point bounds, ordered (min above max is refused).
        let bounds = [Double(Int.random(in: 2...10, using: &rng)) / 2, Double(Int.random(in: 2...10, using: &rng)) / 2].sorted()
        var parts: [String] = []
        if Bool.random(using: &rng) { parts.append(#""min": \#(bounds[0])"#) }
        if Int.random(in: 0..<3, using: &rng) == 0 { parts.append(#""max": \#(bounds[1])"#) }
        if Bool.random(using: &rng) { parts.append(#""min_count": \#([0, 0, 1, 2, 5, 9, 40].randomElement(using: &rng)!)"#) }
        return #""\#(name)": {\#(parts.joined(separator: ", "))}"#
    }

    /// A random condition on a dog's breed trait: a range or a list of levels.
    static func traitCondition(_ rng: inout SplitMix64) -> String {
        let trait = Breed.Trait.allCases.randomElement(using: &rng)!.rawValue
        return Bool.random(using: &rng) ? #""\#(trait)": {"min": \#(Int.random(in: 1...5, using: &rng))}"#
                                        : #""\#(trait)": [\#(Int.random(in: 1...5, using: &rng)), \#(Int.random(in: 1...5, using: &rng))]"#
    }

    /// The sample dogs with their typed records, read once.
    static let typedDogs: [(Sample.Raw, CatalogRecord)] = Sample.raw["dog"]!.map { r in
        let fields = r.json.members!.filter { !["id", "kind", "lat", "lon"].contains($0.0) }
        return (r, try! Sample.catalog.record(kind: "dog", fields: fields, path: ""))
    }

    /// Every sample dog that passes the filter, with the exact millimetre distance from `origin`, nearest first then id.
    static func oracle(_ filter: RecordFilter, from origin: GeoPoint, within radius: Double = .infinity) -> [(id: String, d: Double)] {
        var out: [(id: String, d: Double)] = []
        for (r, record) in typedDogs {
            guard filter.matches(record) else { continue }
            if radius.isFinite && Geodesic.distance(r.point, origin) > radius { continue }
            out.append((r.id, DistanceBounds.millimetres(r.point, origin)))
        }
        return out.sorted { $0.d != $1.d ? $0.d < $1.d : $0.id < $1.id }
    }

    static func centre(_ rng: inout SplitMix64) -> GeoPoint {
        // Around the sample's towns: near a random dog, up to ~30 km away.
        let d = Sample.raw["dog"]!.randomElement(using: &rng)!.point
        return GeoPoint(lat: d.lat + Double.random(in: -0.3...0.3, using: &rng), lon: d.lon + Double.random(in: -0.4...0.4, using: &rng))
    }

    /// The ids of the `k` live entries of `snap` nearest `from` that pass `filter`, by exact
    /// millimetre distance then id: the brute-force answer.
    static func bruteNearest(_ filter: RecordFilter, _ snap: PointSet.Snapshot, from: GeoPoint, k: Int) -> [String] {
        var found: [(id: String, d: Double)] = []
        for r in snap.allLive() where filter.matches(Engine.record(snap.entry(r))) {
            let entry = snap.entry(r)
            found.append((entry.id, DistanceBounds.millimetres(GeoPoint(lat: entry.lat, lon: entry.lon), from)))
        }
        found.sort { $0.d != $1.d ? $0.d < $1.d : $0.id < $1.id }
        return found.prefix(k).map(\.id)
    }

    /// Waits up to 30 s for a job posted to the spare core, and says whether it finished. The
    /// helper runs only on an idle core: with both kept busy by other tests a build may still
    /// be waiting, and the query that needs it then builds it itself. (With one core there is
    /// no helper, and nothing to wait for.)
    static func waitForHelper<T>(_ job: SpareCore.Job<T>) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while SpareCore.hasHelper && !job.isFinished && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        return job.isFinished
    }

    /// Whether the sample engine's dog value columns (every field of
    /// `FilterRange.fields(kind: "dog")`) are in place, waiting up to 30 s for the spare core to build them (a kind of 8,192
    /// records or more builds them there; its queries walk the index until then). Read by
    /// every test that draws numeric filters, so their range plans are exercised.
    static let columnsReady: Bool = {
        let ranges = FilterRange.fields(kind: "dog").map { FilterRange(field: $0, lower: -.infinity, upper: .infinity) }
        let snap = Sample.engine.pointSet(kind: "dog")!.snapshot()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if ranges.allSatisfy({ Sample.engine.rangeCandidates(kind: "dog", snap, [$0], limit: .max) != .pending }) { return true }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return false
    }()

    /// Expects `lists` to count and list, for every value of every field, what lists built
    /// from every live record of `snap` do; returns those.
    @discardableResult
    static func expectEqualToFresh(_ lists: PostingLists, _ snap: PointSet.Snapshot,
                                   sourceLocation: SourceLocation = #_sourceLocation) -> PostingLists {
        let fresh = PostingLists(snap)
        for (field, byValue) in fresh.base {
            for v in byValue.keys {
                let key: FilterKey = field == "breed" ? .dogBreed([v]) : .dogOwner([v])
                #expect(lists.count(key, snap) == fresh.count(key, snap), "\(field)=\(v)", sourceLocation: sourceLocation)
                #expect(lists.candidates(key, snap) == fresh.candidates(key, snap), "\(field)=\(v)", sourceLocation: sourceLocation)
            }
        }
        return fresh
    }

    @Test(arguments: TestScale.isFull ? [1, 2, 3, 4] : [1, 2])
    func nearestIsTheSameUnderEveryPlan(seed: UInt64) throws {
        #expect(Self.columnsReady)
        var rng = SplitMix64(seed: seed)
        for _ in 0..<12 {
            let (filter, text) = Self.filter(&rng)
            let from = Self.centre(&rng)
            let k = Int.random(in: 1...20, using: &rng)
            let want = Array(Self.oracle(filter, from: from).prefix(k))
            for choice in [PlanChoice.indexWalk, .filterFirst, .filterIndex, .automatic] {
                var q = NearestQuery(kind: "dog", from: from, k: k, filter: filter)
                q.plan = choice
                let got = try Sample.engine.nearest(q)
                #expect(got.hits.map(\.id) == want.map(\.id), "\(choice) \(text) k=\(k)")
                #expect(got.hits.map { $0.distance! } == want.map(\.d), "\(choice) \(text)")
            }
        }
    }

    @Test(arguments: TestScale.isFull ? [5, 6, 7] : [5, 6])
    func radiusSearchIsTheSameUnderEveryPlan(seed: UInt64) throws {
        #expect(Self.columnsReady)
        var rng = SplitMix64(seed: seed)
        for _ in 0..<10 {
            let (filter, text) = Self.filter(&rng)
            let c = Self.centre(&rng)
            let r = Double.random(in: 500...60_000, using: &rng)
            let want = Self.oracle(filter, from: c, within: r)
            for sort in [SortOrder.distance, .id] {
                for choice in [PlanChoice.indexWalk, .filterFirst, .filterIndex, .automatic] {
                    var q = SearchQuery(kind: "dog", area: .radius(center: c, meters: r), limit: 100_000, sort: sort, filter: filter)
                    q.plan = choice
                    let got = try Sample.engine.search(q)
                    #expect(got.total == want.count, "\(choice) \(sort) \(text) r=\(r)")
                    let expected = sort == .id ? want.map(\.id).sorted() : want.map(\.id)
                    #expect(got.hits.map(\.id) == expected, "\(choice) \(sort) \(text)")
                }
            }
        }
    }

    @Test(arguments: TestScale.isFull ? [8, 9] : [8])
    func boxSearchIsTheSameUnderEveryPlan(seed: UInt64) throws {
        #expect(Self.columnsReady)
        var rng = SplitMix64(seed: seed)
        for _ in 0..<10 {
            let (filter, text) = Self.filter(&rng)
            let c = Self.centre(&rng)
            let w = Double.random(in: 0.05...4, using: &rng), h = Double.random(in: 0.05...3, using: &rng)
            let box = GeoBox(west: c.lon - w, south: c.lat - h, east: c.lon + w, north: c.lat + h)
            let want = Self.typedDogs.filter { r, record in
                filter.matches(record) && r.point.lon >= box.west && r.point.lon <= box.east && r.point.lat >= box.south && r.point.lat <= box.north
            }.map(\.0.id).sorted()
            for choice in [PlanChoice.indexWalk, .filterFirst, .filterIndex, .automatic] {
                var q = SearchQuery(kind: "dog", area: .box(box), limit: 100_000, sort: .id, filter: filter)
                q.plan = choice
                let got = try Sample.engine.search(q)
                #expect(got.total == want.count && got.hits.map(\.id) == want, "\(choice) \(text)")
                if choice == .filterFirst || choice == .filterIndex { #expect(got.plan?.plan == .filterIndex || got.plan?.plan == .empty) }
            }
        }
    }

    /// The keys' trees are kept per kind within a bound in bytes: trees past the bound start
    /// the cache over, a tree answers for its own snapshot only, and a later snapshot's tree
    /// is carried from it, holding exactly the key's entries there.
    @Test func filterTreesAreBoundedInBytesAndCarriedAcrossWrites() throws {
        let set = PointSet()
        try set.upsert((0..<2_000).map { i in PointSet.Record(id: "p\(i)", point: GeoPoint(lat: Double(i % 80), lon: Double(i / 80))) })
        let snap = set.snapshot()
        let live = snap.allLive().map(\.index)
        let world = GeoBox(west: -180, south: -90, east: 180, north: 90)
        var trees = FilterTrees(maximumBytes: 10_000)
        func key(_ i: Int) -> FilterTrees.Key { .key(.dogOwner(["key\(i)"])) }
        func exact(_ s: PointSet.Snapshot, _ k: FilterTrees.Key) -> PointSet.Snapshot? {
            if case .exact(let view) = trees.find(kind: "x", s, k) { return view }
            return nil
        }
        func earlier(_ s: PointSet.Snapshot, _ k: FilterTrees.Key) -> FilterTrees.Tree? {
            if case .earlier(let tree) = trees.find(kind: "x", s, k) { return tree }
            return nil
        }
        for round in 0..<20 {
            let part = Array(live[(round * 100)..<(round * 100 + 100)])   // 100 points: 2,000 bytes
            trees.keep(FilterTrees.Tree(snap, entries: part), kind: "x", key(round))
            #expect(trees.bytes <= 10_000)
            let kept = try #require(exact(snap, key(round)))
            let found = kept.entries(in: world, where: nil).map(\.index).sorted()
            let holdsItsEntries = found == part
            #expect(holdsItsEntries, "a restricted snapshot finds exactly its entries (\(found.count) of \(part.count))")
        }
        #expect(exact(snap, key(0)) == nil, "the first trees gave way to later ones")
        // Writes: one of key19's points moved (its old entry, live[1900], removed), one new point.
        let moved = snap.id(of: EntryRef(index: live[1_900]))
        try set.upsert([PointSet.Record(id: moved, point: GeoPoint(lat: 5, lon: 5)), PointSet.Record(id: "new", point: GeoPoint(lat: 1, lon: 1))])
        let next = set.snapshot()
        #expect(exact(next, key(19)) == nil, "a tree answers only for its snapshot")
        let old = try #require(earlier(next, key(19)))
        let now = next.allLive().map(\.index).filter { [moved, "new"].contains(next.id(of: EntryRef(index: $0))) || live[1_901..<2_000].contains($0) }
        let carried = try #require(old.carried(to: next, added: now.filter { $0 >= 2_000 }, count: now.count))
        #expect(carried.view.entries(in: world, where: nil).map(\.index).sorted() == now)
        #expect(carried.base === old.base, "the level was reused, not built again")
        // Carried again: the same appended entries reuse the second level; one of them
        // replaced by another (as many appended) packs it again.
        #expect(carried.carried(to: next, added: carried.added, count: now.count)?.view.entries(in: world, where: nil).map(\.index).sorted() == now)
        try set.upsert([PointSet.Record(id: "new2", point: GeoPoint(lat: 2, lon: 2))])
        set.remove(ids: ["new"])
        let third = set.snapshot()
        let now3 = third.allLive().map(\.index).filter { [moved, "new2"].contains(third.id(of: EntryRef(index: $0))) || live[1_901..<2_000].contains($0) }
        let added3 = now3.filter { $0 >= 2_000 }
        #expect(added3.count == carried.added.count && added3 != carried.added)
        let again = try #require(carried.carried(to: third, added: added3, count: now3.count))
        #expect(again.view.entries(in: world, where: nil).map(\.index).sorted() == now3)
        trees.keep(carried, kind: "x", key(19))
        #expect(exact(next, key(19)) != nil && exact(snap, key(19)) == nil && earlier(snap, key(19)) == nil)
        // Half the key's entries gone: building afresh is due.
        #expect(old.carried(to: next, added: [], count: 40) == nil)
        // A compaction renumbers the entries: nothing carries, and keeping drops the kind's trees.
        set.compact()
        let renumbered = set.snapshot()
        #expect(earlier(renumbered, key(19)) == nil)
        trees.keep(FilterTrees.Tree(renumbered, entries: [0]), kind: "x", key(0))
        #expect(trees.kinds["x"]?.trees.count == 1 && trees.bytes == trees.kinds["x"]!.bytes)
    }

    @Test func aBreedNoDogHasIsAnsweredAtOnce() throws {
        let f = try RecordFilter.parse(Sample.json(#"{"breed": ["Bulldog", "Poodle"]}"#), kind: "dog", today: Sample.today,
                                       breeds: Sample.catalog.breeds)
        let got = try Sample.engine.nearest(NearestQuery(kind: "dog", from: GeoPoint(lat: 53.35, lon: -6.26), k: 5, filter: f))
        #expect(got.hits.isEmpty)
        #expect(got.plan?.plan == .empty && got.plan?.candidates == 0 && got.plan?.key == "breed")
        let s = try Sample.engine.search(SearchQuery(kind: "dog", area: .box(GeoBox(west: -10, south: 50, east: 20, north: 58)), filter: f))
        #expect(s.total == 0 && s.plan?.plan == .empty)
    }

    @Test func theChoiceFollowsTheCounts() throws {
        let rare = try RecordFilter.parse(Sample.json(#"{"breed": "Chinook"}"#), kind: "dog", today: Sample.today, breeds: Sample.catalog.breeds)
        let common = try RecordFilter.parse(Sample.json(#"{"breed": "Mixed"}"#), kind: "dog", today: Sample.today, breeds: Sample.catalog.breeds)
        let none = try RecordFilter.parse(Sample.json(#"{"available": true}"#), kind: "dog", today: Sample.today)
        let from = GeoPoint(lat: 51.5, lon: -0.12)
        let chinooks = Sample.raw["dog"]!.filter { $0.json["breed"]?.string == "Chinook" }.count
        let r1 = try Sample.engine.nearest(NearestQuery(kind: "dog", from: from, k: 5, filter: rare))
        #expect(r1.plan?.plan == .filterFirst && r1.plan?.candidates == chinooks && r1.plan?.records == 50_000)
        let r2 = try Sample.engine.nearest(NearestQuery(kind: "dog", from: from, k: 5, filter: common))
        #expect(r2.plan?.plan == .indexWalk && r2.plan?.candidates == 9960)
        let r3 = try Sample.engine.nearest(NearestQuery(kind: "dog", from: from, k: 5, filter: none))
        #expect(r3.plan?.plan == .indexWalk && r3.plan?.key == nil)
        // Between 64 and n / 16 records, the key's own tree.
        var counts: [String: Int] = [:]
        for d in Sample.raw["dog"]! { counts[d.json["breed"]!.string!, default: 0] += 1 }
        let middling = try #require(counts.filter { (65...(50_000 / 16)).contains($0.value) && $0.key != "Mixed" }.min { $0.key < $1.key })
        let mid = try RecordFilter.parse(Sample.json(#"{"breed": "\#(middling.key)"}"#), kind: "dog", today: Sample.today,
                                         breeds: Sample.catalog.breeds)
        let r4 = try Sample.engine.nearest(NearestQuery(kind: "dog", from: from, k: 5, filter: mid))
        #expect(r4.plan?.plan == .filterIndex && r4.plan?.candidates == middling.value, "\(middling)")
        #expect(r4.hits.map(\.id) == Self.oracle(mid, from: from).prefix(5).map(\.id))
    }

    /// Numeric conditions are counted from the kind's value columns before the search: a
    /// weight no dog has answers at once, a rare one is ranked exactly or searched in a tree
    /// of its own, a common one walks the index; each equal to brute force.
    @Test func numericFiltersAreCountedBeforeTheSearch() throws {
        try #require(Self.columnsReady)
        let from = GeoPoint(lat: 51.5, lon: -0.12)
        let weights = Self.typedDogs.map { r, record -> Double in if case .dog(let d) = record { d.weightKg ?? .nan } else { .nan } }
        for (text, plan) in [(#"{"weight_kg": {"min": 200}}"#, QueryPlan.empty), (#"{"weight_kg": {"max": 1.5}}"#, .filterFirst),
                             (#"{"weight_kg": {"min": 92}}"#, .filterIndex), (#"{"weight_kg": {"min": 5, "max": 25}, "available": true}"#, .indexWalk)] {
            let f = try RecordFilter.parse(Sample.json(text), kind: "dog", today: Sample.today)
            let r = f.ranges.first { $0.field == "weight_kg" }!
            let matching = weights.filter(r.contains).count
            let got = try Sample.engine.nearest(NearestQuery(kind: "dog", from: from, k: 5, filter: f))
            #expect(got.plan?.plan == plan, "\(text): \(String(describing: got.plan))")
            if plan != .indexWalk { #expect(got.plan?.candidates == matching && got.plan?.key == "weight_kg", "\(text)") }
            #expect(got.hits.map(\.id) == Self.oracle(f, from: from).prefix(5).map(\.id), "\(text)")
            let area = SearchQuery(kind: "dog", area: .box(GeoBox(west: -10, south: 45, east: 20, north: 58)), limit: 100_000, sort: .id, filter: f)
            let s = try Sample.engine.search(area)
            let box = Self.typedDogs.filter { r, record in
                f.matches(record) && r.point.lon >= -10 && r.point.lon <= 20 && r.point.lat >= 45 && r.point.lat <= 58
            }.map(\.0.id).sorted()
            #expect(s.total == box.count && s.hits.map(\.id) == box, "\(text)")
            if plan == .empty { #expect(s.plan?.plan == .empty && s.total == 0) }
        }
        // A scan of 50,000 dogs first samples 1,024 of them: a set of ranges far above the
        // limit is found common at once, and one near it is still counted exactly.
        let snap = try #require(Sample.engine.pointSet(kind: "dog")).snapshot()
        for lower in [40.0, 45, 60] {
            let r = [FilterRange(field: "weight_kg", lower: lower, upper: .infinity)]
            let want = snap.allLive().filter { r[0].contains(FilterRange.value(of: Engine.record(snap.entry($0)), field: "weight_kg")) }.map(\.index).sorted()
            #expect(Sample.engine.rangeCandidates(kind: "dog", snap, r, limit: want.count) == .found(want), "weight ≥ \(lower): \(want.count)")
            #expect(Sample.engine.rangeCandidates(kind: "dog", snap, r, limit: want.count - 1) == .many)
        }
        let common = [FilterRange(field: "weight_kg", lower: 5, upper: 25)]
        #expect(ValueColumn.likelyMoreThan(50_000 / 16, common, [ValueColumn(field: "weight_kg", snap)], below: snap.entryCount))
        #expect(!ValueColumn.likelyMoreThan(50_000 / 16, [FilterRange(field: "weight_kg", lower: 45, upper: .infinity)],
                                            [ValueColumn(field: "weight_kg", snap)], below: snap.entryCount))
    }

    /// A kind of 8,192 records or more builds a value column on the spare core; its queries
    /// walk the index meanwhile, and the plan they took is not remembered, so the same
    /// filter at the same snapshot is counted from the column once it is built (by the
    /// helper, or after 10 ms by a query). Every answer on the way equals brute force.
    @Test func aPlanMadeWhileAColumnIsBuiltIsNotRemembered() throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let dogs = Array(Sample.raw["dog"]!.prefix(10_000))
        try e.upsert(dogs.map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        let snap = try #require(e.pointSet(kind: "dog")).snapshot()
        let f = try RecordFilter.parse(Sample.json(#"{"weight_kg": {"min": 80}}"#), kind: "dog", today: Sample.today)
        let from = GeoPoint(lat: 51.5, lon: -0.12)
        let want = Self.bruteNearest(f, snap, from: from, k: 5)
        var plans: [QueryPlan] = []
        let deadline = Date().addingTimeInterval(30)
        repeat {
            let got = try e.nearest(NearestQuery(kind: "dog", from: from, k: 5, filter: f))
            #expect(got.hits.map(\.id) == want)
            plans.append(got.plan!.plan)
            if plans.last != .indexWalk { break }
            Thread.sleep(forTimeInterval: 0.001)
        } while Date() < deadline
        #expect(plans.last == .filterIndex || plans.last == .filterFirst, "\(plans.count) plans, last \(String(describing: plans.last))")
        #expect(SpareCore.hasHelper ? plans.first == .indexWalk : plans.count == 1)
    }

    /// A request's numeric conditions and a Swift caller's typed ones give the planner the
    /// same ranges (a list gives its smallest and largest value; `available` is 1 or 0), and
    /// the typed dog filter its breed and owner keys.
    @Test func filtersDeclareTheirRanges() throws {
        let f = try RecordFilter.parse(Sample.json(#"{"weight_kg": [12, 3, 40], "available": false, "owner_experience": {"min": 2}, "sex": "male", "age_years": {"min": 2, "max": 6}}"#),
                                       kind: "dog", today: Sample.today)
        let ranges = Set(f.ranges)
        let t = Double(Sample.today.daysSinceEpoch)
        #expect(ranges == [FilterRange(field: "weight_kg", lower: 3, upper: 40), FilterRange(field: "available", lower: 0, upper: 0),
                           FilterRange(field: "owner_experience", lower: 2, upper: .infinity),
                           FilterRange(field: "birth_day", lower: t - 6 * 365.2425 - 1, upper: t - 2 * 365.2425 + 1)])
        // Every sample dog whose age lies in a range has its birth day in the range's birth days.
        for years in [0...0.5, 2...6, 14...Double.infinity, 3...3, -Double.infinity...1] {
            let r = FilterRange.ofAge(years, on: Sample.today)
            for (_, record) in Self.typedDogs {
                guard case .dog(let d) = record, years.contains(d.ageYears(on: Sample.today)) else { continue }
                #expect(r.contains(FilterRange.value(of: record, field: "birth_day")), "\(years)")
            }
        }
        let g = try RecordFilter.parse(Sample.json(#"{"votes_up": {"max": 10}}"#), kind: "gym", today: Sample.today)
        #expect(g.ranges == [FilterRange(field: "votes_up", lower: -.infinity, upper: 10)])
        let typed = try RecordFilter.dogs(.weightKg(.within(5...25)), .available, .owner(["o-1"]), .breed(["Pug"]),
                                          .ageYears(.within(1...3), on: Sample.today), breeds: Sample.catalog.breeds)
        #expect(Set(typed.ranges) == [FilterRange(field: "weight_kg", lower: 5, upper: 25), FilterRange(field: "available", lower: 1, upper: 1),
                                      .ofAge(1...3, on: Sample.today)])
        #expect(Set(typed.keys) == [.dogOwner(["o-1"]), .dogBreed(["pug"])])
        // Every sample dog the filters select has its values within their ranges.
        for (_, record) in Self.typedDogs where f.matches(record) || typed.matches(record) {
            let filter = f.matches(record) ? f : typed
            for r in filter.ranges { #expect(r.contains(FilterRange.value(of: record, field: r.field)), "\(r)") }
        }
    }

    /// Review, breed-trait, handler and gym-rating conditions declare ranges that every
    /// record they select lies in (the planner counts candidates from them and tests the
    /// whole filter on those only: a range that left a match out would lose it), and ranges
    /// as tight as the condition allows.
    @Test(arguments: (TestScale.isFull ? [1, 2, 3] : [1, 2]) as [UInt64])
    func reviewTraitAndHandlerConditionsDeclareRangesEveryMatchLiesIn(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<40 {
            let text = "{" + [Self.reviewCondition(&rng), Self.traitCondition(&rng),
                              #""handler_experience": \#(Double(Int.random(in: 2...10, using: &rng)) / 2)"#]
                .filter { _ in Bool.random(using: &rng) }.joined(separator: ",") + "}"
            let f = try RecordFilter.parse(Sample.json(text), kind: "dog", today: Sample.today)
            for (_, record) in Self.typedDogs where f.matches(record) {
                for r in f.ranges { #expect(r.contains(FilterRange.value(of: record, field: r.field)), "\(text): \(r)") }
            }
        }
        // Tight where the condition is a range of the value itself.
        let r = try RecordFilter.parse(Sample.json(#"{"temperament": {"min": 4, "min_count": 3}, "good_with_dogs": [2, 4], "handler_experience": 2.5}"#),
                                       kind: "dog", today: Sample.today)
        #expect(Set(r.ranges) == [FilterRange(field: "temperament", lower: 4, upper: 5), FilterRange(field: "temperament_count", lower: 3, upper: .infinity),
                                  FilterRange(field: "good_with_dogs", lower: 2, upper: 4),
                                  FilterRange(field: "experience_needed_estimate", lower: -.infinity, upper: 2.5)])
        // A condition that also takes dogs without ratings declares no range on the mean.
        let any = try RecordFilter.parse(Sample.json(#"{"excitability": {"min_count": 0}}"#), kind: "dog", today: Sample.today)
        #expect(any.ranges.isEmpty)
        #expect(Self.typedDogs.filter { any.matches($0.1) }.count == Self.typedDogs.count)
        // The typed conditions declare the same.
        let typed = try RecordFilter.dogs(.goodWithDogs(atLeast: 4), .temperament(atLeast: 4.5, ratings: 2), .handlerExperience(3))
        #expect(Set(typed.ranges) == [FilterRange(field: "good_with_dogs", lower: 4, upper: .infinity),
                                      FilterRange(field: "temperament", lower: 4.5, upper: 5),
                                      FilterRange(field: "temperament_count", lower: 2, upper: .infinity),
                                      FilterRange(field: "experience_needed_estimate", lower: -.infinity, upper: 3)])
        for (_, record) in Self.typedDogs where typed.matches(record) {
            for r in typed.ranges { #expect(r.contains(FilterRange.value(of: record, field: r.field)), "\(r)") }
        }
        let unrated = try RecordFilter.dogs(.temperament(atLeast: 0, ratings: 0))
        #expect(unrated.ranges.isEmpty)
        // A gym's rating, from a request or typed.
        let gyms = Sample.raw["gym"]!.map { r in
            try! Sample.catalog.record(kind: "gym", fields: r.json.members!.filter { !["id", "kind", "lat", "lon"].contains($0.0) }, path: "")
        }
        for x in [0.0, 0.2, 0.5, 0.8, 0.95] {
            let g = try RecordFilter.parse(Sample.json(#"{"rating": {"min": \#(x)}}"#), kind: "gym", today: Sample.today)
            #expect(g.ranges == [FilterRange(field: "rating", lower: x, upper: .infinity)])
            #expect(RecordFilter.gyms(.rating(atLeast: x)).ranges == g.ranges)
            for gym in gyms where g.matches(gym) { #expect(g.ranges[0].contains(FilterRange.value(of: gym, field: "rating"))) }
        }
    }

    /// What a scan of the value columns found is carried across writes and equals a scan of
    /// the live records at every snapshot, through a compaction (which starts the kind's
    /// columns over); a set of ranges past the limit is reported as such; the columns' bytes
    /// are accounted.
    @Test func rangeMatchesFollowWrites() throws {
        var rng = SplitMix64(seed: 77)
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let dogs = Array(Sample.raw["dog"]!.prefix(3_000))
        try e.upsert(dogs.map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        var ids = dogs.map(\.id)
        let rare = [FilterRange(field: "weight_kg", lower: 60, upper: .infinity)]
        let common = [FilterRange(field: "weight_kg", lower: 5, upper: 25), FilterRange(field: "available", lower: 1, upper: 1)]
        for step in 0..<60 {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                let id = ids.randomElement(using: &rng)!
                _ = try e.patch(kind: "dog", record: id, set: [("weight_kg", .number(String(Int.random(in: 2...90, using: &rng))))])
            case 1: _ = try e.remove(kind: "dog", ids: [ids.remove(at: Int.random(in: 0..<ids.count, using: &rng))])
            default:
                let at = Self.centre(&rng)
                let json = #"{"id":"n\#(step)","kind":"dog","lat":\#(at.lat),"lon":\#(at.lon),"name":"N","breed":"Pug","birth_date":"2020-01-01","sex":"male","weight_kg":\#(Int.random(in: 3...90, using: &rng)),"owner_id":"o","owner_experience":3,"available":true}"#
                _ = try e.upsert([try PointRecord.from(json: Sample.json(json), defaultKind: nil, path: "")])
                ids.append("n\(step)")
            }
            if step == 40 { try #require(e.pointSet(kind: "dog")).compact() }
            let snap = try #require(e.pointSet(kind: "dog")).snapshot()
            func brute(_ ranges: [FilterRange]) -> [Int32] {
                snap.allLive().map(\.index).filter { i in
                    let record = Engine.record(snap.entry(EntryRef(index: i)))
                    return ranges.allSatisfy { $0.contains(FilterRange.value(of: record, field: $0.field)) }
                }.sorted()
            }
            let want = brute(rare)
            #expect(e.rangeCandidates(kind: "dog", snap, rare, limit: 1_000) == .found(want), "step \(step)")
            if !want.isEmpty { #expect(e.rangeCandidates(kind: "dog", snap, rare, limit: want.count - 1) == .many, "step \(step): more than the limit") }
            #expect(e.rangeCandidates(kind: "dog", snap, common, limit: 50) == .many, "step \(step)")
            #expect(e.rangeCandidates(kind: "dog", snap, common, limit: .max) == .found(brute(common)), "step \(step)")
            let found = try #require(e.rangeMatches.withLock { $0.found["dog"]?[rare] })
            #expect(found.generation == snap.generation && found.covered == snap.entryCount)
        }
        let m = e.rangeMatches.withLock { $0 }
        #expect(m.columns["dog"]?.count == 2 && m.columnBytes == m.columns["dog"]!.values.reduce(0) { $0 + $1.bytes })
        #expect(m.foundBytes == m.found.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.value.bytes + RangeMatches.keyBytes($1.key) } })
        // Endless distinct ranges keep the results within their bound.
        let snap = try #require(e.pointSet(kind: "dog")).snapshot()
        for i in 0..<20_000 { _ = e.rangeCandidates(kind: "dog", snap, [FilterRange(field: "weight_kg", lower: 60 + Double(i) / 1e4, upper: 200)], limit: 2_000) }
        let after = e.rangeMatches.withLock { $0 }
        #expect(after.foundBytes <= RangeMatches.maximumFoundBytes && after.foundBytes > 0)
        #expect(after.foundBytes == after.found.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.value.bytes + RangeMatches.keyBytes($1.key) } })
    }

    /// Numeric ranges asked for the first time that allow more records than the first-ask
    /// limit walk the index, and the plan is not remembered: asked
    /// again — the same filter or another with the same ranges — they get their tree. Fewer,
    /// and the first ask builds it. Every answer equals brute force.
    @Test func rangesAskedOnceWalkUnlessTheyAreRare() throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let dogs = Array(Sample.raw["dog"]!.prefix(8_000))
        try e.upsert(dogs.map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        let snap = try #require(e.pointSet(kind: "dog")).snapshot()
        let first = Engine.firstAskLimit(records: 8_000), index = Engine.filterIndexLimit(records: 8_000)
        try #require(first < index)
        // The weight above which a given number of these dogs lie.
        let weights = Self.typedDogs.prefix(8_000).compactMap { r -> Double? in if case .dog(let d) = r.1 { d.weightKg } else { nil } }.sorted(by: >)
        func atLeast(_ count: Int) -> Double { weights[count - 1] }
        let middling = atLeast((first + index) / 2), rare = atLeast(first / 2)
        let from = GeoPoint(lat: 52.2, lon: 21.0)
        func ask(_ filter: RecordFilter) throws -> PlanReport {
            let got = try e.nearest(NearestQuery(kind: "dog", from: from, k: 5, filter: filter))
            #expect(got.hits.map(\.id) == Self.bruteNearest(filter, snap, from: from, k: 5))
            return try #require(got.plan)
        }
        func weightFilter(_ w: Double) throws -> RecordFilter {
            try RecordFilter.parse(Sample.json(#"{"weight_kg": {"min": \#(w)}}"#), kind: "dog", today: Sample.today)
        }
        let reused = try weightFilter(middling)
        #expect(try ask(reused).plan == .indexWalk)
        let again = try ask(reused)
        #expect(again.plan == .filterIndex, "the same filter asked again")
        #expect(again.key == "weight_kg" && again.candidates.map { $0 > first && $0 <= index } == true, "\(String(describing: again.candidates))")
        #expect(try ask(try weightFilter(middling)).plan == .filterIndex, "another filter with the same ranges")
        #expect(try ask(try weightFilter(rare)).plan == .filterIndex, "rare ranges build their tree at once")
    }

    /// A scan of the value columns equals a brute-force pass over the same values, for
    /// random spans across and within chunks, one to three ranges, and limits around the
    /// count.
    @Test func aColumnScanEqualsBruteForce() throws {
        let snap = try #require(Sample.engine.pointSet(kind: "dog")).snapshot()
        let fields = ["weight_kg", "temperament", "energy"]
        let columns = fields.map { ValueColumn(field: $0, snap) }
        let n = snap.entryCount
        try #require(n > 2 * ValueColumn.chunkSize)
        func value(_ c: Int, _ i: Int) -> Double { columns[c].chunks[i / ValueColumn.chunkSize][i % ValueColumn.chunkSize] }
        var rng = SplitMix64(seed: 99)
        for _ in 0..<60 {
            let start = Int.random(in: 0..<n, using: &rng), end = Int.random(in: start...n, using: &rng)
            let used = Array(0..<Int.random(in: 1...3, using: &rng))
            let ranges = used.map { c -> FilterRange in
                switch c {
                case 0: let lo = Double.random(in: 0...60, using: &rng); return FilterRange(field: fields[c], lower: lo, upper: lo + Double.random(in: 0...80, using: &rng))
                case 1: return FilterRange(field: fields[c], lower: Double.random(in: 1...5, using: &rng), upper: 5)
                default: return FilterRange(field: fields[c], lower: 1, upper: Double(Int.random(in: 1...5, using: &rng)))
                }
            }
            let want = (start..<end).filter { i in used.allSatisfy { ranges[$0].contains(value($0, i)) } }.map { Int32($0) }
            let cols = used.map { columns[$0] }
            #expect(ValueColumn.matching(ranges, cols, from: start, below: end, limit: want.count) == want, "\(ranges) \(start)..<\(end)")
            if !want.isEmpty { #expect(ValueColumn.matching(ranges, cols, from: start, below: end, limit: want.count - 1) == nil) }
        }
    }

    /// The columns stay within their bound in bytes when filters name more fields than it
    /// holds: a new column lets go of those asked for least recently, never one its own
    /// query needs; a column that cannot fit leaves its ranges uncounted (`many`). Every
    /// count still equals the live records'.
    @Test func columnsPastTheirBoundLetTheLeastRecentlyAskedGo() throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        try e.upsert(Sample.raw["dog"]!.prefix(3_000).map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        let snap = try #require(e.pointSet(kind: "dog")).snapshot()
        let one = ValueColumn(field: "weight_kg", snap).bytes
        e.rangeMatches.withLock { $0.columnBudget = 3 * one + 64 }   // three columns (field names differ in length)
        func brute(_ ranges: [FilterRange]) -> [Int32] {
            snap.allLive().map(\.index).filter { i in
                let record = Engine.record(snap.entry(EntryRef(index: i)))
                return ranges.allSatisfy { $0.contains(FilterRange.value(of: record, field: $0.field)) }
            }.sorted()
        }
        func held() -> Set<String> { Set(e.rangeMatches.withLock { $0.columns["dog"]?.keys.map { $0 } ?? [] }) }
        func ask(_ ranges: [FilterRange]) {
            #expect(e.rangeCandidates(kind: "dog", snap, ranges, limit: .max) == .found(brute(ranges)), "\(ranges)")
            let m = e.rangeMatches.withLock { $0 }
            #expect(m.columnBytes <= m.columnBudget && m.columnBytes == m.columns.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.bytes } })
        }
        let weight = FilterRange(field: "weight_kg", lower: 30, upper: .infinity)
        let energy = FilterRange(field: "energy", lower: 4, upper: 5)
        let temperament = FilterRange(field: "temperament", lower: 4, upper: 5)
        let barking = FilterRange(field: "barking", lower: 1, upper: 2)
        ask([weight]); ask([energy]); ask([temperament])
        #expect(held() == ["weight_kg", "energy", "temperament"])
        ask([weight])                       // weight asked again: energy is now the least recent
        ask([barking, temperament])         // needs room for one: energy goes
        #expect(held() == ["weight_kg", "temperament", "barking"])
        ask([energy, barking, temperament]) // needs room for one, and not those two: weight goes
        #expect(held() == ["energy", "temperament", "barking"])
        // Four fields at once cannot fit: the scan is not made (the query walks the index).
        #expect(e.rangeCandidates(kind: "dog", snap, [weight, energy, temperament, barking], limit: .max) == .many)
        #expect(e.rangeMatches.withLock { $0.columnBytes <= $0.columnBudget })
    }

    /// A filter asked often enough gets a bitmap of the entries it selects; answers are the
    /// same before and after, and after writes (a new snapshot's first query extends the
    /// bitmap over the records written since, and a dog patched in or out of the filter is
    /// in or out of the next answer).
    @Test func aRepeatedFilterGetsABitmapAndTheSameAnswers() throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let dogs = Sample.raw["dog"]!.prefix(3000)
        try e.upsert(dogs.map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        let text = #"{"available": true, "weight_kg": {"min": 5, "max": 25}}"#
        let filter = try RecordFilter.parse(Sample.json(text), kind: "dog", today: Sample.today, breeds: Sample.catalog.breeds)
        let ids = Set(dogs.map(\.id))
        let typed = Self.typedDogs.filter { ids.contains($0.0.id) }
        func oracle(_ origin: GeoPoint, k: Int, patched: [String: Bool] = [:]) -> [String] {
            var found: [(id: String, d: Double)] = []
            for t in typed where patched[t.0.id] ?? filter.matches(t.1) {
                found.append((t.0.id, DistanceBounds.millimetres(t.0.point, origin)))
            }
            found.sort { $0.d != $1.d ? $0.d < $1.d : $0.id < $1.id }
            return found.prefix(k).map(\.id)
        }
        var rng = SplitMix64(seed: 77)
        let uses = FilterMaps.usesBeforeBuilding(entries: 3000)
        // Built for the kind's current snapshot (an older snapshot's bitmap is never used).
        func bitmapBuilt() -> Bool {
            let version = e.pointSet(kind: "dog")!.snapshot().version
            return e.filterMaps.withLock { c in c.kinds["dog"].map { $0.version == version && $0.maps[filter]?.bits != nil } ?? false }
        }
        // Not before `uses` queries; then built on the spare core (here with one core) and
        // taken by a query once done, by twice `uses` queries at the latest.
        var builtAfter = 0
        for i in 0..<(2 * uses + 5) {
            let from = Self.centre(&rng)
            #expect(try e.nearest(NearestQuery(kind: "dog", from: from, k: 7, filter: filter)).hits.map(\.id) == oracle(from, k: 7), "query \(i)")
            if bitmapBuilt() && builtAfter == 0 { builtAfter = i + 1 }
            if i + 1 >= uses && builtAfter == 0 && SpareCore.hasHelper { Thread.sleep(forTimeInterval: 0.002) }
        }
        #expect(builtAfter >= uses && builtAfter <= 2 * uses, "built after \(builtAfter) queries")
        // A matching dog taken out of the filter, and back: the new snapshot's answers follow.
        let chosen = try #require(typed.first { filter.matches($0.1) })
        let inside = chosen.0.id, near = chosen.0.point
        try e.patch(kind: "dog", record: inside, set: [("available", .bool(false))])
        #expect(!bitmapBuilt())
        for _ in 0..<(uses + 2) {
            #expect(try e.nearest(NearestQuery(kind: "dog", from: near, k: 3, filter: filter)).hits.map(\.id)
                    == oracle(near, k: 3, patched: [inside: false]))
        }
        #expect(bitmapBuilt())
        try e.patch(kind: "dog", record: inside, set: [("available", .bool(true))])
        #expect(try e.nearest(NearestQuery(kind: "dog", from: near, k: 3, filter: filter)).hits.map(\.id) == oracle(near, k: 3))
    }

    /// A filter built in Swift and the same filter sent as JSON (its fields in another order,
    /// a breed by another name) are one filter: equal, hashed alike, with the same planning
    /// keys and ranges; the bitmap the JSON filter earned is the Swift filter's, and the plan
    /// remembered for one is found for the other, with the same answers.
    @Test func aSwiftFilterSharesTheJSONFiltersPlanAndBitmap() throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let dogs = Sample.raw["dog"]!.prefix(3000)
        try e.upsert(dogs.map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        let json = try RecordFilter.parse(Sample.json(#"{"breed": ["Lab", "Mixed"], "available": true, "weight_kg": {"min": 5, "max": 25}}"#),
                                          kind: "dog", today: Sample.today, breeds: Sample.catalog.breeds)
        let swift = try RecordFilter.dogs(.weightKg(.within(5...25)), .available, .breed(["Labrador Retriever", "mixed"]),
                                          breeds: Sample.catalog.breeds)
        #expect(json == swift && json.hashValue == swift.hashValue)
        #expect(json.keys == swift.keys && Set(json.ranges) == Set(swift.ranges))
        let other = try RecordFilter.dogs(.weightKg(.within(5...26)), .available, .breed(["Labrador Retriever", "mixed"]), breeds: Sample.catalog.breeds)
        #expect(other != json)
        var rng = SplitMix64(seed: 31)
        let uses = FilterMaps.usesBeforeBuilding(entries: dogs.count)
        func bits(_ f: RecordFilter) -> [UInt64]? { e.filterMaps.withLock { $0.kinds["dog"]?.maps[f]?.bits } }
        // The JSON filter asked until its bitmap is built (by twice `uses` queries at the latest).
        for _ in 0..<(2 * uses + 1) where bits(json) == nil {
            let from = Self.centre(&rng)
            #expect(try e.nearest(NearestQuery(kind: "dog", from: from, k: 5, filter: json)).hits.map(\.id)
                    == Self.bruteNearest(json, try #require(e.pointSet(kind: "dog")).snapshot(), from: from, k: 5))
            if bits(json) == nil && SpareCore.hasHelper { Thread.sleep(forTimeInterval: 0.002) }
        }
        let built = try #require(bits(json))
        #expect(bits(swift) == built && bits(other) == nil)
        // Asked at the same snapshot, the Swift filter finds the JSON filter's plan.
        let from = Self.centre(&rng)
        let first = try e.nearest(NearestQuery(kind: "dog", from: from, k: 5, filter: json))
        let hits = e.planMemo.withLock { $0.hits }
        let again = try e.nearest(NearestQuery(kind: "dog", from: from, k: 5, filter: swift))
        #expect(e.planMemo.withLock { $0.hits } == hits + 1)
        #expect(again.hits.map(\.id) == first.hits.map(\.id) && again.plan?.plan == first.plan?.plan)
    }

    /// A filter asked again at the same snapshot takes the plan remembered for it
    /// (``PlanMemo``), with the brute-force answer; a write's snapshot is planned anew, and
    /// the plans of the snapshots it replaced go. The memo holds at most its capacity.
    @Test func aFilterAskedAgainAtTheSameSnapshotTakesItsRememberedPlan() throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let dogs = Sample.raw["dog"]!.prefix(3000)
        try e.upsert(dogs.map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        func brute(_ filter: RecordFilter, from: GeoPoint, k: Int) throws -> [String] {
            Self.bruteNearest(filter, try #require(e.pointSet(kind: "dog")).snapshot(), from: from, k: k)
        }
        // A breed between the filter-first and the filter-index limits, for the key's own tree.
        var counts: [String: Int] = [:]
        for (_, record) in Self.typedDogs.prefix(dogs.count) { if case .dog(let d) = record { counts[d.breed.name, default: 0] += 1 } }
        let middling = try #require(counts.filter { $0.value > Engine.filterFirstLimit + 10 && $0.value < Engine.filterIndexLimit(records: dogs.count) - 10 }
            .keys.sorted().first)
        let texts = (Self.breeds + [middling]).map { #"{"breed":"\#($0)"}"# }
            + [#"{"available":true}"#, #"{"breed":["Pug","Chinook"],"sex":"female"}"#]
        let filters = try texts.map {
            try RecordFilter.parse(Sample.json($0), kind: "dog", today: Sample.today, breeds: Sample.catalog.breeds, species: Sample.catalog.species)
        }
        var rng = SplitMix64(seed: 15)
        var plans = Set<String>()
        for (filter, text) in zip(filters, texts) {
            let hitsBefore = e.planMemo.withLock { $0.hits }
            defer {
                // Asked six times at one snapshot (a nearest and a radius search, three times):
                // planned once, the plan found five times; numeric ranges alone, asked for the
                // first time and common, are planned again at their second ask (the first
                // ask's scan stops early, its walk not remembered), then found four times.
                let planned = filter.keys.isEmpty ? 2 : 1
                #expect(e.planMemo.withLock { $0.hits } - hitsBefore == 6 - planned, "\(text)")
            }
            var first: PlanReport?
            for ask in 0..<3 {
                let from = Self.centre(&rng)
                let got = try e.nearest(NearestQuery(kind: "dog", from: from, k: 6, filter: filter))
                #expect(got.hits.map(\.id) == (try brute(filter, from: from, k: 6)), "\(text), asked \(ask + 1) times")
                let plan = try #require(got.plan)
                if let first {
                    #expect(plan.plan == first.plan && plan.candidates == first.candidates && plan.key == first.key, "\(text)")
                } else {
                    first = plan
                }
                let c = Self.centre(&rng), r = Double.random(in: 2_000...40_000, using: &rng)
                let around = try e.search(SearchQuery(kind: "dog", area: .radius(center: c, meters: r), limit: 100_000, filter: filter))
                #expect(Set(around.hits.map(\.id)) == Set(try brute(filter, from: c, k: 100_000).filter { id in
                    Geodesic.distance(dogs.first { $0.id == id }!.point, c) <= r }), "\(text) within \(r) m")
            }
            plans.insert(first!.plan.rawValue)
        }
        // Every plan was remembered: the filters cover them all.
        #expect(plans == ["index_walk", "filter_first", "filter_index", "empty"], "\(plans)")
        #expect(e.planMemo.withLock { $0.count } == min(filters.count, PlanMemo.capacity))
        // A filter parsed anew is the same filter (a value): its plan is found again.
        let remembered = e.planMemo.withLock { $0.count }, hits = e.planMemo.withLock { $0.hits }
        for text in texts {
            let again = try RecordFilter.parse(Sample.json(text), kind: "dog", today: Sample.today,
                                               breeds: Sample.catalog.breeds, species: Sample.catalog.species)
            let from = Self.centre(&rng)
            #expect(try e.nearest(NearestQuery(kind: "dog", from: from, k: 3, filter: again)).hits.map(\.id) == (try brute(again, from: from, k: 3)))
        }
        #expect(e.planMemo.withLock { $0.count } == remembered && e.planMemo.withLock { $0.hits } == hits + texts.count)
        // Other filters: the oldest plans make way, within the bounds.
        for i in 0..<(2 * PlanMemo.capacity) {
            let other = try RecordFilter.parse(Sample.json(#"{"breed": "Pug", "weight_kg": {"min": \#(i)}}"#), kind: "dog", today: Sample.today,
                                               breeds: Sample.catalog.breeds, species: Sample.catalog.species)
            let from = Self.centre(&rng)
            #expect(try e.nearest(NearestQuery(kind: "dog", from: from, k: 3, filter: other)).hits.map(\.id) == (try brute(other, from: from, k: 3)))
            #expect(e.planMemo.withLock { $0.count } <= PlanMemo.capacity)
        }
        #expect(e.planMemo.withLock { $0.count } == PlanMemo.capacity)
        #expect(e.planMemo.withLock { $0.bytes } <= PlanMemo.maximumBytes)
        // A write: a new snapshot, planned anew (one plan kept), the older snapshot's plans gone.
        let moved = dogs.first!
        var json = moved.json.members!.filter { $0.0 != "lat" }
        json.append(("lat", .number(String(moved.point.lat + 0.01))))
        try e.upsert([try PointRecord.from(json: .object(json), defaultKind: nil, path: "")])
        let filter = filters[1], from = moved.point
        #expect(try e.nearest(NearestQuery(kind: "dog", from: from, k: 6, filter: filter)).hits.map(\.id) == (try brute(filter, from: from, k: 6)))
        #expect(e.planMemo.withLock { $0.count } == 1)
    }

    /// A bitmap built on the spare core covers the entries of its snapshot; the query that
    /// takes it extends it to the entries written meanwhile: equal to a bitmap built at once.
    /// Also when the job never reached the helper (its queue's lock held, as by a helper that
    /// lost its core): the query at twice the uses that started it builds the bitmap itself.
    @Test(.serialized, arguments: [false, true]) func aBitmapBuiltOnTheSpareCoreCoversTheWritesMadeMeanwhile(queueHeld: Bool) throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let records = Sample.raw["dog"]!.prefix(3000).map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") }
        try e.upsert(records)
        let text = #"{"available": true, "weight_kg": {"min": 5, "max": 25}}"#
        let filter = try RecordFilter.parse(Sample.json(text), kind: "dog", today: Sample.today, breeds: Sample.catalog.breeds)
        let query = NearestQuery(kind: "dog", from: GeoPoint(lat: 52.2, lon: 21.0), k: 5, filter: filter)
        let started = FilterMaps.usesBeforeBuilding(entries: 3000)
        let ask = { for _ in 0..<started { _ = try e.nearest(query) } }
        if queueHeld { try SpareCore.withQueueHeld { Result { try ask() } }.get() } else { try ask() }
        let job = e.filterMaps.withLock { $0.kinds["dog"]?.maps[filter]?.building }
        if queueHeld { #expect(job?.takenByHelper != true) }
        #expect((job != nil) == SpareCore.hasHelper, "the build goes to the spare core when there is one")
        try e.upsert(Array(records[0..<200]))   // 200 entries appended before the bitmap is taken
        // The helper runs only on an idle core, and a job finds the queue full or its lock
        // held while other tests keep both cores busy: then the job stays with its caller,
        // and the query that reaches twice the uses that started it runs it itself.
        let finished = queueHeld ? false : job.map(Self.waitForHelper) ?? false
        let snap = try #require(e.pointSet(kind: "dog")).snapshot()
        #expect(snap.entryCount == 3200)
        // At twice the threshold's uses (the threshold grew with the entries), a query takes it.
        let threshold = FilterMaps.usesBeforeBuilding(entries: snap.entryCount)
        var bits: [UInt64]?, asked = 0
        while bits == nil && started + asked < 2 * threshold { bits = e.filterBitmap(kind: "dog", snap, filter); asked += 1 }
        let taken = try #require(bits, "no bitmap after \(asked) more uses of the filter")
        #expect(taken == Engine.bitmap(of: filter, snap, from: 0, extending: []))
        if finished { #expect(asked == 1, "a bitmap the helper finished is taken by the next query") }
    }

    /// Many filters past their threshold at once: at most `maximumBuilding` bitmaps are in
    /// the making on the spare core (each holds its snapshot, and its bits until taken);
    /// the others wait their turn and are built once those are taken.
    @Test func fewBitmapsAreInTheMakingAtOnce() throws {
        guard SpareCore.hasHelper else { return }   // one core: every bitmap is built inline
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        try e.upsert(Sample.raw["dog"]!.prefix(3000).map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        let filters = try (0..<6).map { i in
            try RecordFilter.parse(Sample.json(#"{"weight_kg": {"min": \#(i + 1)}}"#), kind: "dog", today: Sample.today)
        }
        func query(_ f: RecordFilter) throws { _ = try e.nearest(NearestQuery(kind: "dog", from: GeoPoint(lat: 52.2, lon: 21.0), k: 5, filter: f)) }
        func inMaking() -> Int { e.filterMaps.withLock { c in c.kinds["dog"]?.maps.values.filter { $0.building != nil }.count ?? 0 } }
        func built() -> Int { e.filterMaps.withLock { c in c.kinds["dog"]?.maps.values.filter { $0.bits != nil }.count ?? 0 } }
        let uses = FilterMaps.usesBeforeBuilding(entries: 3000)
        for f in filters { for _ in 0..<uses { try query(f) } }
        #expect(inMaking() <= FilterMaps.maximumBuilding)
        #expect(e.filterMaps.withLock { $0.kinds["dog"]?.building } == inMaking())
        // Queried on, every filter gets its bitmap (those waiting start once others are taken).
        let deadline = Date().addingTimeInterval(60)
        while built() < filters.count && Date() < deadline {
            for f in filters { try query(f) }
            #expect(inMaking() <= FilterMaps.maximumBuilding)
            Thread.sleep(forTimeInterval: 0.002)
        }
        #expect(built() == filters.count && inMaking() == 0)
        #expect(e.filterMaps.withLock { $0.kinds["dog"]?.building } == 0)
    }

    /// Endless distinct filters at one snapshot: the counts kept for them stay bounded.
    @Test func distinctFiltersDoNotGrowTheCacheWithoutBound() throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        try e.upsert(Sample.raw["dog"]!.prefix(50).map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        for i in 0..<(FilterMaps.maximumCounted + 500) {
            let f = try RecordFilter.parse(Sample.json(#"{"weight_kg": {"min": \#(Double(i) / 1000)}}"#), kind: "dog", today: Sample.today)
            _ = try e.nearest(NearestQuery(kind: "dog", from: GeoPoint(lat: 52, lon: 0), k: 1, filter: f))
        }
        let counted = e.filterMaps.withLock { $0.kinds["dog"]?.maps.count ?? 0 }
        #expect(counted > 0 && counted <= FilterMaps.maximumCounted)
        // Each filter counted is small: a long one is never counted nor cached.
        let names = (0..<400).map { "\"owner-\($0)\"" }.joined(separator: ",")
        let long = try RecordFilter.parse(Sample.json(#"{"owner_id": [\#(names)]}"#), kind: "dog", today: Sample.today)
        #expect(long.bytes > RecordFilter.maximumCachedBytes)
        for _ in 0..<20 { _ = try e.nearest(NearestQuery(kind: "dog", from: GeoPoint(lat: 52, lon: 0), k: 1, filter: long)) }
        #expect(e.filterMaps.withLock { $0.kinds["dog"]?.maps[long] } == nil)
    }

    @Test func postingListsFollowWrites() throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let dog = #"{"id":"d1","kind":"dog","lat":53.3,"lon":-6.2,"name":"A","breed":"Pug","birth_date":"2020-01-01","sex":"male","weight_kg":8,"owner_id":"o1","owner_experience":3}"#
        try e.upsert([try PointRecord.from(json: Sample.json(dog), defaultKind: nil, path: "")])
        let pug = try RecordFilter.parse(Sample.json(#"{"breed": "Pug"}"#), kind: "dog", today: Sample.today, breeds: Sample.catalog.breeds)
        let q = NearestQuery(kind: "dog", from: GeoPoint(lat: 53.3, lon: -6.2), k: 5, filter: pug)
        #expect(try e.nearest(q).hits.map(\.id) == ["d1"])
        // Re-upserted as another breed: the posting lists are rebuilt for the new snapshot.
        try e.patch(kind: "dog", record: "d1", set: [("breed", .string("Beagle"))])
        #expect(try e.nearest(q).hits.isEmpty)
        #expect(try e.nearest(q).plan?.plan == .empty)
        try e.patch(kind: "dog", record: "d1", set: [("breed", .string("Pug"))])
        #expect(try e.nearest(q).hits.map(\.id) == ["d1"])
    }

    /// Live writes (breeds changed, dogs made unavailable, removed and added) interleaved with
    /// filtered queries: after every write the posting lists carried forward equal lists built
    /// afresh for every key, and every plan (with the filter's bitmap in use once it is asked
    /// often) gives the brute-force answer over the snapshot's live records.
    @Test(arguments: TestScale.isFull ? [41, 42] : [41])
    func plansFollowLiveWrites(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let dogs = Array(Sample.raw["dog"]!.prefix(1_500))
        try e.upsert(dogs.map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        var ids = dogs.map(\.id)
        let repeated = try RecordFilter.parse(Sample.json(#"{"breed": ["Mixed", "Labrador Retriever", "Pug"], "available": true}"#),
                                              kind: "dog", today: Sample.today, breeds: Sample.catalog.breeds, species: Sample.catalog.species)
        var carriedSnapshots = 0, bitmapAnswers = 0
        for step in 0..<120 {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0:
                let id = ids.randomElement(using: &rng)!
                _ = try e.patch(kind: "dog", record: id, set: [("breed", .string(Self.breeds.randomElement(using: &rng)!))])
            case 1:
                let id = ids.randomElement(using: &rng)!
                _ = try e.patch(kind: "dog", record: id, set: [("available", .bool(Bool.random(using: &rng)))])
            case 2:
                let id = ids.remove(at: Int.random(in: 0..<ids.count, using: &rng))
                _ = try e.remove(kind: "dog", ids: [id])
            default:
                let id = "new-\(step)", at = Self.centre(&rng)
                let breed = Self.breeds.randomElement(using: &rng)!
                let json = #"{"id":"\#(id)","kind":"dog","lat":\#(at.lat),"lon":\#(at.lon),"name":"N","breed":"\#(breed)","birth_date":"2020-01-01","sex":"male","weight_kg":\#(Int.random(in: 3...40, using: &rng)),"owner_id":"o-\#(step % 7)","owner_experience":3,"available":\#(Bool.random(using: &rng))}"#
                _ = try e.upsert([try PointRecord.from(json: Sample.json(json), defaultKind: nil, path: "")])
                ids.append(id)
            }
            // Now and then a compaction renumbers the entries: every cache starts over.
            if step % 40 == 39 { try #require(e.pointSet(kind: "dog")).compact() }
            let snap = try #require(e.pointSet(kind: "dog")).snapshot()
            // Posting lists: carried forward, equal to fresh ones for every value of every field.
            let lists = e.postings(kind: "dog", snap), fresh = PostingLists(snap)
            if lists.carriedEntries > 0 { carriedSnapshots += 1 }
            for (field, byValue) in fresh.base {
                let values = Array(byValue.keys) + ["no such value"]
                for v in values {
                    let key: FilterKey = field == "breed" ? .dogBreed([v]) : .dogOwner([v])
                    #expect(lists.count(key, snap) == fresh.count(key, snap), "step \(step) \(field)=\(v)")
                    #expect(lists.candidates(key, snap) == fresh.candidates(key, snap), "step \(step) \(field)=\(v)")
                    let start = Int.random(in: 0...snap.entryCount, using: &rng)
                    #expect(lists.candidates(key, snap, from: start) == fresh.candidates(key, snap).filter { $0 >= start },
                            "step \(step) \(field)=\(v) from \(start)")
                }
            }
            // Answers: brute force over the live records of this snapshot.
            for round in 0..<3 {
                let (filter, text) = round == 0 ? (repeated, "repeated") : Self.filter(&rng)
                let from = Self.centre(&rng)
                let k = Int.random(in: 1...12, using: &rng)
                let want = Self.bruteNearest(filter, snap, from: from, k: k)
                if round == 0, e.filterBitmap(kind: "dog", snap, filter) != nil { bitmapAnswers += 1 }
                for choice in [PlanChoice.indexWalk, .filterFirst, .filterIndex, .automatic] {
                    var q = NearestQuery(kind: "dog", from: from, k: k, filter: filter)
                    q.plan = choice
                    let got = try e.nearest(q)
                    #expect(got.hits.map(\.id) == want, "step \(step) \(choice) \(text) k=\(k)")
                }
            }
        }
        // The lists were carried, not rebuilt, and the bitmap was in use across the writes.
        #expect(carriedSnapshots > 90)
        #expect(bitmapAnswers > 100)
    }

    /// A write that replaces more records than the carry limit allows folds what was
    /// carried into new base lists (nothing carried), equal to lists built from every live
    /// record; the next small write carries again.
    @Test func postingListsAreFoldedPastTheCarryLimit() throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let dogs = Array(Sample.raw["dog"]!.prefix(1_200))
        let records = dogs.map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") }
        try e.upsert(records)
        func check(carried: Bool) throws {
            let snap = try #require(e.pointSet(kind: "dog")).snapshot()
            let lists = e.postings(kind: "dog", snap), fresh = PostingLists(snap)
            #expect((lists.carriedEntries > 0) == carried)
            if !carried { #expect(lists.base == fresh.base) }
            for (field, byValue) in fresh.base {
                for v in byValue.keys {
                    let key: FilterKey = field == "breed" ? .dogBreed([v]) : .dogOwner([v])
                    #expect(lists.candidates(key, snap) == fresh.candidates(key, snap), "\(field)=\(v)")
                }
            }
        }
        try check(carried: false)
        // 1,200 records replaced: 2,400 entries to carry, past the limit of 1,024.
        try e.upsert(records)
        #expect(PostingLists.carryLimit(1_200) < 2_400)
        try check(carried: false)
        _ = try e.patch(kind: "dog", record: dogs[0].id, set: [("breed", .string("Pug"))])
        try check(carried: true)
        // Half the dogs removed, a quarter replaced: a fold drops the entries removed since
        // (and a value left with none), keeps the rest in order.
        _ = try e.remove(kind: "dog", ids: dogs.prefix(600).map(\.id))
        try e.upsert(Array(records[600..<900]))
        try check(carried: false)
        // 250 records replaced (500 entries carried), then 10 more: the recent changes pass
        // their limit and merge into the older ones; then 3 removed, carried on top.
        try e.upsert(Array(records[900..<1_150]))
        try check(carried: true)
        try e.upsert(Array(records[1_150..<1_160]))
        let merged = try #require(e.pointSet(kind: "dog")).snapshot()
        // Merged into the older ones, or (past half the carry limit, with a spare core)
        // handed to the fold with them.
        let lists = e.postings(kind: "dog", merged)
        #expect(lists.recent.entries == 0 && lists.older.entries + lists.folding.entries > PostingLists.recentLimit)
        try check(carried: true)
        _ = try e.remove(kind: "dog", ids: dogs[900..<903].map(\.id))
        try check(carried: true)
    }

    /// Past half the carry limit a fold is posted to the spare core; once it is done, the
    /// next snapshot's lists are its lists carried forward (their base covers the fold's
    /// snapshot), equal to lists built from every live record.
    @Test func aFoldOnTheSpareCoreIsCarriedForward() throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let dogs = Array(Sample.raw["dog"]!.prefix(1_200))
        let records = dogs.map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") }
        try e.upsert(records)
        let set = try #require(e.pointSet(kind: "dog"))
        let first = e.postings(kind: "dog", set.snapshot())
        try e.upsert(Array(records[0..<300]))   // 600 entries carried: past half of 1,024
        let posted = e.postings(kind: "dog", set.snapshot())
        guard SpareCore.hasHelper else { return }   // one core: every fold runs on its caller
        let fold = try #require(posted.pendingFold, "a fold was posted past half the carry limit")
        // The helper runs only on an idle core; if the other tests keep both busy, the
        // writes go on past twice the limit, where the query takes the fold's answer itself.
        let deadline = Date().addingTimeInterval(30)
        while !fold.isFinished && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        let onTime = fold.isFinished
        if onTime {
            _ = try e.patch(kind: "dog", record: dogs[500].id, set: [("breed", .string("Pug"))])
        } else {
            try e.upsert(Array(records[300..<1_100]))   // 1,600 entries more: 2,200 carried
        }
        let snap = set.snapshot()
        let lists = e.postings(kind: "dog", snap), fresh = PostingLists(snap)
        #expect(lists.baseCovered > first.baseCovered, "carried from the fold's lists")
        #expect(lists.pendingFold == nil && lists.carriedEntries == (onTime ? 2 : 1_600))
        for (field, byValue) in fresh.base {
            for v in byValue.keys {
                let key: FilterKey = field == "breed" ? .dogBreed([v]) : .dogOwner([v])
                #expect(lists.count(key, snap) == fresh.count(key, snap), "\(field)=\(v)")
                #expect(lists.candidates(key, snap) == fresh.candidates(key, snap), "\(field)=\(v)")
            }
        }
    }

    /// A restored kind's posting lists are built on the spare core, not by its first
    /// filtered query, and that query takes them carried to the writes made since; a
    /// kind too small for it, and an engine filled by upserts, start no build.
    @Test func aRestoredKindsPostingListsAreBuiltBeforeItsFirstFilteredQuery() throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let dogs = Array(Sample.raw["dog"]!.prefix(Engine.preparedFiltersMinimum + 2_000))
        try e.upsert(dogs.map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        try e.upsert(Sample.raw["gym"]!.prefix(100).map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        #expect(e.kinds.allSatisfy { e.pendingPostingBuild(kind: $0) == nil }, "upserts start no build")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scout-planner-tests-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try e.writeSnapshot(to: directory + "/dogs.snap")
        let restored = try Engine(snapshot: directory + "/dogs.snap", privacy: .exact)
        let build = try #require(restored.pendingPostingBuild(kind: "dog"), "a build was posted for the dogs")
        #expect(restored.pendingPostingBuild(kind: "gym") == nil, "100 gyms: their first filtered query builds their lists")
        let onTime = Self.waitForHelper(build)
        _ = try restored.patch(kind: "dog", record: dogs[7].id, set: [("breed", .string("Pug"))])
        try restored.remove(kind: "dog", ids: [dogs[8].id])
        let snap = try #require(restored.pointSet(kind: "dog")).snapshot()
        let lists = restored.postings(kind: "dog", snap)
        if onTime { #expect(build.resultCameFromHelper, "the query took the helper's lists") }
        #expect(restored.pendingPostingBuild(kind: "dog") == nil, "the build was taken")
        if onTime {
            #expect(lists.baseCovered < snap.entryCount && lists.carriedEntries == 3,
                    "the build's lists (of the restored snapshot), carried to the patch (an entry removed, one added) and the removal")
        }
        let fresh = Self.expectEqualToFresh(lists, snap)
        let pug = try RecordFilter.parse(Sample.json(#"{"breed": "Pug"}"#), kind: "dog", today: Sample.today, breeds: Sample.catalog.breeds)
        let pugs = try restored.nearest(NearestQuery(kind: "dog", from: GeoPoint(lat: 52.23, lon: 21.01), k: 3, filter: pug))
        #expect(pugs.plan?.candidates == fresh.count(try #require(pug.keys.first), snap), "the query's plan counted from the lists")
    }

    /// A compaction renumbers the entries: for a kind whose posting lists were in use, the
    /// new numbering's lists are built on the spare core at once, and the next filtered
    /// query takes them (carried to its snapshot) with the brute-force answer. A kind never
    /// filtered gets no build.
    @Test func aCompactedKindsPostingListsAreBuiltBeforeItsNextFilteredQuery() throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let dogs = Array(Sample.raw["dog"]!.prefix(Engine.preparedFiltersMinimum + 2_000))
        try e.upsert(dogs.map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        let gyms = Sample.raw["gym"]!.prefix(100).map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") }
        try e.upsert(gyms)
        let pug = try RecordFilter.parse(Sample.json(#"{"breed": "Pug"}"#), kind: "dog", today: Sample.today, breeds: Sample.catalog.breeds)
        let from = GeoPoint(lat: 52.23, lon: 21.01)
        _ = try e.nearest(NearestQuery(kind: "dog", from: from, k: 3, filter: pug))   // the lists are in use
        #expect(e.kinds.allSatisfy { e.pendingPostingBuild(kind: $0) == nil }, "upserts and queries start no build")
        let set = try #require(e.pointSet(kind: "dog"))
        let before = set.snapshot().generation
        set.compact()
        try #require(e.pointSet(kind: "gym")).compact()
        #expect(set.snapshot().generation == before + 1)
        let build = try #require(e.pendingPostingBuild(kind: "dog"), "the compaction posted a build for the dogs")
        #expect(e.pendingPostingBuild(kind: "gym") == nil, "the gyms were never filtered: no build")
        let onTime = Self.waitForHelper(build)
        _ = try e.patch(kind: "dog", record: dogs[7].id, set: [("breed", .string("Pug"))])
        let snap = set.snapshot()
        let pugs = try e.nearest(NearestQuery(kind: "dog", from: from, k: 5, filter: pug))
        if onTime { #expect(build.resultCameFromHelper, "the query took the helper's lists") }
        #expect(e.pendingPostingBuild(kind: "dog") == nil, "the build was taken")
        let lists = e.postings(kind: "dog", snap)
        #expect(lists.generation == snap.generation)
        if onTime { #expect(lists.carriedEntries == 2, "the build's lists, carried to the patch (an entry removed, one added)") }
        Self.expectEqualToFresh(lists, snap)
        #expect(pugs.hits.map(\.id) == Self.bruteNearest(pug, snap, from: from, k: 5))
    }

    /// A build whose engine is gone before it runs builds nothing (it sees its snapshot
    /// through a weak reference): here the helper's queue is held while the engine is
    /// restored, so the build stays with its caller and runs, unqueued, after the drop.
    @Test func aBuildWhoseEngineIsGoneBuildsNothing() throws {
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        try e.upsert(Sample.raw["dog"]!.prefix(Engine.preparedFiltersMinimum).map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") })
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scout-planner-gone-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try e.writeSnapshot(to: directory + "/dogs.snap")
        var restored: Engine? = SpareCore.withQueueHeld { try? Engine(snapshot: directory + "/dogs.snap", privacy: .exact) }
        let job = try #require(restored?.pendingPostingBuild(kind: "dog"))
        #expect(!job.takenByHelper)
        restored = nil
        #expect(job.result() == nil, "the dropped engine's snapshot is not built from")
    }

    /// A fold's lists are taken with every change made while it ran, including those the
    /// recent delta merged into the older one meanwhile (a set of 50,000 entries, whose
    /// carry limit, 1,562, leaves room for them): no record is read again, and the lists
    /// equal lists built from every live record.
    @Test func aFoldIsTakenWithTheChangesMadeWhileItRan() throws {
        guard SpareCore.hasHelper else { return }   // one core: every fold runs on its caller
        let e = Engine(catalog: Sample.catalog, privacy: .exact)
        let dogs = Array(Sample.raw["dog"]!)
        let records = dogs.map { try! PointRecord.from(json: $0.json, defaultKind: nil, path: "") }
        try e.upsert(records)
        let set = try #require(e.pointSet(kind: "dog"))
        #expect(PostingLists.carryLimit(dogs.count) == 1_562)
        _ = e.postings(kind: "dog", set.snapshot())
        // Keep the helper busy, so that the fold waits in its queue.
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        var blocker: SpareCore.Job<Int>?
        for _ in 0..<600 where blocker == nil {
            let job = SpareCore.post(expectedNanoseconds: 60_000_000_000) { () -> Int in
                if SpareCore.isHelperThread { release.wait() }
                return 0
            }
            var naps = 0
            while !job.takenByHelper && naps < 10 { usleep(10_000); naps += 1 }
            if job.takenByHelper { blocker = job } else { _ = job.result() }
        }
        try #require(blocker != nil, "the helper never took a job in 60 s")
        try e.upsert(Array(records[0..<400]))   // 800 entries carried: a fold is posted
        let posted = e.postings(kind: "dog", set.snapshot())
        let fold = try #require(posted.pendingFold)
        #expect(posted.folding.entries == 800 && posted.older.entries == 0 && posted.recent.entries == 0)
        try e.upsert(Array(records[400..<700]))   // 600 more: merged into the older delta
        let waiting = e.postings(kind: "dog", set.snapshot())
        #expect(!fold.isFinished && waiting.folding.entries == 800 && waiting.older.entries == 600)
        // 600 more: 2,000 carried, past the limit but not twice it, so the fold still queued
        // behind the blocker is not run here; the changes are carried on.
        try e.upsert(Array(records[700..<1_000]))
        let late = e.postings(kind: "dog", set.snapshot())
        #expect(late.pendingFold != nil && late.carriedEntries == 2_000 && !fold.isFinished)
        release.signal()
        let deadline = Date().addingTimeInterval(60)
        while !fold.isFinished && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        try #require(fold.isFinished, "the helper did not finish the fold in 60 s")
        _ = try e.patch(kind: "dog", record: dogs[1_100].id, set: [("breed", .string("Pug"))])
        let snap = set.snapshot()
        let lists = e.postings(kind: "dog", snap), fresh = PostingLists(snap)
        // The fold's base, under the 1,202 changes since (past half the limit again, so a
        // new fold may be on its way with them).
        #expect(lists.baseCovered == posted.covered && lists.carriedEntries == 1_202)
        #expect(lists.pendingFold.map { $0 !== fold } ?? true)
        for (field, byValue) in fresh.base {
            // Every breed and species; a sixteenth of the owners (a fixed choice).
            for v in byValue.keys where field != "owner_id" || v.utf8.reduce(0, &+) % 16 == 0 {
                let key: FilterKey = field == "breed" ? .dogBreed([v]) : .dogOwner([v])
                #expect(lists.count(key, snap) == fresh.count(key, snap), "\(field)=\(v)")
                #expect(lists.candidates(key, snap) == fresh.candidates(key, snap), "\(field)=\(v)")
            }
        }
    }
}
