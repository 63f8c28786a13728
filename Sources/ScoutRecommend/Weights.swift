import Foundation
import ScoutCore
import ScoutSchedule

/// Every number the recommender decides with: term weights, goal tables, rule limits
/// (`data/weights.json`, documented in `docs/recommender.md`). Versioned: each response names
/// ``version``; bump it whenever a number changes.
public struct RecommenderWeights: Sendable {
    /// `YYYY-MM-DD.N`.
    public var version: String

    /// The weights of the five terms of an activity's score (`activity_terms`).
    public var activityTerms: TermWeights<ActivityTerm>
    /// How much the enjoyment term's weight grows with the pet's evidence: the weight is
    /// `activity_terms.enjoyment × (1 + (factor − 1) × n / (n + half))` for `n` ratings
    /// (decayed), so learnt tastes are not drowned by the other terms (`enjoyment.evidence_max_factor`).
    public var evidenceMaxFactor: Double
    /// The ratings at which the enjoyment weight has grown half way (`enjoyment.evidence_half`).
    public var evidenceHalf: Double
    /// Exploration's γ: offers are drawn by inverse-gap weighting, `1 / (K + γ·√(1 + n)·gap)`
    /// for an activity whose score is `gap` below the best of `K` (`exploration.gamma`).
    public var explorationGamma: Double
    /// Feedback loses half its weight after this many days.
    public var feedbackHalfLifeDays: Double
    /// Days after which an activity counts as entirely new again.
    public var noveltyDays: Double

    /// The enjoyment term's weight for `evidence` (decayed ratings): the file's weight grown
    /// toward ``evidenceMaxFactor`` times it.
    public func enjoymentWeight(evidence n: Double) -> Double {
        activityTerms[.enjoyment] * (1 + (evidenceMaxFactor - 1) * n / (n + evidenceHalf))
    }

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

    /// The weights of dogs to meet (`places.dogs`).
    public var dogs: PlaceWeights<DogMatchTerm>
    /// The weights of gyms to visit (`places.gyms`).
    public var gyms: PlaceWeights<GymTerm>

    /// Weights from checked values (the loader in ScoutRecommendJSON checks every range
    /// and that every name is present).
    package init(version: String, activityTerms: TermWeights<ActivityTerm>, evidenceMaxFactor: Double, evidenceHalf: Double, explorationGamma: Double,
                 feedbackHalfLifeDays: Double,
                 noveltyDays: Double, lifeStages: [Species: LifeStageRule], speciesGoals: [Species: [Double]],
                 careLogCategories: [CareType: ActivityCategory], careGoals: [Species: [CareGoalRule]], dogGoals: DogGoalTable,
                 goalAdjustments: [String: Double], individualFit: [String: Double], rules: RuleLimits,
                 dogs: PlaceWeights<DogMatchTerm>, gyms: PlaceWeights<GymTerm>) {
        self.version = version; self.activityTerms = activityTerms; self.evidenceMaxFactor = evidenceMaxFactor
        self.evidenceHalf = evidenceHalf; self.explorationGamma = explorationGamma
        self.feedbackHalfLifeDays = feedbackHalfLifeDays; self.noveltyDays = noveltyDays; self.lifeStages = lifeStages
        self.speciesGoals = speciesGoals; self.careLogCategories = careLogCategories; self.careGoals = careGoals
        self.dogGoals = dogGoals; self.goalAdjustments = goalAdjustments; self.individualFit = individualFit
        self.rules = rules; self.dogs = dogs; self.gyms = gyms
    }

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

        /// Thresholds from checked values.
        package init(puppyUntilYears: Double, largePuppyUntilYears: Double, seniorFromLifeSpanShare: Double?, seniorFromYears: Double) {
            self.puppyUntilYears = puppyUntilYears; self.largePuppyUntilYears = largePuppyUntilYears
            self.seniorFromLifeSpanShare = seniorFromLifeSpanShare; self.seniorFromYears = seniorFromYears
        }
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

        /// Tables from checked values (five entries each, one per trait level).
        package init(physicalMinutes: [Double], mentalSessions: [Double], socialMinutes: [Double], trainingSessions: [Double],
                     careSessions: [Double], restSessions: Double) {
            self.physicalMinutes = physicalMinutes; self.mentalSessions = mentalSessions; self.socialMinutes = socialMinutes
            self.trainingSessions = trainingSessions; self.careSessions = careSessions; self.restSessions = restSessions
        }
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

        /// Limits from checked values (every ``RuleLimit`` in `values`).
        package init(dryMmH: Double, lightRainMmH: Double, stormWindKmh: Double, values: [String: Double],
                     conditionMaxIntensity: [String: Int], conditionMaxC: [String: Double], homeRadiusM: Double) {
            self.dryMmH = dryMmH; self.lightRainMmH = lightRainMmH; self.stormWindKmh = stormWindKmh; self.values = values
            self.conditionMaxIntensity = conditionMaxIntensity; self.conditionMaxC = conditionMaxC; self.homeRadiusM = homeRadiusM
        }

        /// A limit. Loading guarantees every ``RuleLimit`` is present and in its range, and the
        /// names are an enum, so a misspelt limit is a compile error, never a 0.
        public subscript(_ limit: RuleLimit) -> Double { values[limit.rawValue]! }
    }

    /// Every entry of `rules` in `weights.json` with its allowed range (°C shifts, mm/h,
    /// km/h, intensities 1–5, shares, metres). A missing, unknown or out-of-range entry
    /// fails the load with its path: a typo never becomes a limit of 0.
    package static let ruleRanges: [String: ClosedRange<Double>] = [
        "dry_mm_h": 0...100, "light_rain_mm_h": 0...100, "storm_wind_kmh": 1...500,
        "double_coat_max_c": -40...0, "long_coat_max_c": -40...0, "thin_coat_min_c": 0...40, "hairless_min_c": 0...40,
        "small_dog_min_c": 0...40, "brachycephalic_max_c": -40...0, "brachycephalic_max_intensity": 1...5,
        "brachycephalic_intensity_above_c": -40...60, "puppy_max_c": -40...0, "puppy_min_c": 0...40,
        "senior_max_c": -40...0, "senior_min_c": 0...40, "senior_max_intensity": 1...5,
        "overweight_share": 1...3, "underweight_share": 0.1...1, "home_radius_m": 1...100_000,
    ]
    /// The entries of `goal_adjustments`, with their ranges.
    package static let goalAdjustmentRanges: [String: ClosedRange<Double>] = [
        "puppy_physical_factor": 0...5, "puppy_training_extra": 0...100, "puppy_rest_extra": 0...100,
        "senior_physical_factor": 0...5, "senior_mental_extra": 0...100, "senior_rest_extra": 0...100,
        "long_coat_care_extra": 0...100, "overweight_physical_factor": 0...5,
    ]
    /// The entries of `individual_fit`, with their ranges.
    package static let individualFitRanges: [String: ClosedRange<Double>] = [
        "senior_intensity_shift": -4...4, "puppy_intensity_shift": -4...4, "overweight_intensity_cap": 1...5,
        "senior_mental_bonus": 0...1, "overweight_low_impact_bonus": 0...1,
    ]
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

/// The names of a weighted score's terms, as an enum: a misspelt term is a compile error, never
/// a weight of 0. The raw values are the names `weights.json` and the responses use, and
/// `allCases` is the order responses list them in.
public protocol ScoreTermName: CaseIterable, Hashable, Sendable, RawRepresentable where RawValue == String, AllCases == [Self] {}

/// One weight for every term of `Term`.
///
///     var w = recommender.weights.activityTerms
///     w[.novelty] = 0.3
///
/// - Complexity: a read or a write is O(number of terms), at most a handful.
public struct TermWeights<Term: ScoreTermName>: Sendable, Hashable {
    /// The weights in `Term.allCases` order.
    public private(set) var values: [Double]

    /// Weights from a function of each term (every term gets one, so none is ever missing).
    public init(_ weight: (Term) throws(ScoutError) -> Double) throws(ScoutError) {
        var values: [Double] = []
        values.reserveCapacity(Term.allCases.count)
        for t in Term.allCases { values.append(try weight(t)) }
        self.values = values
    }

    /// The weight of a term.
    public subscript(_ term: Term) -> Double {
        get { values[Term.allCases.firstIndex(of: term)!] }
        set { values[Term.allCases.firstIndex(of: term)!] = newValue }
    }
}

/// A place ranking's weights: one per term, and the distance decay's scale.
public struct PlaceWeights<Term: ScoreTermName>: Sendable, Hashable {
    /// The terms' weights (0–100).
    public var terms: TermWeights<Term>
    /// The distance decay's σ as a share of the search radius (`scale_share_of_radius`).
    public var scaleShareOfRadius: Double

    /// Weights of a place ranking.
    public init(terms: TermWeights<Term>, scaleShareOfRadius: Double) {
        self.terms = terms; self.scaleShareOfRadius = scaleShareOfRadius
    }
}

/// The terms of an activity's score (`activity_terms` in `data/weights.json`).
public enum ActivityTerm: String, ScoreTermName {
    case needsGap = "needs_gap", individualFit = "individual_fit", enjoyment, novelty, context
}

/// The terms of a dog-to-meet ranking (`places.dogs`).
public enum DogMatchTerm: String, ScoreTermName {
    case distance, rating, energyMatch = "energy_match", novelty
}

/// The terms of a gym ranking (`places.gyms`).
public enum GymTerm: String, ScoreTermName {
    case distance, rating, openNow = "open_now"
}
