import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutRecommend
import ScoutSchedule
import ScoutTime

/// A stored pet as the recommender takes it: its profile, its care log oldest first and the
/// owners' verdicts on the activities it did, read as one user. What `recommend_activities`,
/// `progress` and `schedule` take by `pet_id`; in Swift:
///
/// ```swift
/// let rex = try engine.storedPet("pet-rex", user: "u-anna")
/// let answer = recommender.recommendActivities(ActivityRequest(pet: rex.profile, context: now, log: rex.log, feedback: rex.feedback))
/// ```
public struct StoredPet: Sendable {
    /// The stored record.
    public let pet: Pet
    /// Its profile: species, breed (one the breed table does not know reads as Mixed), birth
    /// date, weight (up to 200 kg) and the conditions the recommender knows.
    public let profile: PetProfile
    /// Its care entries, oldest first (up to ``maximumEntries``, the newest).
    public let log: [LogEntry]
    /// The verdicts on the activities of its log (an entry with a `verdict` whose type is an
    /// activity), oldest first. An entry whose `recommendation` is an offer id of the
    /// activity catalogue given to ``Engine/storedPet(_:user:activities:)`` (and of the
    /// entry's activity) answers that offer: learnt in the moment the offer knew, and, for an
    /// answer of two, as taken over the other offer (``Feedback/init(offer:rating:over:at:)``).
    public let feedback: [Feedback]
    /// The pet record's fields as stored (its `reminders` among them, for `schedule`).
    public let fields: [(String, JSONValue)]

    /// Most care entries read.
    public static let maximumEntries = 10_000
}

extension Engine {
    /// The pet `id` with its care log, as `user` may read it (its owners and those it is
    /// shared with). With `activities` (the recommender's catalogue), a rated entry that names
    /// the offer it answers (`recommendation`) is read with that offer's moment and the offer
    /// passed over for it; an id the catalogue does not read (an older catalogue's, or not an
    /// offer id) leaves the verdict on the activity alone.
    ///
    /// - Throws: `not_found` at `pet_id` when there is no such pet or `user` may not read it
    ///   (the same answer either way); `invalid_request` at `pet_id` when the pet has no birth
    ///   date, which the recommender needs.
    public func storedPet(_ id: String, user: String?, activities: ActivityCatalog? = nil) throws(ScoutError) -> StoredPet {
        guard kinds.contains(RecordKind.pet.name), let hit = try get(kind: .pet, ids: [id], user: user)[0], case .pet(let pet) = hit.record else {
            throw ScoutError(.notFound, "no pet \(id) that this user may read", path: "pet_id")
        }
        guard let birth = pet.birthDate else {
            throw ScoutError(.invalidRequest, "pet \(id) has no birth_date, which the recommender needs: patch the pet or give pet inline",
                             path: "pet_id")
        }
        let species = Species(rawValue: pet.species) ?? .other
        var breed: Breed?
        if species == .dog { breed = pet.breedName.isEmpty ? nil : catalog.breeds.breed(named: pet.breedName) }
        let profile = PetProfile(name: pet.name, species: species, breed: species == .dog ? (breed ?? catalog.breeds.mixed) : nil,
                                 birthDate: birth, weightKg: pet.weightKg.flatMap { $0 <= 200 ? $0 : nil },
                                 conditions: Set(pet.conditions.compactMap(PetCondition.init(rawValue:))))
        var log: [LogEntry] = [], feedback: [Feedback] = []
        if kinds.contains(RecordKind.care.name) {
            var q = SearchQuery(kind: .care, area: nil, limit: StoredPet.maximumEntries, sort: .newest, filter: .careEntries(.pet([id])))
            q.user = user
            for h in try search(q).hits.reversed() {
                guard case .care(let e) = h.record else { continue }
                log.append(LogEntry(type: e.type, start: e.start, minutes: e.minutes))
                if let word = e.verdict, let verdict = Enjoyment(rawValue: word), let activity = e.type.activityID {
                    if let activities, let text = e.recommendation, let offer = try? OfferID.parse(text, catalog: activities, path: ""),
                       offer.activity == activity {
                        feedback.append(Feedback(offer: offer, rating: verdict, at: e.start))
                    } else {
                        feedback.append(Feedback(activity: activity, rating: verdict, at: e.start))
                    }
                }
            }
        }
        return StoredPet(pet: pet, profile: profile, log: log, feedback: feedback, fields: hit.fields)
    }
}
