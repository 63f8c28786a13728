import ScoutCore
import ScoutJSON
import ScoutRecommend
import ScoutSchedule

extension CareGoalRule {
    /// The keys of a goal in the file.
    static let keys = ["per", "at_least", "at_most", "puppy", "senior", "long_coat", "counts", "note"]

    /// Reads one goal; errors name the field (`care_log.goals.dog.meals.at_most`).
    static func parse(_ f: FieldReader, name: String, species: String) throws(ScoutError) -> CareGoalRule {
        try f.checkKnown(keys)
        func range(_ r: FieldReader) throws(ScoutError) -> CareRange {
            guard r["at_least"] != nil else { throw ScoutError(.parseError, "at_least is required", path: r.at("at_least")) }
            let least = try r.integer("at_least", in: 1...100)
            guard r["at_most"] != nil else { return CareRange(atLeast: least) }
            let most = try r.integer("at_most", in: 1...100)
            guard most >= least else { throw ScoutError(.parseError, "at_most is below at_least", path: r.at("at_most")) }
            return CareRange(atLeast: least, atMost: most)
        }
        func override(_ key: String) throws(ScoutError) -> CareRange? {
            guard let o = try f.object(key) else { return nil }
            try o.checkKnown(["at_least", "at_most"])
            return try range(o)
        }
        guard f["per"] != nil else { throw ScoutError(.parseError, "per is required", path: f.at("per")) }
        let period = CarePeriod(rawValue: try f.oneOf("per", CarePeriod.allCases.map(\.rawValue)))!
        let longCoat = try override("long_coat")
        if longCoat != nil && species != Species.dog.rawValue {
            throw ScoutError(.parseError, "long_coat applies to dogs only (their breed's coat length)", path: f.at("long_coat"))
        }
        var counts: [LogType] = []
        let list = try f.array("counts", maxCount: 50)
        guard !list.isEmpty else { throw ScoutError(.parseError, "counts needs at least one log type", path: f.at("counts")) }
        for (i, v) in list.enumerated() {
            let path = "\(f.at("counts"))[\(i)]"
            guard let word = v.string, ActivityCatalog.isActivityID(word) else {
                throw ScoutError(.parseError, "counts holds care types (\(CareType.allCases.map(\.rawValue).joined(separator: ", "))) and activity ids",
                                 path: path)
            }
            let type = CareType(rawValue: word).map(LogType.care) ?? .activity(word)
            guard !counts.contains(type) else { throw ScoutError(.parseError, "a log type is listed twice", path: path) }
            counts.append(type)
        }
        return CareGoalRule(name: name, period: period, base: try range(f), puppy: try override("puppy"), senior: try override("senior"),
                            longCoat: longCoat, counts: counts, note: try f.optionalString("note", maxBytes: 200))
    }
}
