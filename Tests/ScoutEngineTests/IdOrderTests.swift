import ScoutCatalog
import ScoutCore
@testable import ScoutEngine
import ScoutGeodesy
import ScoutTestSupport
import Testing

/// Answers without a reference point come in id order (UTF-8 bytes); answers from a point in
/// distance order, ties in id order. Past a few dozen matches they are radix-sorted (by the
/// ids' first eight bytes, or by whole millimetres) and ties compared in full; the pages must
/// be exactly the brute-force order.
@Suite struct IdOrderTests {
    /// Ids that stress the eight-byte key: many sharing their first eight bytes (or all of
    /// them), shorter than eight bytes, prefixes of each other, a NUL byte where the key pads
    /// with zeros, and non-ASCII text.
    static func id(_ rng: inout SplitMix64, shape: Int) -> String {
        let n = rng.next() % 100_000
        switch shape {
        case 0: return "p\(n)"
        case 1: return "shelter-\(n)"                                   // one eight-byte key for all
        case 2: return ["ab", "ab\u{0}", "ab\u{0}\u{0}x", "a", "abcdefgh", "abcdefghi", "ą", "zz"][Int(rng.next() % 8)] + "\(n % 1_000)"
        default: return String(n, radix: 36) + (rng.next() % 3 == 0 ? "ó" : "")
        }
    }

    /// Random points in a box, answers of boxes of every size, page by page with `after`:
    /// the same ids in the same order as sorting the points inside by their bytes, and the
    /// same total, on both sides of the radix sort's threshold.
    @Test(arguments: 0..<4)
    func boxAnswersAreInByteOrderPageByPage(shape: Int) throws {
        var rng = SplitMix64(state: 500 + UInt64(shape))
        let e = Engine()
        var points: [String: GeoPoint] = [:]
        while points.count < 3_000 {
            points[Self.id(&rng, shape: shape)] = GeoPoint(lat: 50 + Double(rng.next() % 10_000) / 10_000, lon: 10 + Double(rng.next() % 10_000) / 10_000)
        }
        _ = try e.upsert(points.map { PointRecord(id: $0.key, kind: "pt", point: $0.value) })
        for round in 0..<12 {
            let w = 10 + Double(rng.next() % 9_000) / 10_000, s = 50 + Double(rng.next() % 9_000) / 10_000
            let side = [0.005, 0.02, 0.1, 0.4, 1][round % 5]
            let box = GeoBox(west: w, south: s, east: min(w + side, 11), north: min(s + side, 51))
            let expected = points.filter { box.contains($0.value) }.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            // At most about 30 pages (each page searches the whole box again).
            let limit = max([1, 7, 50, 100, 1_000][Int(rng.next() % 5)], expected.count / 30)
            var got: [String] = [], after: String?
            repeat {
                let page = try e.search(SearchQuery(kind: "pt", area: .box(box), limit: limit, after: after))
                #expect(page.total == expected.count, "round \(round): every page's total counts every match")
                got += page.hits.map(\.id)
                after = page.nextAfter
            } while after != nil
            #expect(got == expected, "shape \(shape), round \(round): \(expected.count) matches, limit \(limit)")
        }
    }

    /// Radius answers of every size from centres among the points, page by page with `after`:
    /// the same ids in the same order as sorting the points within by their geodesic distance
    /// in whole millimetres, then by their ids' bytes. Ties are many: groups of ids at one
    /// position, and points mirrored across the centre's meridian.
    @Test(arguments: 0..<4)
    func radiusAnswersAreByDistanceThenIdPageByPage(shape: Int) throws {
        var rng = SplitMix64(state: 900 + UInt64(shape))
        let e = Engine()
        var points: [String: GeoPoint] = [:]
        let meridian = 10.5
        while points.count < 3_000 {
            let p = GeoPoint(lat: 50 + Double(rng.next() % 10_000) / 10_000, lon: 10 + Double(rng.next() % 10_000) / 10_000)
            points[Self.id(&rng, shape: shape)] = p
            if rng.next() % 4 == 0 { points[Self.id(&rng, shape: shape)] = p }
            if rng.next() % 4 == 0 { points[Self.id(&rng, shape: shape)] = GeoPoint(lat: p.lat, lon: 2 * meridian - p.lon) }
        }
        _ = try e.upsert(points.map { PointRecord(id: $0.key, kind: "pt", point: $0.value) })
        for round in 0..<12 {
            let center = GeoPoint(lat: 50 + Double(rng.next() % 10_000) / 10_000, lon: meridian)
            let radius = [300.0, 1_500, 5_000, 20_000, 80_000][round % 5]
            let expected = points.compactMap { id, p -> (String, Double)? in
                Geodesic.distance(p, center) <= radius ? (id, Oracle.mm(p, center)) : nil
            }.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            let limit = max([1, 7, 50, 100, 1_000][Int(rng.next() % 5)], expected.count / 30)
            var got: [(String, Double)] = [], after: String?
            repeat {
                let page = try e.search(SearchQuery(kind: "pt", area: .radius(center: center, meters: radius), limit: limit, after: after))
                #expect(page.total == expected.count, "round \(round): every page's total counts every match")
                got += page.hits.map { ($0.id, $0.distance ?? -1) }
                after = page.nextAfter
            } while after != nil
            #expect(got.map(\.0) == expected.map(\.0) && got.map(\.1) == expected.map(\.1),
                    "shape \(shape), round \(round): \(expected.count) matches, limit \(limit)")
        }
    }
}
