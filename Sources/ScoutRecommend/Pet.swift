import ScoutCatalog
import ScoutCore
import ScoutTime

/// Health conditions an owner can state; each caps the intensity the recommender offers
/// (`rules.condition_max_intensity` in `data/weights.json`).
public enum PetCondition: String, Sendable, CaseIterable {
    case arthritis
    case heartCondition = "heart_condition"
    case respiratory
    case recoveringFromSurgery = "recovering_from_surgery"
    case pregnant

    /// The condition in an owner's words ("arthritis", "a heart condition").
    public var words: String {
        switch self {
        case .arthritis: "arthritis"
        case .heartCondition: "a heart condition"
        case .respiratory: "breathing trouble"
        case .recoveringFromSurgery: "recovery from surgery"
        case .pregnant: "pregnancy"
        }
    }
}

/// The pet a recommendation is for.
public struct PetProfile: Sendable {
    /// The pet's name, used in reasons ("Rex loved fetch"); `nil` reads as "your dog".
    public var name: String?
    /// Its species (any species word; one without a profile gets generic needs).
    public var species: Species
    /// Its breed profile (dogs only; an unknown or mixed breed gets the Mixed profile).
    public var breed: Breed?
    /// Its birth date.
    public var birthDate: LocalDate
    /// Its weight, kg, when known.
    public var weightKg: Double?
    /// Stated health conditions.
    public var conditions: Set<PetCondition>

    /// Creates a profile.
    public init(name: String? = nil, species: Species, breed: Breed? = nil, birthDate: LocalDate, weightKg: Double? = nil,
                conditions: Set<PetCondition> = []) {
        self.name = name
        self.species = species
        self.breed = breed
        self.birthDate = birthDate
        self.weightKg = weightKg
        self.conditions = conditions
    }

    /// The dog's size class: its breed's, else from its weight, else from the middle of the
    /// breed's weight range (52 breeds have no size class in the table); `nil` for other species.
    public var sizeClass: SizeClass? {
        guard species == .dog else { return nil }
        if let b = breed, !b.isMixed, let s = b.sizeClass { return s }
        if let w = weightKg { return SizeClass(weightKg: w) }
        if let b = breed, !b.isMixed, let r = b.weightKg { return SizeClass(weightKg: (r.lowerBound + r.upperBound) / 2) }
        return nil
    }

    /// How reasons name the pet: its name, or "your dog", "your guinea pig", "your ferret".
    public var displayName: String {
        if let name, !name.isEmpty { return name }
        return species == .other ? "your pet" : "your " + species.noun
    }
}

/// A pet's weight against its breed's healthy range.
public enum WeightStatus: String, Sendable {
    case under, healthy, over
    /// No breed range (mixed breed, other species) or no weight given.
    case unknown
}

/// What a pet needs, derived from its profile on a date: life stage, weight status, weekly
/// goals per category and the intensity that suits it (`docs/recommender.md`, "Needs").
/// A species without a profile gets the generic needs of ``Species/other``
/// (``isGeneric``).
public struct PetNeeds: Sendable {
    /// The pet's species.
    public let species: Species
    /// Whether the needs are generic: Scout has no profile for the species.
    public var isGeneric: Bool { !species.isKnown }
    /// Age in years on the date.
    public let ageYears: Double
    /// Puppy, adult or senior.
    public let lifeStage: LifeStage
    /// Weight against the breed's range.
    public let weightStatus: WeightStatus
    /// Weekly goal per category, by ``ActivityCategory/ordinal``: minutes for physical and
    /// social, sessions for the rest.
    public let goals: [Double]
    /// The intensity (1–5) that suits the pet best.
    public let targetIntensity: Double
    /// The highest intensity its conditions allow, and the condition that sets it.
    public let maxIntensity: (value: Int, because: PetCondition?)

    /// Derives the needs of `pet` on `date`.
    public init(pet: PetProfile, on date: LocalDate, weights: RecommenderWeights) {
        let age = max(0, Double(date.daysSinceEpoch - pet.birthDate.daysSinceEpoch) / 365.25)
        ageYears = age
        species = pet.species
        let rule = weights.lifeStage(of: pet.species)
        var puppyUntil = rule.puppyUntilYears
        var seniorFrom = rule.seniorFromYears
        if let breed = pet.breed, !breed.isMixed {
            if let size = pet.sizeClass, size == .large || size == .giant { puppyUntil = rule.largePuppyUntilYears }
            if let share = rule.seniorFromLifeSpanShare, let span = breed.lifeSpanYears { seniorFrom = share * span.upperBound }
        }
        lifeStage = age < puppyUntil ? .puppy : age >= seniorFrom ? .senior : .adult

        let limits = weights.rules
        if let breed = pet.breed, !breed.isMixed, let range = breed.weightKg, let w = pet.weightKg, lifeStage != .puppy {
            weightStatus = w > range.upperBound * limits[.overweightShare] ? .over
                : w < range.lowerBound * limits[.underweightShare] ? .under : .healthy
        } else {
            weightStatus = .unknown
        }

        var g: [Double]
        if pet.species == .dog {
            let b = pet.breed
            func level(_ t: Breed.Trait) -> Int { min(5, max(1, b?[t] ?? 3)) - 1 }
            let sociability = Int(((Double((b?[.playfulness] ?? 3) + (b?[.goodWithDogs] ?? 3))) / 2).rounded(.toNearestOrAwayFromZero))
            let table = weights.dogGoals
            g = [table.physicalMinutes[level(.energy)], table.mentalSessions[level(.mentalStimulation)],
                 table.socialMinutes[min(5, max(1, sociability)) - 1], table.trainingSessions[level(.trainability)],
                 table.careSessions[level(.shedding)], table.restSessions]
            if b?.coatLength == "Long" { g[ActivityCategory.care.ordinal] += weights[GoalAdjustment.longCoatCareExtra] }
        } else {
            g = weights.goals(of: pet.species)
        }
        switch lifeStage {
        case .puppy:
            g[0] *= weights[GoalAdjustment.puppyPhysicalFactor]
            g[ActivityCategory.training.ordinal] += weights[GoalAdjustment.puppyTrainingExtra]
            g[ActivityCategory.rest.ordinal] += weights[GoalAdjustment.puppyRestExtra]
        case .senior:
            g[0] *= weights[GoalAdjustment.seniorPhysicalFactor]
            g[ActivityCategory.mental.ordinal] += weights[GoalAdjustment.seniorMentalExtra]
            g[ActivityCategory.rest.ordinal] += weights[GoalAdjustment.seniorRestExtra]
        case .adult: break
        }
        if weightStatus == .over { g[0] *= weights[GoalAdjustment.overweightPhysicalFactor] }
        goals = g.map { ($0 * 10).rounded() / 10 }

        var target = pet.species == .dog ? Double(pet.breed?[.energy] ?? 3) : 3
        if lifeStage == .senior { target += weights[FitParameter.seniorIntensityShift] }
        if lifeStage == .puppy { target += weights[FitParameter.puppyIntensityShift] }
        if weightStatus == .over { target = min(target, weights[FitParameter.overweightIntensityCap]) }
        var cap = (value: 5, because: PetCondition?.none)
        for c in PetCondition.allCases where pet.conditions.contains(c) {
            if let m = limits.conditionMaxIntensity[c.rawValue], m < cap.value { cap = (m, c) }
        }
        maxIntensity = cap
        targetIntensity = min(Double(cap.value), max(1, min(5, target)))
    }
}
