import ScoutCore
import ScoutGeometry
import Testing

/// Region remembers GEOS's validity verdicts per exact input; a remembered verdict must
/// give the same answers as a fresh one.
@Suite struct ValidityCacheTests {
    let bowTie: [[SIMD2<Double>]] = [[SIMD2(0, 0), SIMD2(1, 1), SIMD2(1, 0), SIMD2(0, 1), SIMD2(0, 0)]]
    let square: [[SIMD2<Double>]] = [[SIMD2(0, 0), SIMD2(2, 0), SIMD2(2, 2), SIMD2(0, 2), SIMD2(0, 0)]]

    func message(_ body: () throws(ScoutError) -> Region) -> String? {
        do { _ = try body(); return nil } catch { return error.code == .invalidGeometry ? error.message : "wrong code \(error.code)" }
    }

    @Test func anInvalidPolygonStaysInvalidWhenSeenAgain() {
        let first = message { () throws(ScoutError) in try Region.polygon(bowTie) }
        let second = message { () throws(ScoutError) in try Region.polygon(bowTie) }
        #expect(first != nil && first == second)
        #expect(first?.contains("Self-intersection") == true)
        let wkt = "POLYGON((0 0, 1 1, 1 0, 0 1, 0 0))"
        let w1 = message { () throws(ScoutError) in try Region.wkt(wkt) }
        let w2 = message { () throws(ScoutError) in try Region.wkt(wkt) }
        #expect(w1 != nil && w1 == w2)
    }

    @Test func aValidPolygonJudgesTheSameWhenSeenAgain() throws {
        let a = try Region.polygon(square), b = try Region.polygon(square)
        for (x, y) in [(1.0, 1.0), (2.0, 2.0), (2.0001, 1.0), (0.0, 1.0)] {
            #expect(a.covers(lon: x, lat: y) == b.covers(lon: x, lat: y))
        }
        #expect(b.covers(lon: 2, lat: 2))
        #expect(!b.covers(lon: 2.0001, lat: 1))
    }

    @Test func theVerdictIsKeyedByTheExactInput() {
        // The same ring nudged into a valid shape must not inherit the bow-tie's verdict.
        _ = message { () throws(ScoutError) in try Region.polygon(bowTie) }
        let fixed: [[SIMD2<Double>]] = [[SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1), SIMD2(0, 0)]]
        #expect(message { () throws(ScoutError) in try Region.polygon(fixed) } == nil)
        // A different CRS is a different input too.
        let itm: [[SIMD2<Double>]] = [[SIMD2(714000, 732000), SIMD2(718000, 732000), SIMD2(718000, 736000), SIMD2(714000, 736000), SIMD2(714000, 732000)]]
        #expect(message { () throws(ScoutError) in try Region.polygon(itm) } != nil, "ITM metres are out of lon/lat range")
        #expect(message { () throws(ScoutError) in try Region.polygon(itm, crs: "EPSG:2157") } == nil)
    }
}

/// The region cache lends each prepared region to one caller at a time and keeps the least
/// recently returned ones within its limits.
@Suite struct RegionCacheTests {
    let square: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(2, 0), SIMD2(2, 2), SIMD2(0, 2), SIMD2(0, 0)]

    func ring(_ i: Int) -> [SIMD2<Double>] { square.map { $0 + SIMD2(Double(i) * 3, 0) } }

    func checkOut(_ cache: RegionCache, _ ring: [SIMD2<Double>]) throws -> (Region, made: Bool) {
        var made = false
        let region = try cache.checkOut(RegionKey(polygons: [[ring]])) { () throws(ScoutError) in
            made = true
            return try Region.polygon([ring])
        }
        return (region, made)
    }

    @Test func aReturnedRegionIsLentAgainAndNeverToTwoCallersAtOnce() throws {
        let cache = RegionCache()
        let (a, madeA) = try checkOut(cache, ring(0))
        let (b, madeB) = try checkOut(cache, ring(0))
        #expect(madeA && madeB && a !== b, "a region lent out must not be lent again")
        cache.checkIn(a)
        cache.checkIn(b)
        #expect(cache.idleCount == 2)
        let (c, madeC) = try checkOut(cache, ring(0))
        #expect(!madeC && (c === a || c === b))
        let (d, madeD) = try checkOut(cache, ring(1))
        #expect(madeD && d !== a && d !== b, "another area gets its own region")
        #expect(d.covers(lon: 4, lat: 1) && !d.covers(lon: 1, lat: 1))
        // Checking a region in twice must not let two callers borrow it.
        let twice = RegionCache()
        let (e, _) = try checkOut(twice, ring(2))
        twice.checkIn(e)
        twice.checkIn(e)
        #expect(twice.idleCount == 1)
        let (f, _) = try checkOut(twice, ring(2)), (g, _) = try checkOut(twice, ring(2))
        #expect(f !== g)
    }

    @Test func theLeastRecentlyReturnedRegionsGoFirst() throws {
        let cache = RegionCache(capacity: 3)
        for i in 0..<5 { cache.checkIn(try checkOut(cache, ring(i)).0) }
        #expect(cache.idleCount == 3)
        #expect(try checkOut(cache, ring(0)).made && checkOut(cache, ring(1)).made, "the two oldest were evicted")
        #expect(try !checkOut(cache, ring(4)).made)
        // A vertex budget: each square has 5 positions.
        let small = RegionCache(capacity: 100, vertexCapacity: 12)
        for i in 0..<4 { small.checkIn(try checkOut(small, ring(i)).0) }
        #expect(small.idleCount == 2)
        let none = RegionCache(capacity: 0)
        none.checkIn(try checkOut(none, ring(0)).0)
        #expect(none.idleCount == 0)
    }

    @Test func keysCompareEveryPositionAndTheCRS() {
        var long = (0..<200).map { SIMD2(Double($0), 0.0) }
        let a = RegionKey(polygons: [[long]])
        long[101].y = 1e-9   // not among the hashed sample (every 12th position)
        let b = RegionKey(polygons: [[long]])
        #expect(a != b)
        #expect(a == RegionKey(polygons: [[(0..<200).map { SIMD2(Double($0), 0.0) }]]))
        #expect(a.hashValue == RegionKey(polygons: [[(0..<200).map { SIMD2(Double($0), 0.0) }]]).hashValue)
        #expect(RegionKey(wkt: "POLYGON((0 0,1 0,1 1,0 0))") != RegionKey(wkt: "POLYGON((0 0,1 0,1 1,0 0))", crs: "EPSG:3857"))
        #expect(RegionKey(polygons: [[square]]) != RegionKey(polygons: [[square]], crs: "EPSG:2157"))
    }

    /// Many threads borrowing the same few areas at once: every answer equals a private
    /// region's, and the cache ends with what was returned.
    @Test func concurrentBorrowersGetConsistentAnswers() async throws {
        let cache = RegionCache(capacity: 8)
        // The four areas are translates of one square, so one private region answers for all.
        let reference = try Region.polygon([ring(0)])
        let probes: [SIMD2<Double>] = (0..<64).map { k in
            let x = Double(k % 13) * 0.25 - 0.5, y = Double(k % 5) * 0.625 - 0.25
            return SIMD2(x, y)
        }
        let truth = probes.map { reference.covers(lon: $0.x, lat: $0.y) }
        let failures = await withTaskGroup(of: Int.self) { group in
            for t in 0..<8 {
                group.addTask {
                    var bad = 0
                    for n in 0..<200 {
                        let i = (t + n) % 4
                        let r = ring(i)
                        guard let region = try? cache.checkOut(RegionKey(polygons: [[r]]), orMake: { () throws(ScoutError) in try Region.polygon([r]) }) else { return -1 }
                        let shifted = probes.map { $0 + SIMD2(Double(i) * 3, 0) }
                        let answers = shifted.map { p in
                            switch region.relation(lon: p.x, lat: p.y) {
                            case .inside: true
                            case .outside: false
                            case .boundary: region.covers(lon: p.x, lat: p.y)
                            }
                        }
                        if answers != truth { bad += 1 }
                        cache.checkIn(region)
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(cache.idleCount <= 8 && cache.idleCount >= 4)
        #expect(truth.contains(true) && truth.contains(false))
    }
}
