import Foundation
import ScoutCore
import ScoutGeodesy

/// One item of the best-first queue: a tree node, a point with a lower bound, or a point
/// with its exact distance.
private struct QueueItem {
    /// Millimetre-rounded lower bound (nodes, candidates) or exact distance (exact points).
    var key: Double
    /// 0 node, 1 candidate point, 2 exact point: at equal keys, bounds are refined first.
    var stage: UInt8
    var axis: UInt8
    var level: Int32
    var left: Int32
    var right: Int32
    var west: Double, south: Double, east: Double, north: Double
}

extension PointSet.Snapshot {
    /// The `k` live points nearest to `origin` by WGS84 geodesic distance (millimetre
    /// rounded), sorted by distance then id, optionally no farther than `maxDistance`.
    ///
    /// Best-first search over every level with great-circle node bounds; `filter` runs
    /// inside the search, so k matching points come back whenever k exist.
    ///
    /// - Complexity: about O(log n + k) node visits for clustered data.
    public func nearest(to origin: GeoPoint, k: Int, maxDistance: Double = .infinity,
                        where filter: ((EntryRef) -> Bool)? = nil) -> [DistancedRef] {
        guard k > 0 else { return [] }
        // Fast path for local answers: the k-th nearest of the origin's own leaf bounds the
        // answer, an exact radius search collects every candidate, and the exact top k is
        // taken from those. Growing the radius is capped; past it, best-first search.
        let measure = DistanceOrigin(origin)
        if k <= 1024, var radius = seedRadius(from: measure, k: k, filter: filter) {
            while radius <= Self.localSearchLimit {
                let r = min(radius, maxDistance)
                let matches = boundedEntries(within: r, of: origin, where: filter)
                if matches.count >= k || r >= maxDistance {
                    let top = nearestFirst(matches, from: measure, limit: k)
                    // A point just beyond r may round to the k-th distance and win on id:
                    // make sure everything that rounds that low was collected.
                    if let last = top.last, top.count == k, last.distance + 0.0005 > r, r < maxDistance {
                        let wider = boundedEntries(within: min(last.distance + 0.001, maxDistance), of: origin, where: filter)
                        return nearestFirst(wider, from: measure, limit: k)
                    }
                    return top
                }
                radius *= 4
            }
        }
        return nearestBestFirst(to: origin, k: k, maxDistance: maxDistance, where: filter)
    }

    /// Largest radius the local fast path of ``nearest(to:k:maxDistance:where:)`` grows to.
    static var localSearchLimit: Double { 200_000 }

    /// An upper bound of the k-th nearest distance from the points of the largest level's
    /// leaf that holds the origin (`nil` when the set is empty); at least 100 m.
    ///
    /// Any k points lie within the largest of their distances' upper bounds: the leaf's
    /// points are ranked by a flat proxy of their distance (no trigonometry), and the bound
    /// is measured for the k (and any tied with the k-th) the proxy ranks first.
    func seedRadius(from measure: DistanceOrigin, k: Int, filter: ((EntryRef) -> Bool)?) -> Double? {
        guard let li = levels.indices.max(by: { levels[$0].count < levels[$1].count }), levels[li].count > 0 else {
            return table.count > bufferStart ? 1000 : nil
        }
        let tree = levels[li], clean = cleanLevels[li], origin = measure.point
        let cosOrigin = cos(origin.lat * .pi / 180)
        // Per leaf point: its proxy, longitude and latitude; then the proxies again, to select in.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 4 * (PackedTree.nodeSize + 1)) { buf -> Double in
            var count = 0
            tree.coords.withUnsafeBufferPointer { xy in
                tree.entries.withUnsafeBufferPointer { ids in
                    var left = 0, right = tree.count - 1, axis = 0
                    while right - left > PackedTree.nodeSize {
                        let m = (left + right) >> 1
                        let c = xy[2 * m + axis]
                        if (axis == 0 ? origin.lon : origin.lat) < c { right = m - 1 } else { left = m + 1 }
                        axis = 1 - axis
                    }
                    var j = left
                    while j <= right {
                        if (clean || isLive(ids[j])) && filter?(EntryRef(index: ids[j])) != false {
                            let lon = xy[2 * j], lat = xy[2 * j + 1]
                            var dx = abs(lon - origin.lon)
                            if dx > 180 { dx = 360 - dx }
                            dx *= cosOrigin
                            let dy = lat - origin.lat
                            buf[3 * count] = dx * dx + dy * dy
                            buf[3 * count + 1] = lon
                            buf[3 * count + 2] = lat
                            count += 1
                        }
                        j += 1
                    }
                }
            }
            @inline(__always) func upper(_ i: Int) -> Double {
                measure.interval(to: GeoPoint(lat: buf[3 * i + 2], lon: buf[3 * i + 1])).upperBound
            }
            guard count >= k else {
                var far = 250.0
                if count > 0 { far = 0; for i in 0..<count { far = max(far, upper(i)) } }
                return max(100, far * 4)
            }
            let proxies = UnsafeMutableBufferPointer(rebasing: buf[(3 * (PackedTree.nodeSize + 1))..<(3 * (PackedTree.nodeSize + 1) + count)])
            for i in 0..<count { proxies[i] = buf[3 * i] }
            let kthProxy = quickselect(proxies, k - 1)
            var bound = 0.0
            for i in 0..<count where buf[3 * i] <= kthProxy { bound = max(bound, upper(i)) }
            // 2 mm more, so that a k-th nearest at the bound itself rounds inside the radius
            // and the search need not look again for ties just beyond it.
            return max(bound + 0.002, 100)
        }
    }

    /// Best-first k-nearest search over every level with great-circle node bounds (the
    /// general path of ``nearest(to:k:maxDistance:where:)``; same contract).
    public func nearestBestFirst(to origin: GeoPoint, k: Int, maxDistance: Double = .infinity,
                                 where filter: ((EntryRef) -> Bool)? = nil) -> [DistancedRef] {
        guard k > 0 else { return [] }
        let bounds = BoxDistance(origin: origin)
        let mMin = WGS84.minimumCurvatureRadius * .pi / 180
        @inline(__always) func mm(_ d: Double) -> Double { (d * 1000).rounded(.down) / 1000 }

        var heap: [QueueItem] = []
        heap.reserveCapacity(256)
        let measure = DistanceOrigin(origin)
        let rad = Double.pi / 180
        let cosOrigin = cos(origin.lat * rad)
        let sphereLower = 2 * WGS84.meanRadius * WGS84.sphereToEllipsoidMin * (1 - 1e-12)
        /// Haversine lower bound with the origin's cosine computed once.
        @inline(__always) func pointLower(lon: Double, lat: Double) -> Double {
            let s1 = sin((lat - origin.lat) * rad / 2), s2 = sin((lon - origin.lon) * rad / 2)
            let h = s1 * s1 + cosOrigin * cos(lat * rad) * s2 * s2
            // 10 nm absolute: cos 90° is 6e-17 and sin 180° 1.2e-16, so points at distance 0
            // (a pole under another longitude, ±180°) got ~1e-9 m and failed maxDistance 0.
            return max(0, sphereLower * asin(min(1, h.squareRoot())) - 1e-8)
        }
        func less(_ a: QueueItem, _ b: QueueItem) -> Bool {
            if a.key != b.key { return a.key < b.key }
            if a.stage != b.stage { return a.stage < b.stage }
            if a.stage == 2 { return table.entry(a.left).id < table.entry(b.left).id }
            return false
        }
        func push(_ item: QueueItem) {
            heap.append(item)
            var i = heap.count - 1
            while i > 0 {
                let p = (i - 1) >> 1
                if !less(heap[i], heap[p]) { break }
                heap.swapAt(i, p)
                i = p
            }
        }
        func pop() -> QueueItem {
            let top = heap[0]
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                var i = 0
                let n = heap.count
                while true {
                    let l = 2 * i + 1, r = l + 1
                    var m = i
                    if l < n && less(heap[l], heap[m]) { m = l }
                    if r < n && less(heap[r], heap[m]) { m = r }
                    if m == i { break }
                    heap.swapAt(i, m)
                    i = m
                }
            }
            return top
        }
        func candidate(_ e: Int32, lon: Double, lat: Double, lower: Double) {
            guard lower <= maxDistance, filter?(EntryRef(index: e)) != false else { return }
            push(QueueItem(key: mm(lower), stage: 1, axis: 0, level: 0, left: e, right: 0, west: lon, south: lat, east: 0, north: 0))
        }

        for (li, level) in levels.enumerated() where level.count > 0 {
            push(QueueItem(key: 0, stage: 0, axis: 0, level: Int32(li), left: 0, right: Int32(level.count - 1),
                           west: -180, south: -90, east: 180, north: 90))
        }
        // Buffered points get the cheap meridian bound M_min·|Δφ| until they reach the front.
        var i = bufferStart
        while i < table.count {
            let e = table.position(Int32(i))
            if isLive(Int32(i)) { candidate(Int32(i), lon: e.lon, lat: e.lat, lower: abs(e.lat - origin.lat) * mMin * (1 - 1e-12)) }
            i += 1
        }

        var out: [DistancedRef] = []
        while !heap.isEmpty && out.count < k {
            let item = pop()
            switch item.stage {
            case 2:
                out.append(DistancedRef(ref: EntryRef(index: item.left), distance: item.key))
            case 1:
                let p = GeoPoint(lat: item.south, lon: item.west)
                let r = measure.interval(to: p)
                if r.lowerBound > maxDistance { continue }
                var exact = Double.nan
                if r.upperBound > maxDistance {
                    exact = Geodesic.distance(p, origin)
                    if exact > maxDistance { continue }
                }
                let lo = (r.lowerBound * 1000).rounded(), hi = (r.upperBound * 1000).rounded()
                let d: Double
                if lo == hi { d = lo / 1000 } else {
                    if exact.isNaN { exact = Geodesic.distance(p, origin) }
                    d = (exact * 1000).rounded() / 1000
                }
                push(QueueItem(key: d, stage: 2, axis: 0, level: 0, left: item.left, right: 0, west: 0, south: 0, east: 0, north: 0))
            default:
                let tree = levels[Int(item.level)], clean = cleanLevels[Int(item.level)]
                let left = Int(item.left), right = Int(item.right)
                tree.coords.withUnsafeBufferPointer { xy in
                    tree.entries.withUnsafeBufferPointer { ids in
                        if right - left <= PackedTree.nodeSize {
                            for j in left...right where clean || isLive(ids[j]) {
                                let lon = xy[2 * j], lat = xy[2 * j + 1]
                                candidate(ids[j], lon: lon, lat: lat, lower: pointLower(lon: lon, lat: lat))
                            }
                            return
                        }
                        let m = (left + right) >> 1
                        let mx = xy[2 * m], my = xy[2 * m + 1]
                        if clean || isLive(ids[m]) { candidate(ids[m], lon: mx, lat: my, lower: pointLower(lon: mx, lat: my)) }
                        let next = item.axis == 0 ? UInt8(1) : UInt8(0)
                        var l = item, r = item
                        l.stage = 0; r.stage = 0; l.axis = next; r.axis = next
                        l.left = item.left; l.right = Int32(m - 1)
                        r.left = Int32(m + 1); r.right = item.right
                        if item.axis == 0 { l.east = mx; r.west = mx } else { l.north = my; r.south = my }
                        func pushChild(_ child: QueueItem) {
                            guard child.left <= child.right else { return }
                            var c = child
                            let lb = bounds.lowerBound(west: c.west, south: c.south, east: c.east, north: c.north)
                            if lb > maxDistance { return }
                            c.key = mm(lb)
                            push(c)
                        }
                        pushChild(l)
                        pushChild(r)
                    }
                }
            }
        }
        return out
    }
}
