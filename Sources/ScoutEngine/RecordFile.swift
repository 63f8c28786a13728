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
        if lower.hasSuffix(".csv") { return try csv([UInt8](data), defaultKind: defaultKind, lines: lines) }
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
        var reader = PointRecord.Reader(defaultKind: defaultKind)
        try forEachLine(bytes) { (n, line) throws(ScoutError) in
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            let v: JSONValue
            do throws(JSONParseError) { v = try JSONReader.parse(Array(line)) } catch {
                throw ScoutError(.parseError, "line \(n) is not valid JSON: \(error.message)", path: "line \(n)")
            }
            do throws(ScoutError) {
                var record = try reader.record(from: v, path: "")
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

    /// Parses CSV `id,lat,lon[,kind]` with a header line. Cells are read in place from the
    /// bytes (numbers by ``DecimalText``, the same values as `Double(String)`), and a kind is
    /// checked once for the run of lines that name it.
    public static func csv(_ bytes: [UInt8], defaultKind: String?) throws(ScoutError) -> [PointRecord] {
        try csv(bytes, defaultKind: defaultKind, lines: bytes.reduce(into: 0) { n, c in if c == 0x0A { n += 1 } })
    }

    /// ``csv(_:defaultKind:)`` of a file of `lines` LFs (counted by ``read(path:defaultKind:maximumBytes:memory:)``).
    static func csv(_ bytes: [UInt8], defaultKind: String?, lines: Int) throws(ScoutError) -> [PointRecord] {
        var out: [PointRecord] = []
        out.reserveCapacity(lines)
        // The columns' positions, from the header line (kind: Int.max when there is none).
        var header: (id: Int, lat: Int, lon: Int, kind: Int)?
        var cells: [Range<Int>] = []
        var reader = PointRecord.Reader(defaultKind: defaultKind)
        try bytes.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) throws(ScoutError) in
            func blank(_ c: UInt8) -> Bool { c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") }
            func cellBytes(_ r: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: b[r]) }
            func text(_ r: Range<Int>) -> String { String(decoding: cellBytes(r), as: UTF8.self) }
            try DelimitedText.forEachLine(b) { (n: Int, line: Range<Int>) throws(ScoutError) in
                var high: UInt8 = 0
                for i in line { high |= b[i] }
                if high >= 0x80, let bad = JSONReader.invalidUTF8Offset(in: bytes[line]) {
                    throw ScoutError(.parseError, "line \(n): invalid UTF-8 at byte \(bad - line.startIndex + 1)", path: "line \(n)")
                }
                // Cells without leading and trailing spaces and tabs.
                DelimitedText.cells(of: line, in: b, separator: UInt8(ascii: ","), into: &cells)
                for c in cells.indices {
                    var lo = cells[c].lowerBound, hi = cells[c].upperBound
                    while lo < hi && blank(b[lo]) { lo += 1 }
                    while hi > lo && blank(b[hi - 1]) { hi -= 1 }
                    cells[c] = lo..<hi
                }
                guard let columns = header else {
                    var named: [String: Int] = [:]
                    for (i, c) in cells.enumerated() { named[text(c).lowercased()] = i }
                    for need in ["id", "lat", "lon"] where named[need] == nil {
                        throw ScoutError(.invalidRequest, "the CSV header must name the column \(need)", path: "line 1")
                    }
                    header = (named["id"]!, named["lat"]!, named["lon"]!, named["kind"] ?? Int.max)
                    return
                }
                if cells.count == 1 && cells[0].isEmpty { return }
                func cell(_ column: Int) -> Range<Int>? { column < cells.count ? cells[column] : nil }
                guard let idCell = cell(columns.id), !idCell.isEmpty else {
                    throw ScoutError(.invalidRequest, "line \(n): id is missing", path: "line \(n): id")
                }
                guard let lat = cell(columns.lat).flatMap({ DecimalText.double(cellBytes($0)) }) else {
                    throw ScoutError(.invalidRequest, "line \(n): lat must be a number", path: "line \(n): lat")
                }
                guard let lon = cell(columns.lon).flatMap({ DecimalText.double(cellBytes($0)) }) else {
                    throw ScoutError(.invalidRequest, "line \(n): lon must be a number", path: "line \(n): lon")
                }
                do throws(ScoutError) {
                    let kind = cell(columns.kind).flatMap { $0.isEmpty ? nil : text($0) }
                    var record = try reader.record(id: text(idCell), kind: kind, lat: lat, lon: lon, fields: [], path: "")
                    // Only a typed kind's record can fail later (its fields are read when it
                    // is stored): only its errors need the line.
                    if case .own = record.kind {} else { record.source = "line \(n)" }
                    out.append(record)
                } catch {
                    throw ScoutError(error.code, "line \(n): \(error.message)", path: "line \(n): \(error.path ?? "")")
                }
            }
        }
        return out
    }
}
