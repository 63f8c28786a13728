import ScoutCore
import ScoutEngine

/// How one PostgreSQL table becomes records of one kind: which column is the id, which the
/// place (a PostGIS `geography` or `geometry` point) and which the other fields (`jsonb`).
///
/// Written on the command line as `TABLE:KIND[:id=COL,place=COL,fields=COL]`, for example
/// `dogs:dog` (columns `id`, `place`, `fields`) or
/// `public.shelters:shelter:id=shelter_id,place=location,fields=props`. `place=none` maps a
/// table without a place column (for kinds without a place); `fields=none` one without fields.
/// `scout source install` checks the mapping against the database and stores it in
/// `scout.tables`, from where every `scout serve --source` replica reads it.
public struct TableMapping: Sendable, Equatable {
    /// The table, as given (`dogs` or `public.dogs`); unquoted names are folded to lower case
    /// as PostgreSQL folds them.
    public var table: String
    /// The kind its rows become.
    public var kind: String
    /// The id column (any type with a text form: text, integer, uuid).
    public var idColumn: String
    /// The place column (`geography` or `geometry` point, SRID 4326 or 0, other SRIDs are
    /// transformed), or `nil` for a table without places.
    public var placeColumn: String?
    /// The fields column (`jsonb` or `json` object), or `nil`.
    public var fieldsColumn: String?

    /// Creates a mapping.
    public init(table: String, kind: String, idColumn: String = "id", placeColumn: String? = "place", fieldsColumn: String? = "fields") {
        self.table = table
        self.kind = kind
        self.idColumn = idColumn
        self.placeColumn = placeColumn
        self.fieldsColumn = fieldsColumn
    }

    /// Parses `TABLE:KIND[:id=COL,place=COL|none,fields=COL|none]`; errors name the part.
    public static func parse(_ spec: String) throws(SourceError) -> TableMapping {
        func bad(_ m: String) -> SourceError { SourceError(.badMapping, "--table \(spec): \(m) (expected TABLE:KIND[:id=COL,place=COL|none,fields=COL|none])") }
        let parts = spec.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[0].isEmpty else { throw bad("a table and a kind are required") }
        do { try PointRecord.validateKind(parts[1], path: "kind") } catch { throw bad(error.message) }
        var m = TableMapping(table: parts[0], kind: parts[1])
        if parts.count == 3 {
            for option in parts[2].split(separator: ",") {
                let kv = option.split(separator: "=", maxSplits: 1).map(String.init)
                guard kv.count == 2, !kv[1].isEmpty else { throw bad("option \(option) needs a value") }
                switch kv[0] {
                case "id": m.idColumn = kv[1]
                case "place": m.placeColumn = kv[1] == "none" ? nil : kv[1]
                case "fields": m.fieldsColumn = kv[1] == "none" ? nil : kv[1]
                default: throw bad("unknown option \(kv[0]) (id, place, fields)")
                }
            }
        }
        return m
    }
}

/// SQL text helpers: identifiers are quoted here, values always travel as bind parameters.
enum SQL {
    /// `"name"` with inner quotes doubled.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacing("\"", with: "\"\"") + "\""
    }

    /// A string literal (`'…'`), for the few DDL statements that cannot take parameters.
    static func literal(_ s: String) -> String {
        "'" + s.replacing("'", with: "''") + "'"
    }
}

/// A mapping as stored in `scout.tables`, with the table's qualified, quoted name and the id
/// column's type, ready to build the follower's queries.
struct StoredMapping: Sendable, Equatable {
    /// `"schema"."table"`, as stored by the installer.
    var table: String
    var kind: String
    var idColumn: String
    var idType: String
    var placeColumn: String?
    var fieldsColumn: String?

    /// Selects `(id text, geometry type text, lon float8, lat float8, fields text)` for every
    /// row, or with `idsBound` for the rows whose id is in the text array `$1`.
    func select(idsBound: Bool) -> String {
        let id = "t." + SQL.quoted(idColumn)
        var place = "NULL::text, NULL::float8, NULL::float8"
        var from = "\(table) t"
        if let placeColumn {
            let raw = "t." + SQL.quoted(placeColumn) + "::geometry"
            from += ", LATERAL (SELECT CASE WHEN ST_SRID(\(raw)) IN (0, 4326) THEN \(raw) ELSE ST_Transform(\(raw), 4326) END AS g) p"
            place = "GeometryType(p.g), CASE WHEN GeometryType(p.g) = 'POINT' AND NOT ST_IsEmpty(p.g) THEN ST_X(p.g) END, "
                + "CASE WHEN GeometryType(p.g) = 'POINT' AND NOT ST_IsEmpty(p.g) THEN ST_Y(p.g) END"
        }
        let fields = fieldsColumn.map { "t." + SQL.quoted($0) + "::text" } ?? "NULL::text"
        var sql = "SELECT \(id)::text, \(place), \(fields) FROM \(from)"
        if idsBound { sql += " WHERE \(id) = ANY($1::text[]::\(idType)[])" }
        return sql
    }
}
