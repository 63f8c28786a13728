import ScoutCatalog
import ScoutCore
import ScoutJSON
import ScoutTime

// The JSON forms of the catalogue's records (`Records.swift` of ScoutCatalog).

extension ReviewAggregate {
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

extension Dog {
    /// Reads a dog from a record's fields (everything but id, kind, lat and lon). Its review
    /// aggregates combine the loaded `reviews` with the reviewers' own entries (`reviews_by`).
    public static func read(_ fields: [(String, JSONValue)], breeds: BreedTable, path: String) throws(ScoutError) -> Dog {
        let f = FieldReader(fields, path: path)
        let breedName = try f.optionalString("breed", maxBytes: 128) ?? ""
        let birth = try LocalDate.parse(try f.string("birth_date", maxBytes: 32), path: f.at("birth_date"))
        let reviews = try f.object("reviews")
        let entries = try Reviews.entries(f, criteria: Reviews.criteria(kind: "dog"))
        func aggregate(_ c: String) throws(ScoutError) -> ReviewAggregate { Reviews.combined(try .read(reviews, c), entries, criterion: c) }
        return Dog(
            name: try f.string("name", maxBytes: 256), breedName: breedName,
            breed: breeds.breed(named: breedName) ?? breeds.mixed, birthDate: birth,
            sex: try f.oneOf("sex", Dog.sexes, default: "unknown"), weightKg: try f.optionalNumber("weight_kg", in: 0.1...200),
            ownerID: try f.optionalString("owner_id", maxBytes: 256),
            ownerExperience: f["owner_experience"] == nil ? nil : try f.integer("owner_experience", in: 1...5),
            about: try f.optionalString("about") ?? "",
            temperament: try aggregate("temperament"), excitability: try aggregate("excitability"),
            experienceNeeded: try aggregate("experience_needed"), available: try f.bool("available", default: true))
    }
}

extension Gym {
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

extension Animal {
    /// Reads an animal's own fields (species, name, sex, age, size, marks, description,
    /// adoptable) from an `animal` record.
    static func read(_ f: FieldReader, id: String, species names: SpeciesNames) throws(ScoutError) -> Animal {
        let species = try names.read(f, "species")
        return Animal(species: species, id: id, name: try f.string("name", maxBytes: 256),
                      marks: try f.optionalString("marks", maxBytes: 1024) ?? "",
                      description: try f.optionalString("description") ?? "",
                      ageYears: try f.number("age_years", in: 0...100), size: try f.oneOf("size", Animal.sizes),
                      adoptable: try f.bool("adoptable", default: true), sex: try f.oneOf("sex", sexes, default: "unknown"))
    }
}

extension Shelter {
    /// Reads a shelter. Address and contact are required objects. Its animals are not its
    /// own fields: they are the `animal` records that name it (``Shelter/animals``), so a
    /// shelter given an `animals` list is refused with where they belong.
    public static func read(_ fields: [(String, JSONValue)], path: String) throws(ScoutError) -> Shelter {
        let f = FieldReader(fields, path: path)
        guard f["animals"] == nil else {
            throw ScoutError(.invalidRequest, "a shelter's animals are the animal records whose shelter_id names it: "
                             + "write each as a record of kind animal, not in the shelter", path: f.at("animals"))
        }
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
        return Shelter(name: try f.string("name", maxBytes: 256), type: try f.oneOf("type", types),
                       description: try f.optionalString("description", maxBytes: 16_384) ?? "",
                       town: try address.string("town", maxBytes: 256))
    }
}
