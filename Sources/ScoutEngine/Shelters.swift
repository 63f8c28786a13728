import ScoutCatalog
import ScoutIndex
import ScoutJSON

/// A shelter's animals are one fact, kept once: each `animal` record's `shelter_id`. What a
/// shelter shows of them — ``Shelter/animals`` for its filters and text, and the `animals`
/// list its answers carry — is derived from those records by the engine, under the write
/// lock, in the same write that changes them. So a new animal is in its shelter's list at
/// once, a moved one leaves its old shelter, and a journal's replay or a snapshot's restore
/// reaches the same lists from the animal records alone.
extension Engine {
    /// One animal as its shelter lists it.
    struct ListedAnimal {
        let animal: Animal
        /// The animal record's fields with its id, without `shelter_id`.
        let json: JSONValue
    }

    /// The animals a shelter's payload lists (none for another record).
    static func listedAnimals(_ payload: RecordPayload?) -> [ListedAnimal] {
        guard case .shelter(let s)? = payload?.record, let json = payload?.derived.first(where: { $0.0 == "animals" })?.1.array else { return [] }
        return zip(s.animals, json).map { ListedAnimal(animal: $0, json: $1) }
    }

    /// An animal record as its shelter lists it, with the shelter's id (`nil`: not an animal).
    static func listed(id: String, _ payload: RecordPayload?) -> (shelter: String, animal: ListedAnimal)? {
        guard case .animal(let a)? = payload?.record else { return nil }
        let fields = [("id", JSONValue.string(id))] + (payload?.fields ?? []).filter { $0.0 != "shelter_id" }
        return (a.shelterID, ListedAnimal(animal: a.animal.with(id: id), json: .object(fields)))
    }

    /// The shelter a stored animal names (`nil`: not an animal), without listing it.
    static func shelterID(of e: Entry) -> String? {
        if case .animal(let a) = record(e) { return a.shelterID }
        return nil
    }

    /// A shelter's payload with these animals (sorted here by id, in byte order).
    static func shelterPayload(_ payload: RecordPayload, animals: [ListedAnimal]) -> RecordPayload {
        guard case .shelter(let s) = payload.record else { return payload }
        let sorted = animals.sorted { $0.animal.id.utf8.lexicographicallyPrecedes($1.animal.id.utf8) }
        return RecordPayload(fields: payload.fields, record: .shelter(s.with(animals: sorted.map(\.animal))),
                             derived: sorted.isEmpty ? [] : [("animals", .array(sorted.map(\.json)))])
    }

    /// Adds to a write the shelters its animals change, with their lists as they will be,
    /// and gives the write's own shelters their lists (a shelter read from its fields has
    /// none); the caller holds the write lock, and applies the result.
    func derivingShelters(_ w: PreparedWrite) -> PreparedWrite {
        let animals = w.located[RecordKind.animal.name] ?? []
        let shelters = w.located[RecordKind.shelter.name] ?? []
        guard !animals.isEmpty || !shelters.isEmpty else { return w }
        let shelterSet = pointSet(kind: RecordKind.shelter.name), animalSet = pointSet(kind: RecordKind.animal.name)
        // The batch's animals, the last of each id, by shelter; and the shelters they leave.
        var written: [String: (shelter: String, animal: ListedAnimal)] = [:]
        var affected = Set(shelters.map(\.id))
        for r in animals {
            guard let l = Engine.listed(id: r.id, r.payload as? RecordPayload) else { continue }
            written[r.id] = l
            affected.insert(l.shelter)
            if let old = animalSet?.entry(id: r.id), let was = Engine.shelterID(of: old) { affected.insert(was) }
        }
        var arriving: [String: [ListedAnimal]] = [:]
        for (_, l) in written { arriving[l.shelter, default: []].append(l.animal) }
        var out = w
        var batch = shelters
        for id in affected {
            let previous = shelterSet?.entry(id: id)
            let kept = Engine.listedAnimals(previous.flatMap(Engine.payload)).filter { written[$0.animal.id] == nil }
            let animals = kept + (arriving[id] ?? [])
            let inBatch = batch.indices.filter { batch[$0].id == id }
            if !inBatch.isEmpty {
                for i in inBatch {
                    guard let p = batch[i].payload as? RecordPayload else { continue }
                    batch[i] = PointSet.Record(id: id, point: batch[i].point, payload: Engine.shelterPayload(p, animals: animals))
                }
            } else if let previous, let p = Engine.payload(previous) {
                batch.append(PointSet.Record(id: id, point: previous.point, payload: Engine.shelterPayload(p, animals: animals)))
            }
        }
        out.located[RecordKind.shelter.name] = batch
        return out
    }

    /// Takes removed animals out of their shelters' lists; the caller holds the write lock
    /// and removes the animals.
    func unlistAnimals(_ ids: [String]) {
        guard let animalSet = pointSet(kind: RecordKind.animal.name), let shelterSet = pointSet(kind: RecordKind.shelter.name) else { return }
        var leaving: [String: Set<String>] = [:]
        for id in ids {
            if let e = animalSet.entry(id: id), let shelter = Engine.shelterID(of: e) { leaving[shelter, default: []].insert(id) }
        }
        var changed: [PointSet.Record] = []
        for (shelter, gone) in leaving {
            guard let e = shelterSet.entry(id: shelter), let p = Engine.payload(e) else { continue }
            let animals = Engine.listedAnimals(p).filter { !gone.contains($0.animal.id) }
            changed.append(PointSet.Record(id: shelter, point: e.point, payload: Engine.shelterPayload(p, animals: animals)))
        }
        // The shelters exist and were validated when written, so this cannot throw.
        if !changed.isEmpty { _ = try? shelterSet.upsert(changed) }
    }

    /// The animals of these shelters, which go with them (so a later shelter of the same id
    /// never inherits them); the caller holds the write lock.
    func animals(ofShelters ids: [String]) -> [String] {
        guard let shelterSet = pointSet(kind: RecordKind.shelter.name) else { return [] }
        return ids.flatMap { id in Engine.listedAnimals(shelterSet.entry(id: id).flatMap(Engine.payload)).map(\.animal.id) }
    }

    /// The shelters of a snapshot with their lists from its animal records (a snapshot
    /// keeps only each record's own fields), in the same tree order.
    static func listingAnimals(_ shelters: LiveExport, from animals: LiveExport) -> LiveExport {
        var byShelter: [String: [ListedAnimal]] = [:]
        for (i, id) in animals.ids.enumerated() where i < animals.payloads.count {
            if let l = listed(id: id, animals.payloads[i] as? RecordPayload) { byShelter[l.shelter, default: []].append(l.animal) }
        }
        var out = shelters
        for (i, id) in shelters.ids.enumerated() where i < shelters.payloads.count {
            if let list = byShelter[id], let p = shelters.payloads[i] as? RecordPayload { out.payloads[i] = shelterPayload(p, animals: list) }
        }
        return out
    }

    /// Fields an older build stored that this one derives, dropped when its snapshot or
    /// journal is restored: a shelter's own `animals` list (its animals are the animal
    /// records that name it).
    package static func restorable(kind: RecordKind, fields: [(String, JSONValue)]) -> [(String, JSONValue)] {
        kind == .shelter ? fields.filter { $0.0 != "animals" } : fields
    }
}
