import Foundation
import ScoutCore
import ScoutJSON
import ScoutSchedule

/// Every number the recommender decides with: term weights, goal tables, rule limits
/// (`data/weights.json`, documented in `docs/recommender.md`). Versioned: each response names
/// ``version``; bump it whenever a number changes.
public struct RecommenderWeights: Sendable {
    /// `YYYY-MM-DD.N`.
    public var version: String

    /// The five terms of an activity's score, by name: `needs_gap`, `individual_fit`,
    /// `enjoyment`, `novelty`, `context`.
    public var activityTerms: [String: Double]
    /// How many pseudo-observations an untried activity borrows from its category's enjoyment.
    public var categoryPriorStrength: Double
    /// Feedback loses half its weight after this many days.
    public var feedbackHalfLifeDays: Double
    /// Days after which an activity counts as entirely new again.
    public var noveltyDays: Double

    /// Life-stage thresholds per known species and ``Species/other`` (loading guarantees all
    /// six); read them through ``lifeStage(of:)``.
    public var lifeStages: [Species: LifeStageRule]
    /// Weekly goals per species other than dogs, and ``Species/other`` (dogs read theirs from
    /// breed traits, see ``DogGoalTable``); read them through ``goals(of:)``.
    public var speciesGoals: [Species: [Double]]
    /// The category a care-log entry of a care type counts toward (`care_log.counts_toward`:
    /// a walk's minutes are exercise, grooming is a care session); care types not listed
    /// count toward no category.
    public var careLogCategories: [CareType: ActivityCategory]
    /// Care goals per species (`care_log.goals`), in file order; a species not listed has none.
    public var careGoals: [Species: [CareGoalRule]]

    /// The life-stage thresholds of a species: its own, or those of ``Species/other`` for a
    /// species without a profile.
    public func lifeStage(of species: Species) -> LifeStageRule { lifeStages[species] ?? lifeStages[.other]! }

    /// The weekly goals of a species other than dogs, by ``ActivityCategory/ordinal``: its
    /// own, or those of ``Species/other`` for a species without a profile.
    public func goals(of species: Species) -> [Double] { speciesGoals[species] ?? speciesGoals[.other]! }

    /// The care goals of a species: its own (none for a species the file does not list;
    /// species without a profile share those of ``Species/other``, if any).
    public func careGoalRules(of species: Species) -> [CareGoalRule] { careGoals[species.isKnown ? species : .other] ?? [] }
    /// Dogs' goal tables indexed by trait value 1–5.
    public var dogGoals: DogGoalTable
    /// Goal changes by life stage, coat and weight, by name (every ``GoalAdjustment``).
    public private(set) var goalAdjustments: [String: Double]
    /// Individual-fit parameters, by name (every ``FitParameter``).
    public private(set) var individualFit: [String: Double]

    /// A goal adjustment (loading guarantees every one is present and in range).
    public subscript(_ a: GoalAdjustment) -> Double { goalAdjustments[a.rawValue]! }
    /// An individual-fit parameter (loading guarantees every one is present and in range).
    public subscript(_ p: FitParameter) -> Double { individualFit[p.rawValue]! }
    /// Hard-rule limits.
    public var rules: RuleLimits

    /// Place-ranking weights: `dogs` and `gyms`, each term by name.
    public var places: [String: [String: Double]]

    /// Life-stage thresholds of one species.
    public struct LifeStageRule: Sendable {
        /// Younger than this is a puppy (kitten, kit…).
        public var puppyUntilYears: Double
        /// Dogs of large and giant breeds stay puppies until this age.
        public var largePuppyUntilYears: Double
        /// Senior from this share of the breed's longest life span (dogs with a breed profile).
        public var seniorFromLifeSpanShare: Double?
        /// Senior from this age when no life span is known.
        public var seniorFromYears: Double
    }

    /// Dogs' weekly goals by the value (1–5) of the trait each category reads.
    public struct DogGoalTable: Sendable {
        /// Physical minutes by energy level.
        public var physicalMinutes: [Double]
        /// Mental sessions by mental-stimulation needs.
        public var mentalSessions: [Double]
        /// Social minutes by sociability (mean of playfulness and good-with-dogs, rounded).
        public var socialMinutes: [Double]
        /// Training sessions by trainability.
        public var trainingSessions: [Double]
        /// Care sessions by shedding.
        public var careSessions: [Double]
        /// Rest sessions of an adult.
        public var restSessions: Double
    }

    /// The limits the hard rules apply (°C, mm/h, km/h, intensities).
    public struct RuleLimits: Sendable {
        /// At most this much precipitation counts as dry.
        public var dryMmH: Double
        /// At most this much counts as light rain.
        public var lightRainMmH: Double
        /// Sustained wind from which every outdoor activity is off, like a thunderstorm.
        public var stormWindKmh: Double
        /// Every limit by name (see `docs/recommender.md`); read them through the typed subscript.
        public private(set) var values: [String: Double]
        /// Highest intensity allowed with a condition.
        public var conditionMaxIntensity: [String: Int]
        /// Change to the highest temperature with a condition.
        public var conditionMaxC: [String: Double]
        /// The home radius when a request gives none, metres.
        public var homeRadiusM: Double

        /// A limit. Loading guarantees every ``RuleLimit`` is present and in its range, and the
        /// names are an enum, so a misspelt limit is a compile error, never a 0.
        public subscript(_ limit: RuleLimit) -> Double { values[limit.rawValue]! }
    }

    /// The weight of a term (loading guarantees all of ``activityTermNames``).
    public func weight(_ term: String) -> Double {
        assert(RecommenderWeights.activityTermNames.contains(term), "unknown activity term \(term)")
        return activityTerms[term] ?? 0
    }

    /// Every entry of `rules` in `weights.json` with its allowed range (°C shifts, mm/h,
    /// km/h, intensities 1–5, shares, metres). A missing, unknown or out-of-range entry
    /// fails the load with its path: a typo never becomes a limit of 0.
    static let ruleRanges: [String: ClosedRange<Double>] = [
        "dry_mm_h": 0...100, "light_rain_mm_h": 0...100, "storm_wind_kmh": 1...500,
        "double_coat_max_c": -40...0, "long_coat_max_c": -40...0, "thin_coat_min_c": 0...40, "hairless_min_c": 0...40,
        "small_dog_min_c": 0...40, "brachycephalic_max_c": -40...0, "brachycephalic_max_intensity": 1...5,
        "brachycephalic_intensity_above_c": -40...60, "puppy_max_c": -40...0, "puppy_min_c": 0...40,
        "senior_max_c": -40...0, "senior_min_c": 0...40, "senior_max_intensity": 1...5,
        "overweight_share": 1...3, "underweight_share": 0.1...1, "home_radius_m": 1...100_000,
    ]
    /// The entries of `goal_adjustments`, with their ranges.
    static let goalAdjustmentRanges: [String: ClosedRange<Double>] = [
        "puppy_physical_factor": 0...5, "puppy_training_extra": 0...100, "puppy_rest_extra": 0...100,
        "senior_physical_factor": 0...5, "senior_mental_extra": 0...100, "senior_rest_extra": 0...100,
        "long_coat_care_extra": 0...100, "overweight_physical_factor": 0...5,
    ]
    /// The entries of `individual_fit`, with their ranges.
    static let individualFitRanges: [String: ClosedRange<Double>] = [
        "senior_intensity_shift": -4...4, "puppy_intensity_shift": -4...4, "overweight_intensity_cap": 1...5,
        "senior_mental_bonus": 0...1, "overweight_low_impact_bonus": 0...1,
    ]
    /// The terms of each place ranking in `places` (weights 0–100; the decay's scale a share of the radius).
    public static let placeTermNames: [String: [String]] = [
        "dogs": ["distance", "rating", "energy_match", "novelty", "scale_share_of_radius"],
        "gyms": ["distance", "rating", "open_now", "scale_share_of_radius"],
    ]

    /// The terms of an activity's score, in the order responses list them.
    public static let activityTermNames = ["needs_gap", "individual_fit", "enjoyment", "novelty", "context"]

    /// A copy with some term weights replaced (a request's `weights` object): keys must be
    /// term names of `group` (`activity`, `dogs` or `gyms`), values 0–100.
    public func overriding(_ json: JSONValue?, group: String, path: String) throws(ScoutError) -> RecommenderWeights {
        guard let json else { return self }
        let f = try FieldReader(json, path: path)
        var copy = self
        let names = group == "activity" ? RecommenderWeights.activityTermNames : Array((places[group] ?? [:]).keys.filter { $0 != "scale_share_of_radius" }).sorted()
        for (key, _) in f.members {
            guard names.contains(key) else {
                throw ScoutError(.invalidRequest, "unknown weight; known: \(names.joined(separator: ", "))", path: f.at(key))
            }
            let value = try f.number(key, in: 0...100)
            if group == "activity" { copy.activityTerms[key] = value } else { copy.places[group]?[key] = value }
        }
        return copy
    }

    /// Reads `weights.json`.
    public static func load(path: String) throws(ScoutError) -> RecommenderWeights {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScoutError(.notFound, "the recommender weights could not be read", path: "weights")
        }
        let json: JSONValue
        do throws(JSONParseError) { json = try JSONReader.parse([UInt8](data)) } catch {
            throw ScoutError(.parseError, "the recommender weights are not valid JSON: \(error.description)", path: "weights")
        }
        return try parse(json)
    }

    /// Reads the weights from their JSON form; errors name the field.
    public static func parse(_ json: JSONValue) throws(ScoutError) -> RecommenderWeights {
        let top = try FieldReader(json, path: "")
        func required(_ f: FieldReader, _ key: String) throws(ScoutError) -> FieldReader {
            guard let o = try f.object(key) else { throw ScoutError(.parseError, "\(key) is required", path: f.at(key)) }
            return o
        }
        /// Exactly the entries of `ranges` (plus `objects`, read elsewhere), each in its range.
        func numbers(_ f: FieldReader, _ ranges: [String: ClosedRange<Double>], objects: [String] = []) throws(ScoutError) -> [String: Double] {
            let names = ranges.keys.sorted()
            try f.checkKnown(names + objects)
            var out: [String: Double] = [:]
            for k in names {
                guard f[k] != nil else { throw ScoutError(.parseError, "\(k) is required", path: f.at(k)) }
                out[k] = try f.number(k, in: ranges[k]!)
            }
            return out
        }
        func uniform(_ names: [String], _ range: ClosedRange<Double>) -> [String: ClosedRange<Double>] {
            Dictionary(uniqueKeysWithValues: names.map { ($0, range) })
        }
        func table(_ f: FieldReader, _ key: String) throws(ScoutError) -> [Double] {
            let a = try f.array(key, maxCount: 5)
            guard a.count == 5 else { throw ScoutError(.parseError, "\(key) needs 5 values, one per trait level", path: f.at(key)) }
            var out: [Double] = []
            for (i, x) in a.enumerated() {
                guard let d = x.double, d >= 0 else { throw ScoutError(.parseError, "a goal is a number ≥ 0", path: "\(f.at(key))[\(i)]") }
                out.append(d)
            }
            return out
        }
        try top.checkKnown(["version", "activity_terms", "enjoyment", "novelty_days", "life_stages", "goals", "goal_adjustments",
                            "individual_fit", "rules", "places", "care_log"])
        let terms = try numbers(try required(top, "activity_terms"), uniform(activityTermNames, 0...100))
        let enjoyment = try required(top, "enjoyment")
        try enjoyment.checkKnown(["category_prior_strength", "half_life_days"])
        let stagesJSON = try required(top, "life_stages")
        var stages: [Species: LifeStageRule] = [:]
        let goalsJSON = try required(top, "goals")
        var speciesGoals: [Species: [Double]] = [:]
        let speciesKeys = Species.known + [.other]
        try stagesJSON.checkKnown(speciesKeys.map(\.rawValue))
        try goalsJSON.checkKnown(speciesKeys.map(\.rawValue))
        for s in speciesKeys {
            let st = try required(stagesJSON, s.rawValue)
            try st.checkKnown(["puppy_until_years", "large_puppy_until_years", "senior_from_life_span_share", "senior_from_years",
                               "senior_without_breed_years"])
            let puppy = try st.number("puppy_until_years", in: 0...50)
            var senior = try st.optionalNumber("senior_from_years", in: 0...100)
            if senior == nil { senior = try st.number("senior_without_breed_years", in: 0...100) }
            stages[s] = LifeStageRule(
                puppyUntilYears: puppy,
                largePuppyUntilYears: try st.optionalNumber("large_puppy_until_years", in: 0...50) ?? puppy,
                seniorFromLifeSpanShare: try st.optionalNumber("senior_from_life_span_share", in: 0...1),
                seniorFromYears: senior!)
            if s == .dog { continue }
            let g = try required(goalsJSON, s.rawValue)
            try g.checkKnown(ActivityCategory.allCases.map { "\($0.rawValue)_\($0.unit)" })
            var goals: [Double] = []
            for c in ActivityCategory.allCases { goals.append(try g.number("\(c.rawValue)_\(c.unit)", in: 0...10_000)) }
            speciesGoals[s] = goals
        }
        let dog = try required(goalsJSON, "dog")
        try dog.checkKnown(["physical_minutes_by_energy", "mental_sessions_by_mental_stimulation", "social_minutes_by_sociability",
                            "training_sessions_by_trainability", "care_sessions_by_shedding", "rest_sessions"])
        let dogGoals = DogGoalTable(
            physicalMinutes: try table(dog, "physical_minutes_by_energy"),
            mentalSessions: try table(dog, "mental_sessions_by_mental_stimulation"),
            socialMinutes: try table(dog, "social_minutes_by_sociability"),
            trainingSessions: try table(dog, "training_sessions_by_trainability"),
            careSessions: try table(dog, "care_sessions_by_shedding"),
            restSessions: try dog.number("rest_sessions", in: 0...1000))
        let rulesJSON = try required(top, "rules")
        var conditionIntensity: [String: Int] = [:]
        let conditions = PetCondition.allCases.map(\.rawValue)
        for (k, v) in try numbers(try required(rulesJSON, "condition_max_intensity"), uniform(conditions, 1...5)) {
            guard v == v.rounded() else { throw ScoutError(.parseError, "an intensity is a whole number", path: "rules.condition_max_intensity.\(k)") }
            conditionIntensity[k] = Int(v)
        }
        let conditionMaxC = try required(rulesJSON, "condition_max_c")
        try conditionMaxC.checkKnown(conditions)
        var conditionShift: [String: Double] = [:]
        for k in conditions { if let d = try conditionMaxC.optionalNumber(k, in: -40...0) { conditionShift[k] = d } }
        let values = try numbers(rulesJSON, ruleRanges, objects: ["condition_max_intensity", "condition_max_c"])
        let rules = RuleLimits(
            dryMmH: values["dry_mm_h"]!, lightRainMmH: values["light_rain_mm_h"]!, stormWindKmh: values["storm_wind_kmh"]!,
            values: values,
            conditionMaxIntensity: conditionIntensity,
            conditionMaxC: conditionShift,
            homeRadiusM: try rulesJSON.number("home_radius_m", in: 1...100_000))
        let care = try required(top, "care_log")
        try care.checkKnown(["counts_toward", "goals"])
        var careCategories: [CareType: ActivityCategory] = [:]
        let towards = try required(care, "counts_toward")
        try towards.checkKnown(CareType.allCases.map(\.rawValue))
        for t in CareType.allCases where towards[t.rawValue] != nil {
            careCategories[t] = ActivityCategory(rawValue: try towards.oneOf(t.rawValue, ActivityCategory.allCases.map(\.rawValue)))!
        }
        let careGoalsJSON = try required(care, "goals")
        try careGoalsJSON.checkKnown(speciesKeys.map(\.rawValue))
        var careGoals: [Species: [CareGoalRule]] = [:]
        for s in speciesKeys {
            guard let goals = try careGoalsJSON.object(s.rawValue) else { continue }
            var rules: [CareGoalRule] = []
            for (name, _) in goals.members {
                guard Species.isWord(name) else {
                    throw ScoutError(.parseError, "a care goal's name is a word of a-z and _ (at most 32)", path: goals.at(name))
                }
                guard !rules.contains(where: { $0.name == name }) else { throw ScoutError(.parseError, "a care goal appears twice", path: goals.at(name)) }
                rules.append(try CareGoalRule.parse(try required(goals, name), name: name, species: s.rawValue))
            }
            careGoals[s] = rules
        }
        let placesJSON = try required(top, "places")
        var places: [String: [String: Double]] = [:]
        try placesJSON.checkKnown(placeTermNames.keys.sorted())
        for (group, names) in placeTermNames {
            var ranges = uniform(names, 0...100)
            ranges["scale_share_of_radius"] = 0.01...10
            places[group] = try numbers(try required(placesJSON, group), ranges)
        }
        return RecommenderWeights(
            version: try top.string("version", maxBytes: 40), activityTerms: terms,
            categoryPriorStrength: try enjoyment.number("category_prior_strength", in: 0...1000),
            feedbackHalfLifeDays: try enjoyment.number("half_life_days", in: 1...100_000),
            noveltyDays: try top.number("novelty_days", in: 1...365),
            lifeStages: stages, speciesGoals: speciesGoals, careLogCategories: careCategories, careGoals: careGoals, dogGoals: dogGoals,
            goalAdjustments: try numbers(try required(top, "goal_adjustments"), goalAdjustmentRanges),
            individualFit: try numbers(try required(top, "individual_fit"), individualFitRanges),
            rules: rules, places: places)
    }
}

/// The limits of the hard rules (`rules` in `data/weights.json`), by their names in the file.
public enum RuleLimit: String, CaseIterable, Sendable {
    case dryMmH = "dry_mm_h", lightRainMmH = "light_rain_mm_h", stormWindKmh = "storm_wind_kmh"
    case doubleCoatMaxC = "double_coat_max_c", longCoatMaxC = "long_coat_max_c", thinCoatMinC = "thin_coat_min_c"
    case hairlessMinC = "hairless_min_c", smallDogMinC = "small_dog_min_c", brachycephalicMaxC = "brachycephalic_max_c"
    case brachycephalicMaxIntensity = "brachycephalic_max_intensity", brachycephalicIntensityAboveC = "brachycephalic_intensity_above_c"
    case puppyMaxC = "puppy_max_c", puppyMinC = "puppy_min_c", seniorMaxC = "senior_max_c", seniorMinC = "senior_min_c"
    case seniorMaxIntensity = "senior_max_intensity", overweightShare = "overweight_share", underweightShare = "underweight_share"
    case homeRadiusM = "home_radius_m"

    /// The values the file may give it.
    public var range: ClosedRange<Double> { RecommenderWeights.ruleRanges[rawValue]! }
}

/// The goal adjustments (`goal_adjustments` in `data/weights.json`).
public enum GoalAdjustment: String, CaseIterable, Sendable {
    case puppyPhysicalFactor = "puppy_physical_factor", puppyTrainingExtra = "puppy_training_extra", puppyRestExtra = "puppy_rest_extra"
    case seniorPhysicalFactor = "senior_physical_factor", seniorMentalExtra = "senior_mental_extra", seniorRestExtra = "senior_rest_extra"
    case longCoatCareExtra = "long_coat_care_extra", overweightPhysicalFactor = "overweight_physical_factor"

    /// The values the file may give it.
    public var range: ClosedRange<Double> { RecommenderWeights.goalAdjustmentRanges[rawValue]! }
}

/// The individual-fit parameters (`individual_fit` in `data/weights.json`).
public enum FitParameter: String, CaseIterable, Sendable {
    case seniorIntensityShift = "senior_intensity_shift", puppyIntensityShift = "puppy_intensity_shift"
    case overweightIntensityCap = "overweight_intensity_cap", seniorMentalBonus = "senior_mental_bonus"
    case overweightLowImpactBonus = "overweight_low_impact_bonus"

    /// The values the file may give it.
    public var range: ClosedRange<Double> { RecommenderWeights.individualFitRanges[rawValue]! }
}
