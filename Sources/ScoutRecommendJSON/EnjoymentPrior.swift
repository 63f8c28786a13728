import ScoutCore
import ScoutJSON
import ScoutRecommend

/// `enjoyment_prior.json`: the population prior of enjoyment, versioned.
///
/// ```json
/// {"format": "scout-enjoyment-prior/1", "version": "2026-11-28.1",
///  "about": "…", "pet_effects": {"category_sd": 0.8, "activity_sd": 0.6},
///  "features": {"category_physical": 0.4, …, "repeat_category": -0.2}}
/// ```
///
/// Every feature of ``EnjoymentFeature`` must have a coefficient (−20…20); an unknown one is
/// refused with the closest name. Errors name the file and the field
/// (`data/enjoyment_prior.json: features.outdoor_x_wet`).
extension EnjoymentPrior {
    /// The format this build reads and writes.
    public static let format = "scout-enjoyment-prior/1"

    /// Loads the prior at `path`.
    /// - Throws: `not_found` when the file cannot be read; `parse_error` naming the path and
    ///   the field when it is not a prior of this format.
    public static func load(path: String) throws(ScoutError) -> EnjoymentPrior {
        try parse(bytes: try DataFile.bytes(path: path, what: "the enjoyment prior \(path)", name: "prior"), source: path)
    }

    /// Reads a prior from the bytes of a prior file; `source` (a path) prefixes every error.
    public static func parse(bytes: [UInt8], source: String) throws(ScoutError) -> EnjoymentPrior {
        let json = try DataFile.json(bytes, subject: "the enjoyment prior \(source) is", name: source)
        do throws(ScoutError) {
            let top = try FieldReader(json, path: source + ": ")
            try top.checkKnown(["format", "version", "about", "pet_effects", "features", "fitted"])
            let format = try top.string("format", maxBytes: 64)
            guard format == EnjoymentPrior.format else {
                throw ScoutError(.parseError, "format \"\(JSONReader.shown(format))\" is not one this build reads (\(EnjoymentPrior.format))", path: top.at("format"))
            }
            let version = try top.string("version", maxBytes: 40)
            guard let effects = try top.object("pet_effects") else { throw ScoutError(.parseError, "pet_effects is required", path: top.at("pet_effects")) }
            try effects.checkKnown(["category_sd", "activity_sd"])
            guard let features = try top.object("features") else { throw ScoutError(.parseError, "features is required", path: top.at("features")) }
            let names = EnjoymentFeature.allCases.map(\.rawValue)
            try features.checkKnown(names)
            var coefficients: [Double] = []
            for f in EnjoymentFeature.allCases {
                guard features[f.rawValue] != nil else {
                    throw ScoutError(.parseError, "every feature needs a coefficient; \(f.rawValue) is missing", path: features.at(f.rawValue))
                }
                coefficients.append(try features.number(f.rawValue, in: -20...20))
            }
            return EnjoymentPrior(version: version, coefficients: coefficients,
                                  categorySD: try effects.number("category_sd", in: 0.01...10),
                                  activitySD: try effects.number("activity_sd", in: 0.01...10))
        } catch {
            throw ScoutError(.parseError, error.message, path: error.path)
        }
    }

    /// The prior as a prior file (one feature per line), with `about` and what it was
    /// `fitted` from when given.
    public func fileText(about: String, fitted: [(String, JSONValue)] = []) -> String {
        func text(_ body: (inout JSONWriter) -> Void) -> String {
            var v = JSONWriter()
            body(&v)
            return String(decoding: v.bytes, as: UTF8.self)
        }
        func line(_ key: String, _ body: (inout JSONWriter) -> Void) -> String {
            "  " + text { $0.string(key) } + ": " + text(body)
        }
        var lines: [String] = []
        lines.append(line("format") { $0.string(EnjoymentPrior.format) })
        lines.append(line("version") { $0.string(version) })
        lines.append(line("about") { $0.string(about) })
        lines.append(line("pet_effects") { v in
            v.objectStart(); v.key("category_sd"); v.number(categorySD, decimals: 4); v.key("activity_sd"); v.number(activitySD, decimals: 4); v.objectEnd()
        })
        if !fitted.isEmpty { lines.append(line("fitted") { $0.value(.object(fitted)) }) }
        var features: [String] = []
        for f in EnjoymentFeature.allCases {
            features.append("    " + text { $0.string(f.rawValue) } + ": " + text { $0.number(self[f], decimals: 4) })
        }
        return "{\n" + lines.joined(separator: ",\n") + ",\n  \"features\": {\n" + features.joined(separator: ",\n") + "\n  }\n}\n"
    }
}
