import ScoutCore
import ScoutJSON
import ScoutRecommend

extension ActivityCatalog {
    /// Reads `activities.json`.
    public static func load(path: String) throws(ScoutError) -> ActivityCatalog {
        try parse(bytes: try bytes(path: path))
    }

    /// The bytes of `activities.json` at `path`; `not_found` when it cannot be read.
    static func bytes(path: String) throws(ScoutError) -> [UInt8] {
        try DataFile.bytes(path: path, what: "the activity catalogue", name: "activities")
    }

    /// Reads the catalogue from the bytes of `activities.json`; `parse_error` when they are not JSON.
    static func parse(bytes: [UInt8]) throws(ScoutError) -> ActivityCatalog {
        try parse(try DataFile.json(bytes, subject: "the activity catalogue is", name: "activities"))
    }

    /// Reads the catalogue from its JSON form; errors name the field (`activities[3].intensity`).
    package static func parse(_ json: JSONValue) throws(ScoutError) -> ActivityCatalog {
        let top = try FieldReader(json, path: "")
        let version = try top.string("version", maxBytes: 40)
        var out: [Activity] = []
        for (i, v) in try top.array("activities", maxCount: 10_000).enumerated() {
            let f = try FieldReader(v, path: "activities[\(i)]")
            func set<T: RawRepresentable & Hashable>(_ key: String, _ type: T.Type,
                                                     allowed: (T) -> Bool = { _ in true }) throws(ScoutError) -> Set<T> where T.RawValue == String {
                var s = Set<T>()
                for (j, x) in try f.array(key, maxCount: 10).enumerated() {
                    guard let text = x.string, let value = T(rawValue: text), allowed(value) else {
                        throw ScoutError(.parseError, "unknown \(key) value", path: "\(f.at(key))[\(j)]")
                    }
                    s.insert(value)
                }
                guard !s.isEmpty else { throw ScoutError(.parseError, "\(key) must not be empty", path: f.at(key)) }
                return s
            }
            func enumValue<T: RawRepresentable>(_ key: String, _ type: T.Type) throws(ScoutError) -> T where T.RawValue == String {
                guard let value = T(rawValue: try f.string(key, maxBytes: 40)) else {
                    throw ScoutError(.parseError, "unknown \(key)", path: f.at(key))
                }
                return value
            }
            guard let t = try f.object("temperature_c") else {
                throw ScoutError(.parseError, "temperature_c is required", path: f.at("temperature_c"))
            }
            let tMin = try t.number("min", in: -60...60), tMax = try t.number("max", in: -60...60)
            guard tMin <= tMax else { throw ScoutError(.parseError, "min is above max", path: t.path) }
            var benefits: [String] = []
            for (j, b) in try f.array("benefits", maxCount: 10).enumerated() {
                guard let s = b.string else { throw ScoutError(.parseError, "benefits are strings", path: "\(f.at("benefits"))[\(j)]") }
                benefits.append(s)
            }
            out.append(Activity(
                id: try f.string("id", maxBytes: 100), name: try f.string("name", maxBytes: 200),
                species: try set("species", Species.self) { $0.isKnown || $0 == .other }, category: try enumValue("category", ActivityCategory.self),
                setting: try enumValue("setting", ActivitySetting.self), intensity: try f.integer("intensity", in: 1...5),
                minutes: try f.integer("minutes", in: 1...240), needsDaylight: try f.bool("needs_daylight", default: false),
                temperatureC: tMin...tMax, rain: try enumValue("rain", RainTolerance.self),
                maxWindKmh: try f.number("max_wind_kmh", in: 0...300), ages: try set("ages", LifeStage.self),
                place: try f.optionalString("place", maxBytes: 40), awayOK: try f.bool("away_ok", default: false),
                how: try f.string("how"), benefits: benefits))
        }
        return try ActivityCatalog(version: version, activities: out)
    }
}
