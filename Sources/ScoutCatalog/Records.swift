import ScoutCore
import ScoutJSON
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

    static func read(_ r: FieldReader?, _ key: String) throws(ScoutError) -> ReviewAggregate {
        guard let r, let o = try r.object(key) else { return .none }
        let count = try o.integer("count", in: 0...10_000_000, default: 0)
        let mean = try o.optionalNumber("mean", in: 1...5)
        guard (mean == nil) == (count == 0) else {
            throw ScoutError(.invalidRequest, "mean must be given exactly when count is above 0", path: o.at("mean"))
        }
        return ReviewAggregate(mean: mean, count: count)
    }
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
    /// `male` or `female`.
    public let sex: String
    /// Weight in kg.
    public let weightKg: Double
    /// The owner's id.
    public let ownerID: String
    /// The owner's experience with dogs, 1–5.
    public let ownerExperience: Int
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
    public init(name: String, breedName: String, breed: Breed, birthDate: LocalDate, sex: String, weightKg: Double,
                ownerID: String, ownerExperience: Int, about: String, temperament: ReviewAggregate,
                excitability: ReviewAggregate, experienceNeeded: ReviewAggregate, available: Bool) {
        self.name = name; self.breedName = breedName; self.foldedBreedName = TextFolding.fold(breedName); self.breed = breed; self.birthDate = birthDate
        self.sex = sex; self.weightKg = weightKg; self.ownerID = ownerID; self.ownerExperience = ownerExperience
        self.about = about; self.temperament = temperament; self.excitability = excitability
        self.experienceNeeded = experienceNeeded; self.available = available
    }

    /// Size class: the breed's, or from the dog's own weight for mixed and unknown breeds.
    public var sizeClass: SizeClass { breed.isMixed ? SizeClass(weightKg: weightKg) : breed.sizeClass ?? SizeClass(weightKg: weightKg) }

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

    /// Reads a dog from a record's fields (everything but id, kind, lat and lon). Its review
    /// aggregates combine the loaded `reviews` with the reviewers' own entries (`reviews_by`).
    public static func read(_ fields: [(String, JSONValue)], breeds: BreedTable, path: String) throws(ScoutError) -> Dog {
        let f = FieldReader(fields, path: path)
        let breedName = try f.string("breed", maxBytes: 128)
        let birth = try LocalDate.parse(try f.string("birth_date", maxBytes: 32), path: f.at("birth_date"))
        let reviews = try f.object("reviews")
        let entries = try Reviews.entries(f, criteria: Reviews.criteria(kind: "dog"))
        func aggregate(_ c: String) throws(ScoutError) -> ReviewAggregate { Reviews.combined(try .read(reviews, c), entries, criterion: c) }
        return Dog(
            name: try f.string("name", maxBytes: 256), breedName: breedName,
            breed: breeds.breed(named: breedName) ?? breeds.mixed, birthDate: birth,
            sex: try f.oneOf("sex", ["male", "female"]), weightKg: try f.number("weight_kg", in: 0.1...200),
            ownerID: try f.string("owner_id", maxBytes: 256), ownerExperience: try f.integer("owner_experience", in: 1...5),
            about: try f.optionalString("about") ?? "",
            temperament: try aggregate("temperament"), excitability: try aggregate("excitability"),
            experienceNeeded: try aggregate("experience_needed"), available: try f.bool("available", default: true))
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

    /// Reads a gym; `zones` caches time zones by identifier.
    public static func read(_ fields: [(String, JSONValue)], zones: ZoneCache, path: String) throws(ScoutError) -> Gym {
        let f = FieldReader(fields, path: path)
        let votes = try f.object("votes")
        let hours = try f.optionalString("opening_hours", maxBytes: 1024)
        let address = try f.object("address")
        let voted = try Reviews.votes(f)
        return Gym(
            name: try f.string("name", maxBytes: 256), type: try f.oneOf("type", types),
            town: try address?.optionalString("town", maxBytes: 256) ?? "",
            upVotes: (try votes?.integer("up", in: 0...1_000_000_000, default: 0) ?? 0) + voted.up,
            downVotes: (try votes?.integer("down", in: 0...1_000_000_000, default: 0) ?? 0) + voted.down,
            openingHours: try hours.map { (h) throws(ScoutError) in try OpeningHours(parsing: h, path: f.at("opening_hours")) },
            zone: try zones.zone(try f.string("timezone", maxBytes: 64), path: f.at("timezone")))
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
    /// `small`, `medium` or `large`.
    public let size: String
    /// Ready for adoption.
    public let adoptable: Bool
    /// `male`, `female` or `unknown`.
    public let sex: String
    /// The values of ``sex``.
    public static let sexes = ["male", "female", "unknown"]

    static func read(_ v: JSONValue, species names: SpeciesNames, path: String) throws(ScoutError) -> Animal {
        let f = try FieldReader(v, path: path)
        return try read(f, id: try f.string("id", maxBytes: 256), species: names)
    }

    /// Reads the animal's own fields (species, name, sex, age, size, marks, description,
    /// adoptable) from a shelter's list entry or an `animal` record.
    static func read(_ f: FieldReader, id: String, species names: SpeciesNames) throws(ScoutError) -> Animal {
        let species = try names.read(f, "species")
        return Animal(species: species, id: id, name: try f.string("name", maxBytes: 256),
                      marks: try f.optionalString("marks", maxBytes: 1024) ?? "",
                      description: try f.optionalString("description") ?? "",
                      ageYears: try f.number("age_years", in: 0...100), size: try f.oneOf("size", ["small", "medium", "large"]),
                      adoptable: try f.bool("adoptable", default: true), sex: try f.oneOf("sex", sexes, default: "unknown"))
    }
}

/// An animal shelter, rescue, sanctuary or foster network: a public institution. A class, like ``Dog``.
public final class Shelter: Sendable {
    /// Kinds of institution in `type`.
    public static let types = ["shelter", "rescue", "sanctuary", "foster_network"]
    /// Most animals a shelter record may list.
    public static let maximumAnimals = 10_000
    /// Name, one of ``types``, description and town (from the address).
    public let name: String, type: String, description: String, town: String
    /// The animals in its care.
    public let animals: [Animal]

    /// Creates a shelter from checked values.
    public init(name: String, type: String, description: String, town: String, animals: [Animal]) {
        self.name = name; self.type = type; self.description = description; self.town = town; self.animals = animals
    }

    /// Reads a shelter with its animals. Address and contact are required objects.
    public static func read(_ fields: [(String, JSONValue)], species: SpeciesNames = .empty, path: String) throws(ScoutError) -> Shelter {
        let f = FieldReader(fields, path: path)
        guard let address = try f.object("address") else { throw ScoutError(.invalidRequest, "address is required", path: f.at("address")) }
        for key in ["street", "number", "postal_code"] { _ = try address.optionalString(key, maxBytes: 256) }
        let country = try address.string("country", maxBytes: 2)
        guard country.utf8.count == 2, country.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            throw ScoutError(.invalidRequest, "country must be a two-letter ISO 3166 code in capitals", path: address.at("country"))
        }
        if let contact = try f.object("contact") {
            _ = try contact.optionalString("person", maxBytes: 256)
            _ = try contact.optionalString("email", maxBytes: 256)
            for (i, p) in try contact.array("phones", maxCount: 16).enumerated() where p.string == nil {
                throw ScoutError(.invalidRequest, "phones must be strings", path: contact.at("phones[\(i)]"))
            }
        }
        var animals: [Animal] = []
        for (i, a) in try f.array("animals", maxCount: maximumAnimals).enumerated() {
            animals.append(try Animal.read(a, species: species, path: f.at("animals[\(i)]")))
        }
        return Shelter(name: try f.string("name", maxBytes: 256), type: try f.oneOf("type", types),
                       description: try f.optionalString("description", maxBytes: 16_384) ?? "",
                       town: try address.string("town", maxBytes: 256), animals: animals)
    }
}
