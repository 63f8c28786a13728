import Foundation
import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutGeodesy
import ScoutJSON
import ScoutRanking
import ScoutRecommend
import ScoutRecommendJSON
import ScoutRecommendJSON
import ScoutTestSupport
import ScoutTime
import Testing

/// The sample dogs and gyms, loaded once at their exact places, with the raw JSON of every
/// record for the oracles.
enum Sample {
    struct Raw { let id: String; let point: GeoPoint; let json: JSONValue }

    static let engine: Engine = {
        Repository.ensureSampleDogs()
        let e = Engine(catalog: try! Catalog.load(dataDirectory: Repository.data), privacy: .exact)
        for f in ["dogs", "gyms"] { try! e.load(path: "\(Repository.data)/sample/\(f).jsonl") }
        return e
    }()
    static let raw: [String: [Raw]] = {
        Repository.ensureSampleDogs()
        var out: [String: [Raw]] = [:]
        for (kind, f) in [("dog", "dogs"), ("gym", "gyms")] {
            let text = try! String(contentsOfFile: "\(Repository.data)/sample/\(f).jsonl", encoding: .utf8)
            out[kind] = text.split(separator: "\n").map { line in
                let v = try! JSONReader.parse(Array(line.utf8))
                return Raw(id: v["id"]!.string!, point: GeoPoint(lat: v["lat"]!.double!, lon: v["lon"]!.double!), json: v)
            }
        }
        return out
    }()
}

/// `recommendDogs` and `rankGyms` against brute force over the raw sample records: hard
/// filters, every term of the score and the order, written from `docs/recommender.md`.
@Suite struct PlaceRankerTests {
    static let weights = try! RecommenderWeights.load(path: Repository.data + "/weights.json")
    /// A ranker whose own weights are not the file's: every query below passes the file's, so
    /// a ranker that ignored a query's weights would fail the oracles.
    static let ranker = PlaceRanker(engine: Sample.engine, weights: try! weights.overriding(
        JSONReader.parse(Array(#"{"distance":0,"rating":1}"#.utf8)), group: .gyms, path: "weights"))

    /// The file's terms of one place ranking (`places.dogs`, `places.gyms`), read from its JSON
    /// text rather than through the loader under test.
    static func fileTerms(_ group: String) -> [String: Double] {
        let text = try! String(contentsOfFile: Repository.data + "/weights.json", encoding: .utf8)
        guard case .object(let terms)? = try! JSONReader.parse(Array(text.utf8))["places"]?[group] else {
            fatalError("weights.json has no places.\(group)")
        }
        return Dictionary(uniqueKeysWithValues: terms.map { ($0.0, $0.1.double!) })
    }

    /// The breed row of the CSV, as numbers, by breed name (the Mixed row for unknown names).
    static let traits: [String: [String: Double]] = {
        let text = try! String(contentsOfFile: Repository.data + "/breeds.csv", encoding: .utf8)
        var lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = lines.removeFirst()
        var out: [String: [String: Double]] = [:]
        for cells in lines {
            var row: [String: Double] = [:]
            for (i, h) in header.enumerated() { if let d = Double(cells[i]) { row[h] = d } }
            out[cells[0]] = row
        }
        return out
    }()

    static func gaussian(_ d: Double, radius: Double, share: Double) -> Double {
        let s = radius * share
        return exp(-d * d / (2 * s * s))
    }

    @Test(arguments: 0..<TestScale.count(short: 3, full: 12))
    func dogRecommendationsEqualBruteForce(seed: Int) throws {
        var g = SplitMix64(seed: seed)
        let dogs = Sample.raw["dog"]!
        let centre = g.pick(dogs).point
        let radius = g.pick([2_000.0, 10_000, 40_000])
        let experience = Double(g.int(1...5)), activity = Double(g.int(1...5))
        let bringsDog = g.chance(0.5)
        var met = Set<String>()
        let terms = Self.fileTerms("dogs")
        // Brute force.
        var expected: [(id: String, score: Double, distance: Double)] = []
        for d in dogs {
            // Engine distances are geodesics rounded to the millimetre (docs/geodesy.md).
            let distance = (Geodesic.distance(centre, d.point) * 1000).rounded() / 1000
            guard distance <= radius else { continue }
            let f = d.json
            guard f["available"] != .bool(false) else { continue }
            let breed = Self.traits[f["breed"]!.string!] ?? Self.traits["Mixed"]!
            let needed = f["reviews"]?["experience_needed"]?["mean"]?.double
                ?? ((6 - breed["trainability"]!) + breed["energy"]! + (6 - breed["adaptability"]!)) / 3
            guard needed <= experience else { continue }
            guard !bringsDog || breed["good_with_dogs"]! >= 3 else { continue }
            if g.chance(0.1) { met.insert(d.id) }
            let count = f["reviews"]?["temperament"]?["count"]?.double ?? 0
            let mean = f["reviews"]?["temperament"]?["mean"]?.double ?? 3
            let rating = (5 * 3 + count * mean) / (5 + count)
            let score = terms["distance"]! * Self.gaussian(distance, radius: radius, share: terms["scale_share_of_radius"]!)
                + terms["rating"]! * (rating - 1) / 4
                + terms["energy_match"]! * (1 - abs(breed["energy"]! - activity) / 4)
                + terms["novelty"]! * (met.contains(d.id) ? 0 : 1)
            expected.append((d.id, score, distance))
        }
        expected.sort { $0.score != $1.score ? $0.score > $1.score : $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
        let q = DogMatchQuery(from: centre, radius: radius, experience: experience, bringsDog: bringsDog, activityLevel: activity,
                              met: met, limit: 25, weights: Self.weights)
        let got = try Self.ranker.recommendDogs(q)
        #expect(got.total == expected.count)
        #expect(got.hits.map(\.hit.id) == expected.prefix(25).map(\.id), "seed \(seed)")
        for (h, e) in zip(got.hits, expected) {
            #expect(abs(h.breakdown.score - e.score) < 1e-9)
            #expect(h.breakdown.terms.map(\.name) == ["distance", "rating", "energy_match", "novelty"])
            #expect(abs(h.breakdown.terms.reduce(0) { $0 + $1.value * $1.weight } - h.breakdown.score) < 1e-12)
        }
    }

    @Test(arguments: 0..<8)
    func gymRankingEqualsBruteForce(seed: Int) throws {
        var g = SplitMix64(seed: 100 + seed)
        let gyms = Sample.raw["gym"]!
        let centre = g.pick(gyms).point
        let radius = g.pick([1_000.0, 4_000, 15_000])
        let now = Instant(seconds: 1_790_000_000 + g.int64(0...(365 * 86_400)))
        let terms = Self.fileTerms("gyms")
        var expected: [(id: String, score: Double, distance: Double)] = []
        for gym in gyms {
            let distance = (Geodesic.distance(centre, gym.point) * 1000).rounded() / 1000
            guard distance <= radius else { continue }
            let up = gym.json["votes"]?["up"]?.double ?? 0, down = gym.json["votes"]?["down"]?.double ?? 0
            let wilson = Rating.wilsonLowerBound(up: Int(up), down: Int(down))
            var open = 0.5
            if let hours = gym.json["opening_hours"]?.string {
                let zone = try Zone(identifier: gym.json["timezone"]!.string!, path: "timezone")
                open = try OpeningHours(parsing: hours, path: "opening_hours").isOpen(at: zone.local(now)) ? 1 : 0
            }
            let score = terms["distance"]! * Self.gaussian(distance, radius: radius, share: terms["scale_share_of_radius"]!)
                + terms["rating"]! * wilson + terms["open_now"]! * open
            expected.append((gym.id, score, distance))
        }
        expected.sort { $0.score != $1.score ? $0.score > $1.score : $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
        let got = try Self.ranker.rankGyms(GymRankQuery(from: centre, radius: radius, now: now, limit: 30, weights: Self.weights))
        #expect(got.total == expected.count)
        #expect(got.hits.map(\.hit.id) == expected.prefix(30).map(\.id), "seed \(seed)")
        #expect(got.weightsVersion == Self.weights.version)
    }

    @Test func rankingValidatesItsInputAndUsesTheRankersWeightsByDefault() throws {
        let centre = GeoPoint(lat: 53.35, lon: -6.26)
        do {
            _ = try Self.ranker.recommendDogs(DogMatchQuery(from: centre, radius: 1000, experience: 7, weights: Self.weights))
            Issue.record("experience 7 accepted")
        } catch { #expect(error.path == "experience") }
        do {
            _ = try Self.ranker.rankGyms(GymRankQuery(from: centre, now: Instant(seconds: 0), limit: 5000, weights: Self.weights))
            Issue.record("limit 5000 accepted")
        } catch { #expect(error.code == .limitExceeded) }
        // Without a query's own weights, the ranker's.
        let got = try Self.ranker.rankGyms(GymRankQuery(from: centre, radius: 15_000, now: Instant(seconds: 0), limit: 50))
        #expect(got.hits.count >= 5)
        let terms = got.hits.map { h in Dictionary(uniqueKeysWithValues: h.breakdown.terms.map { ($0.name, $0.weight) }) }
        #expect(terms.allSatisfy { $0["distance"] == 0 && $0["rating"] == 1 })
        #expect(got.weightsVersion == Self.weights.version)
    }
}
