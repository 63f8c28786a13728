import ScoutCore
import ScoutGeometry
import ScoutJSON

extension FuzzProperties {
    /// One PROJ pool for the process, as the engine keeps one.
    static let transforms = CRSTransform.Pool()

    /// Polygon parsing and Region building, as the worker's `within` does it.
    ///
    /// Input: an optional first line `crs=<name>` (say `crs=EPSG:2157`), then either a GeoJSON
    /// geometry (text starting with `{`) — Polygon, MultiPolygon, a Feature of one, or a
    /// LineString, which builds a `Corridor` — or WKT text for GEOS. A built region must agree
    /// with itself: wherever its boundary grid gives a verdict without GEOS (`.inside` or
    /// `.outside`), GEOS's `covers` must say the same; a CRS that is a bare name never builds a
    /// region, and PROJ never searches its database by name.
    public static func geometryReaders(_ input: [UInt8]) throws(PropertyViolation) {
        var bytes = input
        var crs: String?
        if bytes.starts(with: Array("crs=".utf8)) {
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            crs = String(decoding: bytes[4..<end], as: UTF8.self)
            bytes = Array(bytes[min(end + 1, bytes.count)...])
        }
        let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D })
        if first == UInt8(ascii: "{") {
            guard let value = try? JSONReader.parse(bytes) else { return }
            try geoJSON(value, crs: crs)
        } else {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let region = try built(crs, { () throws(ScoutError) in try Region.wkt(text, crs: crs, transforms: transforms, path: "within") }) else { return }
            try checkCRSWasNotGuessed(crs)
            try exercise(region)
        }
    }

    /// A bare name ("foo", "WGS", "Irish Grid": letters, spaces, `-`, `_`) names no CRS by
    /// code, URN, PROJ string, WKT or PROJJSON: only a guess by name could accept it.
    static func checkCRSWasNotGuessed(_ crs: String?) throws(PropertyViolation) {
        guard let crs, !crs.isEmpty else { return }
        if crs.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0 == " " || $0 == "-" || $0 == "_" }) {
            throw PropertyViolation("the CRS \"\(crs.prefix(40))\" is a bare name, yet a region was built in it (PROJ guessed by name)")
        }
    }

    /// The region `make` builds, or `nil` when it throws. PROJ's "unrecognized format /
    /// unknown name" means it searched proj.db by name (0.3–0.7 s a call, and a guess when
    /// something matches): a CRS text must be refused before it gets that far.
    static func built(_ crs: String?, _ make: () throws(ScoutError) -> Region) throws(PropertyViolation) -> Region? {
        do throws(ScoutError) {
            return try make()
        } catch {
            if crs != nil, error.message.contains("unknown name") {
                throw PropertyViolation("PROJ searched its database by name for the CRS (error: \(error.message.prefix(200)))")
            }
            return nil
        }
    }

    static func geoJSON(_ value: JSONValue, crs: String?) throws(PropertyViolation) {
        var g = value
        if g["type"]?.string == "Feature", let inner = g["geometry"] { g = inner }
        guard let type = g["type"]?.string, let coords = g["coordinates"] else { return }
        switch type {
        case "Polygon":
            guard let rings = rings(coords) else { return }
            guard let region = try built(crs, { () throws(ScoutError) in try Region.polygon(rings, crs: crs, transforms: transforms, path: "within") }) else { return }
            try checkCRSWasNotGuessed(crs)
            try exercise(region)
        case "MultiPolygon":
            guard let polys = coords.array else { return }
            var out: [[[SIMD2<Double>]]] = []
            for p in polys {
                guard let r = rings(p) else { return }
                out.append(r)
            }
            guard let region = try built(crs, { () throws(ScoutError) in try Region.multiPolygon(out, crs: crs, transforms: transforms, path: "within") }) else { return }
            try checkCRSWasNotGuessed(crs)
            try exercise(region)
        case "LineString":
            guard let ps = positions(coords) else { return }
            let distance = g["distance_m"]?.double ?? 300
            guard let corridor = try? Corridor(line: ps.map { GeoPoint(lat: $0.y, lon: $0.x) }, distance: distance) else { return }
            for p in ps { _ = corridor.contains(lon: p.x, lat: p.y) }
            _ = corridor.contains(lon: corridor.center.lon, lat: corridor.center.lat)
        default:
            return
        }
    }

    static func rings(_ v: JSONValue) -> [[SIMD2<Double>]]? {
        guard let rs = v.array else { return nil }
        var out: [[SIMD2<Double>]] = []
        for r in rs {
            guard let ps = positions(r) else { return nil }
            out.append(ps)
        }
        return out
    }

    static func positions(_ v: JSONValue) -> [SIMD2<Double>]? {
        guard let ps = v.array else { return nil }
        var out: [SIMD2<Double>] = []
        for p in ps {
            guard let a = p.array, a.count >= 2, let x = a[0].double, let y = a[1].double else { return nil }
            out.append(SIMD2(x, y))
        }
        return out
    }

    /// Asks the region about points on a grid over its envelope and checks the grid's shortcut
    /// verdicts against GEOS.
    static func exercise(_ region: Region) throws(PropertyViolation) {
        guard let env = region.envelope else {
            guard !region.covers(lon: 0, lat: 0) else { throw PropertyViolation("an empty region covers a point") }
            return
        }
        let n = 9
        for i in 0...n {
            for j in 0...n {
                let lon = env.west + (env.east - env.west) * Double(i) / Double(n)
                let lat = env.south + (env.north - env.south) * Double(j) / Double(n)
                let covers = region.covers(lon: lon, lat: lat)
                switch region.relation(lon: lon, lat: lat) {
                case .inside: if !covers { throw PropertyViolation("the boundary grid says inside, GEOS says not covered") }
                case .outside: if covers { throw PropertyViolation("the boundary grid says outside, GEOS says covered") }
                case .boundary: break
                }
            }
        }
        let boxes = [
            env,
            GeoBox(west: env.west, south: env.south, east: (env.west + env.east) / 2, north: (env.south + env.north) / 2),
            GeoBox(west: (env.west + env.east) / 2, south: (env.south + env.north) / 2, east: env.east, north: env.north),
        ]
        for box in boxes {
            let r = region.relation(to: box)
            guard r != .boundary else { continue }
            // Corners and centre of a box judged whole must agree with GEOS.
            for (lon, lat) in [(box.west, box.south), (box.east, box.north), ((box.west + box.east) / 2, (box.south + box.north) / 2)] {
                let covers = region.covers(lon: lon, lat: lat)
                if r == .inside && !covers { throw PropertyViolation("a box judged inside has a point GEOS does not cover") }
                if r == .outside && covers { throw PropertyViolation("a box judged outside has a point GEOS covers") }
            }
        }
    }
}
