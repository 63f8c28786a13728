@testable import ScoutIndex
import ScoutCore
import ScoutTestSupport
import Testing

/// The writer's id map against a dictionary: random sets, replacements and removals over small
/// id pools (so that runs of slots wrap around the table's end and removals shift them back),
/// each id's entry read back after every step.
@Suite struct IdMapTests {
    /// Entries appended as the map is written, as the point set does: each set of an id names
    /// the entry just appended with that id.
    struct Store {
        var chunks: [EntryChunk] = []
        var count = 0
        var table: EntryTable { EntryTable(chunks: chunks, count: count) }
        mutating func append(_ id: String) -> Int32 {
            appendEntry(Entry(id: id, lon: 0, lat: 0, payload: nil), to: &chunks)
            count += 1
            return Int32(count - 1)
        }
    }

    @Test(arguments: [3, 17, 200, 5_000])
    func setsAndRemovalsMatchADictionary(poolSize: Int) {
        var rng = SplitMix64(seed: UInt64(poolSize))
        let pool = (0..<poolSize).map { "id-\($0)-" + String(repeating: "x", count: $0 % 23) }
        var store = Store(), map = IdMap(), model: [String: Int32] = [:]
        let steps = TestScale.count(short: 6 * poolSize + 400, full: 30 * poolSize + 2_000)
        for step in 0..<steps {
            let id = rng.pick(pool)
            // Mostly writes at first, then mostly removals, then mixed: the map grows, empties
            // and grows again.
            let removing = rng.chance(step < steps / 3 ? 0.2 : step < 2 * steps / 3 ? 0.7 : 0.45)
            if removing {
                #expect(map.remove(id, in: store.table) == model.removeValue(forKey: id), "step \(step): remove \(id)")
            } else {
                let e = store.append(id)
                #expect(map.set(id, to: e, in: store.table) == model.updateValue(e, forKey: id), "step \(step): set \(id)")
            }
            #expect(map.count == model.count)
            if step % max(1, poolSize / 8) == 0 || poolSize < 50 {
                for p in pool where map.entry(of: p, in: store.table) != model[p] {
                    Issue.record("step \(step): \(p) → \(String(describing: map.entry(of: p, in: store.table))), expected \(String(describing: model[p]))")
                    return
                }
            }
        }
        #expect(map.capacity >= map.count && map.bytes == map.capacity / 3 * 4 * 8)
        #expect(map.entry(of: "not-in-the-pool", in: store.table) == nil)
    }

    /// Ids mean what `String ==` says, as they did in a dictionary: the same letter written
    /// precomposed or with a combining accent is one id.
    @Test func canonicallyEquivalentIdsAreOneId() {
        var store = Store(), map = IdMap()
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(map.set(composed, to: store.append(composed), in: store.table) == nil)
        #expect(map.entry(of: decomposed, in: store.table) == 0)
        #expect(map.set(decomposed, to: store.append(decomposed), in: store.table) == 0)
        #expect(map.count == 1)
        #expect(map.remove(composed, in: store.table) == 1 && map.count == 0)
    }

    /// A map built from ids known to be distinct (a restore, a compaction) answers as one
    /// written id by id, at every size around its lookahead.
    @Test(arguments: [0, 1, IdMap.lookahead - 1, IdMap.lookahead, IdMap.lookahead + 1, 1_000,
                      IdMap.sortedBuildThreshold - 1, IdMap.sortedBuildThreshold, 100_000])
    func aMapBuiltFromDistinctIdsAgreesWithOneWrittenIdByID(count: Int) {
        var store = Store(), written = IdMap()
        let ids = (0..<count).map { "dog-\($0 * 7_919 % max(count, 1))" }
        for id in ids { written.set(id, to: store.append(id), in: store.table) }
        let built = IdMap(distinctIdsOf: store.table)
        #expect(built.count == count && written.count == count && built.capacity >= count)
        for (i, id) in ids.enumerated() {
            #expect(built.entry(of: id, in: store.table) == Int32(i) && written.entry(of: id, in: store.table) == Int32(i))
        }
        #expect(built.entry(of: "cat-1", in: store.table) == nil)
    }

    /// A map built from ids it checks (a restore): the same map as one built from known
    /// distinct ids, and refusals at the first empty or repeated id, at every size around
    /// the lookahead.
    @Test(arguments: [1, IdMap.lookahead - 1, IdMap.lookahead, IdMap.lookahead + 1, 1_000,
                      IdMap.sortedBuildThreshold - 1, IdMap.sortedBuildThreshold, 100_000])
    func aMapBuiltWhileCheckingRefusesEmptyAndRepeatedIds(count: Int) throws {
        var store = Store()
        let ids = (0..<count).map { "dog-\($0 * 7_919 % count)" }
        for id in ids { _ = store.append(id) }
        let checked = try IdMap(checking: ids)
        #expect(checked.count == count)
        for (i, id) in ids.enumerated() { #expect(checked.entry(of: id, in: store.table) == Int32(i)) }
        var empty = ids
        empty[count - 1] = ""
        #expect(throws: IdMap.BadId.empty(at: count - 1)) { try IdMap(checking: empty) }
        if count > 1 {
            var repeated = ids
            repeated[count - 1] = ids[count / 3]
            #expect(throws: IdMap.BadId.repeated(at: count - 1)) { try IdMap(checking: repeated) }
            // An earlier repeat is the one reported.
            let earlier = count / 2 + (count > 2 ? 1 : 0)
            repeated[earlier] = ids[0]
            #expect(throws: IdMap.BadId.repeated(at: earlier)) { try IdMap(checking: repeated) }
        }
    }

    /// Random ids with random repeats (some in Unicode spellings that compare equal), on
    /// both sides of the sorted build's threshold: the refusal names the first id that
    /// repeats an earlier one, as a set of the ids seen so far finds it, and a map of ids
    /// without repeats finds every entry.
    @Test func aCheckedBuildFindsTheFirstRepeatAsASetDoes() throws {
        var rng = SplitMix64(state: 2_026)
        for round in 0..<24 {
            let n = round % 2 == 0 ? Int(rng.next() % 3_000) + 2 : IdMap.sortedBuildThreshold + Int(rng.next() % 40_000)
            var ids = (0..<n).map { "p-\($0)-\(rng.next() % 1_000_000)" }
            let repeats = Int(rng.next() % 4)
            for _ in 0..<repeats {
                let from = Int(rng.next() % UInt64(n)), to = Int(rng.next() % UInt64(n))
                ids[to] = ids[from]
            }
            if round % 3 == 0 {
                let i = Int(rng.next() % UInt64(n - 1))
                ids[i] = "caf\u{E9}-\(round)"
                ids[i + 1 + Int(rng.next() % UInt64(n - 1 - i))] = "cafe\u{301}-\(round)"
            }
            var seen = Set<String>(), expected: Int?
            for (i, id) in ids.enumerated() where !seen.insert(id).inserted { expected = i; break }
            if let expected {
                #expect(throws: IdMap.BadId.repeated(at: expected), "\(n) ids, round \(round)") { try IdMap(checking: ids) }
            } else {
                var store = Store()
                for id in ids { _ = store.append(id) }
                let map = try IdMap(checking: ids)
                #expect(map.count == n)
                for (i, id) in ids.enumerated() where i % 7 == 0 { #expect(map.entry(of: id, in: store.table) == Int32(i)) }
            }
        }
    }
}
