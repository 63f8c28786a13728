import ScoutCore

/// Geohash cells: encode, decode, neighbours and covers.
///
/// A geohash of precision p (1…12 characters) names a cell of a regular
/// longitude/latitude grid with `⌈5p/2⌉` longitude bits and `⌊5p/2⌋` latitude bits.
/// Cells are closed on their south and west edges for encoding (a point on a shared edge
/// encodes into the cell to its north-east), except at 180° and 90°, which belong to the
/// last cell.
public struct Geohash: Hashable, Sendable, CustomStringConvertible {
    /// The base-32 alphabet of geohashes.
    static let alphabet = Array("0123456789bcdefghjkmnpqrstuvwxyz".utf8)
    static let decodeTable: [Int8] = {
        var t = [Int8](repeating: -1, count: 128)
        for (i, c) in alphabet.enumerated() { t[Int(c)] = Int8(i) }
        return t
    }()

    /// Longest supported precision.
    public static let maxPrecision = 12

    /// Column (longitude index) of the cell in its precision's grid.
    public let x: Int
    /// Row (latitude index) of the cell in its precision's grid.
    public let y: Int
    /// Number of characters.
    public let precision: Int

    /// Longitude bits at a precision.
    @inlinable public static func lonBits(_ precision: Int) -> Int { (5 * precision + 1) / 2 }
    /// Latitude bits at a precision.
    @inlinable public static func latBits(_ precision: Int) -> Int { 5 * precision / 2 }
    /// Cell width in degrees of longitude at a precision.
    @inlinable public static func cellWidth(_ precision: Int) -> Double { 360 / Double(1 << lonBits(precision)) }
    /// Cell height in degrees of latitude at a precision.
    @inlinable public static func cellHeight(_ precision: Int) -> Double { 180 / Double(1 << latBits(precision)) }

    /// The cell at grid position (`x`, `y`) of a precision; `x` wraps around the globe.
    public init(x: Int, y: Int, precision: Int) {
        let cols = 1 << Geohash.lonBits(precision)
        self.x = ((x % cols) + cols) % cols
        self.y = y
        self.precision = precision
    }

    /// The cell holding a point, at `precision` characters (1…12).
    public init(_ p: GeoPoint, precision: Int) throws(ScoutError) {
        guard (1...Geohash.maxPrecision).contains(precision) else {
            throw ScoutError(.invalidRequest, "geohash precision must be between 1 and 12", path: "precision")
        }
        _ = try p.validated()
        self.init(x: Geohash.column(lon: p.lon, precision: precision),
                  y: Geohash.row(lat: p.lat, precision: precision), precision: precision)
    }

    /// Parses a geohash string (case-insensitive).
    public init(_ text: String) throws(ScoutError) {
        let bytes = Array(text.utf8)
        guard (1...Geohash.maxPrecision).contains(bytes.count) else {
            throw ScoutError(.invalidRequest, "a geohash has 1 to 12 characters", path: "geohash")
        }
        var bits: UInt64 = 0
        for c in bytes {
            let lower = c >= 65 && c <= 90 ? c + 32 : c
            guard lower < 128, Geohash.decodeTable[Int(lower)] >= 0 else {
                throw ScoutError(.invalidRequest, "a geohash uses the characters 0-9 and b-z except a, i, l and o", path: "geohash")
            }
            bits = bits << 5 | UInt64(Geohash.decodeTable[Int(lower)])
        }
        let total = 5 * bytes.count
        var x = 0, y = 0
        for i in 0..<total {
            let bit = Int((bits >> UInt64(total - 1 - i)) & 1)
            if i % 2 == 0 { x = x << 1 | bit } else { y = y << 1 | bit }
        }
        self.init(x: x, y: y, precision: bytes.count)
    }

    /// Column index of a longitude at a precision.
    @inlinable
    public static func column(lon: Double, precision: Int) -> Int {
        let cols = 1 << lonBits(precision)
        return min(cols - 1, max(0, Int(((lon + 180) / 360 * Double(cols)).rounded(.down))))
    }

    /// Row index of a latitude at a precision.
    @inlinable
    public static func row(lat: Double, precision: Int) -> Int {
        let rows = 1 << latBits(precision)
        return min(rows - 1, max(0, Int(((lat + 90) / 180 * Double(rows)).rounded(.down))))
    }

    /// The geohash string.
    public var description: String {
        let lb = Geohash.lonBits(precision), tb = Geohash.latBits(precision)
        var bits: UInt64 = 0
        var xi = lb - 1, yi = tb - 1
        for i in 0..<(5 * precision) {
            if i % 2 == 0 { bits = bits << 1 | UInt64((x >> xi) & 1); xi -= 1 }
            else { bits = bits << 1 | UInt64((y >> yi) & 1); yi -= 1 }
        }
        var out = [UInt8](repeating: 0, count: precision)
        for i in 0..<precision {
            out[precision - 1 - i] = Geohash.alphabet[Int((bits >> UInt64(5 * i)) & 31)]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The cell's box (closed).
    public var box: GeoBox {
        let w = Geohash.cellWidth(precision), h = Geohash.cellHeight(precision)
        return GeoBox(west: -180 + Double(x) * w, south: -90 + Double(y) * h,
                      east: -180 + Double(x + 1) * w, north: -90 + Double(y + 1) * h)
    }

    /// The cell's centre.
    public var center: GeoPoint {
        let b = box
        return GeoPoint(lat: (b.south + b.north) / 2, lon: (b.west + b.east) / 2)
    }

    /// The up to eight cells around this one: longitude wraps at 180°, rows stop at the poles.
    public var neighbours: [Geohash] {
        let rows = 1 << Geohash.latBits(precision)
        var out: [Geohash] = []
        for dy in [1, 0, -1] {
            let ny = y + dy
            guard ny >= 0 && ny < rows else { continue }
            for dx in [-1, 0, 1] where !(dx == 0 && dy == 0) {
                out.append(Geohash(x: x + dx, y: ny, precision: precision))
            }
        }
        return Array(Set(out)).sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// Every cell at `precision` that meets the box (one or two ranges across 180°).
    /// Throws `limit_exceeded` past `limit` cells.
    public static func cells(covering box: GeoBox, precision: Int, limit: Int = 1 << 20) throws(ScoutError) -> [Geohash] {
        guard (1...maxPrecision).contains(precision) else {
            throw ScoutError(.invalidRequest, "geohash precision must be between 1 and 12", path: "precision")
        }
        var out: [Geohash] = []
        for part in box.unwrapped {
            let x0 = column(lon: part.west, precision: precision), x1 = column(lon: part.east, precision: precision)
            let y0 = row(lat: part.south, precision: precision), y1 = row(lat: part.north, precision: precision)
            let count = (x1 - x0 + 1) * (y1 - y0 + 1)
            guard out.count + count <= limit else {
                throw ScoutError(.limitExceeded, "the cover needs more than \(limit) geohash cells; use a lower precision", path: "precision")
            }
            for y in y0...y1 { for x in x0...x1 { out.append(Geohash(x: x, y: y, precision: precision)) } }
        }
        return out
    }

    /// Every cell at `precision` that holds a point within `radius` metres (geodesic) of
    /// `center`: a superset of the disc, exact up to cells that touch only its bounding cap.
    public static func cells(coveringCircle center: GeoPoint, radius: Double, precision: Int, limit: Int = 1 << 20) throws(ScoutError) -> [Geohash] {
        let cap = SphericalCap(center: center, radius: radius)
        let bd = BoxDistance(origin: center)
        var out: [Geohash] = []
        for box in cap.boxes {
            for cell in try cells(covering: box, precision: precision, limit: limit) {
                let b = cell.box
                if bd.lowerBound(west: b.west, south: b.south, east: b.east, north: b.north) <= radius {
                    out.append(cell)
                }
            }
        }
        return out
    }
}
