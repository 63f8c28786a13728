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
    /// `enjoyment_prior.json`: the recommender's population prior of enjoyment; format version 2.
    public var enjoymentPrior: [UInt8]?

    /// No reference data.
    public init(breeds: [UInt8]? = nil, places: [UInt8]? = nil, activities: [UInt8]? = nil, weights: [UInt8]? = nil,
                breedAliases: [UInt8]? = nil, species: [UInt8]? = nil, synonyms: [UInt8]? = nil, enjoymentPrior: [UInt8]? = nil) {
        self.breeds = breeds
        self.places = places
        self.activities = activities
        self.weights = weights
        self.breedAliases = breedAliases
        self.species = species
        self.synonyms = synonyms
        self.enjoymentPrior = enjoymentPrior
    }

    /// The files by their name in a data directory, in section-type order; `nil` where absent.
    var named: [(name: String, bytes: [UInt8]?)] {
        [("breeds.csv", breeds), ("places.tsv", places), ("activities.json", activities), ("weights.json", weights),
         ("breed_aliases.csv", breedAliases), ("species.tsv", species), ("synonyms.tsv", synonyms),
         ("enjoyment_prior.json", enjoymentPrior)]
    }

    /// True when there is no file at all.
    var isEmpty: Bool { named.allSatisfy { $0.bytes == nil } }

    /// The eight files of a data directory (a missing file stays `nil`; `timezones.bin` is
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
                                      synonyms: try file("synonyms.tsv"), enjoymentPrior: try file("enjoyment_prior.json"))
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
        case breedAliases = 5, species = 6, synonyms = 7, enjoymentPrior = 8
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
            case .enjoymentPrior: "enjoyment_prior.json"
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
            case .breedAliases, .species, .synonyms, .enjoymentPrior, .placelessIdOffsets, .placelessIdBytes, .placelessFieldOffsets, .placelessFieldBytes: 2
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
        for (type, file) in zip([SectionType.breeds, .places, .activities, .weights, .breedAliases, .species, .synonyms, .enjoymentPrior], reference.named) {
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
}
