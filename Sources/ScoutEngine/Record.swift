import ScoutCatalog
import ScoutCore
import ScoutIndex
import ScoutJSON

/// A record as loaded or upserted: id, kind, position (none for kinds without a place)
/// and any other fields, kept in order as given.
public struct PointRecord: Sendable {
    /// Unique id within its kind.
    public var id: String
    /// The kind: a typed kind (``RecordKind/dog``, …) or a caller's own (``RecordKind/own(_:)``).
    public var kind: RecordKind
    /// Position; `nil` for a record without a place (see ``Placement``).
    public var point: GeoPoint?
    /// Every other field of the record, in input order.
    public var fields: [(String, JSONValue)]
    /// Where the record came from (`line 17`, `features[3]`), for error paths; `nil` for
    /// records given directly.
    public var source: String?

    /// Creates a record.
    public init(id: String, kind: RecordKind, point: GeoPoint?, fields: [(String, JSONValue)] = [], source: String? = nil) {
        self.id = id
        self.kind = kind
        self.point = point
        self.fields = fields
        self.source = source
    }

    /// Longest id accepted, in bytes.
    public static let maximumIdLength = 256

    /// Checks a kind name: 1–64 characters of `a-z`, `0-9`, `_` and `-`.
    public static func validateKind(_ kind: String, path: String) throws(ScoutError) {
        guard !kind.isEmpty, kind.utf8.count <= 64,
              kind.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D }) else {
            throw ScoutError(.invalidRequest, "kind must be 1-64 characters of a-z, 0-9, _ and -", path: path)
        }
    }

    /// Builds a record from a JSON object `{"id","kind","lat"?,"lon"?, …}`; `defaultKind`
    /// applies when the object has no kind. `lat` and `lon` come together: required for
    /// kinds with a place, refused for kinds without one (``Catalog/placement(kind:)``).
    /// Errors name the field under `path`. Many records in a row: ``Reader``.
    public static func from(json v: JSONValue, defaultKind: String?, path: String) throws(ScoutError) -> PointRecord {
        var reader = Reader(defaultKind: defaultKind)
        return try reader.record(from: v, path: path)
    }

    /// Reads records from JSON objects one after another (a file's lines, a batch's
    /// records), as ``from(json:defaultKind:path:)`` does, checking a kind's name once for
    /// each run of records of that kind and building an error's path only for an error.
    public struct Reader {
        /// The kind of records that name none.
        public let defaultKind: String?
        /// The kind of the record read last.
        private var last: CheckedKind?

        /// A reader; `defaultKind` applies to records without a kind.
        public init(defaultKind: String?) { self.defaultKind = defaultKind }

        /// The record a JSON object holds; errors name the field under `path` (worked out
        /// only when one is thrown).
        public mutating func record(from v: JSONValue, path: @autoclosure () -> String) throws(ScoutError) -> PointRecord {
            guard let members = v.members else {
                throw ScoutError(.invalidRequest, "a record must be a JSON object, not \(v.typeName)", path: path())
            }
            var id: String?, kind: String?, lat: Double?, lon: Double?
            var fields: [(String, JSONValue)] = []
            func at(_ f: String) -> String { PointRecord.field(f, under: path()) }
            for (k, x) in members {
                switch k {
                case "id":
                    switch x {
                    case .string(let s): id = s
                    case .number(let t): id = t
                    default: throw ScoutError(.invalidRequest, "id must be a string or a number", path: at("id"))
                    }
                case "kind":
                    guard let s = x.string else { throw ScoutError(.invalidRequest, "kind must be a string", path: at("kind")) }
                    kind = s
                case "lat":
                    guard let d = x.double else { throw ScoutError(.invalidRequest, "lat must be a number", path: at("lat")) }
                    lat = d
                case "lon":
                    guard let d = x.double else { throw ScoutError(.invalidRequest, "lon must be a number", path: at("lon")) }
                    lon = d
                default:
                    fields.append((k, x))
                }
            }
            return try record(id: id, kind: kind, lat: lat, lon: lon, fields: fields, path: path())
        }

        /// A record from its parts (a CSV line's cells, a JSON object's members), checked as
        /// ``record(from:path:)`` checks them, in this order: a non-empty id of at most
        /// ``PointRecord/maximumIdLength`` bytes; a kind (`kind`, else ``defaultKind``) of
        /// valid name; `lat` and `lon` together, valid, where the kind has places, and
        /// neither where it has none. Errors name the field under `path`.
        mutating func record(id: String?, kind: String?, lat: Double?, lon: Double?,
                             fields: [(String, JSONValue)], path: @autoclosure () -> String) throws(ScoutError) -> PointRecord {
            func at(_ f: String) -> String { PointRecord.field(f, under: path()) }
            guard let id, !id.isEmpty else { throw ScoutError(.invalidRequest, "id is required and must not be empty", path: at("id")) }
            guard id.utf8.count <= maximumIdLength else {
                throw ScoutError(.limitExceeded, "id must be at most \(maximumIdLength) bytes", path: at("id"))
            }
            guard let name = kind ?? defaultKind else { throw ScoutError(.invalidRequest, "kind is required", path: at("kind")) }
            if last?.name != name { last = try CheckedKind(name, path: at("kind")) }
            let kind = last!
            switch (lat, lon) {
            case (nil, nil):
                guard kind.placement != .required else { throw ScoutError(.invalidRequest, "lat is required", path: at("lat")) }
                return PointRecord(id: id, kind: kind.kind, point: nil, fields: fields)
            case (let lat?, let lon?):
                guard kind.placement != .none else {
                    throw ScoutError(.invalidRequest, "records of kind \(name) have no place: drop lat and lon", path: at("lat"))
                }
                let p = try GeoPoint(lat: lat, lon: lon).validated(path: path().isEmpty ? nil : path())
                return PointRecord(id: id, kind: kind.kind, point: p, fields: fields)
            case (nil, _): throw ScoutError(.invalidRequest, "lat is required with lon", path: at("lat"))
            case (_, nil): throw ScoutError(.invalidRequest, "lon is required with lat", path: at("lon"))
            }
        }
    }

    /// `field`'s path under `path` (`records[3].lat`; the field alone under an empty path).
    static func field(_ field: String, under path: String) -> String { path.isEmpty ? field : "\(path).\(field)" }

    /// A kind name checked once for a run of records (``validateKind(_:path:)``), with its
    /// typed form and whether its records have a place.
    private struct CheckedKind {
        /// The name as given.
        let name: String
        /// The typed form.
        let kind: RecordKind
        /// Whether its records have a place.
        let placement: Placement
        /// Checks `name`; errors at `path`.
        init(_ name: String, path: @autoclosure () -> String) throws(ScoutError) {
            do throws(ScoutError) { try PointRecord.validateKind(name, path: "") } catch {
                throw ScoutError(error.code, error.message, path: path())
            }
            self.name = name
            kind = RecordKind(name)
            placement = kind.definition.placement
        }
    }
}

/// What the index keeps with each point besides its position: the record's other fields
/// and its typed form, and fields the engine derives from other records (a shelter's
/// `animals`), which answers carry but which are never journalled or written to a snapshot.
final class RecordPayload: PointPayload, @unchecked Sendable {   // every stored property is an immutable Sendable value
    let fields: [(String, JSONValue)]
    let record: CatalogRecord
    let derived: [(String, JSONValue)]
    init(fields: [(String, JSONValue)], record: CatalogRecord, derived: [(String, JSONValue)] = []) {
        self.fields = fields
        self.record = record
        self.derived = derived
    }

    /// The fields an answer shows: the record's own, then the derived ones.
    var shownFields: [(String, JSONValue)] { derived.isEmpty ? fields : fields + derived }
}
