import CIntrinsics
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
    /// A node's level (index of its tree in the snapshot's levels).
    var level: Int32
    /// A node's first point in tree order; a point's entry number.
    var left: Int32
    /// A node's last point in tree order.
    var right: Int32
    /// A node's breadth-first slot (the root at 1), where its tree keeps its points' box.
    var slot: Int32
    /// A candidate point's coordinates.
    var lon: Double, lat: Double
}

/// The walker of ``PointSet/Snapshot/nearestCandidates(origin:k:within:filter:)``: keeps
/// the k smallest upper bounds met so far in a max-heap, and every point whose lower bound
/// is within the largest of them (plus 1 mm) when met.
private struct NearestCandidates: NearestWalker {
    let test: RadiusTest
    let k: Int
    let heap: UnsafeMutableBufferPointer<Double>
    let filter: ((EntryRef) -> Bool)?
    let snapshot: PointSet.Snapshot
    /// Whether the level walked has no removed entries.
    var clean = true
    var held = 0
    /// The square of the k-th smallest upper bound plus 1 mm; infinite until k are held.
    var cap2 = Double.infinity
    var out: [BoundedRef] = []

    init(test: RadiusTest, k: Int, heap: UnsafeMutableBufferPointer<Double>, filter: ((EntryRef) -> Bool)?, snapshot: PointSet.Snapshot) {
        (self.test, self.k, self.heap, self.filter, self.snapshot) = (test, k, heap, filter, snapshot)
    }

    @inline(__always) func skips(west: Double, south: Double, east: Double, north: Double) -> Bool {
        test.squaredLowerBound(west: west, south: south, east: east, north: north) > cap2
    }

    /// Where the points of the level being walked start in ``out``: until ``finish(entries:)``
    /// their `ref` holds their position in the tree, not their entry.
    var pending = 0

    @inline(__always) mutating func take(_ position: Int, lon: Double, lat: Double, entries: UnsafeBufferPointer<Int32>) {
        let (lo2, hi2) = test.squaredBounds(lat: lat, lon: lon)
        guard lo2 <= cap2 else { return }
        if !clean || filter != nil {
            let e = entries[position]
            guard clean || snapshot.isLive(e), filter?(EntryRef(index: e)) != false else { return }
        }
        keep(Int32(truncatingIfNeeded: position), lo2, hi2, lon: lon, lat: lat)
    }

    /// The candidates the walk kept get their entries, but for those the cap has passed by.
    mutating func finish(entries: UnsafeBufferPointer<Int32>) {
        let cap = cap2.squareRoot()
        var kept = pending
        for i in pending..<out.count where out[i].lower <= cap {
            let c = out[i]
            out[kept] = BoundedRef(ref: EntryRef(index: entries[Int(c.ref.index)]), lower: c.lower, upper: c.upper, point: c.point)
            kept += 1
        }
        out.removeLast(out.count - kept)
        pending = kept
    }

    /// A point of the write buffer (not in a tree): `entry` is its entry.
    @inline(__always) mutating func take(entry e: Int32, lon: Double, lat: Double) {
        let (lo2, hi2) = test.squaredBounds(lat: lat, lon: lon)
        guard lo2 <= cap2, snapshot.isLive(e), filter?(EntryRef(index: e)) != false else { return }
        keep(e, lo2, hi2, lon: lon, lat: lat)
        pending = out.count
    }

    @inline(__always) private mutating func keep(_ ref: Int32, _ lo2: Double, _ hi2: Double, lon: Double, lat: Double) {
        let hi = hi2.squareRoot()
        out.append(BoundedRef(ref: EntryRef(index: ref), lower: lo2.squareRoot(), upper: hi, point: GeoPoint(lat: lat, lon: lon)))
        if held < k {
            var i = held
            heap[i] = hi
            held += 1
            while i > 0, heap[(i - 1) >> 1] < heap[i] { heap.swapAt(i, (i - 1) >> 1); i = (i - 1) >> 1 }
        } else if hi < heap[0] {
            heap[0] = hi
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < k && heap[l] > heap[m] { m = l }
                if r < k && heap[r] > heap[m] { m = r }
                if m == i { break }
                heap.swapAt(i, m)
                i = m
            }
        } else { return }
        if held == k { cap2 = (heap[0] + 0.001) * (heap[0] + 0.001) }
    }
}

extension PointSet.Snapshot {
    /// The `k` live points nearest to `origin` by WGS84 geodesic distance (millimetre
    /// rounded), sorted by distance then id, optionally no farther than `maxDistance`.
    ///
    /// Local answers (k ≤ 1,024, within 200 km, away from the poles) come from a
    /// depth-first walk with a shrinking bound (``nearestCandidates(origin:k:within:filter:)``):
    /// first within 20 km when unfiltered, else (or when that holds fewer than k) inside a
    /// seed radius taken from the origin's leaf. When the seed radius holds fewer than k
    /// (or reaches past 200 km), a best-first search over every level, keyed by
    /// great-circle bounds of its nodes' boxes, answers in one walk: no radius is searched
    /// again at a larger size. `filter` runs inside the search, so k matching points come
    /// back whenever k exist.
    ///
    /// - Complexity: about O(log n + k) node visits for clustered data.
    public func nearest(to origin: GeoPoint, k: Int, maxDistance: Double = .infinity,
                        where filter: ((EntryRef) -> Bool)? = nil) -> [DistancedRef] {
        guard k > 0 else { return [] }
        // Unfiltered local answers need no seed: the walk's first leaf is the origin's own
        // (nearer child first), whose points bring its bound down as a seed radius would.
        if filter == nil, k <= 1024,
           let top = walkedNearest(origin: origin, k: k, within: min(maxDistance, Self.unseededSearchRadius), filter: nil) {
            return top
        }
        // Local answers: the k-th nearest of the origin's own leaf bounds the answer; the
        // walk collects every candidate, and the exact top k is taken from those. A walk
        // that cannot answer (most often fewer than k matches in the leaf, so the radius was
        // a guess) is not grown and walked again: best-first search answers, in one walk.
        if k <= 1024, let radius = seedRadius(origin: origin, k: k, filter: filter) {
            // The k nearest within the seed radius, found by a depth-first walk whose bound
            // shrinks as it goes; unless a point beyond the seed radius could tie the k-th.
            if radius < maxDistance, radius <= Self.localSearchLimit,
               let top = walkedNearest(origin: origin, k: k, within: radius, filter: filter) {
                return top
            }
            // Within a limit the seed radius already reaches, one radius search answers.
            if maxDistance <= radius, maxDistance <= Self.localSearchLimit {
                return nearestFirst(boundedEntries(within: maxDistance, of: origin, where: filter), from: origin, limit: k)
            }
        }
        return nearestBestFirst(to: origin, k: k, maxDistance: maxDistance, where: filter)
    }

    /// The k nearest from the walk within `radius` (``nearestCandidates(origin:k:within:filter:)``),
    /// when they are the answer: k of them, the k-th at least half a millimetre inside the
    /// radius, so that no point beyond it could round to the k-th's distance and win on id.
    /// `nil` otherwise (too few within the radius, or no flat metric there).
    private func walkedNearest(origin: GeoPoint, k: Int, within radius: Double, filter: ((EntryRef) -> Bool)?) -> [DistancedRef]? {
        guard let candidates = nearestCandidates(origin: origin, k: k, within: radius, filter: filter) else { return nil }
        let top = nearestFirst(candidates, from: origin, limit: k, capped: true)
        guard let last = top.last, top.count == k, last.distance + 0.0005 <= radius else { return nil }
        return top
    }

    /// Every live point within `radius` of `origin` (that `filter` keeps) that could be
    /// among the k nearest, with its distance bounds; `nil` where the flat metric does not
    /// apply (near the poles).
    ///
    /// A depth-first walk over the boxes of the disc, nearer child first (nanoflann's
    /// order): the k smallest upper bounds seen so far cap the k-th nearest distance, and a
    /// node or point whose lower bound exceeds that cap (plus 1 mm, for points that round to
    /// the same millimetre) is skipped. Every point it skips has a lower bound above the
    /// final cap, so the candidates hold every point ``nearestFirst(_:from:limit:)`` would
    /// measure among all the disc's points, and the same k come out.
    func nearestCandidates(origin: GeoPoint, k: Int, within radius: Double, filter: ((EntryRef) -> Bool)?) -> [BoundedRef]? {
        let test = RadiusTest(center: origin, radius: radius)
        guard test.isFlat else { return nil }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: k) { heap -> [BoundedRef] in
            var walker = NearestCandidates(test: test, k: k, heap: heap, filter: filter, snapshot: self)
            walker.out.reserveCapacity(4 * k + 16)
            func walk(_ box: GeoBox) {
                for (li, tree) in levels.enumerated() where tree.count > 0 {
                    walker.clean = cleanLevels[li]
                    tree.nearestWalk(box: box, origin: origin, &walker)
                }
                walker.clean = false
                var i = bufferStart
                while i < table.count {
                    let p = table.position(Int32(i))
                    if p.lon >= box.west && p.lon <= box.east && p.lat >= box.south && p.lat <= box.north {
                        walker.take(entry: Int32(i), lon: p.lon, lat: p.lat)
                    }
                    i += 1
                }
            }
            let (first, second) = test.boxPair
            walk(first)
            if let second { walk(second) }
            // Candidates taken before the cap came down to them are dropped.
            let cap = walker.cap2.squareRoot()
            walker.out.removeAll { $0.lower > cap }
            return walker.out
        }
    }

    /// Largest seed radius the local fast path of ``nearest(to:k:maxDistance:where:)`` walks
    /// (the flat metric's limit, ``RadiusTest/isFlat``); past it, best-first search.
    static var localSearchLimit: Double { 200_000 }

    /// The radius of an unfiltered nearest search's first walk, which needs no seed: 20 km.
    /// The walk's flat bounds are the tighter the narrower its latitude band, and until its
    /// first k points are held it keeps every node of its box; on 1,000,000 points this
    /// radius answered k = 10 in 2.6-2.7 µs against 2.9-3.0 µs at 200 km (and 2.9 µs at
    /// 30 km). Answers beyond it come from the seeded walk.
    static var unseededSearchRadius: Double { 20_000 }

    /// An upper bound of the k-th nearest distance from the points of the largest level's
    /// leaf that holds the origin (`nil` when the set is empty); at least 100 m.
    ///
    /// Each point's bound is the length of the straight path from the origin in the
    /// longitude/latitude chart, under the largest radii of curvature over the latitudes
    /// the leaf and the origin span: `√((M_max·Δφ)² + (N·cos φ)_max·Δλ)²)` (as
    /// ``RadiusTest/bounds(lat:lon:)``'s upper bound), so three trigonometric calls serve
    /// the whole leaf, and the k-th smallest is selected, not sorted.
    func seedRadius(origin: GeoPoint, k: Int, filter: ((EntryRef) -> Bool)?) -> Double? {
        guard let li = levels.indices.max(by: { levels[$0].count < levels[$1].count }), levels[li].count > 0 else {
            return table.count > bufferStart ? 1000 : nil
        }
        let tree = levels[li], clean = cleanLevels[li]
        return tree.coords.withUnsafeBufferPointer { xy in
            tree.entries.withUnsafeBufferPointer { ids in
                // Down the splits (the dense middle points, see ``PackedTree/nodes``).
                var left = 0, right = tree.count - 1, slot = 1
                while right - left > PackedTree.nodeSize {
                    let m = (left + right) >> 1, axis = PackedTree.axis(ofSlot: slot)
                    let c = tree.nodes[tree.middleStart + 2 * slot + axis]
                    if (axis == 0 ? origin.lon : origin.lat) < c { right = m - 1; slot = 2 * slot } else { left = m + 1; slot = 2 * slot + 1 }
                }
                // The whole leaf at once, so that its misses overlap.
                PackedTree.prefetch(xy, from: left, through: right)
                scout_prefetch(ids.baseAddress! + left)
                scout_prefetch(ids.baseAddress! + right)
                return withUnsafeTemporaryAllocation(of: Double.self, capacity: PackedTree.nodeSize + 1) { squares -> Double in
                    // The leaf's points (those the search may return), and the latitudes spanned.
                    var n = 0
                    var south = origin.lat, north = origin.lat
                    var j = left
                    while j <= right {
                        if (clean || isLive(ids[j])) && filter?(EntryRef(index: ids[j])) != false {
                            let lat = xy[2 * j + 1]
                            south = min(south, lat); north = max(north, lat)
                            squares[n] = Double(j)   // the position for now; the bound below
                            n += 1
                        }
                        j += 1
                    }
                    guard n > 0 else { return 1000 }
                    let rad = Double.pi / 180, slack = 1 + 1e-9
                    let absMin = (south <= 0 && north >= 0) ? 0 : min(abs(south), abs(north)) * rad
                    let absMax = max(abs(south), abs(north)) * rad
                    let ky = WGS84.meridianRadius(latitudeRadians: absMax) * rad * slack
                    let kx = WGS84.curvatureRadii(latitudeRadians: absMin).parallel * rad * slack
                    var largest = 0.0
                    for i in 0..<n {
                        let p = Int(squares[i])
                        var dx = abs(xy[2 * p] - origin.lon)
                        if dx > 180 { dx = 360 - dx }
                        let x = dx * kx, y = (xy[2 * p + 1] - origin.lat) * ky
                        squares[i] = x * x + y * y
                        largest = max(largest, squares[i])
                    }
                    guard n >= k else { return max(100, (largest.squareRoot() + 1e-6) * 4) }
                    // Any k points lie within the largest of their upper bounds, so the k-th
                    // smallest bounds the k-th nearest distance.
                    let kth = kthSmallest(k, of: UnsafeMutableBufferPointer(rebasing: squares[0..<n]))
                    return max(kth.squareRoot() + 1e-6, 100)
                }
            }
        }
    }

    /// The k-th smallest of a few values (at most a leaf's), reordering them: the first k
    /// kept sorted by insertion, each later value placed only when it is smaller than the
    /// k-th so far (rare once the first k are in), so the branches are predictable.
    private func kthSmallest(_ k: Int, of values: UnsafeMutableBufferPointer<Double>) -> Double {
        for i in 1..<min(k, values.count) {
            let v = values[i]
            var j = i
            while j > 0, values[j - 1] > v { values[j] = values[j - 1]; j -= 1 }
            values[j] = v
        }
        for i in k..<values.count where values[i] < values[k - 1] {
            let v = values[i]
            var j = k - 1
            while j > 0, values[j - 1] > v { values[j] = values[j - 1]; j -= 1 }
            values[j] = v
        }
        return values[k - 1]
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
        let originECEF = WGS84.ecef(origin)
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
            if a.stage == 2 { return table.idPrecedes(a.left, b.left) }
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
        // With no distance limit the filter goes first, so that only the points it keeps
        // pay for their bound (four transcendental calls); with one, the bound goes first
        // and spares the filter the points beyond it.
        let filterFirst = maxDistance == .infinity
        func candidate(_ e: Int32, lon: Double, lat: Double, lower: @autoclosure () -> Double) {
            let l: Double
            if filterFirst {
                guard filter?(EntryRef(index: e)) != false else { return }
                l = lower()
            } else {
                l = lower()
                guard l <= maxDistance, filter?(EntryRef(index: e)) != false else { return }
            }
            push(QueueItem(key: mm(l), stage: 1, level: 0, left: e, right: 0, slot: 0, lon: lon, lat: lat))
        }

        for (li, level) in levels.enumerated() where level.count > 0 {
            push(QueueItem(key: 0, stage: 0, level: Int32(li), left: 0, right: Int32(level.count - 1), slot: 1, lon: 0, lat: 0))
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
                let p = GeoPoint(lat: item.lat, lon: item.lon)
                let r = DistanceBounds.interval(p, origin, ecefOfB: originECEF)
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
                push(QueueItem(key: d, stage: 2, level: 0, left: item.left, right: 0, slot: 0, lon: 0, lat: 0))
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
                        // Each child is keyed by the box of its own points (the tree keeps
                        // it by slot), not by the cell the splits leave it: far from the
                        // points, as at sea, those cells span oceans and bound nothing.
                        tree.nodes.withUnsafeBufferPointer { nodes in
                            func pushChild(left: Int, right: Int, slot: Int) {
                                guard left <= right else { return }
                                let b = PackedTree.box(nodes, slot)
                                let lb = bounds.lowerBound(west: b.x, south: b.y, east: b.z, north: b.w)
                                if lb > maxDistance { return }
                                push(QueueItem(key: mm(lb), stage: 0, level: item.level, left: Int32(left), right: Int32(right),
                                               slot: Int32(slot), lon: 0, lat: 0))
                            }
                            pushChild(left: left, right: m - 1, slot: 2 * Int(item.slot))
                            pushChild(left: m + 1, right: right, slot: 2 * Int(item.slot) + 1)
                        }
                    }
                }
            }
        }
        return out
    }
}
