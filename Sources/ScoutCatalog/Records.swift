import ScoutCore
import ScoutText
import ScoutTime

/// The mean and count of 1–5 star ratings of one criterion.
public struct ReviewAggregate: Sendable, Equatable {
    /// Mean rating, 1–5; `nil` when there are none.
    public let mean: Double?
    /// Number of ratings.
    public let count: Int

    /// Creates an aggregate; `mean` must be `nil` exactly when `count` is 0.
    public init(mean: Double?, count: Int) {
        self.mean = mean
        self.count = count
    }

    /// No ratings.
    public static let none = ReviewAggregate(mean: nil, count: 0)
}

/// A dog of the play-date finder. Its location is its owner's home: see `docs/data-model.md`
/// on location privacy. A class, so filters inside a traversal share it without copying.
public final class Dog: Sendable {
    /// The dog's name.
    public let name: String
    /// The breed as given.
    public let breedName: String
    /// ``breedName`` folded, kept for filters that compare many dogs.
    public let foldedBreedName: String
    /// The resolved profile: the named breed, or the mixed profile for mixed and unknown breeds.
    public let breed: Breed
    /// Birth date.
    public let birthDate: LocalDate
    /// One of ``sexes`` (`unknown` when the owner did not say).
    public let sex: String
    /// The values of ``sex``.
    public static let sexes = ["male", "female", "unknown"]
    /// Weight in kg, when the owner said.
    public let weightKg: Double?
    /// The owner's id, when given.
    public let ownerID: String?
    /// The owner's experience with dogs, 1–5, when the owner said.
    public let ownerExperience: Int?
    /// Free text from the owner.
    public let about: String
    /// Ratings of temperament (5 = calm and friendly).
    public let temperament: ReviewAggregate
    /// Ratings of excitability (5 = very excitable).
    public let excitability: ReviewAggregate
    /// Ratings of the experience a handler needs (5 = experts only).
    public let experienceNeeded: ReviewAggregate
    /// Available for play dates.
    public let available: Bool

    /// Creates a dog from checked values (see ``read(_:breeds:path:)`` for the checks).
    public init(name: String, breedName: String, breed: Breed, birthDate: LocalDate, sex: String, weightKg: Double?,
                ownerID: String?, ownerExperience: Int?, about: String, temperament: ReviewAggregate,
                excitability: ReviewAggregate, experienceNeeded: ReviewAggregate, available: Bool) {
        self.name = name; self.breedName = breedName; self.foldedBreedName = TextFolding.fold(breedName); self.breed = breed; self.birthDate = birthDate
        self.sex = sex; self.weightKg = weightKg; self.ownerID = ownerID; self.ownerExperience = ownerExperience
        self.about = about; self.temperament = temperament; self.excitability = excitability
        self.experienceNeeded = experienceNeeded; self.available = available
    }

    /// Size class: the breed's, or from the dog's own weight for mixed and unknown breeds;
    /// `nil` for a mixed or unknown breed whose weight the owner did not give.
    public var sizeClass: SizeClass? {
        if !breed.isMixed, let s = breed.sizeClass { return s }
        return weightKg.map(SizeClass.init(weightKg:))
    }

    /// The fields of the dog's profile its owner did not give (the dog app's sign-up form
    /// asks only for the name, about, birthday and breed): answers say so, and a filter on
    /// one of them never keeps the dog.
    public var notGiven: [String] {
        var out: [String] = []
        if breedName.isEmpty { out.append("breed") }
        if sex == "unknown" { out.append("sex") }
        if weightKg == nil { out.append("weight_kg") }
        if ownerID == nil { out.append("owner_id") }
        if ownerExperience == nil { out.append("owner_experience") }
        return out
    }

    /// Age in years (days / 365.2425) on a date; negative before birth.
    public func ageYears(on date: LocalDate) -> Double {
        Double(date.daysSinceEpoch - birthDate.daysSinceEpoch) / 365.2425
    }

    /// The experience a handler needs, 1–5: the mean of the dog's ratings when it has any,
    /// else the breed's estimate — the mean of (6 − trainability), energy and
    /// (6 − adaptability), so an easy-going, trainable, calm breed scores low.
    public var experienceNeededEstimate: Double {
        if let m = experienceNeeded.mean { return m }
        return Double((6 - breed[.trainability]) + breed[.energy] + (6 - breed[.adaptability])) / 3
    }
}

/// A gym, sports centre, pool or the like: a public place. A class, like ``Dog``.
public final class Gym: Sendable {
    /// Kinds of venue in `type`.
    public static let types = ["gym", "sports_centre", "leisure_centre", "swimming_pool", "climbing", "crossfit", "yoga"]
    /// Name.
    public let name: String
    /// One of ``types``.
    public let type: String
    /// Town from the address, when given (searchable).
    public let town: String
    /// Up-votes and down-votes: the loaded `votes` plus the voters' own (`votes_by`).
    public let upVotes: Int, downVotes: Int
    /// Opening hours (OSM syntax); `nil` when unknown.
    public let openingHours: OpeningHours?
    /// The gym's own time zone, in which opening hours are read.
    public let zone: Zone

    /// Creates a gym from checked values.
    public init(name: String, type: String, town: String, upVotes: Int, downVotes: Int, openingHours: OpeningHours?, zone: Zone) {
        self.name = name; self.type = type; self.town = town; self.upVotes = upVotes; self.downVotes = downVotes
        self.openingHours = openingHours; self.zone = zone
    }
}

/// An animal in a shelter's care.
public struct Animal: Sendable {
    /// Species values in the sample: dog, cat, rabbit, guinea_pig, ferret, bird, horse (any word is accepted).
    public let species: String
    /// Id, name, distinguishing marks and description.
    public let id: String, name: String, marks: String, description: String
    /// Age in years.
    public let ageYears: Double
    /// One of ``sizes``.
    public let size: String
    /// The values of ``size``.
    public static let sizes = ["small", "medium", "large"]
    /// Ready for adoption.
    public let adoptable: Bool
    /// `male`, `female` or `unknown`.
    public let sex: String
    /// The values of ``sex``.
    public static let sexes = ["male", "female", "unknown"]

    /// Creates an animal from checked values.
    package init(species: String, id: String, name: String, marks: String, description: String, ageYears: Double, size: String,
                 adoptable: Bool, sex: String) {
        self.species = species; self.id = id; self.name = name; self.marks = marks; self.description = description
        self.ageYears = ageYears; self.size = size; self.adoptable = adoptable; self.sex = sex
    }

    /// The same animal under this id (an `animal` record's, which its fields do not carry).
    public func with(id: String) -> Animal {
        Animal(species: species, id: id, name: name, marks: marks, description: description, ageYears: ageYears, size: size,
               adoptable: adoptable, sex: sex)
    }

    /// The words its structured fields stand for, searched as the `traits` text field: the
    /// size (`small`, `medium`, `large`), the life stage (`young` under 2 years, `senior` from 8,
    /// else `adult`), `puppy` or `kitten` for a dog or cat under a year, `male` or `female` when the sex is known, and
    /// `adoption` when adoptable — the first words of their synonym groups
    /// (`data/synonyms.tsv`), so "małe psy" or "starszy kot do adopcji" find them.
    public var traits: String {
        let stage = ageYears < 2 ? "young" : ageYears >= 8 ? "senior" : "adult"
        let baby = ageYears >= 1 ? "" : species == "dog" ? "puppy" : species == "cat" ? "kitten" : ""
        let sexWord = sex == "male" || sex == "female" ? sex : ""
        return [size, stage, baby, sexWord, adoptable ? "adoption" : ""].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// An animal shelter, rescue, sanctuary or foster network: a public institution. A class, like ``Dog``.
public final class Shelter: Sendable {
    /// Kinds of institution in `type`.
    public static let types = ["shelter", "rescue", "sanctuary", "foster_network"]
    /// Name, one of ``types``, description and town (from the address).
    public let name: String, type: String, description: String, town: String
    /// The animals in its care: the `animal` records whose `shelter_id` names it, by id
    /// (byte order). The engine derives them; a shelter read from its own fields has none.
    public let animals: [Animal]

    /// Creates a shelter from checked values.
    public init(name: String, type: String, description: String, town: String, animals: [Animal] = []) {
        self.name = name; self.type = type; self.description = description; self.town = town; self.animals = animals
    }

    /// The same shelter with these animals in its care.
    public func with(animals: [Animal]) -> Shelter {
        Shelter(name: name, type: type, description: description, town: town, animals: animals)
    }
}
