// Debug-only invariant checks (the model: swift-collections' COLLECTIONS_INTERNAL_CHECKS).
// Compiled only when SCOUT_INTERNAL_CHECKS is defined, which Package.swift does for debug
// builds of ScoutIndex; writers run them after every write, merge and compaction, and the
// tests call them after random interleavings. Other builds get empty stubs, so that callers
// need no `#if` of their own.

extension PointSet {
    /// Whether this build of ScoutIndex checks its invariants (`SCOUT_INTERNAL_CHECKS`).
    public static var _isCheckingInvariants: Bool {
        #if SCOUT_INTERNAL_CHECKS
        true
        #else
        false
        #endif
    }
}

#if SCOUT_INTERNAL_CHECKS

extension PointSet {
    /// Traps unless the writer's state and the published snapshot are consistent: chunk
    /// counts, level ranges, removal counts, the id map, the reclamation bound and every
    /// snapshot invariant (see ``Snapshot/_checkInvariants()``).
    ///
    /// - Complexity: O(n log n) in the entry slots; takes the writer lock.
    public func _checkInvariants() {
        let problems = _invariantViolations()
        precondition(problems.isEmpty, "PointSet invariants broken: \(problems.prefix(5))")
    }

    /// What ``_checkInvariants()`` would trap on (empty when all is well).
    public func _invariantViolations() -> [String] {
        writer.withLock { w in
            var problems = violations(of: w, full: true)
            let s = snapshot()
            if s.version != w.epoch { problems.append("published version \(s.version), writer epoch \(w.epoch)") }
            if s.table.count != w.entryCount { problems.append("published \(s.table.count) slots, writer \(w.entryCount)") }
            if s.liveCount != w.liveCount { problems.append("published \(s.liveCount) live, writer \(w.liveCount)") }
            if s.generation != w.compactions { problems.append("published generation \(s.generation), writer \(w.compactions)") }
            return problems + s._invariantViolations()
        }
    }

    /// Problems with the writer's state; `full` adds the O(n) checks of every slot and tree.
    func violations(of w: WriterState, full: Bool) -> [String] {
        var p: [String] = []
        let cap = EntryChunk.capacity
        if w.entryCount > Int(Int32.max) { p.append("\(w.entryCount) entry slots overflow Int32") }
        if w.chunks.count != (w.entryCount + cap - 1) / cap { p.append("\(w.chunks.count) chunks for \(w.entryCount) slots") }
        for (i, c) in w.chunks.enumerated() where c.count != (i == w.chunks.count - 1 ? w.entryCount - i * cap : cap) {
            p.append("chunk \(i) holds \(c.count)")
        }
        if !(0...w.entryCount).contains(w.bufferStart) { p.append("bufferStart \(w.bufferStart) outside 0...\(w.entryCount)") }
        for (i, l) in w.levels.enumerated() {
            let end = i + 1 < w.levels.count ? w.levels[i + 1].start : w.bufferStart
            if l.start < 0 || l.start >= end { p.append("level \(i) range \(l.start)..<\(end)") }
            if l.tree.count == 0 { p.append("level \(i) is empty") }
        }
        if w.merging && !(1...w.levels.count).contains(w.mergeInputs) { p.append("merging \(w.mergeInputs) of \(w.levels.count) levels") }
        // Reclamation: out of a merge, dead slots never outnumber both the live and the slack.
        if !w.merging && needsCompaction(w) {
            p.append("\(w.entryCount - w.liveCount) dead slots for \(w.liveCount) live: compaction overdue")
        }
        if p.count > 0 || !full { return p }

        let table = EntryTable(chunks: w.chunks, count: w.entryCount)
        var liveSlots = 0
        for i in 0..<w.entryCount {
            let stamp = table.removedAt(Int32(i))
            if stamp == EntryChunk.never { liveSlots += 1 } else if stamp > w.epoch {
                p.append("entry \(i) removed at \(stamp), after epoch \(w.epoch)")
                break
            }
        }
        if liveSlots != w.liveCount { p.append("\(liveSlots) live slots, \(w.liveCount) live") }
        for (tag, e) in w.ids.pairs {
            if Int(e) >= w.entryCount || e < 0 { p.append("a slot of the id map → \(e), past \(w.entryCount)"); break }
            let id = table.entry(e).id
            if IdMap.tag(id) != tag { p.append("id \(id) → entry \(e) under another id's hash"); break }
            if w.ids.entry(of: id, in: table) != e { p.append("id \(id) → entry \(e), but a lookup finds \(String(describing: w.ids.entry(of: id, in: table)))"); break }
            if table.removedAt(e) != EntryChunk.never { p.append("id \(id) → removed entry \(e)"); break }
        }
        for (i, l) in w.levels.enumerated() {
            let end = i + 1 < w.levels.count ? w.levels[i + 1].start : w.bufferStart
            var removed = 0
            for e in l.tree.entries {
                if !(l.start..<end).contains(Int(e)) { p.append("level \(i) holds entry \(e) outside \(l.start)..<\(end)"); break }
                if table.removedAt(e) != EntryChunk.never { removed += 1 }
            }
            if removed != l.removed { p.append("level \(i) has \(removed) removed entries, counted \(l.removed)") }
        }
        return p
    }
}

extension PointSet.Snapshot {
    /// Traps unless the snapshot is consistent at its version: every level a valid packed
    /// tree over entries below the buffer with their stored positions, no entry in two
    /// levels, every live entry below the buffer in a level, clean levels without removed
    /// entries, `liveCount` live entries with distinct ids.
    ///
    /// - Complexity: O(n log n) in the entry slots.
    public func _checkInvariants() {
        let problems = _invariantViolations()
        precondition(problems.isEmpty, "Snapshot invariants broken: \(problems.prefix(5))")
    }

    /// What ``_checkInvariants()`` would trap on (empty when all is well).
    public func _invariantViolations() -> [String] {
        var p: [String] = []
        let cap = EntryChunk.capacity
        if table.count > Int(Int32.max) { p.append("\(table.count) entry slots overflow Int32") }
        if table.chunks.count != (table.count + cap - 1) / cap { p.append("\(table.chunks.count) chunks for \(table.count) slots") }
        if !(0...table.count).contains(bufferStart) { p.append("bufferStart \(bufferStart) outside 0...\(table.count)") }
        if levels.count != cleanLevels.count { p.append("\(levels.count) levels, \(cleanLevels.count) clean flags") }
        if !p.isEmpty { return p }
        var inLevel = [Bool](repeating: false, count: bufferStart)
        for (li, tree) in levels.enumerated() {
            if tree.coords.count != 2 * tree.count { p.append("level \(li): \(tree.coords.count) coordinates, \(tree.count) entries"); continue }
            p += tree._invariantViolations().map { "level \(li): \($0)" }
            for (j, e) in tree.entries.enumerated() {
                guard e >= 0 && Int(e) < bufferStart else { p.append("level \(li) holds entry \(e), buffer at \(bufferStart)"); break }
                if inLevel[Int(e)] { p.append("entry \(e) in two levels"); break }
                inLevel[Int(e)] = true
                let pos = table.position(e)
                if pos.lon != tree.coords[2 * j] || pos.lat != tree.coords[2 * j + 1] {
                    p.append("level \(li) has entry \(e) at (\(tree.coords[2 * j]), \(tree.coords[2 * j + 1])), stored at \(pos)"); break
                }
                if cleanLevels[li] && !isLive(e) { p.append("clean level \(li) holds entry \(e) removed at \(table.removedAt(e))"); break }
            }
        }
        var live = 0
        var ids = Set<String>()
        for i in 0..<table.count where isLive(Int32(i)) {
            live += 1
            if i < bufferStart && !inLevel[i] { p.append("live entry \(i) in no level"); break }
            if !ids.insert(table.entry(Int32(i)).id).inserted { p.append("id \(table.entry(Int32(i)).id) live twice"); break }
        }
        if live != liveCount { p.append("\(live) live entries, liveCount \(liveCount)") }
        // The removal log: entries of this store, each removed by this snapshot, once, in
        // the order of their stamps.
        var logged = Set<Int32>(), lastStamp: UInt64 = 0
        for i in 0..<removals.count {
            let e = removals[i]
            guard e >= 0 && Int(e) < table.count else { p.append("removal \(i) logs entry \(e), past \(table.count)"); break }
            let stamp = table.removedAt(e)
            if stamp > version { p.append("removal \(i) logs entry \(e), removed at \(stamp), after \(version)"); break }
            if stamp < lastStamp { p.append("removal \(i) logs entry \(e) at \(stamp), after one at \(lastStamp)"); break }
            if !logged.insert(e).inserted { p.append("entry \(e) logged twice"); break }
            lastStamp = stamp
        }
        return p
    }
}

extension PackedTree {
    /// Traps unless the tree is a valid packed kd-tree: one coordinate pair per entry and,
    /// at every node split at its middle point, no point of the left part above the split
    /// value and none of the right part below it (on the node's axis), and ``nodes``
    /// holding each node's points' box and each inner node's middle point at the node's
    /// breadth-first slot.
    ///
    /// - Complexity: O(n log n).
    public func _checkInvariants() {
        let problems = _invariantViolations()
        precondition(problems.isEmpty, "PackedTree invariants broken: \(problems.prefix(5))")
    }

    /// What ``_checkInvariants()`` would trap on (empty when all is well).
    public func _invariantViolations() -> [String] {
        guard coords.count == 2 * entries.count else { return ["\(coords.count) coordinates for \(entries.count) entries"] }
        var stack: [(left: Int, right: Int, axis: Int, slot: Int)] = entries.isEmpty ? [] : [(0, entries.count - 1, 0, 1)]
        while let (left, right, axis, slot) = stack.popLast() {
            var box = (west: Double.infinity, south: Double.infinity, east: -Double.infinity, north: -Double.infinity)
            for i in left...right {
                box = (min(box.west, coords[2 * i]), min(box.south, coords[2 * i + 1]),
                       max(box.east, coords[2 * i]), max(box.north, coords[2 * i + 1]))
            }
            guard let kept = self.box(atSlot: slot), kept == box else {
                return ["slot \(slot) of the node boxes does not hold the box of points \(left)...\(right)"]
            }
            if right - left <= PackedTree.nodeSize { continue }
            let m = (left + right) >> 1
            let c = coords[2 * m + axis]
            for i in left..<m where coords[2 * i + axis] > c { return ["point \(i) left of split \(m) lies above it"] }
            for i in (m + 1)...right where coords[2 * i + axis] < c { return ["point \(i) right of split \(m) lies below it"] }
            guard let middle = middle(atSlot: slot), middle == (coords[2 * m], coords[2 * m + 1]),
                  PackedTree.axis(ofSlot: slot) == axis else {
                return ["slot \(slot) of the middle points does not hold point \(m), the middle of \(left)...\(right)"]
            }
            stack.append((left, m - 1, 1 - axis, 2 * slot))
            stack.append((m + 1, right, 1 - axis, 2 * slot + 1))
        }
        return []
    }
}
#else
extension PointSet {
    /// Checks nothing: this build does not define `SCOUT_INTERNAL_CHECKS`.
    @inlinable @inline(__always) public func _checkInvariants() {}
    /// Always empty: this build does not define `SCOUT_INTERNAL_CHECKS`.
    public func _invariantViolations() -> [String] { [] }
}

extension PointSet.Snapshot {
    /// Checks nothing: this build does not define `SCOUT_INTERNAL_CHECKS`.
    @inlinable @inline(__always) public func _checkInvariants() {}
    /// Always empty: this build does not define `SCOUT_INTERNAL_CHECKS`.
    public func _invariantViolations() -> [String] { [] }
}

extension PackedTree {
    /// Checks nothing: this build does not define `SCOUT_INTERNAL_CHECKS`.
    @inlinable @inline(__always) public func _checkInvariants() {}
    /// Always empty: this build does not define `SCOUT_INTERNAL_CHECKS`.
    public func _invariantViolations() -> [String] { [] }
}
#endif
