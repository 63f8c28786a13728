import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutRecommend
import ScoutSchedule

/// Requests that name a stored pet (`pet_id`, read as the caller `user`): the recommender's
/// ops take the pet, its care log and the owners' verdicts from the store, and `schedule`
/// the pet's `reminders`, as if the request had carried them inline. What the request does
/// carry inline (`pet`, `log`, `feedback`, `reminders`) wins. So a request by pet id answers
/// exactly as the inline request with the same data.
extension Worker {
    /// The request with what it leaves out filled in from the stored pet it names (`pet_id`),
    /// or the request itself when it names none. `keys` are the fields the op takes from the
    /// store.
    ///
    /// - Throws: `not_found` at `pet_id` when there is no such pet or `user` may not read it;
    ///   `invalid_request` at `pet_id` when the pet lacks what the op needs (a birth date).
    func withStoredPet(_ f: RequestFields, filling keys: [String]) throws(ScoutError) -> RequestFields {
        guard f.has("pet_id") else {
            if f.has("user") { throw ScoutError(.invalidRequest, "user goes with pet_id, which is missing", path: "user") }
            return f
        }
        let id = try Worker.id(f.reader["pet_id"], path: "pet_id")
        let user = try Worker.user(f)
        guard engine.kinds.contains(RecordKind.pet.name), let hit = try engine.get(kind: .pet, ids: [id], user: user)[0],
              case .pet(let pet) = hit.record else {
            throw ScoutError(.notFound, "no pet \(id) that this user may read", path: "pet_id")
        }
        var members = (f.object.members ?? []).filter { $0.0 != "pet_id" && $0.0 != "user" }
        func missing(_ key: String) -> Bool { keys.contains(key) && !members.contains { $0.0 == key } }
        if missing("pet") { members.append(("pet", try profile(of: pet, id: id))) }
        if missing("reminders") { members.append(("reminders", hit.fields.first { $0.0 == "reminders" }?.1 ?? .array([]))) }
        if missing("log") || missing("feedback") {
            var q = SearchQuery(kind: .care, area: nil, limit: Worker.maximumHistory, sort: .newest, filter: .careEntries(.pet([id])))
            q.user = user
            let entries = engine.kinds.contains(RecordKind.care.name) ? try engine.search(q).hits.reversed() : []
            var log: [JSONValue] = [], feedback: [JSONValue] = []
            for h in entries {
                guard case .care(let e) = h.record else { continue }
                let start = JSONValue.string(e.start.rfc3339)
                log.append(.object([("type", .string(e.type.word)), ("start", start), ("minutes", .number(FieldReader.text(e.minutes)))]))
                if let verdict = e.verdict, let activity = e.type.activityID {
                    feedback.append(.object([("activity", .string(activity)), ("rating", .string(verdict)), ("at", start)]))
                }
            }
            if missing("log") { members.append(("log", .array(log))) }
            if missing("feedback") { members.append(("feedback", .array(feedback))) }
        }
        return RequestFields(object: .object(members))
    }

    /// The recommender's view of a stored pet, as a request's inline `pet` would give it:
    /// its species, its breed (one the breed table does not know reads as Mixed), birth
    /// date, weight (up to 200 kg) and the conditions the recommender knows.
    private func profile(of pet: Pet, id: String) throws(ScoutError) -> JSONValue {
        guard let birth = pet.birthDate else {
            throw ScoutError(.invalidRequest, "pet \(id) has no birth_date, which the recommender needs: patch the pet or give pet inline",
                             path: "pet_id")
        }
        var fields: [(String, JSONValue)] = [("name", .string(pet.name)), ("species", .string(pet.species)), ("birth_date", .string(birth.description))]
        if pet.species == "dog" {
            let known = !pet.breedName.isEmpty && engine.catalog.breeds.breed(named: pet.breedName) != nil
            fields.append(("breed", .string(known ? pet.breedName : "Mixed")))
        }
        if let w = pet.weightKg, w <= 200 { fields.append(("weight_kg", .number(FieldReader.text(w)))) }
        let conditions = pet.conditions.filter { PetCondition(rawValue: $0) != nil }
        if !conditions.isEmpty { fields.append(("conditions", .array(conditions.map { .string($0) }))) }
        return .object(fields)
    }
}
