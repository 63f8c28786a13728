#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutIndex
import ScoutJSON

/// The reference files a snapshot carries, byte for byte (`nil`: the engine had none).
public struct SnapshotReferenceFiles: Sendable, Equatable {
    /// `breeds.csv`.
    public var breeds: [UInt8]?
    /// `places.tsv`.
    public var places: [UInt8]?
    /// `activities.json`.
    public var activities: [UInt8]?
    /// `weights.json`.
    public var weights: [UInt8]?
    /// `breed_aliases.csv`: other names of the breeds ("Lab"); format version 2.
    public var breedAliases: [UInt8]?
    /// `species.tsv`: species names in English and Polish ("pies"); format version 2.
    public var species: [UInt8]?
    /// `synonyms.tsv`: the text index's synonym groups; format version 2.
    public var synonyms: [UInt8]?

    /// No reference data.
    public init(breeds: [UInt8]? = nil, places: [UInt8]? = nil, activities: [UInt8]? = nil, weights: [UInt8]? = nil,
                breedAliases: [UInt8]? = nil, species: [UInt8]? = nil, synonyms: [UInt8]? = nil) {
        self.breeds = breeds
        self.places = places
        self.activities = activities
        self.weights = weights
        self.breedAliases = breedAliases
        self.species = species
        self.synonyms = synonyms
    }

    /// The files by their name in a data directory, in section-type order; `nil` where absent.
    var named: [(name: String, bytes: [UInt8]?)] {
        [("breeds.csv", breeds), ("places.tsv", places), ("activities.json", activities), ("weights.json", weights),
         ("breed_aliases.csv", breedAliases), ("species.tsv", species), ("synonyms.tsv", synonyms)]
    }

    /// True when there is no file at all.
    var isEmpty: Bool { named.allSatisfy { $0.bytes == nil } }

    /// The seven files of a data directory (a missing file stays `nil`; `timezones.bin` is
    /// never included).
    public static func read(dataDirectory dir: String) throws(ScoutError) -> SnapshotReferenceFiles {
        func file(_ name: String) throws(ScoutError) -> [UInt8]? {
            let path = dir + "/" + name
            guard access(path, F_OK) == 0 else { return nil }
            return try SnapshotFile.readWholeFile(path, what: name)
        }
        return SnapshotReferenceFiles(breeds: try file("breeds.csv"), places: try file("places.tsv"),
                                      activities: try file("activities.json"), weights: try file("weights.json"),
                                      breedAliases: try file("breed_aliases.csv"), species: try file("species.tsv"),
                                      synonyms: try file("synonyms.tsv"))
    }
}

/// Scout's snapshot file, format version 2 (see `docs/snapshot.md`; version 1 files are
/// still read): a 64-byte header, a table of 32-byte section entries, then the sections
/// back to back. All integers and floats are little-endian; every byte of the file is
/// covered by an xxHash64 (header, table, each section).
package enum SnapshotFile {
    /// `\x89 S C O U T \r \n`: not text, and mangled by any text-mode copy.
    static let magic: [UInt8] = [0x89, 0x53, 0x43, 0x4F, 0x55, 0x54, 0x0D, 0x0A]
    /// The format version this build writes and the newest it reads.
    static let formatVersion: UInt32 = 2
    /// Written little-endian; read back as anything else, the file has another byte order.
    static let byteOrderMark: UInt32 = 0x0A0B_0C0D
    static let headerSize = 64
    static let sectionEntrySize = 32
    /// Header flag: dogs are stored at their exact locations (else at their published cells).
    static let flagExactDogLocations: UInt32 = 1
    /// `group` of file-wide sections.
    static let noGroup: UInt32 = .max
    /// Sections a file may have at most (a guard against absurd tables).
    static let maximumSections = 1 << 20

    /// Section types.
    enum SectionType: UInt32, CaseIterable {
        case breeds = 1, places = 2, activities = 3, weights = 4
        case breedAliases = 5, species = 6, synonyms = 7
        case kindName = 16, idOffsets = 17, idBytes = 18, coordinates = 19, fieldOffsets = 20, fieldBytes = 21
        case placelessIdOffsets = 22, placelessIdBytes = 23, placelessFieldOffsets = 24, placelessFieldBytes = 25

        var name: String {
            switch self {
            case .breeds: "breeds.csv"
            case .places: "places.tsv"
            case .activities: "activities.json"
            case .weights: "weights.json"
            case .breedAliases: "breed_aliases.csv"
            case .species: "species.tsv"
            case .synonyms: "synonyms.tsv"
            case .kindName: "kind name"
            case .idOffsets: "id offsets"
            case .idBytes: "ids"
            case .coordinates: "coordinates"
            case .fieldOffsets: "field offsets"
            case .fieldBytes: "fields"
            case .placelessIdOffsets: "id offsets without a place"
            case .placelessIdBytes: "ids without a place"
            case .placelessFieldOffsets: "field offsets without a place"
            case .placelessFieldBytes: "fields without a place"
            }
        }
        var isFileWide: Bool { rawValue < 16 }
        /// The format version that introduced the type (a file of an older version must not have it).
        var since: UInt32 {
            switch self {
            case .breedAliases, .species, .synonyms, .placelessIdOffsets, .placelessIdBytes, .placelessFieldOffsets, .placelessFieldBytes: 2
            default: 1
            }
        }
    }

    /// What the writer takes of one kind: its live points and its records without a place.
    struct Kind {
        /// The kind's name.
        let name: String
        /// The live points in packed-tree order.
        let live: LiveExport
        /// The records without a place (`nil` or empty: none), ids in byte order.
        let placeless: PlacelessSet.Snapshot?
    }

    /// One section as written: its type, group and bytes.
    typealias SectionBytes = (type: SectionType, group: UInt32, bytes: [UInt8])

    // MARK: Writing

    /// Writes the kinds' live points and records without a place and the reference files
    /// to `path` atomically (a temporary file beside it, fsynced, then renamed over it).
    static func write(path: String, kinds: [Kind], reference: SnapshotReferenceFiles,
                      privacy: LocationPrivacy) throws(ScoutError) {
        var sections: [SectionBytes] = []
        for (type, file) in zip([SectionType.breeds, .places, .activities, .weights, .breedAliases, .species, .synonyms], reference.named) {
            if let bytes = file.bytes { sections.append((type, noGroup, bytes)) }
        }
        for (g, kind) in kinds.sorted(by: { $0.name < $1.name }).enumerated() {
            let group = UInt32(g)
            let live = kind.live
            sections.append((.kindName, group, Array(kind.name.utf8)))
            let (offsets, ids) = try idSections(live.ids, kind: kind.name)
            sections.append((.idOffsets, group, offsets))
            sections.append((.idBytes, group, ids))
            var coords = ByteWriter(capacity: 8 * live.coords.count)
            for d in live.coords { coords.u64(d.bitPattern) }
            sections.append((.coordinates, group, coords.bytes))
            // Fields as the JSON object they were given; a point without fields has none.
            if live.payloads.contains(where: { ($0 as? RecordPayload)?.fields.isEmpty == false }) {
                let (fieldOffsets, fields) = fieldSections(live.payloads.lazy.map { $0 as? RecordPayload }, count: live.count)
                sections.append((.fieldOffsets, group, fieldOffsets))
                sections.append((.fieldBytes, group, fields))
            }
            // Records without a place: ids in byte order, fields as for points.
            if let placeless = kind.placeless, !placeless.ids.isEmpty {
                let (offsets, ids) = try idSections(placeless.ids, kind: kind.name)
                sections.append((.placelessIdOffsets, group, offsets))
                sections.append((.placelessIdBytes, group, ids))
                let payloads = placeless.ids.lazy.map { placeless.byID[$0]! }
                if payloads.contains(where: { $0?.fields.isEmpty == false }) {
                    let (fieldOffsets, fields) = fieldSections(payloads, count: placeless.ids.count)
                    sections.append((.placelessFieldOffsets, group, fieldOffsets))
                    sections.append((.placelessFieldBytes, group, fields))
                }
            }
        }
        let prefix = headerAndTable(sections, version: formatVersion, flags: privacy == .exact ? flagExactDogLocations : 0)

        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ScoutError(.notFound, "the snapshot file cannot be created (errno \(errno))", path: path) }
        var ok = writeAll(fd, prefix)
        for s in sections where ok { ok = writeAll(fd, s.bytes) }
        ok = ok && fsync(fd) == 0
        ok = close(fd) == 0 && ok
        guard ok, rename(temporary, path) == 0 else {
            let e = errno
            unlink(temporary)
            throw ScoutError(.internal, "the snapshot file could not be written (errno \(e))", path: path)
        }
    }

    /// The header and the section table of a file whose sections follow them back to back,
    /// in this order (the file is these bytes, then every section's bytes).
    static func headerAndTable(_ sections: [SectionBytes], version: UInt32, flags: UInt32) -> [UInt8] {
        let tableEnd = headerSize + sectionEntrySize * sections.count
        var table = ByteWriter(capacity: sectionEntrySize * sections.count)
        var offset = UInt64(tableEnd)
        for s in sections {
            table.u32(s.type.rawValue); table.u32(s.group)
            table.u64(offset); table.u64(UInt64(s.bytes.count))
            table.u64(XXHash64.hash(s.bytes))
            offset += UInt64(s.bytes.count)
        }
        var header = ByteWriter(capacity: tableEnd)
        header.bytes.append(contentsOf: magic)
        header.u32(version)
        header.u32(byteOrderMark)
        header.u32(UInt32(headerSize))
        header.u32(UInt32(sections.count))
        header.u64(offset)
        header.u32(flags)
        header.u32(0)
        header.u64(XXHash64.hash(table.bytes))
        header.u64(0)
        header.u64(XXHash64.hash(header.bytes))
        precondition(header.bytes.count == headerSize)
        header.bytes.append(contentsOf: table.bytes)
        return header.bytes
    }

    /// An id offsets section (`n + 1` `UInt32` from 0) and an ids section (UTF-8, concatenated).
    static func idSections(_ ids: [String], kind: String) throws(ScoutError) -> (offsets: [UInt8], ids: [UInt8]) {
        var offsets = ByteWriter(capacity: 4 * (ids.count + 1)), bytes = ByteWriter(capacity: 12 * ids.count)
        offsets.u32(0)
        for id in ids {
            bytes.append(id)
            guard bytes.bytes.count <= Int(UInt32.max) else {
                throw ScoutError(.limitExceeded, "the ids of kind \(kind) exceed 4 GiB", path: "snapshot")
            }
            offsets.u32(UInt32(bytes.bytes.count))
        }
        return (offsets.bytes, bytes.bytes)
    }

    /// A field offsets section (`n + 1` `UInt64` from 0) and a fields section: each
    /// record's fields as one compact JSON object, an empty span for none.
    static func fieldSections(_ payloads: some Sequence<RecordPayload?>, count n: Int) -> (offsets: [UInt8], fields: [UInt8]) {
        var offsets = ByteWriter(capacity: 8 * (n + 1)), fields = ByteWriter(capacity: 64 * n)
        var json = JSONWriter()
        offsets.u64(0)
        for p in payloads {
            if let p, !p.fields.isEmpty {
                json.reset()
                json.value(.object(p.fields))
                fields.bytes.append(contentsOf: json.bytes)
            }
            offsets.u64(UInt64(fields.bytes.count))
        }
        return (offsets.bytes, fields.bytes)
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buf in
            var done = 0
            while done < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + done, buf.count - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                done += n
            }
            return true
        }
    }

    /// A whole file's bytes, or `not_found` naming `what`.
    package static func readWholeFile(_ path: String, what: String) throws(ScoutError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ScoutError(.notFound, "\(what) cannot be opened (errno \(errno))", path: path) }
        defer { close(fd) }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw ScoutError(.notFound, "\(what) cannot be read (errno \(errno))", path: path) }
            if n == 0 { return out }
            out.append(contentsOf: buf[0..<n])
        }
    }

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
        func fail(_ what: String) -> ScoutError { ScoutError(.invalidRequest, "not a usable snapshot: \(what)", path: path) }
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
        // The sections must tile the file after the table, so every byte is under a checksum.
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

        // Privacy: a file written in one mode is never read in the other.
        let exact = flags & flagExactDogLocations != 0
        guard exact == (privacy == .exact) else {
            throw ScoutError(.invalidRequest, exact
                ? "the snapshot holds dogs' exact locations; load it with --exact-dog-locations (or write one without)"
                : "the snapshot holds dogs at their approximate (published) locations and cannot serve exact ones; "
                    + "drop --exact-dog-locations or write the snapshot again from the records with it", path: path)
        }

        // Reference data.
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
            default: break
            }
        }
        // The breeds and the species names now (records are read against them); the
        // gazetteer on a second thread while the kinds are decoded.
        let pending = try PendingReference(reference, path: path)
        defer { pending.finish() }
        let catalog = Catalog(breeds: pending.breeds, species: pending.species)

        // Kinds.
        var groups: [UInt32: [SectionType: Section]] = [:]
        for s in sections where !s.type.isFileWide {
            guard groups[s.group, default: [:]].updateValue(s, forKey: s.type) == nil else {
                throw fail("section \(s.index): a second \(s.type.name) section for kind #\(s.group)")
            }
        }
        var sets: [String: PointSet] = [:]
        var placelessSets: [String: PlacelessSet] = [:]
        var points = 0
        for g in groups.keys.sorted() {
            let parts = groups[g]!
            func part(_ t: SectionType) throws(ScoutError) -> Section {
                guard let s = parts[t] else { throw fail("kind #\(g) has no \(t.name) section") }
                return s
            }
            func bytes(_ s: Section) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: file[s.offset..<(s.offset + s.length)]) }
            let nameSection = try part(.kindName)
            guard let kind = String(validating: bytes(nameSection), as: UTF8.self) else { throw fail("kind #\(g): its name is not UTF-8") }
            do { try PointRecord.validateKind(kind, path: "kind") } catch { throw fail("kind #\(g): \(error.message)") }
            guard sets[kind] == nil else { throw fail("kind \(kind) appears twice") }
            let typed = Catalog.typedKinds.contains(kind)
            let placement = Catalog.placement(kind: kind)

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
                                 what: (Int) -> String) throws(ScoutError) -> [(any PointPayload)?] {
                switch (offsetSection, fieldSection) {
                case (nil, nil):
                    guard typed else { return [] }
                    var out: [(any PointPayload)?] = []
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

            // Records without a place (format version 2): ids in increasing byte order, so
            // distinct; none the id of a point of the kind; only in kinds that may have them.
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

            do {
                sets[kind] = try PointSet(restoring: LiveExport(ids: ids, coords: coords, payloads: payloads))
            } catch {
                throw fail("kind \(kind): \(error.message) at \(error.path ?? "points")")
            }
            if !placeless.isEmpty {
                let set = PlacelessSet()
                set.upsert(placeless)
                placelessSets[kind] = set
            }
            points += n + placeless.count
        }
        let loaded = try pending.result()
        let restored = Catalog(breeds: pending.breeds, places: loaded.places, species: pending.species, synonyms: pending.synonyms)
        return Contents(catalog: restored, sets: sets, placeless: placelessSets,
                        reference: reference, points: points)
    }

    /// Raw bytes shared with the second thread of ``decodeFields``: the mapping outlives it.
    private struct SharedBytes: @unchecked Sendable {
        let offsets: UnsafeRawBufferPointer
        let bytes: UnsafeRawBufferPointer
    }

    /// The results of the two halves of ``decodeFields``, each written by one thread only.
    private final class FieldWork: @unchecked Sendable {
        var halves: [Result<[(any PointPayload)?], BadId>?] = [nil, nil]
    }

    /// Every point's payload from its field span (spans already checked): JSON parsed and,
    /// for typed kinds, the record validated — on two threads for big kinds. The first bad
    /// point (lowest index) is the error.
    private static func decodeFields(kind: String, typed: Bool, count n: Int, offsets: UnsafeRawBufferPointer,
                                     bytes: UnsafeRawBufferPointer, catalog: Catalog) -> Result<[(any PointPayload)?], BadId> {
        let shared = SharedBytes(offsets: offsets, bytes: bytes)
        @Sendable func decode(_ range: Range<Int>) -> Result<[(any PointPayload)?], BadId> {
            var out: [(any PointPayload)?] = []
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
                    out.append(RecordPayload(fields: fields, record: try catalog.record(kind: kind, fields: fields, path: "")))
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
            return RecordPayload(fields: fields, record: try catalog.record(kind: kind, fields: fields, path: ""))
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
    /// increasing, ending at the bytes' end) over a bytes section.
    private static func decodeIds(offsets: UnsafeRawBufferPointer, bytes: UnsafeRawBufferPointer, count n: Int) -> Result<[String], BadId> {
        var out: [String] = []
        out.reserveCapacity(n)
        guard offsets.le32(0) == 0 else { return .failure(BadId(index: 0, why: "the offsets do not start at 0")) }
        var start = 0
        for i in 0..<n {
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
            if ascii { out.append(String(decoding: utf8, as: UTF8.self)) } else {
                guard let s = String(validating: utf8, as: UTF8.self) else { return .failure(BadId(index: i, why: "not UTF-8")) }
                out.append(s)
            }
            start = end
        }
        guard start == bytes.count else { return .failure(BadId(index: n, why: "\(bytes.count - start) bytes after the last id")) }
        return .success(out)
    }

    /// A snapshot's reference files being loaded through the same loaders a data directory
    /// goes through (unpacked into a private temporary directory, read, removed): the breed
    /// table with its other names, the species names and the synonyms at once (records are
    /// validated against the first two), the gazetteer on a background thread. The
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
        /// What the background thread loads.
        struct Loaded {
            var places: Gazetteer = .empty
        }
        private let directory: String?
        private let path: String
        private let group = DispatchGroup()
        private var loaded: Result<Loaded, ScoutError> = .success(Loaded())
        private var finished = false
        /// The files the engine reads, unpacked.
        private static let names = SnapshotReferenceFiles().named.map(\.name).filter { !["activities.json", "weights.json"].contains($0) }

        init(_ r: SnapshotReferenceFiles, path: String) throws(ScoutError) {
            self.path = path
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

        /// The gazetteer, once loaded.
        func result() throws(ScoutError) -> Loaded {
            finish()
            switch loaded {
            case .success(let r): return r
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

/// Little-endian bytes, appended.
package struct ByteWriter {
    package var bytes: [UInt8] = []
    package init(capacity: Int) { bytes.reserveCapacity(capacity) }
    package mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    package mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    package mutating func append(_ s: String) { bytes.append(contentsOf: s.utf8) }
}

extension UnsafeRawBufferPointer {
    /// The little-endian `UInt32` at byte `offset` (any alignment; the caller checked bounds).
    @inline(__always) package func le32(_ offset: Int) -> UInt32 { UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    /// The little-endian `UInt64` at byte `offset` (any alignment; the caller checked bounds).
    @inline(__always) package func le64(_ offset: Int) -> UInt64 { UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
}

/// xxHash64 (Yann Collet's XXH64, seed 0): a fast non-cryptographic checksum; any flipped
/// byte changes it. `hash([])` is `0xEF46DB3751D8E999`.
package enum XXHash64 {
    static let p1: UInt64 = 11_400_714_785_074_694_791
    static let p2: UInt64 = 14_029_467_366_897_019_727
    static let p3: UInt64 = 1_609_587_929_392_839_161
    static let p4: UInt64 = 9_650_029_242_287_828_579
    static let p5: UInt64 = 2_870_177_450_012_600_261

    /// The hash of an array's bytes.
    package static func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { hash($0) } }

    @inline(__always) private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }
    @inline(__always) private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 { rotl(acc &+ input &* p2, 31) &* p1 }
    @inline(__always) private static func merge(_ acc: UInt64, _ v: UInt64) -> UInt64 { (acc ^ round(0, v)) &* p1 &+ p4 }

    /// The hash of a buffer's bytes.
    /// - Complexity: O(n), about a byte a cycle's fraction: 32 bytes a step in four lanes.
    package static func hash(_ b: UnsafeRawBufferPointer) -> UInt64 {
        let n = b.count
        var i = 0
        var h: UInt64
        if n >= 32 {
            var v1 = p1 &+ p2, v2 = p2, v3: UInt64 = 0, v4 = 0 &- p1
            while i + 32 <= n {
                v1 = round(v1, b.le64(i)); v2 = round(v2, b.le64(i + 8))
                v3 = round(v3, b.le64(i + 16)); v4 = round(v4, b.le64(i + 24))
                i += 32
            }
            h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
            h = merge(h, v1); h = merge(h, v2); h = merge(h, v3); h = merge(h, v4)
        } else {
            h = p5
        }
        h &+= UInt64(n)
        while i + 8 <= n {
            h ^= round(0, b.le64(i))
            h = rotl(h, 27) &* p1 &+ p4
            i += 8
        }
        if i + 4 <= n {
            h ^= UInt64(b.le32(i)) &* p1
            h = rotl(h, 23) &* p2 &+ p3
            i += 4
        }
        while i < n {
            h ^= UInt64(b[i]) &* p5
            h = rotl(h, 11) &* p1
            i += 1
        }
        h ^= h >> 33; h &*= p2
        h ^= h >> 29; h &*= p3
        h ^= h >> 32
        return h
    }
}
