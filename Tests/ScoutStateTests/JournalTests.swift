import Foundation
import Logging
import ScoutCatalog
import ScoutCore
@testable import ScoutEngine
import ScoutIndex
import ScoutJSON
@testable import ScoutState
import ScoutTestSupport
import ScoutWorker
import Testing

/// The state directory (`docs/operations.md`): every write journalled before it is applied,
/// recovered exactly after a restart, a torn last write cut off, damage anywhere else refused
/// with its file and offset, compaction into snapshots, and group commit in the worker's loop.
/// Each test compares a recovered engine with one that applied the same writes and never
/// stopped.
@Suite struct JournalTests {
    static let catalog = try! Catalog.load(dataDirectory: Repository.data)

    /// A fresh, empty directory for one test.
    static func directory(_ name: String) -> String {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("scout-state-\(getpid())-\(name)").path
        try? FileManager.default.removeItem(atPath: d)
        return d
    }

    /// Records of the sample data: the first `n` lines of a file.
    static func sample(_ file: String, _ n: Int) -> [PointRecord] {
        let text = try! String(contentsOfFile: Repository.data + "/sample/" + file, encoding: .utf8)
        return text.split(separator: "\n").prefix(n).enumerated().map { i, line in
            try! PointRecord.from(json: try! JSONReader.parse(String(line)), defaultKind: nil, path: "line \(i + 1)")
        }
    }

    /// The base every test starts from: 300 dogs, 50 lovers, 50 gyms, 20 shelters.
    static let base: [PointRecord] = sample("dogs.jsonl", 300) + sample("lovers.jsonl", 50) + sample("gyms.jsonl", 50)
        + sample("shelters.jsonl", 20)
    /// An animal record to copy.
    static let animal = sample("animals.jsonl", 1)[0]

    static func freshEngine() -> Engine {
        let e = Engine(catalog: catalog)
        try! e.upsert(base)
        return e
    }

    static func open(_ dir: String, policy: FsyncPolicy = .always, compactAt: Int = 64 << 20,
                     logger: Logger? = nil) throws(ScoutError) -> StateDirectory.Opened {
        var options = StateDirectory.Options(policy: policy, compactAt: compactAt)
        if let logger { options.logger = logger }
        return try StateDirectory.open(dir, options: options) { () throws(ScoutError) in
            (freshEngine(), Repository.data)
        }
    }

    /// Every record of every kind, sorted: id, place and fields.
    static func dump(_ e: Engine) -> String {
        let state = e.writeLock.withLock { _ in e.capturedState() }
        var lines: [String] = []
        for k in state.kinds {
            if let live = k.points?.exportLive() {
                for i in 0..<live.count {
                    var w = JSONWriter()
                    // With what the engine derives (a shelter's animals), which a replay derives again.
                    w.value(.object((live.payloads.isEmpty ? nil : live.payloads[i] as? RecordPayload)?.shownFields ?? []))
                    lines.append("\(k.name) \(live.ids[i]) \(live.coords[2 * i + 1]),\(live.coords[2 * i]) \(String(decoding: w.bytes, as: UTF8.self))")
                }
            }
            for id in k.placeless?.ids ?? [] {
                var w = JSONWriter()
                w.value(.object(k.placeless!.byID[id]!?.fields ?? []))
                lines.append("\(k.name) \(id) - \(String(decoding: w.bytes, as: UTF8.self))")
            }
        }
        return lines.sorted().joined(separator: "\n")
    }

    /// One random write; the same value applied to two engines does the same thing.
    enum Write {
        case upsert([PointRecord])
        case remove(kind: String, ids: [String])
        case review(dog: String, reviewer: String, stars: Int)
        case vote(gym: String, voter: String, value: Int)
        case patch(lover: String, name: String)

        func apply(to e: Engine) {
            switch self {
            case .upsert(let r): _ = try? e.upsert(r)
            case .remove(let k, let ids): _ = try? e.remove(kind: RecordKind(k), ids: ids)
            case .review(let d, let r, let s): _ = try? e.review(kind: "dog", record: d, reviewer: r, ratings: [("temperament", s), ("excitability", 6 - s), ("experience_needed", 3)])
            case .vote(let g, let v, let x): _ = try? e.vote(kind: "gym", record: g, voter: v, value: x)
            case .patch(let l, let n): _ = try? e.patch(kind: "lover", record: l, set: [("name", .string(n))])
            }
        }
    }

    /// `n` random writes over the base records and some new ones: single and batch upserts
    /// (with a place, without, at the antimeridian and the poles), removes, reviews, votes
    /// and patches, animals arriving, moving between shelters and leaving, shelters closing
    /// (with their animals), some of them refused (a review of a removed dog, an animal of a
    /// closed shelter).
    static func writes(_ n: Int, seed: UInt64) -> [Write] {
        var rng = SplitMix64(seed: seed)
        let dogs = base.filter { $0.kind == "dog" }, gyms = base.filter { $0.kind == "gym" }, lovers = base.filter { $0.kind == "lover" }
        var out: [Write] = []
        for i in 0..<n {
            let shelters = base.filter { $0.kind == "shelter" }
            switch rng.next() % 8 {
            case 6:
                out.append(.upsert((0..<(1 + rng.next() % 3)).map { _ in
                    var a = animal
                    a.id = "animal-x\(rng.next() % 60)"
                    let shelter = shelters[Int(rng.next() % UInt64(shelters.count))]
                    a.point = shelter.point
                    a.fields = a.fields.map { k, v in (k, k == "shelter_id" ? .string(shelter.id) : k == "name" ? .string("Name \(i)") : v) }
                    return a
                }))
            case 7:
                out.append(rng.next() % 5 == 0 ? .remove(kind: "shelter", ids: [shelters[Int(rng.next() % UInt64(shelters.count))].id])
                    : .remove(kind: "animal", ids: (0..<(1 + rng.next() % 3)).map { _ in "animal-x\(rng.next() % 60)" }))
            case 0:
                let count = 1 + Int(rng.next() % 40)
                out.append(.upsert((0..<count).map { j in
                    let lat = [90.0, -90.0, 0.0, Double(rng.next() % 17_000) / 100 - 85][Int(rng.next() % 4)]
                    let lon = [180.0, -180.0, 179.9999999, Double(rng.next() % 36_000) / 100 - 180][Int(rng.next() % 4)]
                    let placed = rng.next() % 4 != 0
                    return PointRecord(id: "spot-\(rng.next() % 500)", kind: "spot", point: placed ? GeoPoint(lat: lat, lon: lon) : nil,
                                       fields: [("n", .number("\(i).\(j)")), ("text", .string("ż\u{0}\"\\ \(rng.next())"))])
                }))
            case 1:
                var moved = dogs[Int(rng.next() % UInt64(dogs.count))]
                moved.point = GeoPoint(lat: Double(rng.next() % 10_000) / 1000 + 50, lon: Double(rng.next() % 10_000) / 1000 - 5)
                out.append(.upsert([moved]))
            case 2:
                let kind = ["spot", "dog", "gym"][Int(rng.next() % 3)]
                let ids = (0..<(1 + rng.next() % 5)).map { _ in kind == "spot" ? "spot-\(rng.next() % 500)"
                    : (kind == "dog" ? dogs : gyms)[Int(rng.next() % 300) % (kind == "dog" ? dogs.count : gyms.count)].id }
                out.append(.remove(kind: kind, ids: ids))
            case 3:
                out.append(.review(dog: dogs[Int(rng.next() % UInt64(dogs.count))].id, reviewer: "lover-\(rng.next() % 7)", stars: 1 + Int(rng.next() % 5)))
            case 4:
                out.append(.vote(gym: gyms[Int(rng.next() % UInt64(gyms.count))].id, voter: "v\(rng.next() % 5)", value: Int(rng.next() % 3) - 1))
            default:
                out.append(.patch(lover: lovers[Int(rng.next() % UInt64(lovers.count))].id, name: "Name \(rng.next() % 100)"))
            }
        }
        return out
    }

    // MARK: The format

    @Test func everyChangeDecodesToWhatWasEncoded() throws {
        for (i, w) in JournalTests.writes(300, seed: 7).enumerated() {
            let change: EngineChange
            switch w {
            case .upsert(let r): change = .upsert(r)
            case .remove(let k, let ids): change = .remove(kind: k, ids: ids)
            default: continue
            }
            let bytes = try JournalFile.recordBytes(change, sequence: UInt64(i + 1))
            let decoded = bytes.withUnsafeBytes { JournalFile.decode(UnsafeRawBufferPointer(rebasing: $0[JournalFile.recordHeaderSize...])) }
            let (sequence, back) = try #require(decoded)
            #expect(sequence == UInt64(i + 1))
            switch (change, back) {
            case (.upsert(let a), .upsert(let b)):
                #expect(a.map(JournalTests.line) == b.map(JournalTests.line))
            case (.remove(let k1, let a), .remove(let k2, let b)):
                #expect(k1 == k2 && a == b)
            default: Issue.record("change \(i) came back as another type")
            }
        }
    }

    static func line(_ r: PointRecord) -> String {
        var w = JSONWriter()
        w.value(.object(r.fields))
        return "\(r.kind)|\(r.id)|\(r.point.map { "\($0.lat.bitPattern),\($0.lon.bitPattern)" } ?? "-")|\(String(decoding: w.bytes, as: UTF8.self))"
    }

    // MARK: Recovery

    @Test func aRestartRecoversExactlyTheStateOfAnEngineThatNeverStopped() throws {
        let dir = JournalTests.directory("restart")
        let reference = JournalTests.freshEngine()
        let writes = JournalTests.writes(400, seed: 11)
        do {
            let opened = try JournalTests.open(dir)
            #expect(opened.created)
            for w in writes { w.apply(to: opened.engine); w.apply(to: reference) }
            #expect(opened.journal.counters.appended > 300)
            opened.journal.close()
        }
        let again = try JournalTests.open(dir)
        #expect(!again.created)
        #expect(again.replayed > 300)
        #expect(JournalTests.dump(again.engine) == JournalTests.dump(reference))
        // Writes go on after a recovery, and recover again.
        for w in JournalTests.writes(50, seed: 12) { w.apply(to: again.engine); w.apply(to: reference) }
        again.journal.close()
        let third = try JournalTests.open(dir)
        #expect(JournalTests.dump(third.engine) == JournalTests.dump(reference))
        third.journal.close()
    }

    @Test func aSecondProcessCannotOpenADirectoryInUse() throws {
        let dir = JournalTests.directory("lock")
        let first = try JournalTests.open(dir)
        // flock is per open file description, so a second open in this process is refused too.
        #expect(throws: ScoutError.self) { _ = try JournalTests.open(dir) }
        first.journal.close()
    }

    @Test func aFailedWriteIsNotJournalled() throws {
        let dir = JournalTests.directory("failed")
        let opened = try JournalTests.open(dir)
        let before = opened.journal.counters.appended
        // A dog without a breed's valid weight, a review of a missing record, a removal of nothing.
        #expect(throws: ScoutError.self) { try opened.engine.upsert([PointRecord(id: "x", kind: "dog", point: GeoPoint(lat: 1, lon: 1), fields: [("weight_kg", .string("heavy"))])]) }
        #expect(throws: ScoutError.self) { _ = try opened.engine.review(kind: "dog", record: "nobody", reviewer: "r", ratings: [("temperament", 3), ("excitability", 3), ("experience_needed", 3)]) }
        #expect(try opened.engine.remove(kind: "gym", ids: ["no-such-gym"]) == 0)
        #expect(opened.journal.counters.appended == before)
        opened.journal.close()
    }

    /// The journal holds dogs where the engine keeps them — at their published cells — never
    /// where their owners said they live.
    @Test func theJournalNeverHoldsADogsExactHome() throws {
        let dir = JournalTests.directory("privacy")
        let opened = try JournalTests.open(dir)
        var dog = JournalTests.base.first { $0.kind == "dog" }!
        let home = GeoPoint(lat: 51.107_941_3, lon: 17.038_542_7)
        dog.point = home
        try opened.engine.upsert([dog])
        opened.journal.close()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/journal-0.log")))
        func contains(_ d: Double) -> Bool {
            let pattern = withUnsafeBytes(of: d.bitPattern.littleEndian) { [UInt8]($0) }
            return (0...(bytes.count - 8)).contains { Array(bytes[$0..<($0 + 8)]) == pattern }
        }
        #expect(!contains(home.lat) && !contains(home.lon))
        let shown = LocationPrivacy.approximate.shown(home, kind: "dog")
        #expect(contains(shown.lat) && contains(shown.lon))
    }

    // MARK: Torn and damaged journals

    /// Every way a crash can cut the last write short — any prefix of it, or zeros after
    /// it — reads as a torn tail at that record's offset (and never as damage), with every
    /// record before it good.
    @Test func everyPrefixOfTheLastWriteReadsAsATornTail() throws {
        var file = JournalFile.headerBytes(.init(segment: 0, firstSequence: 1, exactDogLocations: false))
        var offsets: [Int] = []
        for (i, w) in JournalTests.writes(30, seed: 5).enumerated() {
            guard case .upsert(let r) = w else { continue }
            offsets.append(file.count)
            file += try JournalFile.recordBytes(.upsert(r), sequence: UInt64(offsets.count))
            _ = i
        }
        let last = offsets.last!
        for cut in (last + 1)..<file.count {
            for zeros in [0, 100] {
                let bytes = Array(file[0..<cut]) + [UInt8](repeating: 0, count: zeros)
                let scan = try #require(try? JournalFile.scan(bytes) { _, _ in }.get())
                #expect(scan.ending == .torn(offset: last, bytes: cut - last + zeros), "cut at \(cut) + \(zeros)")
                #expect(scan.records == offsets.count - 1 && scan.goodEnd == last)
            }
        }
        // A flipped bit in the last record, with nothing after it, is a torn write too.
        var flipped = file
        flipped[file.count - 3] ^= 1
        #expect(try JournalFile.scan(flipped) { _, _ in }.get().ending == .torn(offset: last, bytes: file.count - last))
        // The same flip in the record before it is damage: a good record follows.
        var middle = file
        middle[last - 3] ^= 1
        #expect(try JournalFile.scan(middle) { _, _ in }.get().ending
                == .damaged(offset: offsets[offsets.count - 2], reason: "a record's checksum does not match"))
    }

    /// Hostile bytes: any single flipped byte of a segment is caught — in the header as a
    /// bad header, in a record as a torn or damaged ending at exactly that record, with every
    /// record before it good — and random garbage after good records never crashes the reader
    /// nor reads as a record.
    @Test func everyFlippedByteIsCaughtAtItsRecord() throws {
        var file = JournalFile.headerBytes(.init(segment: 0, firstSequence: 1, exactDogLocations: false))
        var offsets: [Int] = []
        for w in JournalTests.writes(40, seed: 9) {
            let change: EngineChange
            switch w {
            case .upsert(let r): change = .upsert(r)
            case .remove(let k, let ids): change = .remove(kind: k, ids: ids)
            default: continue
            }
            offsets.append(file.count)
            file += try JournalFile.recordBytes(change, sequence: UInt64(offsets.count))
        }
        var rng = SplitMix64(seed: 17)
        for _ in 0..<2000 {
            let p = Int(rng.next() % UInt64(file.count))
            var bad = file
            bad[p] ^= UInt8(1 + rng.next() % 255)
            let result = try JournalFile.scan(bad) { _, _ in }
            guard p >= JournalFile.headerSize else {
                if case .success = result { Issue.record("a flipped header byte \(p) was read as a header") }
                continue
            }
            let scan = try #require(try? result.get())
            let record = offsets.lastIndex { $0 <= p }!
            #expect(scan.records == record, "flip at \(p)")
            switch scan.ending {
            case .torn(let offset, _), .damaged(let offset, _): #expect(offset == offsets[record], "flip at \(p)")
            case .clean: Issue.record("a flipped byte at \(p) went unnoticed")
            }
        }
        for _ in 0..<500 {
            let garbage = (0..<Int(rng.next() % 200)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let scan = try #require(try? JournalFile.scan(file + garbage) { _, _ in }.get())
            #expect(scan.records == offsets.count && scan.goodEnd == file.count)
            #expect(garbage.isEmpty == (scan.ending == .clean))
        }
    }

    /// A record whose checksum is right but which the engine refuses (an altered file, or
    /// one from a build that validated differently) stops the start and names the record.
    @Test func aChangeTheEngineRefusesStopsTheStart() throws {
        let dir = JournalTests.directory("refused")
        try JournalTests.open(dir).journal.close()
        let bad = PointRecord(id: "x", kind: "dog", point: GeoPoint(lat: 1, lon: 1), fields: [("weight_kg", .string("heavy"))])
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/journal-0.log"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(try JournalFile.recordBytes(.upsert([bad]), sequence: 1)))
        try handle.close()
        do {
            _ = try JournalTests.open(dir)
            Issue.record("a journal with a refused change was opened")
        } catch {
            #expect(error.message.contains("journal-0.log, record 1: a change cannot be applied: birth_date is required"), "\(error.message)")
        }
    }

    /// A start after a torn last write cuts it off with a warning naming the bytes, and
    /// recovers exactly the writes before it.
    @Test func aTornLastWriteIsCutOffAndEverythingBeforeItRecovered() throws {
        let dir = JournalTests.directory("torn")
        let reference = JournalTests.freshEngine()
        let writes = JournalTests.writes(60, seed: 21)
        var sizeBeforeLast = 0
        do {
            let opened = try JournalTests.open(dir)
            for (i, w) in writes.enumerated() {
                if i == writes.count - 1 { sizeBeforeLast = JournalTests.size(dir + "/journal-0.log") }
                w.apply(to: opened.engine)
                if i < writes.count - 1 { w.apply(to: reference) }
            }
            opened.journal.close()
        }
        let full = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/journal-0.log")))
        try #require(full.count > sizeBeforeLast)
        let expected = JournalTests.dump(reference)
        for (cut, zeros) in [(sizeBeforeLast + 5, 0), (full.count - 1, 4096)] {
            try Data(full[0..<cut] + [UInt8](repeating: 0, count: zeros)).write(to: URL(fileURLWithPath: dir + "/journal-0.log"))
            let warnings = Warnings()
            let opened = try JournalTests.open(dir, logger: warnings.logger)
            #expect(opened.cutBytes == cut - sizeBeforeLast + zeros, "cut at \(cut) + \(zeros) zeros")
            #expect(warnings.lines.contains { $0.contains("cut off \(cut - sizeBeforeLast + zeros) bytes at byte \(sizeBeforeLast)") })
            #expect(JournalTests.dump(opened.engine) == expected, "cut at \(cut) + \(zeros) zeros")
            opened.journal.close()
            #expect(JournalTests.size(dir + "/journal-0.log") == sizeBeforeLast)
        }
    }

    /// A flipped byte anywhere but the last record stops the start with the file and the
    /// offset, and changes nothing; `check` reports it, `repair` cuts there, and the start
    /// then recovers the writes before it.
    @Test func damageInTheMiddleIsRefusedReportedAndRepaired() throws {
        let dir = JournalTests.directory("damaged")
        var offsets: [Int] = []
        let writes = JournalTests.writes(40, seed: 31)
        let prefix = JournalTests.freshEngine()
        do {
            let opened = try JournalTests.open(dir)
            for (i, w) in writes.enumerated() {
                offsets.append(JournalTests.size(dir + "/journal-0.log"))
                w.apply(to: opened.engine)
                if i < 20 { w.apply(to: prefix) }
            }
            opened.journal.close()
        }
        let path = dir + "/journal-0.log"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // The first record at or after write 20's offset.
        let damagedAt = offsets[20]
        try #require(damagedAt < bytes.count - 100)
        bytes[damagedAt + 20] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            _ = try JournalTests.open(dir)
            Issue.record("a damaged journal was opened")
        } catch {
            #expect(error.message.contains("journal-0.log at byte \(damagedAt)"), "\(error.message)")
            #expect(error.message.contains("scout state repair"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes), "a refused start changed the journal")
        let report = try StateDirectory.check(dir)
        #expect(report.contains { $0.name == "journal-0.log" && $0.problem?.contains("damaged at byte \(damagedAt)") == true })
        _ = try StateDirectory.repair(dir)
        #expect(try StateDirectory.check(dir).allSatisfy { $0.problem == nil })
        let repaired = try JournalTests.open(dir)
        #expect(JournalTests.dump(repaired.engine) == JournalTests.dump(prefix))
        repaired.journal.close()
    }

    // MARK: Compaction

    /// A small `compactAt`: the journal is folded into snapshots again and again while
    /// writes go on; old files go, and a restart recovers the same state.
    @Test func compactionKeepsTheStateAndDropsOldFiles() throws {
        let dir = JournalTests.directory("compaction")
        let reference = JournalTests.freshEngine()
        let writes = JournalTests.writes(600, seed: 41)
        let opened = try JournalTests.open(dir, compactAt: 16 << 10)
        for w in writes { w.apply(to: opened.engine); w.apply(to: reference) }
        opened.journal.close()
        #expect(opened.journal.counters.compactions >= 3)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0 != "lock" }.sorted()
        #expect(names.filter { $0.hasPrefix("snapshot-") }.count == 1, "\(names)")
        #expect(names.filter { $0.hasPrefix("journal-") }.count <= 2, "\(names)")
        #expect(JournalTests.dump(opened.engine) == JournalTests.dump(reference))
        let again = try JournalTests.open(dir, compactAt: 16 << 10)
        #expect(JournalTests.dump(again.engine) == JournalTests.dump(reference))
        again.journal.close()
    }

    // MARK: Group commit

    /// Many threads writing under `always`: every write is on disk when it returns, and
    /// writers waiting together share flushes.
    @Test func concurrentWritersShareFlushes() throws {
        let dir = JournalTests.directory("group")
        let opened = try JournalTests.open(dir)
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for i in 0..<50 {
                _ = try? opened.engine.upsert([PointRecord(id: "t\(t)-\(i)", kind: "spot", point: GeoPoint(lat: Double(t), lon: Double(i)))])
            }
        }
        let c = opened.journal.counters
        #expect(c.appended == 400)
        #expect(c.flushes <= c.appended)
        opened.journal.close()
        let again = try JournalTests.open(dir)
        #expect(again.engine.stats().first { $0.kind == "spot" }?.count == 400)
        again.journal.close()
    }

    /// The worker's loop commits a block of writes with one flush under `always`, and
    /// holds every answer from the first write on until then; after a restart every
    /// answered write is there.
    @Test func theWorkerCommitsABlockOfWritesWithOneFlush() throws {
        let dir = JournalTests.directory("block")
        let opened = try JournalTests.open(dir)
        var input = ""
        input += #"{"id":0,"op":"stats"}"# + "\n"
        for i in 1...100 { input += #"{"id":\#(i),"op":"upsert","records":[{"id":"s\#(i)","kind":"spot","lat":1,"lon":\#(i)}]}"# + "\n" }
        input += #"{"id":101,"op":"search","kind":"spot","near":{"lat":1,"lon":50},"radius_m":1,"limit":1}"# + "\n"
        var fds: [Int32] = [0, 0], out: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0 && pipe(&out) == 0)
        let bytes = Array(input.utf8)
        try #require(bytes.count < 60_000)   // one read of the loop's 64 KiB block
        #expect(write(fds[1], bytes, bytes.count) == bytes.count)
        close(fds[1])
        let flushesBefore = opened.journal.counters.flushes
        let server = LineServer(worker: Worker(engine: opened.engine), input: fds[0], output: out[1], threads: 2)
        #expect(server.run() == 102)
        close(out[1]); close(fds[0])
        #expect(opened.journal.counters.flushes - flushesBefore == 1)
        #expect(opened.journal.counters.appended == 100)
        var answers = [UInt8](repeating: 0, count: 1 << 16)
        let n = read(out[0], &answers, answers.count)
        close(out[0])
        let lines = String(decoding: answers[0..<max(n, 0)], as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 102)
        #expect(lines.last?.contains(#""id":"s50""#) == true)
        opened.journal.close()
        let again = try JournalTests.open(dir)
        #expect(again.engine.stats().first { $0.kind == "spot" }?.count == 100)
        again.journal.close()
    }

    static func size(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
    }
}

/// Log lines collected from a state directory's logger: a swift-log handler that keeps each
/// message, at every level.
final class Warnings: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    var lines: [String] { lock.withLock { collected } }
    func add(_ line: String) { lock.withLock { collected.append(line) } }

    /// A logger whose every line lands in ``lines``.
    var logger: Logger { Logger(label: "scout.state.test", factory: { _ in Handler(sink: self) }) }

    struct Handler: LogHandler {
        let sink: Warnings
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { sink.add("\(event.message)") }
    }
}
