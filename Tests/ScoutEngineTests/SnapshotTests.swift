import Foundation
import ScoutCatalog
import ScoutCore
@testable import ScoutEngine
import ScoutJSON
import ScoutRecommend
import ScoutTestSupport
import ScoutTime
import Testing

/// Snapshot files (`docs/snapshot.md`): a restored engine answers every query exactly as
/// the engine it was written from; damaged, foreign, future and privacy-mismatched files
/// are refused with an error that names the problem, never a crash.
@Suite struct SnapshotTests {
    static let directory: String = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("scout-snapshot-tests-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    /// The sample catalogue (exact privacy), written once and read back.
    static let restored: (path: String, engine: Engine) = {
        let path = directory + "/sample.snap"
        try! Sample.engine.writeSnapshot(to: path, dataDirectory: Repository.data)
        return (path, try! Engine(snapshot: path, privacy: .exact))
    }()

    // MARK: Describing answers

    static func describe(_ h: SearchHit) -> String {
        var w = JSONWriter()
        w.value(.object(h.fields))
        let fields = String(decoding: w.bytes, as: UTF8.self)
        return "\(h.id)|\(h.kind)|\(h.point?.lat ?? .nan),\(h.point?.lon ?? .nan)|\(h.distance.map { "\($0)" } ?? "-")|\(h.isApproximate)|"
            + "\(h.rating.map { "\($0)" } ?? "-")|\(h.relevance.map { "\($0)" } ?? "-")|\(fields)"
    }

    static func describe(_ r: SearchResult) -> String {
        "total \(r.total) next \(r.nextAfter ?? "-")\n" + r.hits.map(describe).joined(separator: "\n")
    }

    static func describe(_ r: RankedResult) -> String {
        "total \(r.total) weights \(r.weightsVersion)\n" + r.hits.map { h in
            describe(h.hit) + " score \(h.breakdown.score) " + h.breakdown.terms.map { "\($0.name)=\($0.value)*\($0.weight)" }.joined(separator: ",")
        }.joined(separator: "\n")
    }

    /// The same call on both engines: equal answers, or equal errors. (`body` runs twice:
    /// draw random values before it.)
    static func same(_ a: Engine, _ b: Engine, _ what: String, _ body: (Engine) throws(ScoutError) -> String) {
        let x: String, y: String
        do throws(ScoutError) { x = try body(a) } catch { x = "error \(error.code) \(error.message) \(error.path ?? "")" }
        do throws(ScoutError) { y = try body(b) } catch { y = "error \(error.code) \(error.message) \(error.path ?? "")" }
        #expect(x == y, "\(what)")
    }

    /// XXH64 (seed 0) reference values: the empty input, short tails, and a 39-byte input
    /// through the four-lane loop (python-xxhash's README example).
    @Test func xxHash64MatchesTheReference() {
        #expect(XXHash64.hash([]) == 0xEF46_DB37_51D8_E999)
        #expect(XXHash64.hash(Array("a".utf8)) == 0xD24E_C4F1_A98C_6E5B)
        #expect(XXHash64.hash(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(XXHash64.hash(Array("Nobody inspects the spammish repetition".utf8)) == 0xFBCE_A83C_8A37_8BF1)
    }

    // MARK: Round trips

    @Test(arguments: 0..<8)
    func sampleCatalogueAnswersExactlyAsTheEngineItWasWrittenFrom(seed: Int) throws {
        let original = Sample.engine, copy = Self.restored.engine
        #expect(copy.kinds == original.kinds)
        #expect(copy.stats().map(\.count) == original.stats().map(\.count))
        var rng = SplitMix64(seed: 1_300 + seed)
        let weights = copy.recommender!.weights
        for round in 0..<12 {
            let kind = rng.pick(["dog", "gym", "shelter"])
            let centre = rng.pick(Sample.raw[kind]!).point
            let radius = rng.pick([500.0, 2_000, 8_000, 40_000])
            var filter = RecordFilter.all
            if kind == "dog" && rng.chance(0.6) {
                let (text, _) = CatalogSearchTests.dogFilter(&rng)
                filter = try RecordFilter.parse(Sample.json(text), kind: "dog", today: Sample.today)
            }
            let text: String? = rng.chance(0.3) ? rng.pick(["park", "collie", "gym", "dublin", "rescue", "fit", "labrador"]) : nil
            let tag = "seed \(seed) round \(round) \(kind)"
            Self.same(original, copy, "radius \(tag)") { e throws(ScoutError) in
                Self.describe(try e.search(SearchQuery(kind: kind, area: .radius(center: centre, meters: radius), limit: 25, filter: filter, text: text)))
            }
            let d = radius / 111_000
            let box = GeoBox(west: max(-180, centre.lon - d), south: max(-90, centre.lat - d), east: min(180, centre.lon + d),
                             north: min(90, centre.lat + d))
            let sort: ScoutEngine.SortOrder? = rng.chance(0.5) ? .id : nil
            Self.same(original, copy, "box \(tag)") { e throws(ScoutError) in
                Self.describe(try e.search(SearchQuery(kind: kind, area: .box(box), limit: 30, from: centre, sort: sort, filter: filter)))
            }
            let ring: [SIMD2<Double>] = [SIMD2(box.west, box.south), SIMD2(box.east, box.south), SIMD2(centre.lon, box.north),
                                         SIMD2(box.west, box.south)]
            Self.same(original, copy, "polygon \(tag)") { e throws(ScoutError) in
                Self.describe(try e.search(SearchQuery(kind: kind, area: .polygon(.polygon([ring]), crs: nil), limit: 40, filter: filter)))
            }
            let k = rng.pick([1, 5, 40])
            Self.same(original, copy, "nearest \(tag)") { e throws(ScoutError) in
                Self.describe(try e.nearest(NearestQuery(kind: kind, from: centre, k: k, filter: filter, text: text)))
            }
            if kind != "shelter" {
                Self.same(original, copy, "by rating \(tag)") { e throws(ScoutError) in
                    Self.describe(try e.search(SearchQuery(kind: kind, area: .radius(center: centre, meters: radius), limit: 10, sort: .rating)))
                }
            }
            let experience = Double(rng.int(1...5))
            Self.same(original, copy, "recommend_dogs \(tag)") { e throws(ScoutError) in
                Self.describe(try e.recommendDogs(DogMatchQuery(from: centre, radius: radius, experience: experience, bringsDog: true,
                                                               limit: 15, weights: weights)))
            }
            let now = Instant(seconds: 1_795_000_000 + Int64(rng.int(0...2_000_000)))
            Self.same(original, copy, "rank_gyms \(tag)") { e throws(ScoutError) in
                Self.describe(try e.rankGyms(GymRankQuery(from: centre, radius: radius, now: now, limit: 10, weights: weights)))
            }
        }
    }

    @Test func aSnapshotOfASnapshotIsTheSameFile() throws {
        let again = Self.directory + "/again.snap"
        try Self.restored.engine.writeSnapshot(to: again)
        #expect(FileManager.default.contents(atPath: again) == FileManager.default.contents(atPath: Self.restored.path))
    }

    /// Random clouds (poles, the antimeridian, duplicates, aliases) after upserts and
    /// removals: the restored engine answers boxes, radii and nearest exactly alike.
    @Test(arguments: 0..<10)
    func randomCloudsRoundTrip(seed: Int) throws {
        var rng = SplitMix64(seed: 9_000 + seed)
        let original = Engine()
        let points = Scenario.cloud(count: rng.int(0...3_000), &rng)
        var records = points.enumerated().map { PointRecord(id: "p\($0.offset)", kind: "p", point: $0.element) }
        if rng.chance(0.5) {
            // Some points with fields, some replaced by a later version.
            for i in stride(from: 0, to: records.count, by: 7) { records[i].fields = [("n", .number("\(i)")), ("tag", .string("t\(i % 5)"))] }
        }
        try original.upsert(records)
        try original.upsert(records.prefix(records.count / 3).map { r in
            var r = r
            r.point = Scenario.point(&rng)
            return r
        })
        try original.remove(kind: "p", ids: records.indices.filter { _ in rng.chance(0.2) }.map { "p\($0)" })
        let path = Self.directory + "/cloud-\(seed).snap"
        try original.writeSnapshot(to: path)
        let copy = try Engine(snapshot: path)
        copy.pointSet(kind: "p")?.snapshot()._checkInvariants()
        #expect(copy.stats().map(\.count) == original.stats().map(\.count))
        for q in 0..<30 {
            let centre = Scenario.center(&rng), radius = Scenario.radius(&rng)
            Self.same(original, copy, "seed \(seed) radius \(q)") { e throws(ScoutError) in
                Self.describe(try e.search(SearchQuery(kind: "p", area: .radius(center: centre, meters: radius), limit: 200)))
            }
            let box = Scenario.box(&rng, edgesFrom: points)
            Self.same(original, copy, "seed \(seed) box \(q)") { e throws(ScoutError) in
                Self.describe(try e.search(SearchQuery(kind: "p", area: .box(box), limit: 500)))
            }
            let k = rng.pick([1, 7, 100])
            Self.same(original, copy, "seed \(seed) nearest \(q)") { e throws(ScoutError) in
                Self.describe(try e.nearest(NearestQuery(kind: "p", from: centre, k: k)))
            }
        }
    }

    // MARK: Damaged files

    /// A small snapshot without reference data: untyped points with and without fields,
    /// and a few shelters and gyms.
    static let small: [UInt8] = {
        let e = Engine(privacy: .exact)
        var records: [PointRecord] = []
        for i in 0..<40 {
            let fields: [(String, JSONValue)] = i % 3 == 0 ? [("note", JSONValue.string("n\(i)"))] : []
            let point = GeoPoint(lat: Double(i) - 20, lon: i % 2 == 0 ? 179.5 : -180)
            records.append(PointRecord(id: "s\(i)", kind: "spot", point: point, fields: fields))
        }
        for f in ["shelters", "gyms"] {
            let text = try! String(contentsOfFile: "\(Repository.data)/sample/\(f).jsonl", encoding: .utf8)
            for line in text.split(separator: "\n").prefix(3) {
                records.append(try! PointRecord.from(json: JSONReader.parse(Array(line.utf8)), defaultKind: nil, path: ""))
            }
        }
        try! e.upsert(records)
        let path = directory + "/small.snap"
        try! e.writeSnapshot(to: path)
        return Array(FileManager.default.contents(atPath: path)!)
    }()

    /// The error of loading these bytes as a snapshot (`nil` if they load).
    static func loadError(_ bytes: [UInt8], privacy: LocationPrivacy = .exact, name: String = "damaged") -> ScoutError? {
        let path = directory + "/\(name)-\(UInt64.random(in: 0...UInt64.max)).snap"
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do throws(ScoutError) {
            _ = try Engine(snapshot: path, privacy: privacy)
            return nil
        } catch { return error }
    }

    @Test func theSmallSnapshotLoads() throws {
        #expect(Self.loadError(Self.small) == nil)
        #expect(Self.small.count < 16_000, "small enough to truncate at every length")
    }

    @Test func everyTruncationIsNamed() {
        let bytes = Self.small
        for n in 0..<bytes.count {
            let e = Self.loadError(Array(bytes[0..<n]))
            #expect(e?.code == .invalidRequest && e?.message.contains("truncated") == true, "length \(n): \(String(describing: e))")
        }
    }

    @Test func everyFlippedByteIsRefused() {
        let bytes = Self.small
        var rng = SplitMix64(seed: 77)
        for i in 0..<bytes.count {
            var damaged = bytes
            damaged[i] ^= i % 5 == 0 ? UInt8(rng.int(1...255)) : 0x01
            let e = Self.loadError(damaged)
            #expect(e != nil && e!.code == .invalidRequest, "byte \(i)")
            if let e { #expect(e.message.contains("snapshot"), "byte \(i): \(e.message)") }
        }
    }

    @Test func aFlippedSectionByteNamesTheSectionAndItsOffset() throws {
        var damaged = Self.small
        damaged[damaged.count - 3] ^= 0x20
        let e = try #require(Self.loadError(damaged))
        #expect(e.message.contains("corrupt section") && e.message.contains("at offset"), "\(e.message)")
    }

    @Test func foreignFilesAreNamedAsSuch() throws {
        var wrong = Self.small
        wrong[1] = UInt8(ascii: "X")
        #expect(Self.loadError(wrong)?.message.contains("not a Scout snapshot") == true)
        let jsonl = Array(#"{"id":"a","kind":"p","lat":1,"lon":2}"#.utf8)
        #expect(Self.loadError(jsonl)?.message.contains("not a Scout snapshot") == true)
        do throws(ScoutError) {
            _ = try Engine(snapshot: Self.directory + "/no-such-file.snap")
            Issue.record("a missing file loaded")
        } catch {
            #expect(error.code == .notFound)
        }
    }

    @Test func aFutureVersionIsRefusedByName() throws {
        var future = Self.small
        future[8] = 2
        let e = try #require(Self.loadError(future))
        #expect(e.message.contains("format version 2") && e.message.contains("newer"), "\(e.message)")
    }

    // MARK: Privacy

    @Test func aSnapshotNeverChangesPrivacyMode() throws {
        let approximate = Engine(catalog: Sample.catalog, privacy: .approximate)
        let text = try String(contentsOfFile: "\(Repository.data)/sample/dogs.jsonl", encoding: .utf8)
        try approximate.upsert(text.split(separator: "\n").prefix(300).map {
            try PointRecord.from(json: JSONReader.parse(Array($0.utf8)), defaultKind: nil, path: "")
        })
        let path = Self.directory + "/approximate.snap"
        try approximate.writeSnapshot(to: path, dataDirectory: Repository.data)
        // Approximate never loads as exact, and exact never as approximate.
        let asExact = try #require(Self.loadError(Array(FileManager.default.contents(atPath: path)!), privacy: .exact))
        #expect(asExact.message.contains("approximate") && asExact.message.contains("--exact-dog-locations"), "\(asExact.message)")
        let asApproximate = try #require(Self.loadError(Array(FileManager.default.contents(atPath: Self.restored.path)!), privacy: .approximate))
        #expect(asApproximate.message.contains("exact locations"), "\(asApproximate.message)")
        // In its own mode it answers as the engine it came from: published cells only.
        let copy = try Engine(snapshot: path, privacy: .approximate)
        let centre = GeoPoint(lat: 53.2707, lon: -9.0568)
        Self.same(approximate, copy, "approximate nearest") { e throws(ScoutError) in
            Self.describe(try e.nearest(NearestQuery(kind: "dog", from: centre, k: 50)))
        }
        Self.same(approximate, copy, "approximate radius") { e throws(ScoutError) in
            Self.describe(try e.search(SearchQuery(kind: "dog", area: .radius(center: centre, meters: 200_000), limit: 300)))
        }
    }
}
