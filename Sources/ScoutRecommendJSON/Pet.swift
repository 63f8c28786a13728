import ScoutCatalog
import ScoutCore
import ScoutJSON
import ScoutRecommend
import ScoutTime

extension PetProfile {
    /// Reads `{"name"?, "species"?, "breed"?, "birth_date", "weight_kg"?, "conditions"?}`.
    /// `species` defaults to `dog`; any species word (1–32 bytes of `a`–`z` and `_`) is
    /// accepted, one without a profile with generic needs; anything else is
    /// `invalid_request` at `species`. A breed the table does not know is `not_found` with
    /// the closest names ("Mixed" for mixed and unknown breeds); other fields are refused by
    /// name.
    package static func read(_ json: JSONValue, breeds: BreedTable, path: String) throws(ScoutError) -> PetProfile {
        let f = try FieldReader(json, path: path)
        try f.checkKnown(["name", "species", "breed", "birth_date", "weight_kg", "conditions"])
        let species = try Species.read(try f.optionalString("species") ?? "dog", path: f.at("species"))
        var breed: Breed?
        if species == .dog {
            let name = try f.optionalString("breed", maxBytes: 200) ?? "Mixed"
            breed = breeds.breeds.isEmpty ? breeds.mixed : try breeds.resolve(name, path: f.at("breed"))
        } else if f["breed"] != nil {
            _ = try f.string("breed", maxBytes: 200)
        }
        let birth = try LocalDate.parse(try f.string("birth_date", maxBytes: 20), path: f.at("birth_date"))
        var conditions = Set<PetCondition>()
        for (i, c) in try f.array("conditions", maxCount: 20).enumerated() {
            guard let s = c.string, let condition = PetCondition(rawValue: s) else {
                throw ScoutError(.invalidRequest, "conditions are among \(PetCondition.allCases.map(\.rawValue).joined(separator: ", "))",
                                 path: "\(f.at("conditions"))[\(i)]")
            }
            conditions.insert(condition)
        }
        return PetProfile(name: try f.optionalString("name", maxBytes: 100), species: species, breed: breed, birthDate: birth,
                          weightKg: try f.optionalNumber("weight_kg", in: 0.01...200), conditions: conditions)
    }
}
