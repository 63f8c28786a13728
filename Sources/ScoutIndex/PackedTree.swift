import CIntrinsics
import Dispatch
import Foundation
import ScoutCore

/// A static kd-tree packed into flat arrays (KDBush layout): interleaved
/// longitude/latitude coordinates and the entry number of each point, plus a dense copy of
/// the inner nodes' middle points for the descent.
///
/// The tree is implicit: the points of a node occupy a contiguous range, split at its
/// middle element alternately by longitude and latitude, down to leaves of
/// ``nodeSize`` points. Memory: 20 bytes a point, plus 16 bytes an inner node (its middle
/// point) and 32 bytes a node (its points' box): 2.5–5 bytes a point more.
///
/// Immutable; a class, not a struct, so that a walk over a snapshot's level retains one
/// object rather than each of the tree's three arrays.
///
/// - Complexity: build O(n log n); a box query O(√n + k); no allocation per query.
public final class PackedTree: Sendable {
    /// Points per leaf.
    public static let nodeSize = 32

    /// `[lon0, lat0, lon1, lat1, …]` in tree order (read by the index's inlinable walks).
    @usableFromInline package let coords: [Double]
    /// Entry number of each point, in tree order.
    @usableFromInline package let entries: [Int32]
    /// Two dense arrays by breadth-first node slot (the root at slot 1, slot `s`'s children
    /// at `2s` and `2s + 1`), one after the other in one buffer (one reference to hold
    /// during a walk, not two):
    /// - from 0, the box of every node's points (inner nodes and leaves), `[west, south,
    ///   east, north]` (slots with no node hold an empty box, west > east). Tighter than
    ///   the cell the splits give a node wherever points cluster, so a walk skips more nodes
    ///   and takes more whole; a node's two children's boxes are 64 adjacent bytes;
    /// - from ``middleStart``, the middle point of every inner node (a node of more than
    ///   ``nodeSize`` + 1 points), `[lon, lat]`: a copy of `coords` at those points, so
    ///   that a descent reads a few cache lines that stay cached, not a line of `coords`
    ///   per level.
    @usableFromInline package let nodes: [Double]
    /// Where the middle points begin in ``nodes``.
    @usableFromInline package let middleStart: Int

    /// Number of points.
    @inlinable public var count: Int { entries.count }

    /// Bytes held by the tree's arrays.
    public var memoryBytes: Int { coords.capacity * 8 + entries.capacity * 4 + nodes.capacity * 8 }

    /// Builds a tree over the points `(lon[i], lat[i])` carrying `entries[i]`.
    ///
    /// Sorting works on one array of 24-byte items (a swap moves one item, not three
    /// values), and sets of more than ``parallelBuildThreshold`` points sort their two
    /// halves on two threads; the result is the same tree either way.
    public init(entries: [Int32], lons: [Double], lats: [Double]) {
        precondition(entries.count == lons.count && lons.count == lats.count)
        let n = entries.count
        let parallel = n > PackedTree.parallelBuildThreshold
        var items = [Item](unsafeUninitializedCapacity: n) { buf, count in
            let out = buf
            func fill(_ range: Range<Int>) { for i in range { out[i] = Item(x: lons[i], y: lats[i], entry: entries[i]) } }
            PackedTree.run(parallel, { fill(0..<(n / 2)) }, { fill((n / 2)..<n) })
            count = n
        }
        if n > PackedTree.nodeSize {
            items.withUnsafeMutableBufferPointer { PackedTree.sort($0, 0, n - 1, 0, parallel: parallel) }
        }
        self.coords = [Double](unsafeUninitializedCapacity: 2 * n) { buf, count in
            let out = buf
            items.withUnsafeBufferPointer { sorted in
                func copy(_ range: Range<Int>) { for i in range { out[2 * i] = sorted[i].x; out[2 * i + 1] = sorted[i].y } }
                PackedTree.run(parallel, { copy(0..<(n / 2)) }, { copy((n / 2)..<n) })
            }
            count = 2 * n
        }
        self.entries = [Int32](unsafeUninitializedCapacity: n) { buf, count in
            for i in 0..<n { buf[i] = items[i].entry }
            count = n
        }
        (nodes, middleStart) = PackedTree.nodes(of: coords)
    }

    /// The same tree with every entry number moved by `delta` (compaction renumbers a level
    /// without sorting it again). The coordinates are shared, not copied.
    init(renumbering tree: PackedTree, by delta: Int32) {
        coords = tree.coords
        nodes = tree.nodes
        middleStart = tree.middleStart
        entries = tree.entries.map { $0 + delta }
    }

    /// A tree over arrays taken as already in tree order, unchecked (for exports that
    /// carry a tree's order, and for tests of the checks).
    init(treeOrderEntries entries: [Int32], coords: [Double]) {
        self.entries = entries
        self.coords = coords
        (nodes, middleStart) = PackedTree.nodes(of: coords)
    }

    /// ``nodes`` and ``middleStart`` for the points `coords` (in tree order).
    static func nodes(of coords: [Double]) -> (nodes: [Double], middleStart: Int) {
        let n = coords.count / 2
        // Inner nodes lie at depths below `depth`, leaves at `depth` or above: a node of s
        // points has children of at most s / 2.
        var depth = 0, size = n
        while size > nodeSize + 1 { depth += 1; size /= 2 }
        let slots = 2 << depth, middleStart = 4 * slots
        var nodes = [Double](repeating: 0, count: middleStart + (depth == 0 ? 0 : 2 << depth))
        for slot in 0..<slots {
            nodes[4 * slot] = .infinity; nodes[4 * slot + 1] = .infinity
            nodes[4 * slot + 2] = -.infinity; nodes[4 * slot + 3] = -.infinity
        }
        if n == 0 { return (nodes, middleStart) }
        coords.withUnsafeBufferPointer { xy in
            nodes.withUnsafeMutableBufferPointer { out in
                let mids = out.baseAddress! + middleStart
                func fill(_ slot: Int, _ left: Int, _ right: Int, parallel: Bool = false) {
                    var w = Double.infinity, s = Double.infinity, e = -Double.infinity, nn = -Double.infinity
                    func add(_ i: Int) {
                        w = min(w, xy[2 * i]); e = max(e, xy[2 * i])
                        s = min(s, xy[2 * i + 1]); nn = max(nn, xy[2 * i + 1])
                    }
                    if right - left <= nodeSize {
                        for i in left...right { add(i) }
                    } else {
                        let m = (left + right) >> 1
                        mids[2 * slot] = xy[2 * m]; mids[2 * slot + 1] = xy[2 * m + 1]
                        add(m)
                        // The two subtrees write disjoint slots.
                        PackedTree.run(parallel, { fill(2 * slot, left, m - 1) }, { fill(2 * slot + 1, m + 1, right) })
                        for child in (2 * slot)...(2 * slot + 1) {
                            w = min(w, out[4 * child]); s = min(s, out[4 * child + 1])
                            e = max(e, out[4 * child + 2]); nn = max(nn, out[4 * child + 3])
                        }
                    }
                    out[4 * slot] = w; out[4 * slot + 1] = s; out[4 * slot + 2] = e; out[4 * slot + 3] = nn
                }
                fill(1, 0, n - 1, parallel: n > parallelBuildThreshold)
            }
        }
        return (nodes, middleStart)
    }

    /// The box of the points of the node at `slot`: `(west, south, east, north)`.
    func box(atSlot slot: Int) -> (west: Double, south: Double, east: Double, north: Double)? {
        guard slot >= 0, 4 * slot + 3 < middleStart else { return nil }
        return (nodes[4 * slot], nodes[4 * slot + 1], nodes[4 * slot + 2], nodes[4 * slot + 3])
    }

    /// The middle point of the inner node at `slot`: `(lon, lat)`.
    func middle(atSlot slot: Int) -> (lon: Double, lat: Double)? {
        guard slot >= 0, middleStart + 2 * slot + 1 < nodes.count else { return nil }
        return (nodes[middleStart + 2 * slot], nodes[middleStart + 2 * slot + 1])
    }

    /// The box of the points of the node at `slot`, from ``nodes``' buffer:
    /// `(west, south, east, north)` as `(x, y, z, w)`.
    @inlinable @inline(__always)
    static func box(_ nodes: UnsafeBufferPointer<Double>, _ slot: Int) -> SIMD4<Double> {
        UnsafeRawPointer(nodes.baseAddress!).loadUnaligned(fromByteOffset: 32 * slot, as: SIMD4<Double>.self)
    }

    /// A walk's nodes still to visit (`left`, `right`, breadth-first `slot`, as `Int32`s),
    /// last in first out, in a buffer of the caller's of ``stackDepth`` × 3 `Int32`s.
    @usableFromInline
    struct NodeStack {
        @usableFromInline let base: UnsafeMutablePointer<Int32>
        @usableFromInline var count = 0
        @inlinable init(_ base: UnsafeMutablePointer<Int32>) { self.base = base }
        @inlinable @inline(__always)
        mutating func push(_ left: Int, _ right: Int, _ slot: Int) {
            base[3 * count] = Int32(truncatingIfNeeded: left); base[3 * count + 1] = Int32(truncatingIfNeeded: right)
            base[3 * count + 2] = Int32(truncatingIfNeeded: slot)
            count += 1
        }
        @inlinable @inline(__always)
        mutating func pop() -> (left: Int, right: Int, slot: Int)? {
            if count == 0 { return nil }
            count -= 1
            return (Int(base[3 * count]), Int(base[3 * count + 1]), Int(base[3 * count + 2]))
        }
    }

    /// Deepest a walk's stack of pending nodes grows: one node a level, plus one. Entry
    /// numbers are `Int32`, so a tree has under 2³¹ points and under 27 levels.
    @usableFromInline static let stackDepth = 40

    /// The axis a node at breadth-first `slot` splits on: longitude (0) at even depths.
    @inlinable @inline(__always)
    static func axis(ofSlot slot: Int) -> Int { (Int.bitWidth - 1 - slot.leadingZeroBitCount) & 1 }

    /// Runs `first` and `second` on two threads at once when `parallel`, else one after
    /// the other. Callers hand each a disjoint part of one buffer.
    private static func run(_ parallel: Bool, _ first: () -> Void, _ second: () -> Void) {
        guard parallel else { first(); second(); return }
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                let halves = Halves(first: first, second: second)
                DispatchQueue.concurrentPerform(iterations: 2) { $0 == 0 ? halves.first() : halves.second() }
            }
        }
    }

    /// The two halves of a build step, shared with the thread that runs one of them.
    private struct Halves: @unchecked Sendable {
        let first: () -> Void
        let second: () -> Void
    }

    /// Points above which a build sorts the two halves of the tree on two threads.
    public static let parallelBuildThreshold = 65_536

    /// A point while the tree is built.
    struct Item {
        var x: Double
        var y: Double
        var entry: Int32
        @inline(__always) func coordinate(_ axis: Int) -> Double { axis == 0 ? x : y }
    }

    private static func sort(_ items: UnsafeMutableBufferPointer<Item>, _ left: Int, _ right: Int, _ axis: Int, parallel: Bool) {
        if right - left <= nodeSize { return }
        let m = (left + right) >> 1
        select(items, m, left, right, axis)
        run(parallel, { sort(items, left, m - 1, 1 - axis, parallel: false) },
            { sort(items, m + 1, right, 1 - axis, parallel: false) })
    }

    /// Floyd–Rivest selection: puts the k-th smallest (by `axis`) at `k`, smaller ones before it.
    private static func select(_ items: UnsafeMutableBufferPointer<Item>, _ k: Int, _ left: Int, _ right: Int, _ axis: Int) {
        var left = left, right = right
        while right > left {
            if right - left > 600 {
                let n = Double(right - left + 1), i = Double(k - left + 1)
                let z = log(n), s = 0.5 * exp(2 * z / 3)
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (i - n / 2 < 0 ? -1 : 1)
                let newLeft = max(left, Int((Double(k) - i * s / n + sd).rounded(.down)))
                let newRight = min(right, Int((Double(k) + (n - i) * s / n + sd).rounded(.down)))
                select(items, k, newLeft, newRight, axis)
            }
            let t = items[k].coordinate(axis)
            var i = left, j = right
            items.swapAt(left, k)
            if items[right].coordinate(axis) > t { items.swapAt(left, right) }
            while i < j {
                items.swapAt(i, j)
                i += 1; j -= 1
                while items[i].coordinate(axis) < t { i += 1 }
                while items[j].coordinate(axis) > t { j -= 1 }
            }
            if items[left].coordinate(axis) == t { items.swapAt(left, j) }
            else { j += 1; items.swapAt(j, right) }
            if j <= k { left = j + 1 }
            if k <= j { right = j - 1 }
        }
    }

    /// Walks the points of the box `[west, south, east, north]` (edges inclusive; the box
    /// must not cross the antimeridian) whose entries `filter` includes, and hands them to
    /// `visitor`: a node whose points' box (in ``nodes``) lies in the query box and that
    /// ``PointVisitor/accepts(west:south:east:north:)`` approves gives all its points to
    /// ``PointVisitor/member(_:lon:lat:)`` untested; every other point in the box goes to
    /// ``PointVisitor/candidate(_:lon:lat:)``. Nodes whose points' box misses the query box
    /// are not entered. Allocates nothing.
    @inlinable
    public func visit<V: PointVisitor, F: EntryFilter>(west: Double, south: Double, east: Double, north: Double,
                                                       only filter: F, _ visitor: inout V) {
        let n = entries.count
        if n == 0 { return }
        coords.withUnsafeBufferPointer { xy in
            nodes.withUnsafeBufferPointer { nodeArrays in
              entries.withUnsafeBufferPointer { ids in
                let mids = UnsafeBufferPointer(rebasing: nodeArrays[middleStart...])
                // A node: left, right, slot. Ranges to read, found by the descent and read in
                // batches (see `flush`): left, right, taken whole. `Int32`s, so that the
                // whole allocation stays within the 1 KiB Swift puts on the stack unasked
                // (past it, `withUnsafeTemporaryAllocation` asks the runtime, and may use
                // the heap).
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * PackedTree.stackDepth + 3 * PackedTree.batch + PackedTree.nodeSize / 4 + 1) { stack in
                    let ranges = stack.baseAddress! + 3 * PackedTree.stackDepth
                    let picked = UnsafeMutableRawPointer(ranges + 3 * PackedTree.batch).assumingMemoryBound(to: UInt8.self)
                    @inline(__always) func box(_ slot: Int) -> SIMD4<Double> { PackedTree.box(nodeArrays, slot) }
                    @inline(__always) func meets(_ b: SIMD4<Double>) -> Bool {
                        b.x <= east && b.z >= west && b.y <= north && b.w >= south
                    }
                    @inline(__always) func bit(_ b: Bool) -> Int { b ? 1 : 0 }
                    var pending = 0
                    /// Reads the pending ranges (their lines were prefetched when they were
                    /// found, so that their misses overlap instead of being paid one range
                    /// after another).
                    func flush() {
                        for r in 0..<pending {
                            let left = Int(ranges[3 * r]), right = Int(ranges[3 * r + 1])
                            var i = left
                            if ranges[3 * r + 2] != 0 {
                                if F.self == AllEntries.self {
                                    visitor.members(UnsafeBufferPointer(rebasing: ids[left...right]),
                                                    coordinates: UnsafeBufferPointer(rebasing: xy[(2 * left)...(2 * right + 1)]))
                                    continue
                                }
                                while i <= right {
                                    if filter.includes(ids[i]) { visitor.member(ids[i], lon: xy[2 * i], lat: xy[2 * i + 1]) }
                                    i += 1
                                }
                                continue
                            }
                            // A leaf (at most nodeSize + 1 points): first which points lie in
                            // the box, without branches (for a box cutting the leaf, each
                            // test is a coin toss to the branch predictor), then those.
                            var count = 0
                            let low = SIMD2(west, south), high = SIMD2(east, north)
                            let pairs = UnsafeRawPointer(xy.baseAddress!)
                            while i <= right {
                                // Longitude and latitude side by side: two comparisons.
                                let p = pairs.loadUnaligned(fromByteOffset: 16 * i, as: SIMD2<Double>.self)
                                picked[count] = UInt8(truncatingIfNeeded: i - left)
                                count += bit(all((p .>= low) .& (p .<= high)))
                                i += 1
                            }
                            for k in 0..<count {
                                let j = left + Int(picked[k])
                                if filter.includes(ids[j]) { visitor.candidate(ids[j], lon: xy[2 * j], lat: xy[2 * j + 1]) }
                            }
                        }
                        pending = 0
                    }
                    func later(_ left: Int, _ right: Int, whole: Bool) {
                        if pending == PackedTree.batch { flush() }
                        let last = min(right, left + 4 * PackedTree.nodeSize)
                        if !whole || V.readsMemberCoordinates { PackedTree.prefetch(xy, from: left, through: last) }
                        var j = left
                        while j <= last { scout_prefetch(ids.baseAddress! + j); j += 16 }
                        ranges[3 * pending] = Int32(truncatingIfNeeded: left); ranges[3 * pending + 1] = Int32(truncatingIfNeeded: right)
                        ranges[3 * pending + 2] = whole ? 1 : 0
                        pending += 1
                    }
                    // Neither the nodes passed on the way down nor any above them could be
                    // taken whole: each has points on both sides of the query box's edge.
                    let (left, right, slot) = PackedTree.descend(west: west, south: south, east: east, north: north, n, nodeArrays, middleStart)
                    guard meets(box(slot)) else { return }
                    var pendingNodes = NodeStack(stack.baseAddress!)
                    pendingNodes.push(left, right, slot)
                    while let (left, right, slot) = pendingNodes.pop() {
                        let b = box(slot)
                        if b.x >= west && b.z <= east && b.y >= south && b.w <= north
                            && visitor.accepts(west: b.x, south: b.y, east: b.z, north: b.w) {
                            later(left, right, whole: true)
                            continue
                        }
                        if right - left <= PackedTree.nodeSize {
                            later(left, right, whole: false)
                            continue
                        }
                        let m = (left + right) >> 1
                        // The boxes and middle points three levels down, at hand when reached.
                        PackedTree.prefetchDescendants(nodeArrays, middleStart, of: slot)
                        let x = mids[2 * slot], y = mids[2 * slot + 1]
                        if x >= west && x <= east && y >= south && y <= north && filter.includes(ids[m]) {
                            later(m, m, whole: false)
                        }
                        // Children whose points' box meets the query box (each child has points).
                        if meets(box(2 * slot)) { pendingNodes.push(left, m - 1, 2 * slot) }
                        if meets(box(2 * slot + 1)) { pendingNodes.push(m + 1, right, 2 * slot + 1) }
                    }
                    flush()
                }
              }
            }
        }
    }

    /// The deepest node (`left...right` at breadth-first `slot`) of a tree of `n` points
    /// that holds every point of the box: while the box lies on one side of a node's split,
    /// only that child can hold its points (not the node's middle point, which lies on the
    /// split), so a walk goes down without its stack and without reading boxes. Every
    /// point of the box outside the returned node's points is none.
    @inlinable @inline(__always)
    static func descend(west: Double, south: Double, east: Double, north: Double, _ n: Int,
                        _ nodes: UnsafeBufferPointer<Double>, _ middleStart: Int) -> (left: Int, right: Int, slot: Int) {
        var (left, right, slot) = (0, n - 1, 1)
        while right - left > PackedTree.nodeSize {
            let axis = PackedTree.axis(ofSlot: slot)
            let split = nodes[middleStart + 2 * slot + axis]
            let (low, high) = axis == 0 ? (west, east) : (south, north)
            let m = (left + right) >> 1
            if high < split { right = m - 1; slot = 2 * slot }
            else if low > split { left = m + 1; slot = 2 * slot + 1 }
            else { break }
            PackedTree.prefetchDescendants(nodes, middleStart, of: slot)
        }
        return (left, right, slot)
    }

    /// Ranges a walk reads in one batch.
    @usableFromInline static let batch = 16

    /// Starts loading the boxes and middle points of the nodes three levels below the inner
    /// node at `slot` (slots `8 slot ..< 8 slot + 8` of ``nodes``, whose middle points
    /// start at `middleStart`): 256 bytes of boxes and 128 of middle points, at hand when
    /// the descent gets there. (Two levels ahead was 4-6% slower for a 4 km radius, four
    /// levels no faster.)
    @inlinable @inline(__always)
    static func prefetchDescendants(_ nodes: UnsafeBufferPointer<Double>, _ middleStart: Int, of slot: Int) {
        let boxes = 32 * slot, middles = middleStart + 16 * slot
        if boxes < middleStart {
            var i = 0
            while i < 32 { scout_prefetch(nodes.baseAddress! + boxes + i); i += 8 }
            scout_prefetch(nodes.baseAddress! + boxes + 31)
        }
        if middles < nodes.count {
            scout_prefetch(nodes.baseAddress! + middles)
            scout_prefetch(nodes.baseAddress! + middles + 8)
            scout_prefetch(nodes.baseAddress! + middles + 15)
        }
    }

    /// Starts loading the coordinates of the points `left...right` (every cache line of
    /// `xy[2 * left ... 2 * right + 1]`), without waiting for them.
    @inlinable @inline(__always)
    static func prefetch(_ xy: UnsafeBufferPointer<Double>, from left: Int, through right: Int) {
        var line = 2 * left
        while line <= 2 * right + 1 { scout_prefetch(xy.baseAddress! + line); line += 8 }
    }

    /// Hands `walker` the points of `box` (which does not cross the antimeridian) depth
    /// first, the child on `origin`'s side first, skipping every node whose points' box
    /// misses `box` or (clipped to `box`) ``NearestWalker/skips(west:south:east:north:)``
    /// refuses; its answer may change as the walker takes points (a nearest search skips
    /// what lies beyond its shrinking bound). Points are handed over by their position in
    /// the tree, so that the walk reads no entry number the walker does not ask for.
    /// Allocates nothing.
    @inlinable
    public func nearestWalk<W: NearestWalker>(box: GeoBox, origin: GeoPoint, _ walker: inout W) {
        let n = entries.count
        if n == 0 { return }
        let (west, south, east, north) = (box.west, box.south, box.east, box.north)
        coords.withUnsafeBufferPointer { xy in
            nodes.withUnsafeBufferPointer { nodeArrays in
              entries.withUnsafeBufferPointer { ids in
                let mids = UnsafeBufferPointer(rebasing: nodeArrays[middleStart...])
                // `Int32`s, to stay within what Swift puts on the stack unasked (see `visit`).
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * PackedTree.stackDepth) { stack in
                    let low = SIMD2(west, south), high = SIMD2(east, north)
                    @inline(__always) func nodeBox(_ slot: Int) -> SIMD4<Double> { PackedTree.box(nodeArrays, slot) }
                    @inline(__always) func meets(_ b: SIMD4<Double>) -> Bool {
                        b.x <= east && b.z >= west && b.y <= north && b.w >= south
                    }
                    @inline(__always) func point(_ i: Int, _ pairs: UnsafeRawPointer, _ at: Int) {
                        // Longitude and latitude side by side: two comparisons.
                        let p = pairs.loadUnaligned(fromByteOffset: 16 * at, as: SIMD2<Double>.self)
                        if all((p .>= low) .& (p .<= high)) { walker.take(i, lon: p.x, lat: p.y, entries: ids) }
                    }
                    let points = UnsafeRawPointer(xy.baseAddress!)
                    var pendingNodes = NodeStack(stack.baseAddress!)
                    @inline(__always) func push(_ left: Int, _ right: Int, _ slot: Int) {
                        if right - left <= PackedTree.nodeSize {
                            // A leaf: all its lines (it is read whole if not skipped), and its
                            // entry numbers (the walker reads those of the points it keeps).
                            PackedTree.prefetch(xy, from: left, through: right)
                            scout_prefetch(ids.baseAddress! + left)
                            scout_prefetch(ids.baseAddress! + right)
                        } else {
                            PackedTree.prefetchDescendants(nodeArrays, middleStart, of: slot)
                        }
                        pendingNodes.push(left, right, slot)
                    }
                    defer { walker.finish(entries: ids) }
                    let (left, right, slot) = PackedTree.descend(west: west, south: south, east: east, north: north, n, nodeArrays, middleStart)
                    guard meets(nodeBox(slot)) else { return }
                    push(left, right, slot)
                    while let (left, right, slot) = pendingNodes.pop() {
                        let b = nodeBox(slot)
                        if walker.skips(west: max(b.x, west), south: max(b.y, south), east: min(b.z, east), north: min(b.w, north)) { continue }
                        if right - left <= PackedTree.nodeSize {
                            for i in left...right { point(i, points, i) }
                            continue
                        }
                        let m = (left + right) >> 1, axis = PackedTree.axis(ofSlot: slot)
                        point(m, UnsafeRawPointer(mids.baseAddress!), slot)
                        // Children whose points' box meets the query box; the one on the
                        // origin's side last (popped first).
                        let lowMeets = meets(nodeBox(2 * slot)), highMeets = meets(nodeBox(2 * slot + 1))
                        if (axis == 0 ? origin.lon : origin.lat) < mids[2 * slot + axis] {
                            if highMeets { push(m + 1, right, 2 * slot + 1) }
                            if lowMeets { push(left, m - 1, 2 * slot) }
                        } else {
                            if lowMeets { push(left, m - 1, 2 * slot) }
                            if highMeets { push(m + 1, right, 2 * slot + 1) }
                        }
                    }
                }
              }
            }
        }
    }

    /// Calls `body(entry, lon, lat)` for every point in the box (edges inclusive; the box
    /// must not cross the antimeridian). Allocates nothing.
    @inlinable
    public func forEach(west: Double, south: Double, east: Double, north: Double,
                        _ body: (Int32, Double, Double) -> Void) {
        withoutActuallyEscaping(body) { body in
            var each = EachPoint(body: body)
            visit(west: west, south: south, east: east, north: north, only: AllEntries(), &each)
        }
    }
}

/// What a ``PackedTree/visit(west:south:east:north:only:_:)`` walk does with the points it finds.
public protocol PointVisitor {
    /// Whether every point in the closed box certainly belongs to the answer, so that the
    /// walk may pass them to ``member(_:lon:lat:)`` without testing each.
    func accepts(west: Double, south: Double, east: Double, north: Double) -> Bool
    /// A point inside the query box that the visitor must judge.
    mutating func candidate(_ entry: Int32, lon: Double, lat: Double)
    /// A point of a box the visitor accepted.
    mutating func member(_ entry: Int32, lon: Double, lat: Double)
    /// Every point of a node the visitor accepted, when the walk's filter includes every
    /// entry: their entries, and their coordinates as longitude, latitude pairs. The
    /// default hands each to ``member(_:lon:lat:)``; a visitor that keeps only entries can
    /// copy them at once.
    mutating func members(_ entries: UnsafeBufferPointer<Int32>, coordinates: UnsafeBufferPointer<Double>)
    /// Whether ``member(_:lon:lat:)`` and ``members(_:coordinates:)`` read the coordinates
    /// they are given; when not, the walk does not load them ahead. `true` by default.
    static var readsMemberCoordinates: Bool { get }
}

extension PointVisitor {
    /// `true`.
    @inlinable public static var readsMemberCoordinates: Bool { true }

    /// Hands each point to ``member(_:lon:lat:)``.
    @inlinable
    public mutating func members(_ entries: UnsafeBufferPointer<Int32>, coordinates: UnsafeBufferPointer<Double>) {
        eachMember(entries, coordinates: coordinates)
    }

    /// ``members(_:coordinates:)``'s default, for a visitor that copies only some nodes at once.
    @inlinable
    public mutating func eachMember(_ entries: UnsafeBufferPointer<Int32>, coordinates: UnsafeBufferPointer<Double>) {
        for i in entries.indices { member(entries[i], lon: coordinates[2 * i], lat: coordinates[2 * i + 1]) }
    }
}

/// What a ``PackedTree/nearestWalk(box:origin:_:)`` does with the nodes and points it meets.
public protocol NearestWalker {
    /// Whether no point of the closed box can be among the answers (now).
    func skips(west: Double, south: Double, east: Double, north: Double) -> Bool
    /// A point of the walk's box, at `position` in the tree: its entry is `entries[position]`,
    /// to be read only when needed (most points a walk meets are not answers, and each entry
    /// number read is a likely cache miss).
    mutating func take(_ position: Int, lon: Double, lat: Double, entries: UnsafeBufferPointer<Int32>)
    /// The walk is over; `entries` is still valid (positions kept from ``take(_:lon:lat:entries:)``
    /// must be turned into entries now).
    mutating func finish(entries: UnsafeBufferPointer<Int32>)
}

/// Which entries of a tree a walk sees (the live ones of a snapshot, or all).
public protocol EntryFilter {
    /// Whether the walk sees `entry`.
    func includes(_ entry: Int32) -> Bool
}

/// Every entry: for trees none of whose entries has been removed.
public struct AllEntries: EntryFilter {
    /// Creates the filter.
    @inlinable public init() {}
    /// Always `true`.
    @inlinable public func includes(_ entry: Int32) -> Bool { true }
}

/// A walk that hands every point of the query box to `body` (a node inside the box is
/// taken whole).
@usableFromInline
struct EachPoint: PointVisitor {
    @usableFromInline let body: (Int32, Double, Double) -> Void
    @inlinable init(body: @escaping (Int32, Double, Double) -> Void) { self.body = body }
    @inlinable func accepts(west: Double, south: Double, east: Double, north: Double) -> Bool { true }
    @inlinable func candidate(_ entry: Int32, lon: Double, lat: Double) { body(entry, lon, lat) }
    @inlinable func member(_ entry: Int32, lon: Double, lat: Double) { body(entry, lon, lat) }
}
