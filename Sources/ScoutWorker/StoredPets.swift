import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutRanking
import ScoutRecommend
import ScoutSchedule

/// Requests that name a stored pet (`pet_id`, read as the caller `user`): the recommender's
/// ops take the pet, its care log and the owners' verdicts from the store
/// (``Engine/storedPet(_:user:activities:)``), and `schedule` the pet's `reminders`, as if the request
/// had carried them inline. What the request does
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
        let stored = try engine.storedPet(try Worker.id(f.reader["pet_id"], path: "pet_id"), user: try Worker.user(f),
                                          activities: recommender?.catalog)
        var members = (f.object.members ?? []).filter { $0.0 != "pet_id" && $0.0 != "user" }
        func missing(_ key: String) -> Bool { keys.contains(key) && !members.contains { $0.0 == key } }
        if missing("pet") { members.append(("pet", Worker.json(stored.profile))) }
        if missing("reminders") { members.append(("reminders", stored.fields.first { $0.0 == "reminders" }?.1 ?? .array([]))) }
        if missing("log") {
            members.append(("log", .array(stored.log.map { e in
                .object([("type", .string(e.type.word)), ("start", .string(e.start.rfc3339)), ("minutes", .number(FieldReader.text(e.minutes)))])
            })))
        }
        if missing("feedback") {
            // A stored pet's feedback is its care entries' verdicts: every one is rated; one
            // that answers an offer names it (its id gives the moment and the offer passed over).
            members.append(("feedback", .array(stored.feedback.compactMap { e in
                e.rating.map { rating in
                    let answered: (String, JSONValue) = e.moment.map { ("recommendation", .string(OfferID(activity: e.activity, moment: $0, others: e.over).description)) }
                        ?? ("activity", .string(e.activity))
                    return .object([answered, ("rating", .string(rating.rawValue)), ("at", .string(e.at.rfc3339))])
                }
            })))
        }
        return RequestFields(object: .object(members))
    }

    /// A profile as a request's inline `pet` gives it.
    static func json(_ p: PetProfile) -> JSONValue {
        var fields: [(String, JSONValue)] = [("species", .string(p.species.rawValue)), ("birth_date", .string(p.birthDate.description))]
        if let name = p.name { fields.append(("name", .string(name))) }
        if let breed = p.breed { fields.append(("breed", .string(breed.name))) }
        if let w = p.weightKg { fields.append(("weight_kg", .number(FieldReader.text(w)))) }
        if !p.conditions.isEmpty { fields.append(("conditions", .array(p.conditions.map(\.rawValue).sorted().map { .string($0) }))) }
        return .object(fields)
    }
}
