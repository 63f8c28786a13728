#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutIndex
import ScoutJSON
import ScoutText

/// Reading a snapshot file, in the order a reader checks it: the header and the section
/// table (``SnapshotFile/checkedSections(_:path:)``: every byte under a checksum), the
/// privacy mode, the reference files, then each kind's sections (``SnapshotFile/KindReader``:
/// its points, then its records without a place).
extension SnapshotFile {
    // MARK: Reading

    /// What a snapshot holds, fully built.
    struct Contents {
        let catalog: Catalog
        let sets: [String: PointSet]
        /// Per kind, its records without a place (kinds with none are absent).
        let placeless: [String: PlacelessSet]
        let reference: SnapshotReferenceFiles
        /// Records restored, with a place or without.
        let points: Int
    }

    /// One entry of the section table.
    struct Section {
        let index: Int
        let type: SectionType
        let group: UInt32
        let offset: Int
        let length: Int
    }

    /// Reads, checks and builds everything in a snapshot file; throws before anything is
    /// returned, so a caller never sees half of one. `privacy` must be the mode it was
    /// written in.
    static func read(path: String, privacy: LocationPrivacy) throws(ScoutError) -> Contents {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ScoutError(.notFound, "the snapshot file cannot be opened (errno \(errno))", path: path) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ScoutError(.notFound, "the snapshot file cannot be read (errno \(errno))", path: path) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw ScoutError(.invalidRequest, "the snapshot path is not a regular file", path: path) }
        let length = Int(st.st_size)
        guard length > 0 else { return try parse(UnsafeRawBufferPointer(start: nil, count: 0), path: path, privacy: privacy) }
        // Populated at once: one pass of the kernel instead of a fault per page.
        guard let p = mmap(nil, length, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), p != MAP_FAILED else {
            throw ScoutError(.internal, "the snapshot file cannot be mapped (errno \(errno))", path: path)
        }
        defer { munmap(p, length) }
        return try parse(UnsafeRawBufferPointer(start: p, count: length), path: path, privacy: privacy)
    }

    /// Checks and decodes the bytes of a snapshot file (see ``read(path:privacy:)``).
    static func parse(_ file: UnsafeRawBufferPointer, path: String, privacy: LocationPrivacy) throws(ScoutError) -> Contents {
        let (flags, sections) = try checkedSections(file, path: path)
        // Privacy: a file written in one mode is never read in the other.
        let exact = flags & flagExactDogLocations != 0
        guard exact == (privacy == .exact) else {
            throw ScoutError(.invalidRequest, exact
                ? "the snapshot holds dogs' exact locations; load it with --exact-dog-locations (or write one without)"
                : "the snapshot holds dogs at their approximate (published) locations and cannot serve exact ones; "
                    + "drop --exact-dog-locations or write the snapshot again from the records with it", path: path)
        }
        let fail = failure(path)
        let reference = try referenceFiles(sections, in: file, fail: fail)
        // The breeds and the species names now (records are read against them); the
        // gazetteer on a second thread while the kinds are decoded.
        let pending = try PendingReference(reference, path: path)
        defer { pending.finish() }
        let catalog = Catalog(breeds: pending.breeds, species: pending.species)

        var groups: [UInt32: [SectionType: Section]] = [:]
        for s in sections where !s.type.isFileWide {
            guard groups[s.group, default: [:]].updateValue(s, forKey: s.type) == nil else {
                throw fail("section \(s.index): a second \(s.type.name) section for kind #\(s.group)")
            }
        }
        var exports: [String: LiveExport] = [:]
        var placelessSets: [String: PlacelessSet] = [:]
        var points = 0
        for g in groups.keys.sorted() {
            let reader = try KindReader(file: file, group: g, parts: groups[g]!, catalog: catalog, fail: fail)
            guard exports[reader.kind] == nil else { throw fail("kind \(reader.kind) appears twice") }
            let (export, placeless, count) = try reader.read()
            exports[reader.kind] = export
            if let placeless { placelessSets[reader.kind] = placeless }
            points += count
        }
        // A shelter's animals are derived, not stored: listed again from the animal records,
        // in place, so the trees stay as written.
        if let shelters = exports[RecordKind.shelter.name], let animals = exports[RecordKind.animal.name] {
            exports[RecordKind.shelter.name] = Engine.listingAnimals(shelters, from: animals)
        }
        var sets: [String: PointSet] = [:]
        for (kind, export) in exports {
            do {
                sets[kind] = try PointSet(restoring: export)
            } catch {
                throw fail("kind \(kind): \(error.message) at \(error.path ?? "points")")
            }
        }
        let loaded = try pending.result()
        let restored = Catalog(breeds: pending.breeds, places: loaded.places, species: pending.species, synonyms: pending.synonyms,
                               language: try loaded.language.get())
        return Contents(catalog: restored, sets: sets, placeless: placelessSets,
                        reference: reference, points: points)
    }

    /// The error of a file that is not a usable snapshot, saying what is wrong.
    private static func failure(_ path: String) -> (String) -> ScoutError {
        { what in ScoutError(.invalidRequest, "not a usable snapshot: \(what)", path: path) }
    }

    /// The header's flags and the section table, after checking the magic, the version, the
    /// byte order, the declared size, every checksum, and that the sections tile the file
    /// after the table (so every byte is under a checksum).
    static func checkedSections(_ file: UnsafeRawBufferPointer, path: String) throws(ScoutError) -> (flags: UInt32, sections: [Section]) {
        let fail = failure(path)
        let size = file.count
        // Foreign: the magic comes first, so that any other file is named as such.
        let magicBytes = min(size, magic.count)
        guard magicBytes == 0 || file.prefix(magicBytes).elementsEqual(magic.prefix(magicBytes)) else {
            throw ScoutError(.invalidRequest, "not a Scout snapshot: the file does not start with the snapshot magic "
                             + "(a JSON Lines, GeoJSON or CSV file is loaded with --load)", path: path)
        }
        guard size >= headerSize else {
            throw fail("truncated: \(size) bytes, shorter than the \(headerSize)-byte header")
        }
        let version = file.le32(8)
        // The magic, the version and the byte-order mark keep their places in every version.
        guard version <= formatVersion else {
            throw fail("format version \(version) (offset 8) is newer than this build reads (\(formatVersion)); use a newer scout or write the snapshot again")
        }
        guard version >= 1 else { throw fail("format version 0 (offset 8) is not a valid version: a corrupt header") }
        guard file.le32(12) == byteOrderMark else {
            throw fail("byte-order mark at offset 12 is \(hex(file.le32(12))), not \(hex(byteOrderMark)): another byte order or a corrupt header")
        }
        guard XXHash64.hash(UnsafeRawBufferPointer(rebasing: file[0..<56])) == file.le64(56) else {
            throw fail("corrupt header: its checksum (offset 56) does not match bytes 0..<56")
        }
        let declaredSize = file.le64(24)
        guard declaredSize == UInt64(size) else {
            throw fail(declaredSize > UInt64(size) ? "truncated: \(size) bytes of the \(declaredSize) the header declares"
                                                   : "\(UInt64(size) - declaredSize) bytes after the \(declaredSize) the header declares")
        }
        guard file.le32(16) == UInt32(headerSize) else { throw fail("header size \(file.le32(16)) at offset 16, expected \(headerSize)") }
        let flags = file.le32(32)
        guard flags & ~flagExactDogLocations == 0 else { throw fail("unknown header flags \(hex(flags)) at offset 32") }
        let count = Int(file.le32(20))
        guard count <= maximumSections, headerSize + sectionEntrySize * count <= size else {
            throw fail("the section table (\(count) entries at offset \(headerSize)) runs past the end of the file")
        }
        let tableEnd = headerSize + sectionEntrySize * count
        guard XXHash64.hash(UnsafeRawBufferPointer(rebasing: file[headerSize..<tableEnd])) == file.le64(40) else {
            throw fail("corrupt section table: its checksum (header offset 40) does not match bytes \(headerSize)..<\(tableEnd)")
        }
        var sections: [Section] = []
        sections.reserveCapacity(count)
        var next = UInt64(tableEnd)
        for i in 0..<count {
            let at = headerSize + sectionEntrySize * i
            let rawType = file.le32(at), group = file.le32(at + 4), offset = file.le64(at + 8), length = file.le64(at + 16)
            guard let type = SectionType(rawValue: rawType) else { throw fail("section \(i) (table offset \(at)) has unknown type \(rawType)") }
            guard type.since <= version else {
                throw fail("section \(i) (table offset \(at)) has type \(rawType) (\(type.name)), which format version \(version) does not have")
            }
            guard offset == next, length <= UInt64(size) - offset else {
                throw fail("section \(i) (\(type.name)) at offset \(offset), length \(length): outside the file or not where the previous one ends")
            }
            guard XXHash64.hash(UnsafeRawBufferPointer(rebasing: file[Int(offset)..<Int(offset + length)])) == file.le64(at + 24) else {
                throw fail("corrupt section \(i) (\(type.name)\(group == noGroup ? "" : " of kind #\(group)")) at offset \(offset): checksum mismatch")
            }
            guard type.isFileWide == (group == noGroup) else { throw fail("section \(i) (\(type.name)) has group \(group)") }
            sections.append(Section(index: i, type: type, group: group, offset: Int(offset), length: Int(length)))
            next = offset + length
        }
        guard next == UInt64(size) else { throw fail("\(UInt64(size) - next) bytes after the last section (offset \(next))") }
        return (flags, sections)
    }

    /// The file-wide sections' bytes: the reference files, each at most once.
    private static func referenceFiles(_ sections: [Section], in file: UnsafeRawBufferPointer,
                                       fail: (String) -> ScoutError) throws(ScoutError) -> SnapshotReferenceFiles {
        var reference = SnapshotReferenceFiles()
        var seen = Set<String>()
        for s in sections where s.type.isFileWide {
            guard seen.insert(s.type.name).inserted else { throw fail("section \(s.index): a second \(s.type.name)") }
            let bytes = [UInt8](UnsafeRawBufferPointer(rebasing: file[s.offset..<(s.offset + s.length)]))
            switch s.type {
            case .breeds: reference.breeds = bytes
            case .places: reference.places = bytes
            case .activities: reference.activities = bytes
            case .weights: reference.weights = bytes
            case .breedAliases: reference.breedAliases = bytes
            case .species: reference.species = bytes
            case .synonyms: reference.synonyms = bytes
            case .enjoymentPrior: reference.enjoymentPrior = bytes
            default: break
            }
        }
        return reference
    }

    /// One kind's sections of a checked file, read into its point set and its records
    /// without a place; every error names the kind and the section.
    struct KindReader {
        let file: UnsafeRawBufferPointer
        let parts: [SectionType: Section]
        let catalog: Catalog
        let fail: (String) -> ScoutError
        /// The kind's name (its name section, checked).
        let kind: String
        let typed: Bool
        let placement: Placement

        init(file: UnsafeRawBufferPointer, group g: UInt32, parts: [SectionType: Section], catalog: Catalog,
             fail: @escaping (String) -> ScoutError) throws(ScoutError) {
            self.file = file
            self.parts = parts
            self.catalog = catalog
            self.fail = fail
            guard let nameSection = parts[.kindName] else { throw fail("kind #\(g) has no \(SectionType.kindName.name) section") }
            guard let kind = String(validating: UnsafeRawBufferPointer(rebasing: file[nameSection.offset..<(nameSection.offset + nameSection.length)]),
                                    as: UTF8.self) else { throw fail("kind #\(g): its name is not UTF-8") }
            do { try PointRecord.validateKind(kind, path: "kind") } catch { throw fail("kind #\(g): \(error.message)") }
            self.kind = kind
            typed = Catalog.typedKinds.contains(kind)
            placement = Catalog.placement(kind: kind)
            self.group = g
        }
        private let group: UInt32

        func part(_ t: SectionType) throws(ScoutError) -> Section {
            guard let s = parts[t] else { throw fail("kind #\(group) has no \(t.name) section") }
            return s
        }
        func bytes(_ s: Section) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: file[s.offset..<(s.offset + s.length)]) }

        /// The number of ids of an id offsets section (`n + 1` `UInt32`).
        func idCount(_ o: Section) throws(ScoutError) -> Int {
            guard o.length % 4 == 0, o.length >= 4 else { throw fail("kind \(kind): \(o.type.name) section \(o.index) has length \(o.length)") }
            return o.length / 4 - 1
        }

        /// The ids of an id offsets and an ids section; `what` names the i-th record.
        func decodedIds(_ o: Section, _ b: Section, count: Int, what: (Int) -> String) throws(ScoutError) -> [String] {
            switch decodeIds(offsets: bytes(o), bytes: bytes(b), count: count) {
            case .success(let s): return s
            case .failure(let bad): throw fail("kind \(kind): the id of \(what(bad.index)) (section \(b.index)): \(bad.why)")
            }
        }

        /// Payloads from a field offsets and a fields section, re-validated against the
        /// catalogue. Both absent: typed kinds validate each record from no fields, untyped
        /// ones have no payloads (an empty array).
        func decodedPayloads(count n: Int, _ offsetSection: Section?, _ fieldSection: Section?,
                             what: (Int) -> String) throws(ScoutError) -> [PointPayload?] {
            switch (offsetSection, fieldSection) {
            case (nil, nil):
                guard typed else { return [] }
                var out: [PointPayload?] = []
                out.reserveCapacity(n)
                for i in 0..<n { out.append(try payload(kind: kind, fields: [], catalog: catalog, what: what(i), fail: fail)) }
                return out
            case (let o?, let b?):
                guard o.length == 8 * (n + 1) else {
                    throw fail("kind \(kind): \(o.type.name) section \(o.index) has length \(o.length) for \(n) records")
                }
                let offsets = bytes(o), fieldBytes = bytes(b)
                // The spans first (cheap), then parsing and validation on two threads.
                var start = 0
                for i in 0..<n {
                    let end = offsets.le64(8 * (i + 1))
                    guard offsets.le64(8 * i) == UInt64(start), end >= UInt64(start), end <= UInt64(fieldBytes.count) else {
                        throw fail("kind \(kind): \(o.type.name) section \(o.index), entry \(i): out of order or past the fields")
                    }
                    start = Int(end)
                }
                guard start == fieldBytes.count else {
                    throw fail("kind \(kind): \(fieldBytes.count - start) bytes after the fields of the last record (section \(b.index))")
                }
                switch decodeFields(kind: kind, typed: typed, count: n, offsets: offsets, bytes: fieldBytes, catalog: catalog) {
                case .success(let p): return p
                case .failure(let bad): throw fail("kind \(kind): the fields of \(what(bad.index)) (section \(b.index)) \(bad.why)")
                }
            case (let o?, nil):
                throw fail("kind \(kind) has \(o.type.name) (section \(o.index)) without their fields")
            case (nil, let b?):
                throw fail("kind \(kind) has \(b.type.name) (section \(b.index)) without their offsets")
            }
        }

        /// The kind's points in tree order, its records without a place (`nil`: none) and
        /// how many records it holds in all.
        func read() throws(ScoutError) -> (LiveExport, PlacelessSet?, Int) {
            // Points.
            let idOffsets = try part(.idOffsets), idBytes = try part(.idBytes), coordinates = try part(.coordinates)
            let n = try idCount(idOffsets)
            guard n == 0 || placement != .none else {
                throw fail("kind \(kind): \(n) records with a place (section \(coordinates.index)), but records of kind \(kind) have no place")
            }
            guard coordinates.length == 16 * n else {
                throw fail("kind \(kind): coordinates section \(coordinates.index) has \(coordinates.length) bytes for \(n) points")
            }
            let ids = try decodedIds(idOffsets, idBytes, count: n) { "point \($0)" }
            let coordBytes = bytes(coordinates)
            let coords = [Double](unsafeUninitializedCapacity: 2 * n) { buf, initialized in
                for i in 0..<(2 * n) { buf[i] = Double(bitPattern: coordBytes.le64(8 * i)) }
                initialized = 2 * n
            }
            // No payloads at all (untyped points without fields) is an empty array.
            let payloads = try decodedPayloads(count: n, parts[.fieldOffsets], parts[.fieldBytes]) { "point \($0)" }
            let placeless = try placelessRecords(pointIds: ids, idBytes: idBytes)
            var placelessSet: PlacelessSet?
            if !placeless.isEmpty {
                placelessSet = PlacelessSet()
                placelessSet!.upsert(placeless)
            }
            return (LiveExport(ids: ids, coords: coords, payloads: payloads), placelessSet, n + placeless.count)
        }

        /// Records without a place (format version 2): ids in increasing byte order, so
        /// distinct; none the id of a point of the kind; only in kinds that may have them.
        private func placelessRecords(pointIds ids: [String], idBytes: Section) throws(ScoutError) -> [(id: String, payload: RecordPayload?)] {
            let n = ids.count
            var placeless: [(id: String, payload: RecordPayload?)] = []
            switch (parts[.placelessIdOffsets], parts[.placelessIdBytes]) {
            case (nil, nil):
                if let s = parts[.placelessFieldOffsets] ?? parts[.placelessFieldBytes] {
                    throw fail("kind \(kind) has \(s.type.name) (section \(s.index)) but no ids without a place")
                }
            case (let o?, let b?):
                let m = try idCount(o)
                guard m == 0 || placement != .required else {
                    throw fail("kind \(kind): \(m) records without a place (section \(b.index)), but records of kind \(kind) need lat and lon")
                }
                let what = { (i: Int) in "record \(i) without a place" }
                let placelessIds = try decodedIds(o, b, count: m, what: what)
                for i in placelessIds.indices.dropFirst() where !placelessIds[i - 1].utf8.lexicographicallyPrecedes(placelessIds[i].utf8) {
                    throw fail("kind \(kind): the id of \(what(i)) (section \(b.index)) does not follow the one before it in byte order (repeated or out of order)")
                }
                if n > 0 && m > 0 {
                    let known = Set(placelessIds)
                    for (i, id) in ids.enumerated() where known.contains(id) {
                        throw fail("kind \(kind): point \(i) (section \(idBytes.index)) has the id of a record without a place (section \(b.index)); ids are unique within a kind")
                    }
                }
                let p = try decodedPayloads(count: m, parts[.placelessFieldOffsets], parts[.placelessFieldBytes], what: what)
                placeless.reserveCapacity(m)
                for (i, id) in placelessIds.enumerated() { placeless.append((id, p.isEmpty ? nil : p[i] as? RecordPayload)) }
            case (let o?, nil):
                throw fail("kind \(kind) has \(o.type.name) (section \(o.index)) without the ids")
            case (nil, let b?):
                throw fail("kind \(kind) has \(b.type.name) (section \(b.index)) without their offsets")
            }
            return placeless
        }
    }

    /// Raw bytes shared with the second thread of ``decodeFields``: the mapping outlives it.
    private struct SharedBytes: @unchecked Sendable {
        let offsets: UnsafeRawBufferPointer
        let bytes: UnsafeRawBufferPointer
    }

    /// The results of the two halves of ``decodeFields``, each written by one thread only.
    private final class FieldWork: @unchecked Sendable {
        var halves: [Result<[PointPayload?], BadId>?] = [nil, nil]
    }

    /// Every point's payload from its field span (spans already checked): JSON parsed and,
    /// for typed kinds, the record validated — on two threads for big kinds. The first bad
    /// point (lowest index) is the error.
    private static func decodeFields(kind: String, typed: Bool, count n: Int, offsets: UnsafeRawBufferPointer,
                                     bytes: UnsafeRawBufferPointer, catalog: Catalog) -> Result<[PointPayload?], BadId> {
        let shared = SharedBytes(offsets: offsets, bytes: bytes)
        @Sendable func decode(_ range: Range<Int>) -> Result<[PointPayload?], BadId> {
            var out: [PointPayload?] = []
            out.reserveCapacity(range.count)
            for i in range {
                let start = Int(shared.offsets.le64(8 * i)), end = Int(shared.offsets.le64(8 * (i + 1)))
                var fields: [(String, JSONValue)] = []
                if end > start {
                    let text = [UInt8](UnsafeRawBufferPointer(rebasing: shared.bytes[start..<end]))
                    let v: JSONValue
                    do throws(JSONParseError) { v = try JSONReader.parse(text) } catch {
                        return .failure(BadId(index: i, why: "are not valid JSON: \(error.message)"))
                    }
                    guard let m = v.members, !m.isEmpty else { return .failure(BadId(index: i, why: "are not a non-empty object")) }
                    fields = m
                }
                guard typed || !fields.isEmpty else { out.append(nil); continue }
                do throws(ScoutError) {
                    let kept = Engine.restorable(kind: RecordKind(kind), fields: fields)
                    out.append(RecordPayload(fields: kept, record: try catalog.record(kind: RecordKind(kind), fields: kept, path: "")))
                } catch {
                    return .failure(BadId(index: i, why: "no longer validate against the snapshot's reference data: \(error.message)"))
                }
            }
            return .success(out)
        }
        guard n >= 4_096 else { return decode(0..<n) }
        let work = FieldWork()
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            work.halves[half] = decode(half == 0 ? 0..<(n / 2) : (n / 2)..<n)
        }
        switch (work.halves[0]!, work.halves[1]!) {
        case (.failure(let e), _), (_, .failure(let e)): return .failure(e)
        case (.success(let a), .success(let b)): return .success(a + b)
        }
    }

    /// The typed payload of a record (`what` names it), re-validated from its fields as a load would.
    private static func payload(kind: String, fields: [(String, JSONValue)], catalog: Catalog, what: String,
                                fail: (String) -> ScoutError) throws(ScoutError) -> RecordPayload {
        do {
            let kept = Engine.restorable(kind: RecordKind(kind), fields: fields)
            return RecordPayload(fields: kept, record: try catalog.record(kind: RecordKind(kind), fields: kept, path: ""))
        } catch {
            throw fail("kind \(kind): \(what) no longer validates against the snapshot's reference data: \(error.message)")
        }
    }

    /// Why an id could not be decoded.
    struct BadId: Error {
        let index: Int
        let why: String
    }

    /// Ids from an offsets section (`count + 1` little-endian `UInt32` offsets from 0,
    /// increasing, ending at the bytes' end) over a bytes section, each at most
    /// ``PointRecord/maximumIdLength`` bytes of UTF-8; big sections in two halves on two
    /// threads, written in place. The first bad id (lowest index) is the error.
    private static func decodeIds(offsets: UnsafeRawBufferPointer, bytes: UnsafeRawBufferPointer, count n: Int) -> Result<[String], BadId> {
        guard offsets.le32(0) == 0 else { return .failure(BadId(index: 0, why: "the offsets do not start at 0")) }
        let shared = SharedBytes(offsets: offsets, bytes: bytes)
        let work = IdWork()
        let ids = [String](unsafeUninitializedCapacity: n) { buffer, initialized in
            let out = SharedIds(base: buffer.baseAddress)
            let halves = n >= 65_536 ? [0..<(n / 2), (n / 2)..<n] : [0..<n]
            DispatchQueue.concurrentPerform(iterations: halves.count) { h in
                work.halves[h] = decodeIds(offsets: shared.offsets, bytes: shared.bytes, range: halves[h], into: out.base)
            }
            let end = Int(offsets.le32(4 * n))
            for (h, range) in halves.enumerated() {
                switch work.halves[h]! {
                case .failure(let bad):
                    work.bad = work.bad ?? bad
                    out.base?.advanced(by: range.lowerBound).deinitialize(count: bad.index - range.lowerBound)
                case .success: break
                }
            }
            if work.bad == nil && end != bytes.count { work.bad = BadId(index: n, why: "\(bytes.count - end) bytes after the last id") }
            if work.bad != nil {
                for (h, range) in halves.enumerated() {
                    if case .success = work.halves[h]! { out.base?.advanced(by: range.lowerBound).deinitialize(count: range.count) }
                }
                initialized = 0
            } else {
                initialized = n
            }
        }
        if let bad = work.bad { return .failure(bad) }
        return .success(ids)
    }

    /// The outcomes of the halves of ``decodeIds(offsets:bytes:count:)``, each written by one
    /// thread only, and the first bad id.
    private final class IdWork: @unchecked Sendable {
        var halves: [Result<Void, BadId>?] = [nil, nil]
        var bad: BadId?
    }

    /// Where the threads of ``decodeIds(offsets:bytes:count:)`` write their ids, each into its own range.
    private struct SharedIds: @unchecked Sendable {
        let base: UnsafeMutablePointer<String>?
    }

    /// Decodes ids `range` of an id section into `out[range]`, stopping at the first bad
    /// one: ids `range.lowerBound..<bad.index` are then initialized, else all of `range`.
    private static func decodeIds(offsets: UnsafeRawBufferPointer, bytes: UnsafeRawBufferPointer, range: Range<Int>,
                                  into out: UnsafeMutablePointer<String>?) -> Result<Void, BadId> {
        var start = Int(offsets.le32(4 * range.lowerBound))
        for i in range {
            let end = Int(offsets.le32(4 * (i + 1)))
            guard end > start, end <= bytes.count else { return .failure(BadId(index: i, why: "empty, out of order or past the ids")) }
            guard end - start <= PointRecord.maximumIdLength else {
                return .failure(BadId(index: i, why: "longer than \(PointRecord.maximumIdLength) bytes"))
            }
            let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            let utf8 = UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: raw.count)
            var ascii = true
            for b in utf8 where b >= 0x80 { ascii = false; break }
            // ASCII is valid UTF-8: the fast, non-generic path; anything else is validated.
            if ascii { (out! + i).initialize(to: String(decoding: utf8, as: UTF8.self)) } else {
                guard let s = String(validating: utf8, as: UTF8.self) else { return .failure(BadId(index: i, why: "not UTF-8")) }
                (out! + i).initialize(to: s)
            }
            start = end
        }
        return .success(())
    }

    /// A snapshot's reference files being loaded through the same loaders a data directory
    /// goes through (unpacked into a private temporary directory, read, removed): the breed
    /// table with its other names, the species names and the synonyms at once (records are
    /// validated against the first two), the gazetteer and the text language (its
    /// dictionaries) on background threads while the kinds are restored. The
    /// recommender's two files stay bytes (``SnapshotReferenceFiles``): the engine does not
    /// read them, so they are not unpacked.
    private final class PendingReference: @unchecked Sendable {
        // @unchecked: `loaded` is written by the background thread before `group` is left
        // and read only after waiting for it.
        let breeds: BreedTable
        /// Species by their names (`species.tsv`; empty without one).
        let species: SpeciesNames
        /// The synonym groups of `synonyms.tsv` (empty without one).
        let synonyms: [[String]]
        /// What the background threads load.
        struct Loaded {
            var places: Gazetteer = .empty
            /// The standard text language (``Catalog/standardLanguage(polishDictionary:)``), or why it did not load.
            var language: Result<TextLanguage, ScoutError> = .failure(ScoutError(.internal, "the text language was not loaded"))
        }
        private let directory: String?
        private let path: String
        private let group = DispatchGroup()
        private var loaded: Result<Loaded, ScoutError> = .success(Loaded())
        private let language: LanguageLoad

        /// The standard text language (``Catalog/standardLanguage(polishDictionary:)``: its
        /// dictionaries), loaded on a background thread from creation.
        private final class LanguageLoad: @unchecked Sendable {
            // @unchecked: `loaded` is written by the background thread before `group` is
            // left and read only after waiting for it.
            private let group = DispatchGroup()
            private var loaded: Result<TextLanguage, ScoutError>?

            init() {
                group.enter()
                DispatchQueue.global().async { [self] in
                    loaded = Result { () throws(ScoutError) in try Catalog.standardLanguage() }
                    group.leave()
                }
            }

            /// The language, or why it did not load, once loaded.
            func result() -> Result<TextLanguage, ScoutError> {
                group.wait()
                return loaded!
            }
        }
        private var finished = false
        /// The files the engine reads, unpacked.
        private static let names = SnapshotReferenceFiles().named.map(\.name).filter { !["activities.json", "weights.json", "enjoyment_prior.json"].contains($0) }

        init(_ r: SnapshotReferenceFiles, path: String) throws(ScoutError) {
            self.path = path
            language = LanguageLoad()
            guard !r.isEmpty else {
                breeds = .empty
                species = .empty
                synonyms = []
                directory = nil
                return
            }
            guard r.breeds != nil, r.places != nil else {
                throw ScoutError(.invalidRequest, "not a usable snapshot: it has reference data without both breeds.csv and places.tsv", path: path)
            }
            var template = Array(((getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/scout-snapshot-XXXXXX").utf8CString)
            guard let dirPointer = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw ScoutError(.internal, "no temporary directory for the snapshot's reference data (errno \(errno))", path: path)
            }
            let dir = String(cString: dirPointer)
            directory = dir
            for (name, bytes) in r.named where Self.names.contains(name) {
                guard let bytes else { continue }
                let fd = open(dir + "/" + name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                guard fd >= 0, SnapshotFile.writeAll(fd, bytes), close(fd) == 0 else {
                    let e = errno
                    Self.remove(dir)
                    throw ScoutError(.internal, "the snapshot's \(name) could not be unpacked (errno \(e))", path: path)
                }
            }
            do throws(ScoutError) { breeds = try BreedTable.load(dataDirectory: dir) } catch {
                Self.remove(dir)
                let what = r.breedAliases == nil ? "breeds.csv" : "breeds.csv or breed_aliases.csv"
                throw ScoutError(.invalidRequest, "not a usable snapshot: its \(what) does not load: \(error.message)", path: path)
            }
            do throws(ScoutError) { (species, synonyms) = try Catalog.wordTables(dataDirectory: dir) } catch {
                Self.remove(dir)
                throw ScoutError(.invalidRequest, "not a usable snapshot: its species.tsv or synonyms.tsv does not load: \(error.message)", path: path)
            }
            group.enter()
            DispatchQueue.global().async { [self] in
                do throws(ScoutError) {
                    let places = try Gazetteer.load(path: dir + "/places.tsv")
                    loaded = .success(Loaded(places: places))
                } catch {
                    loaded = .failure(error)
                }
                group.leave()
            }
        }

        /// Waits for the background loads and removes the temporary files (idempotent).
        func finish() {
            guard !finished else { return }
            finished = true
            group.wait()
            if let directory { Self.remove(directory) }
        }

        /// The gazetteer and the text language, once loaded.
        func result() throws(ScoutError) -> Loaded {
            finish()
            switch loaded {
            case .success(var r):
                r.language = language.result()
                return r
            case .failure(let error):
                throw ScoutError(.invalidRequest, "not a usable snapshot: its reference data does not load: \(error.message)", path: path)
            }
        }

        private static func remove(_ dir: String) {
            for name in names { unlink(dir + "/" + name) }
            rmdir(dir)
        }
    }

    private static func hex(_ v: UInt32) -> String { "0x" + String(v, radix: 16, uppercase: true) }
}
