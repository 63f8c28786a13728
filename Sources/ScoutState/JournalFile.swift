#if canImport(Glibc)
import Glibc
#endif
import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutJSON

/// The journal's file format (`docs/operations.md#the-journal-format`): a 40-byte header,
/// then records back to back. All integers are little-endian.
///
/// Header: magic `\x89SCOUTJ\n` (8 bytes), format version (u32), flags (u32; bit 0: dogs
/// at exact locations), segment number (u64), sequence number of the first record (u64),
/// xxHash64 of the 32 bytes before it (u64).
///
/// Record: payload length (u32), xxHash64 of the length's 4 bytes and the payload (u64),
/// payload. Payload: type (u8: 1 upsert, 2 remove), sequence number (u64), then for an
/// upsert the record count (u32) and per record its kind and id (u32 length + UTF-8),
/// whether it has a place (u8) and then latitude and longitude (f64 bit patterns), and its
/// fields as one JSON object (u32 length + UTF-8); for a remove the kind, the id count
/// (u32) and the ids.
enum JournalFile {
    static let magic: [UInt8] = [0x89, 0x53, 0x43, 0x4F, 0x55, 0x54, 0x4A, 0x0A]
    static let formatVersion: UInt32 = 1
    static let headerSize = 40
    static let recordHeaderSize = 12
    /// Header flag: dogs are at their exact locations.
    static let flagExactDogLocations: UInt32 = 1
    /// Largest payload one record may have (a larger write is refused before anything changes).
    static let maximumPayloadBytes = 1 << 30

    /// A segment's header.
    struct Header: Equatable {
        var segment: UInt64
        var firstSequence: UInt64
        var exactDogLocations: Bool
    }

    static func headerBytes(_ h: Header) -> [UInt8] {
        var w = ByteWriter(capacity: headerSize)
        w.bytes.append(contentsOf: magic)
        w.u32(formatVersion)
        w.u32(h.exactDogLocations ? flagExactDogLocations : 0)
        w.u64(h.segment)
        w.u64(h.firstSequence)
        w.u64(XXHash64.hash(w.bytes))
        return w.bytes
    }

    /// Reads a header, or says what is wrong with it.
    static func header(_ b: UnsafeRawBufferPointer) -> Result<Header, HeaderProblem> {
        guard b.count >= headerSize else { return .failure(.short(b.count)) }
        guard Array(b[0..<8]) == magic else { return .failure(.foreign) }
        guard XXHash64.hash(UnsafeRawBufferPointer(rebasing: b[0..<32])) == b.le64(32) else { return .failure(.checksum) }
        let version = b.le32(8)
        guard version == formatVersion else { return .failure(.version(version)) }
        return .success(Header(segment: b.le64(16), firstSequence: b.le64(24), exactDogLocations: b.le32(12) & flagExactDogLocations != 0))
    }

    enum HeaderProblem: Error {
        case short(Int), foreign, checksum, version(UInt32)
        var description: String {
            switch self {
            case .short(let n): "the header is cut short (\(n) of \(JournalFile.headerSize) bytes)"
            case .foreign: "not a Scout journal (wrong magic number)"
            case .checksum: "the header's checksum does not match"
            case .version(let v): "format version \(v), and this build reads version \(JournalFile.formatVersion)"
            }
        }
    }

    // MARK: Records

    /// The bytes of one record (header and payload) for a change, or `limit_exceeded`.
    static func recordBytes(_ change: EngineChange, sequence: UInt64) throws(ScoutError) -> [UInt8] {
        var p = ByteWriter(capacity: 256)
        p.bytes.append(contentsOf: [UInt8](repeating: 0, count: recordHeaderSize))  // the record header, filled in last
        p.bytes.append(0)  // the type
        func string(_ s: String) { p.u32(UInt32(s.utf8.count)); p.append(s) }
        switch change {
        case .upsert(let records):
            p.bytes[12] = 1
            p.u64(sequence)
            p.u32(UInt32(records.count))
            for r in records {
                string(r.kind.name); string(r.id)
                if let point = r.point {
                    p.bytes.append(1); p.u64(point.lat.bitPattern); p.u64(point.lon.bitPattern)
                } else {
                    p.bytes.append(0)
                }
                var w = JSONWriter()
                w.value(.object(r.fields))
                p.u32(UInt32(w.bytes.count)); p.bytes.append(contentsOf: w.bytes)
                guard p.bytes.count <= maximumPayloadBytes + recordHeaderSize else {
                    throw ScoutError(.limitExceeded, "a write may be at most \(maximumPayloadBytes >> 20) MiB in the journal")
                }
            }
        case .remove(let kind, let ids):
            p.bytes[12] = 2
            p.u64(sequence)
            string(kind)
            p.u32(UInt32(ids.count))
            for id in ids { string(id) }
        }
        // The record header: payload length, then the checksum of the length and the payload.
        var bytes = p.bytes
        let length = UInt32(bytes.count - recordHeaderSize)
        withUnsafeBytes(of: length.littleEndian) { for i in 0..<4 { bytes[i] = $0[i] } }
        let sum = bytes.withUnsafeBytes { raw in
            checksum(length: UnsafeRawBufferPointer(rebasing: raw[0..<4]), payload: UnsafeRawBufferPointer(rebasing: raw[recordHeaderSize...]))
        }
        withUnsafeBytes(of: sum.littleEndian) { for i in 0..<8 { bytes[4 + i] = $0[i] } }
        return bytes
    }

    /// The checksum a record's header must carry: of its length field and its payload.
    static func checksum(length: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) -> UInt64 {
        var h = [UInt8](length)
        h.append(contentsOf: payload)
        return XXHash64.hash(h)
    }

    /// Decodes a payload whose checksum matched; `nil` when its structure is wrong.
    static func decode(_ b: UnsafeRawBufferPointer) -> (sequence: UInt64, change: EngineChange)? {
        var at = 0
        func need(_ n: Int) -> Bool { n >= 0 && at + n <= b.count }
        func u8() -> UInt8? { guard need(1) else { return nil }; defer { at += 1 }; return b[at] }
        func u32() -> UInt32? { guard need(4) else { return nil }; defer { at += 4 }; return b.le32(at) }
        func u64() -> UInt64? { guard need(8) else { return nil }; defer { at += 8 }; return b.le64(at) }
        func bytes() -> UnsafeRawBufferPointer? {
            guard let n = u32().map(Int.init), need(n) else { return nil }
            defer { at += n }
            return UnsafeRawBufferPointer(rebasing: b[at..<(at + n)])
        }
        func string() -> String? {
            guard let raw = bytes() else { return nil }
            return String(validating: raw, as: UTF8.self)
        }
        guard let type = u8(), let sequence = u64() else { return nil }
        switch type {
        case 1:
            guard let count = u32().map(Int.init), count <= b.count else { return nil }
            var records: [PointRecord] = []
            records.reserveCapacity(count)
            for _ in 0..<count {
                guard let kind = string(), let id = string(), let placed = u8() else { return nil }
                var point: GeoPoint?
                if placed == 1 {
                    guard let lat = u64(), let lon = u64() else { return nil }
                    point = GeoPoint(lat: Double(bitPattern: lat), lon: Double(bitPattern: lon))
                } else if placed != 0 {
                    return nil
                }
                guard let json = bytes(), let members = (try? JSONReader.parse([UInt8](json)))?.members else { return nil }
                records.append(PointRecord(id: id, kind: RecordKind(kind), point: point, fields: members))
            }
            guard at == b.count else { return nil }
            return (sequence, .upsert(records))
        case 2:
            guard let kind = string(), let count = u32().map(Int.init), count <= b.count else { return nil }
            var ids: [String] = []
            for _ in 0..<count {
                guard let id = string() else { return nil }
                ids.append(id)
            }
            guard at == b.count else { return nil }
            return (sequence, .remove(kind: kind, ids: ids))
        default:
            return nil
        }
    }

    // MARK: Reading a segment

    /// What reading a segment found past its last good record.
    enum Ending: Equatable {
        /// Every byte is a good record.
        case clean
        /// The last record is incomplete or fails its checksum with nothing after it (or
        /// only zeros): a write cut off by a crash. `bytes` from `offset` to the end.
        case torn(offset: Int, bytes: Int)
        /// A record fails its checksum or structure and more data follows: not a crash's
        /// doing. Nothing from `offset` on can be trusted.
        case damaged(offset: Int, reason: String)
    }

    /// The result of reading one segment file.
    struct Scan {
        var header: Header
        /// Good records read.
        var records = 0
        /// Sequence number of the last good record (`header.firstSequence - 1` when none).
        var lastSequence: UInt64
        /// Offset just past the last good record.
        var goodEnd = headerSize
        var ending = Ending.clean
    }

    /// ``scan(_:_:)`` over an array.
    static func scan(_ bytes: [UInt8],
                     _ each: (UInt64, EngineChange) throws(ScoutError) -> Void) throws(ScoutError) -> Result<Scan, HeaderProblem> {
        let r = bytes.withUnsafeBytes { raw -> Result<Result<Scan, HeaderProblem>, ScoutError> in
            do throws(ScoutError) { return .success(try scan(raw, each)) } catch { return .failure(error) }
        }
        return try r.get()
    }

    /// Reads a segment's bytes record by record, calling `each` for every good one in order
    /// (stop early by throwing). Fails only on a bad header; anything past the last good
    /// record is described by ``Scan/ending``.
    static func scan(_ file: UnsafeRawBufferPointer,
                     _ each: (UInt64, EngineChange) throws(ScoutError) -> Void) throws(ScoutError) -> Result<Scan, HeaderProblem> {
        let header: Header
        switch JournalFile.header(file) {
        case .failure(let p): return .failure(p)
        case .success(let h): header = h
        }
        var scan = Scan(header: header, lastSequence: header.firstSequence &- 1)
        var at = headerSize
        func zerosFrom(_ o: Int) -> Bool { file[o...].allSatisfy { $0 == 0 } }
        while at < file.count {
            let left = file.count - at
            if left < recordHeaderSize { scan.ending = .torn(offset: at, bytes: left); break }
            let length = Int(file.le32(at))
            if length < 9 || length > maximumPayloadBytes {
                scan.ending = zerosFrom(at) ? .torn(offset: at, bytes: left)
                    : .damaged(offset: at, reason: "a record claims \(length) bytes, which no record can have")
                break
            }
            let end = at + recordHeaderSize + length
            if end > file.count { scan.ending = .torn(offset: at, bytes: left); break }
            let payload = UnsafeRawBufferPointer(rebasing: file[(at + recordHeaderSize)..<end])
            guard checksum(length: UnsafeRawBufferPointer(rebasing: file[at..<(at + 4)]), payload: payload) == file.le64(at + 4) else {
                scan.ending = end == file.count || zerosFrom(end) ? .torn(offset: at, bytes: left)
                    : .damaged(offset: at, reason: "a record's checksum does not match")
                break
            }
            guard let (sequence, change) = decode(payload) else {
                scan.ending = .damaged(offset: at, reason: "a record's checksum matches but its contents cannot be read")
                break
            }
            guard sequence == scan.lastSequence &+ 1 else {
                scan.ending = .damaged(offset: at, reason: "record \(sequence) follows record \(scan.lastSequence)")
                break
            }
            try each(sequence, change)
            scan.records += 1
            scan.lastSequence = sequence
            at = end
            scan.goodEnd = end
        }
        return .success(scan)
    }
}
