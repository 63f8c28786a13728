import Foundation
import ScoutCore
import ScoutJSON

/// Reads files of point records.
///
/// Formats, chosen by extension (`.jsonl`/`.ndjson`, `.geojson`/`.json`, `.csv`):
/// - JSON Lines: one object `{"id","kind","lat","lon", …}` a line; blank lines skipped;
/// - GeoJSON: a FeatureCollection of Point features; `id` from the feature's `id` or
///   `properties.id`, `kind` from `properties.kind`; other properties are kept;
/// - CSV: a header naming `id`, `lat`, `lon` and optionally `kind` (any order); no quoting.
/// Errors say `line N` (or `features[N]`) and the field.
public enum RecordFile {
    /// Largest file accepted by default, in bytes.
    public static let maximumFileBytes = 2 << 30

    /// Reads every record of a file. The file must be a regular file of at most
    /// `maximumBytes` bytes: its size is checked before anything is read. A load whose
    /// estimated peak (``estimatedLoadBytes(fileBytes:lines:)``) exceeds `memory`'s room
    /// is refused with `limit_exceeded`: by the file's size before it is read, by its lines
    /// before they are parsed.
    public static func read(path: String, defaultKind: String?, maximumBytes: Int = maximumFileBytes,
                            memory: MemoryBudget = MemoryBudget()) throws(ScoutError) -> [PointRecord] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw ScoutError(.notFound, "no file at the given path", path: "path") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw ScoutError(.invalidRequest, "the path is not a regular file", path: "path") }
        guard Int(info.st_size) <= maximumBytes else {
            throw ScoutError(.limitExceeded, "the file is larger than \(maximumBytes) bytes", path: "path")
        }
        let size = Int(info.st_size)
        try memory.check(needing: estimatedLoadBytes(fileBytes: size, lines: 0), for: "loading this file (\(MemoryBudget.describe(size)))", path: "path")
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .uncached) } catch {
            throw ScoutError(.notFound, "the file could not be read", path: "path")
        }
        guard data.count <= maximumBytes else { throw ScoutError(.limitExceeded, "the file is larger than \(maximumBytes) bytes", path: "path") }
        let lines = data.withUnsafeBytes { raw in raw.reduce(into: 0) { n, b in if b == 0x0A { n += 1 } } }
        try memory.check(needing: estimatedLoadBytes(fileBytes: data.count, lines: lines) - data.count,
                         for: "loading this file (\(MemoryBudget.describe(data.count)), \(lines) lines)", path: "path")
        let lower = path.lowercased()
        if lower.hasSuffix(".csv") { return try csv([UInt8](data), defaultKind: defaultKind) }
        if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") { return try geojson([UInt8](data), defaultKind: defaultKind) }
        return try jsonLines([UInt8](data), defaultKind: defaultKind)
    }

    /// Peak memory a load of a file of `fileBytes` bytes and `lines` lines takes, bytes: the
    /// file read and copied, parsed records (whose JSON trees take several times their
    /// text) and the index, measured on the sample dogs (about 2,500 bytes a 450-byte
    /// record), 1,000,000 CSV points (320 a 30-byte line) and 1,000,000 JSON Lines points
    /// with two fields (490 a 98-byte line), and rounded up.
    public static func estimatedLoadBytes(fileBytes: Int, lines: Int) -> Int { 6 * fileBytes + 320 * lines }

    /// Splits bytes into lines (LF or CRLF), calling `body(lineNumber, bytes)`
    /// (``DelimitedText/forEachLine(_:_:)``: every line numbered, blank ones included).
    static func forEachLine(_ bytes: [UInt8], _ body: (Int, ArraySlice<UInt8>) throws(ScoutError) -> Void) throws(ScoutError) {
        try bytes.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) throws(ScoutError) in
            try DelimitedText.forEachLine(b) { (n: Int, line: Range<Int>) throws(ScoutError) in try body(n, bytes[line]) }
        }
    }

    /// Parses JSON Lines records.
    public static func jsonLines(_ bytes: [UInt8], defaultKind: String?) throws(ScoutError) -> [PointRecord] {
        var out: [PointRecord] = []
        try forEachLine(bytes) { (n, line) throws(ScoutError) in
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            let v: JSONValue
            do throws(JSONParseError) { v = try JSONReader.parse(Array(line)) } catch {
                throw ScoutError(.parseError, "line \(n) is not valid JSON: \(error.message)", path: "line \(n)")
            }
            do throws(ScoutError) {
                var record = try PointRecord.from(json: v, defaultKind: defaultKind, path: "")
                record.source = "line \(n)"
                out.append(record)
            } catch {
                throw ScoutError(error.code, "line \(n): \(error.message)", path: "line \(n): \(error.path ?? "")")
            }
        }
        return out
    }

    /// Parses a GeoJSON FeatureCollection of Points.
    public static func geojson(_ bytes: [UInt8], defaultKind: String?) throws(ScoutError) -> [PointRecord] {
        let v: JSONValue
        do throws(JSONParseError) { v = try JSONReader.parse(bytes) } catch {
            throw ScoutError(.parseError, "the file is not valid JSON: \(error.description)", path: "path")
        }
        guard v["type"]?.string == "FeatureCollection", let features = v["features"]?.array else {
            throw ScoutError(.invalidRequest, "a GeoJSON file must be a FeatureCollection with a features array", path: "type")
        }
        var out: [PointRecord] = []
        for (i, f) in features.enumerated() {
            let at = "features[\(i)]"
            guard f["type"]?.string == "Feature", let g = f["geometry"], g["type"]?.string == "Point",
                  let c = g["coordinates"]?.array, c.count >= 2, let lon = c[0].double, let lat = c[1].double else {
                throw ScoutError(.invalidRequest, "\(at) must be a Feature with a Point geometry of [lon, lat]", path: "\(at).geometry")
            }
            var members: [(String, JSONValue)] = [("lat", .number(String(lat))), ("lon", .number(String(lon)))]
            if let id = f["id"] { members.append(("id", id)) }
            for (k, x) in f["properties"]?.members ?? [] where k != "lat" && k != "lon" && !(k == "id" && f["id"] != nil) {
                members.append((k, x))
            }
            var record = try PointRecord.from(json: .object(members), defaultKind: defaultKind, path: at)
            record.source = at
            out.append(record)
        }
        return out
    }

    /// A CSV cell without leading and trailing spaces and tabs (bytes, not Foundation's
    /// character sets: this runs for every cell of a million-line file).
    private static func trimmingBlanks(_ cell: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func blank(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
        var lo = cell.startIndex, hi = cell.endIndex
        while lo < hi && blank(cell[lo]) { lo += 1 }
        while hi > lo && blank(cell[hi - 1]) { hi -= 1 }
        return cell[lo..<hi]
    }

    /// Parses CSV `id,lat,lon[,kind]` with a header line.
    public static func csv(_ bytes: [UInt8], defaultKind: String?) throws(ScoutError) -> [PointRecord] {
        var out: [PointRecord] = []
        // The columns' positions, from the header line (kind: Int.max when there is none).
        var header: (id: Int, lat: Int, lon: Int, kind: Int)?
        try forEachLine(bytes) { (n, line) throws(ScoutError) in
            if let bad = JSONReader.invalidUTF8Offset(in: line) {
                throw ScoutError(.parseError, "line \(n): invalid UTF-8 at byte \(bad - line.startIndex + 1)", path: "line \(n)")
            }
            let cells = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                .map { String(decoding: trimmingBlanks($0), as: UTF8.self) }
            guard let columns = header else {
                var named: [String: Int] = [:]
                for (i, c) in cells.enumerated() { named[c.lowercased()] = i }
                for need in ["id", "lat", "lon"] where named[need] == nil {
                    throw ScoutError(.invalidRequest, "the CSV header must name the column \(need)", path: "line 1")
                }
                header = (named["id"]!, named["lat"]!, named["lon"]!, named["kind"] ?? Int.max)
                return
            }
            if cells.count == 1 && cells[0].isEmpty { return }
            func cell(_ column: Int) -> String? { column < cells.count ? cells[column] : nil }
            guard let id = cell(columns.id), !id.isEmpty else { throw ScoutError(.invalidRequest, "line \(n): id is missing", path: "line \(n): id") }
            guard let lat = cell(columns.lat).flatMap(Double.init) else { throw ScoutError(.invalidRequest, "line \(n): lat must be a number", path: "line \(n): lat") }
            guard let lon = cell(columns.lon).flatMap(Double.init) else { throw ScoutError(.invalidRequest, "line \(n): lon must be a number", path: "line \(n): lon") }
            let kind = cell(columns.kind).flatMap { $0.isEmpty ? nil : $0 } ?? defaultKind
            var members: [(String, JSONValue)] = [("id", .string(id)), ("lat", .number(String(lat))), ("lon", .number(String(lon)))]
            if let kind { members.append(("kind", .string(kind))) }
            do throws(ScoutError) {
                var record = try PointRecord.from(json: .object(members), defaultKind: nil, path: "")
                record.source = "line \(n)"
                out.append(record)
            } catch {
                throw ScoutError(error.code, "line \(n): \(error.message)", path: "line \(n): \(error.path ?? "")")
            }
        }
        return out
    }
}
