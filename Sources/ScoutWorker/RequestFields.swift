import ScoutCore
import ScoutEngine
import ScoutJSON

/// The fields of a request object: scalar reads through ``FieldReader`` (errors name the
/// field), plus the worker's own reads of points, boxes, polygons and routes.
struct RequestFields {
    let object: JSONValue
    /// The request object's fields, for reads beyond the ones below.
    let reader: FieldReader

    /// Largest magnitude a whole-number field may have (integers beyond are not exact).
    static let largestWholeNumber = 999_999_999_999_999

    init(object: JSONValue) {
        self.object = object
        reader = FieldReader(object.members ?? [], path: "")
    }

    /// True when `key` is present and not `null`.
    func has(_ key: String) -> Bool { reader[key] != nil }

    func string(_ key: String) throws(ScoutError) -> String { try reader.string(key, maxBytes: .max) }

    func optionalString(_ key: String) throws(ScoutError) -> String? { try reader.optionalString(key, maxBytes: .max) }

    func number(_ key: String) throws(ScoutError) -> Double {
        try reader.number(key, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    }

    func optionalNumber(_ key: String) throws(ScoutError) -> Double? {
        try reader.optionalNumber(key, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    }

    func integer(_ key: String, default value: Int? = nil) throws(ScoutError) -> Int {
        try reader.integer(key, in: -Self.largestWholeNumber...Self.largestWholeNumber, default: value)
    }

    func bool(_ key: String, default value: Bool) throws(ScoutError) -> Bool { try reader.bool(key, default: value) }

    func point(_ key: String, extra: [String] = []) throws(ScoutError) -> GeoPoint {
        guard let v = object[key] else { throw ScoutError(.invalidRequest, "\(key) is required", path: key) }
        return try RequestFields.point(v, path: key, extra: extra)
    }

    /// `{"lat", "lon"}` and nothing else (`extra` names fields the caller reads beside them).
    static func point(_ v: JSONValue, path: String, extra: [String] = []) throws(ScoutError) -> GeoPoint {
        guard let members = v.members else {
            throw ScoutError(.invalidRequest, "a point is an object {\"lat\": …, \"lon\": …}", path: path)
        }
        try FieldReader(members, path: path).checkKnown(["lat", "lon"] + extra)
        guard let latV = v["lat"] else { throw ScoutError(.invalidRequest, "lat is required", path: "\(path).lat") }
        guard let lat = latV.double else { throw ScoutError(.invalidRequest, "lat must be a number", path: "\(path).lat") }
        guard let lonV = v["lon"] else { throw ScoutError(.invalidRequest, "lon is required", path: "\(path).lon") }
        guard let lon = lonV.double else { throw ScoutError(.invalidRequest, "lon must be a number", path: "\(path).lon") }
        return try GeoPoint(lat: lat, lon: lon).validated(path: path)
    }

    /// `[w, s, e, n]`.
    func box(_ key: String) throws(ScoutError) -> GeoBox {
        guard let a = object[key]?.array, a.count == 4 else {
            throw ScoutError(.invalidRequest, "\(key) must be an array [west, south, east, north]", path: key)
        }
        var e: [Double] = []
        for (i, x) in a.enumerated() {
            guard let d = x.double else { throw ScoutError(.invalidRequest, "box edges must be numbers", path: "\(key)[\(i)]") }
            e.append(d)
        }
        return try GeoBox(west: e[0], south: e[1], east: e[2], north: e[3]).validated(path: key)
    }

    /// A GeoJSON Polygon/MultiPolygon object (or a Feature holding one), or a WKT string.
    func polygon(_ key: String) throws(ScoutError) -> PolygonShape {
        guard let v = object[key] else { throw ScoutError(.invalidRequest, "\(key) is required", path: key) }
        if let wkt = v.string { return .wkt(wkt) }
        let g = try RequestFields.geometry(v, path: key)
        guard let type = g["type"]?.string else {
            throw ScoutError(.invalidGeometry, "\(key) must be a GeoJSON Polygon or MultiPolygon, or a WKT string", path: "\(key).type")
        }
        guard let coords = g["coordinates"] else { throw ScoutError(.invalidGeometry, "coordinates are required", path: "\(key).coordinates") }
        switch type {
        case "Polygon":
            return .polygon(try RequestFields.rings(coords, path: "\(key).coordinates"))
        case "MultiPolygon":
            guard let polys = coords.array else { throw ScoutError(.invalidGeometry, "coordinates must be an array of polygons", path: "\(key).coordinates") }
            var out: [[[SIMD2<Double>]]] = []
            for (i, p) in polys.enumerated() { out.append(try RequestFields.rings(p, path: "\(key).coordinates[\(i)]")) }
            return .multiPolygon(out)
        default:
            throw ScoutError(.invalidGeometry, "\(key) must be a Polygon or MultiPolygon, not \(type.prefix(32))", path: "\(key).type")
        }
    }

    /// The geometry of a GeoJSON object: itself, or a Feature's `geometry`; members beyond
    /// GeoJSON's (`type`, `coordinates`, `bbox`; a Feature's `geometry`, `properties`, `id`)
    /// are refused by name.
    static func geometry(_ v: JSONValue, path: String) throws(ScoutError) -> JSONValue {
        guard let members = v.members else {
            throw ScoutError(.invalidGeometry, "expected a GeoJSON object or a WKT string, not \(v.typeName)", path: path)
        }
        if v["type"]?.string == "Feature" {
            try FieldReader(members, path: path).checkKnown(["type", "geometry", "properties", "id", "bbox"])
            guard let inner = v["geometry"], let innerMembers = inner.members else {
                throw ScoutError(.invalidGeometry, "a Feature needs a geometry object", path: "\(path).geometry")
            }
            try FieldReader(innerMembers, path: "\(path).geometry").checkKnown(["type", "coordinates", "bbox"])
            return inner
        }
        try FieldReader(members, path: path).checkKnown(["type", "coordinates", "bbox"])
        return v
    }

    static func rings(_ v: JSONValue, path: String) throws(ScoutError) -> [[SIMD2<Double>]] {
        guard let rings = v.array else { throw ScoutError(.invalidGeometry, "a polygon is an array of rings", path: path) }
        var out: [[SIMD2<Double>]] = []
        for (ri, r) in rings.enumerated() { out.append(try positions(r, path: "\(path)[\(ri)]")) }
        return out
    }

    static func positions(_ v: JSONValue, path: String) throws(ScoutError) -> [SIMD2<Double>] {
        guard let ps = v.array else { throw ScoutError(.invalidGeometry, "expected an array of positions", path: path) }
        var out: [SIMD2<Double>] = []
        out.reserveCapacity(ps.count)
        for (i, p) in ps.enumerated() {
            guard let a = p.array, a.count >= 2, let x = a[0].double, let y = a[1].double else {
                throw ScoutError(.invalidGeometry, "a position is an array [lon, lat]", path: "\(path)[\(i)]")
            }
            out.append(SIMD2(x, y))
        }
        return out
    }

    /// A GeoJSON LineString (or a Feature holding one) as points.
    func lineString(_ key: String) throws(ScoutError) -> [GeoPoint] {
        guard let v = object[key] else { throw ScoutError(.invalidRequest, "\(key) is required", path: key) }
        let g = try RequestFields.geometry(v, path: key)
        guard g["type"]?.string == "LineString", let coords = g["coordinates"] else {
            throw ScoutError(.invalidGeometry, "\(key) must be a GeoJSON LineString", path: "\(key).type")
        }
        return try RequestFields.positions(coords, path: "\(key).coordinates").map { GeoPoint(lat: $0.y, lon: $0.x) }
    }
}
