import ScoutCore
import ScoutJSON
import ScoutRecommend
import ScoutSchedule

extension RecommenderWeights {
    /// The groups of term weights a request may override (its `weights` object).
    package enum Group: Sendable {
        /// An activity's five terms (`recommend_activities`).
        case activity
        /// Dogs to meet (`recommend_dogs`).
        case dogs
        /// Gyms to visit (`rank_gyms`).
        case gyms
    }

    /// A copy with some term weights replaced (a request's `weights` object): keys must be
    /// term names of `group`, values 0–100.
    package func overriding(_ json: JSONValue?, group: Group, path: String) throws(ScoutError) -> RecommenderWeights {
        guard let json else { return self }
        let f = try FieldReader(json, path: path)
        var copy = self
        switch group {
        case .activity: copy.activityTerms = try Self.overriding(activityTerms, f, known: ActivityTerm.allCases.map(\.rawValue))
        case .dogs: copy.dogs.terms = try Self.overriding(dogs.terms, f, known: DogMatchTerm.allCases.map(\.rawValue).sorted())
        case .gyms: copy.gyms.terms = try Self.overriding(gyms.terms, f, known: GymTerm.allCases.map(\.rawValue).sorted())
        }
        return copy
    }

    /// `weights` with the members of `f` replacing theirs; `known` is the order an unknown
    /// name's error lists the names in.
    private static func overriding<T>(_ weights: TermWeights<T>, _ f: FieldReader, known: [String]) throws(ScoutError) -> TermWeights<T> {
        var copy = weights
        for (key, _) in f.members {
            guard let term = T(rawValue: key) else {
                throw ScoutError(.invalidRequest, "unknown weight; known: \(known.joined(separator: ", "))", path: f.at(key))
            }
            copy[term] = try f.number(key, in: 0...100)
        }
        return copy
    }

    /// Reads `weights.json`.
    public static func load(path: String) throws(ScoutError) -> RecommenderWeights {
        try parse(bytes: try bytes(path: path))
    }

    /// The bytes of `weights.json` at `path`; `not_found` when it cannot be read.
    static func bytes(path: String) throws(ScoutError) -> [UInt8] {
        try DataFile.bytes(path: path, what: "the recommender weights", name: "weights")
    }

    /// Reads the weights from the bytes of `weights.json`; `parse_error` when they are not JSON.
    static func parse(bytes: [UInt8]) throws(ScoutError) -> RecommenderWeights {
        try parse(try DataFile.json(bytes, subject: "the recommender weights are", name: "weights"))
    }

    /// Reads the weights from their JSON form; errors name the field.
    package static func parse(_ json: JSONValue) throws(ScoutError) -> RecommenderWeights {
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
        /// Exactly the terms of `T` (plus `extra`, read by the caller), each 0–100, checked in
        /// name order.
        func termWeights<T: ScoreTermName>(_ f: FieldReader, _: T.Type, extra: [String] = []) throws(ScoutError) -> TermWeights<T> {
            try f.checkKnown((T.allCases.map(\.rawValue) + extra).sorted())
            var read: [T: Double] = [:]
            for t in T.allCases.sorted(by: { $0.rawValue < $1.rawValue }) {
                guard f[t.rawValue] != nil else { throw ScoutError(.parseError, "\(t.rawValue) is required", path: f.at(t.rawValue)) }
                read[t] = try f.number(t.rawValue, in: 0...100)
            }
            return try TermWeights { (t: T) throws(ScoutError) -> Double in read[t]! }
        }
        func placeWeights<T: ScoreTermName>(_ places: FieldReader, _ group: String, _: T.Type) throws(ScoutError) -> PlaceWeights<T> {
            let f = try required(places, group)
            let terms = try termWeights(f, T.self, extra: ["scale_share_of_radius"])
            guard f["scale_share_of_radius"] != nil else {
                throw ScoutError(.parseError, "scale_share_of_radius is required", path: f.at("scale_share_of_radius"))
            }
            return PlaceWeights(terms: terms, scaleShareOfRadius: try f.number("scale_share_of_radius", in: 0.01...10))
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
        try top.checkKnown(["version", "activity_terms", "enjoyment", "exploration", "novelty_days", "life_stages", "goals", "goal_adjustments",
                            "individual_fit", "rules", "places", "care_log"])
        let terms = try termWeights(try required(top, "activity_terms"), ActivityTerm.self)
        let enjoyment = try required(top, "enjoyment")
        try enjoyment.checkKnown(["evidence_max_factor", "evidence_half", "half_life_days"])
        let exploration = try required(top, "exploration")
        try exploration.checkKnown(["gamma"])
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
        try placesJSON.checkKnown(["dogs", "gyms"])
        let dogs = try placeWeights(placesJSON, "dogs", DogMatchTerm.self)
        let gyms = try placeWeights(placesJSON, "gyms", GymTerm.self)
        return RecommenderWeights(
            version: try top.string("version", maxBytes: 40), activityTerms: terms,
            evidenceMaxFactor: try enjoyment.number("evidence_max_factor", in: 1...100),
            evidenceHalf: try enjoyment.number("evidence_half", in: 0.01...100_000),
            explorationGamma: try exploration.number("gamma", in: 0...1_000_000),
            feedbackHalfLifeDays: try enjoyment.number("half_life_days", in: 1...100_000),
            noveltyDays: try top.number("novelty_days", in: 1...365),
            lifeStages: stages, speciesGoals: speciesGoals, careLogCategories: careCategories, careGoals: careGoals, dogGoals: dogGoals,
            goalAdjustments: try numbers(try required(top, "goal_adjustments"), goalAdjustmentRanges),
            individualFit: try numbers(try required(top, "individual_fit"), individualFitRanges),
            rules: rules, dogs: dogs, gyms: gyms)
    }
}
