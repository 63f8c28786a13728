import Foundation
import ScoutCatalog
import ScoutCore
import ScoutSolar
import ScoutTime

/// The features the population prior of enjoyment reads (`data/enjoyment_prior.json`,
/// `docs/recommender.md`, "Enjoyment"): of the pet, the activity and the moment, each
/// scaled to about −1…1. The raw values are the names in the prior file.
///
/// `i` is the activity's intensity as `(intensity − 3) / 2`, `len` its length as
/// `(minutes − 30) / 30` (clamped to −1…2), a trait `(value − 3) / 2` (dogs with a breed
/// profile; 0 for the rest).
public enum EnjoymentFeature: String, CaseIterable, Sendable {
    /// One per category: the population's taste for each kind of activity.
    case categoryPhysical = "category_physical", categoryMental = "category_mental", categorySocial = "category_social"
    case categoryTraining = "category_training", categoryCare = "category_care", categoryRest = "category_rest"
    /// Energy trait × `i`: energetic breeds like intense activities.
    case energyXIntensity = "energy_x_intensity"
    /// Mental-stimulation trait, for mental activities.
    case mentalNeedXMental = "mental_need_x_mental"
    /// Playfulness trait, for social activities.
    case playfulnessXSocial = "playfulness_x_social"
    /// Trainability trait, for training.
    case trainabilityXTraining = "trainability_x_training"
    /// A puppy × `i`.
    case puppyXIntensity = "puppy_x_intensity"
    /// A senior × `i`.
    case seniorXIntensity = "senior_x_intensity"
    /// A senior × `len`.
    case seniorXLength = "senior_x_length"
    /// Overweight × `i`.
    case overweightXIntensity = "overweight_x_intensity"
    /// Any stated condition × `i`.
    case conditionXIntensity = "condition_x_intensity"
    /// A species other than dogs × `i`.
    case notDogXIntensity = "not_dog_x_intensity"
    /// `len`.
    case length
    /// Done outdoors.
    case outdoor
    /// Outdoors while it rains (precipitation above the dry limit).
    case outdoorXWet = "outdoor_x_wet"
    /// Outdoors × how cold: `max(0, 10 − °C) / 10`.
    case outdoorXCold = "outdoor_x_cold"
    /// Outdoors × how hot: `max(0, °C − 22) / 10`.
    case outdoorXHeat = "outdoor_x_heat"
    /// `i` × how hot.
    case intensityXHeat = "intensity_x_heat"
    /// Outdoors when it is not full day (twilight or dark).
    case outdoorXNotDay = "outdoor_x_not_day"
    /// Evening or night (local hour from 19 to 6) × `i`.
    case eveningXIntensity = "evening_x_intensity"
    /// Morning (local hour 5 to 9), for physical activities.
    case morningXPhysical = "morning_x_physical"
    /// Saturday or Sunday × `len`.
    case weekendXLength = "weekend_x_length"
    /// Away from home, for social activities.
    case awayXSocial = "away_x_social"
    /// Away from home, for rest.
    case awayXRest = "away_x_rest"
    /// The same activity was done in the 36 hours before.
    case repeatActivity = "repeat_activity"
    /// Another activity of the same category was done in the 36 hours before.
    case repeatCategory = "repeat_category"
    /// How far the intensity is from the one that suits the pet (``PetNeeds/targetIntensity``),
    /// `|intensity − target| / 4`: pets enjoy their own pace.
    case intensityGap = "intensity_gap"

    /// Position in ``allCases``: the index of the feature's value and coefficient.
    public var index: Int { EnjoymentFeature.positions[self]! }
    private static let positions = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })
}

/// What a decision knew about the moment of one offer: how it would be done, the weather,
/// light and clock, whether the pet was away and what it had just done. It travels inside
/// an offer's id (``OfferID``), so a rating that names the offer is learnt in its context
/// ("loves walks, but not in the rain").
public struct Moment: Sendable, Hashable {
    /// Indoors or outdoors.
    public var mode: ActivityMode
    /// Precipitation above the dry limit.
    public var wet: Bool
    /// Air temperature, whole °C (−40…60).
    public var temperatureC: Int
    /// Light at the start.
    public var daylight: Daylight
    /// Local hour, 0–23.
    public var hour: Int
    /// ISO weekday, 1 = Monday … 7 = Sunday.
    public var weekday: Int
    /// Away from home.
    public var away: Bool
    /// The same activity was done in the 36 hours before.
    public var repeatedActivity: Bool
    /// Another activity of its category was done in the 36 hours before.
    public var repeatedCategory: Bool

    /// Creates a moment (temperature clamped to −40…60 °C, hour to 0–23, weekday to 1–7).
    public init(mode: ActivityMode, wet: Bool = false, temperatureC: Int = 15, daylight: Daylight = .day, hour: Int = 12, weekday: Int = 3,
                away: Bool = false, repeatedActivity: Bool = false, repeatedCategory: Bool = false) {
        self.mode = mode; self.wet = wet; self.temperatureC = min(60, max(-40, temperatureC)); self.daylight = daylight
        self.hour = min(23, max(0, hour)); self.weekday = min(7, max(1, weekday)); self.away = away
        self.repeatedActivity = repeatedActivity; self.repeatedCategory = repeatedCategory
    }

    /// The moment a rating without an offer id is read in: a dry 15 °C Wednesday noon at home,
    /// outdoors when the activity can be, nothing repeated.
    public static func neutral(for a: Activity) -> Moment { Moment(mode: a.setting == .indoor ? .indoor : .outdoor) }

    /// The moment's 24 bits, as an offer id carries them.
    var bits: UInt32 {
        var b = UInt32(temperatureC + 40)                                   // 7 bits
        b |= UInt32(hour) << 7                                              // 5
        b |= UInt32(weekday - 1) << 12                                      // 3
        b |= UInt32(daylight == .day ? 0 : daylight == .twilight ? 1 : 2) << 15   // 2
        b |= (mode == .outdoor ? 1 : 0) << 17
        b |= (wet ? 1 : 0) << 18
        b |= (away ? 1 : 0) << 19
        b |= (repeatedActivity ? 1 : 0) << 20
        b |= (repeatedCategory ? 1 : 0) << 21
        return b
    }

    /// The moment of ``bits``, or `nil` when a field is out of range.
    init?(bits b: UInt32) {
        let t = Int(b & 0x7F) - 40, hour = Int(b >> 7 & 0x1F), weekday = Int(b >> 12 & 7) + 1, light = b >> 15 & 3
        guard t <= 60, hour <= 23, weekday <= 7, light <= 2, b >> 22 == 0 else { return nil }
        self.init(mode: b >> 17 & 1 == 1 ? .outdoor : .indoor, wet: b >> 18 & 1 == 1, temperatureC: t,
                  daylight: light == 0 ? .day : light == 1 ? .twilight : .dark, hour: hour, weekday: weekday,
                  away: b >> 19 & 1 == 1, repeatedActivity: b >> 20 & 1 == 1, repeatedCategory: b >> 21 & 1 == 1)
    }
}

/// The id of one offer: the activity and the ``Moment`` the decision knew, with a check, as
/// `fetch.3f09a2c41b7e` (the activity id, a dot, 12 hex digits). A rating that names it is
/// learnt in that moment. Ids are self-contained: serving stays a function of the request.
///
/// In an answer of two offers ("this or that") each id also names the other offer, as
/// `fetch.3f09a2c41b7e.5d2e1`: five more hex digits carry a 16-bit tag of the other
/// activity's id and how its moment differs (indoors or out, what was just done; the rest of
/// a moment is the same for both). A rating of one offer then says it was taken over the
/// other (``Feedback/over``).
public struct OfferID: Sendable, Hashable, CustomStringConvertible {
    /// The activity offered.
    public let activity: String
    /// What the decision knew.
    public let moment: Moment
    /// The other offer of a two-offer answer (at most one), as the id names it.
    public let others: [OfferID]

    /// An id for an offer; `others` is the other offer of a two-offer answer (only the
    /// first is written, and only its activity's tag, mode and repeats).
    public init(activity: String, moment: Moment, others: [OfferID] = []) {
        self.activity = activity
        self.moment = moment
        self.others = Array(others.prefix(1))
    }

    /// The id as answers write it.
    public var description: String {
        let payload = UInt64(moment.bits)
        let other = others.first.map { OfferID.otherBits($0) }
        let word = payload << 24 | OfferID.check(activity, payload, other: other)
        let hex = String(word, radix: 16)
        let head = activity + "." + String(repeating: "0", count: 12 - hex.count) + hex
        guard let other else { return head }
        let tail = String(other, radix: 16)
        return head + "." + String(repeating: "0", count: 5 - tail.count) + tail
    }

    /// Reads an id an answer gave. An other offer whose tag names no activity of `catalog`
    /// (or more than one) is left out: the id still names its own offer.
    ///
    /// - Throws: `not_found` at `path` naming the closest activity when the activity is not in
    ///   `catalog`; `not_found` when the id is malformed or its check fails (it was not given by
    ///   an answer, or was changed).
    public static func parse(_ text: String, catalog: ActivityCatalog, path: String) throws(ScoutError) -> OfferID {
        var parts = text.utf8.count <= 120 ? text.split(separator: ".", omittingEmptySubsequences: false) : []
        guard parts.count >= 2 else {
            throw ScoutError(.notFound, "no offer has this id: ids look like \"fetch.3f09a2c41b7e\", as recommendations[].id gives them", path: path)
        }
        let otherHex = parts.count >= 3 && parts.last!.utf8.count == 5 ? parts.removeLast() : nil
        let hex = parts.removeLast(), activity = parts.joined(separator: ".")
        guard catalog.activity(id: activity) != nil else {
            throw ScoutError(.notFound, "no offer has this id: unknown activity \"\(activity)\"\(Suggestions.hint(for: activity, among: catalog.activities.map(\.id)))",
                             path: path)
        }
        let other = otherHex.flatMap { UInt64($0, radix: 16) }
        guard hex.utf8.count == 12, let word = UInt64(hex, radix: 16), let moment = Moment(bits: UInt32(word >> 24)),
              otherHex == nil || (other != nil && other! >> 19 == 0),
              word & 0xFF_FFFF == OfferID.check(activity, word >> 24, other: other) else {
            throw ScoutError(.notFound, "no offer of \(activity) has this id: use the id recommendations[].id gave, unchanged", path: path)
        }
        var others: [OfferID] = []
        if let other, let j = catalog.index(tag: UInt16(other >> 3)), catalog.activities[j].id != activity {
            var m = moment
            m.mode = other & 4 != 0 ? .outdoor : .indoor
            m.repeatedActivity = other & 2 != 0
            m.repeatedCategory = other & 1 != 0
            others = [OfferID(activity: catalog.activities[j].id, moment: m)]
        }
        return OfferID(activity: activity, moment: moment, others: others)
    }

    /// A 16-bit tag of an activity id (FNV-1a folded): how an id names the other offer.
    static func tag(_ activity: String) -> UInt16 {
        let h = SeededRandom.hash(activity)
        return UInt16(truncatingIfNeeded: h ^ h >> 16 ^ h >> 32 ^ h >> 48)
    }

    /// The other offer's 19 bits: its activity's tag, then outdoors, repeated activity,
    /// repeated category.
    private static func otherBits(_ o: OfferID) -> UInt64 {
        UInt64(tag(o.activity)) << 3 | (o.moment.mode == .outdoor ? 4 : 0) | (o.moment.repeatedActivity ? 2 : 0) | (o.moment.repeatedCategory ? 1 : 0)
    }

    /// 24 bits of FNV-1a over the activity, the payload and the other offer's bits, if any.
    private static func check(_ activity: String, _ payload: UInt64, other: UInt64?) -> UInt64 {
        var h = SeededRandom.hash(activity)
        for k in 0..<3 { h = (h ^ (payload >> (8 * UInt64(k)) & 0xFF)) &* 0x100_0000_01B3 }
        if let other { for k in 0..<3 { h = (h ^ (other >> (8 * UInt64(k)) & 0xFF)) &* 0x100_0000_01B3 } }
        return (h ^ h >> 24 ^ h >> 48) & 0xFF_FFFF
    }
}

/// The population prior of enjoyment: one coefficient per ``EnjoymentFeature`` and how far a
/// pet's own tastes may stray from it (`data/enjoyment_prior.json`, versioned; every answer
/// names ``version``). The predicted chance that a pet enjoys an activity at a moment is
/// `σ(Σ coefficient × feature + category effect + activity effect)`, the effects learnt from
/// the pet's own ratings (``EnjoymentModel``).
public struct EnjoymentPrior: Sendable, Equatable {
    /// `YYYY-MM-DD.N`, named in every answer as `prior_version`.
    public var version: String
    /// Coefficients in ``EnjoymentFeature/allCases`` order.
    public var coefficients: [Double]
    /// The spread (log-odds) of a pet's own taste for a category around the population's.
    public var categorySD: Double
    /// The spread (log-odds) of a pet's own taste for one activity around its category's.
    public var activitySD: Double

    /// A prior from checked values (`coefficients` has one per feature).
    public init(version: String, coefficients: [Double], categorySD: Double, activitySD: Double) {
        precondition(coefficients.count == EnjoymentFeature.allCases.count, "one coefficient per feature")
        self.version = version; self.coefficients = coefficients; self.categorySD = categorySD; self.activitySD = activitySD
    }

    /// A coefficient.
    public subscript(_ f: EnjoymentFeature) -> Double {
        get { coefficients[f.index] }
        set { coefficients[f.index] = newValue }
    }

    /// The prior's log-odds for the features `x` (one per feature, in order).
    public func logit(_ x: [Double]) -> Double {
        var s = 0.0
        for k in 0..<coefficients.count { s += coefficients[k] * x[k] }
        return s
    }

    /// The prior's log-odds for features held inline.
    @inline(__always)
    func logit(_ x: FeatureVector) -> Double {
        var s = 0.0
        coefficients.withUnsafeBufferPointer { b in
            for k in 0..<FeatureVector.count { s += b[k] * x[k] }
        }
        return s
    }
}

/// The pet's side of the features, read once per request.
public struct PetFeatures: Sendable {
    let energy: Double, mentalNeed: Double, playfulness: Double, trainability: Double
    let puppy: Double, senior: Double, overweight: Double, condition: Double, notDog: Double
    let targetIntensity: Double

    /// The features of a pet with its needs on the day.
    public init(pet: PetProfile, needs: PetNeeds) {
        func trait(_ t: Breed.Trait) -> Double {
            guard pet.species == .dog, let b = pet.breed, !b.isMixed else { return 0 }
            return (Double(b[t]) - 3) / 2
        }
        energy = trait(.energy); mentalNeed = trait(.mentalStimulation); playfulness = trait(.playfulness)
        trainability = trait(.trainability)
        puppy = needs.lifeStage == .puppy ? 1 : 0
        senior = needs.lifeStage == .senior ? 1 : 0
        overweight = needs.weightStatus == .over ? 1 : 0
        condition = pet.conditions.isEmpty ? 0 : 1
        notDog = pet.species == .dog ? 0 : 1
        targetIntensity = needs.targetIntensity
    }

    /// The features of activity `a` at moment `m`, one per ``EnjoymentFeature``, in order.
    public func values(_ a: Activity, _ m: Moment) -> [Double] {
        let x = vector(a, m)
        return (0..<FeatureVector.count).map { x[$0] }
    }

    /// The features of activity `a` at moment `m`, held inline (no allocation).
    @inline(__always)
    func vector(_ a: Activity, _ m: Moment) -> FeatureVector {
        var x = FeatureVector(repeating: 0)
        let c = a.category
        let i = (Double(a.intensity) - 3) / 2
        let len = min(2, max(-1, (Double(a.minutes) - 30) / 30))
        let out: Double = m.mode == .outdoor ? 1 : 0
        let t = Double(m.temperatureC)
        let cold = max(0, 10 - t) / 10, heat = max(0, t - 22) / 10
        x[0] = c == .physical ? 1 : 0
        x[1] = c == .mental ? 1 : 0
        x[2] = c == .social ? 1 : 0
        x[3] = c == .training ? 1 : 0
        x[4] = c == .care ? 1 : 0
        x[5] = c == .rest ? 1 : 0
        x[6] = energy * i
        x[7] = c == .mental ? mentalNeed : 0
        x[8] = c == .social ? playfulness : 0
        x[9] = c == .training ? trainability : 0
        x[10] = puppy * i
        x[11] = senior * i
        x[12] = senior * len
        x[13] = overweight * i
        x[14] = condition * i
        x[15] = notDog * i
        x[16] = len
        x[17] = out
        x[18] = m.wet ? out : 0
        x[19] = out * cold
        x[20] = out * heat
        x[21] = i * heat
        x[22] = m.daylight == .day ? 0 : out
        x[23] = m.hour >= 19 || m.hour < 7 ? i : 0
        x[24] = m.hour >= 5 && m.hour < 10 && c == .physical ? 1 : 0
        x[25] = m.weekday >= 6 ? len : 0
        x[26] = m.away && c == .social ? 1 : 0
        x[27] = m.away && c == .rest ? 1 : 0
        x[28] = m.repeatedActivity ? 1 : 0
        x[29] = m.repeatedCategory ? 1 : 0
        x[30] = abs(Double(a.intensity) - targetIntensity) / 4
        return x
    }
}

/// One value per ``EnjoymentFeature``, inline (`EnjoymentFeatureTests` checks the count).
typealias FeatureVector = InlineArray<31, Double>

/// The logistic function.
@inline(__always) func sigmoid(_ z: Double) -> Double { 1 / (1 + exp(-z)) }
