import ScoutCatalog
import ScoutCore
import ScoutIndex

/// Who may read which records of one kind, for one request (``KindAccess``): a record that
/// belongs to users is read by its owners and those it is shared with; a care entry by
/// whoever may read its pet. A record the caller may not read is left out before anything
/// is counted, paged or written, so it is indistinguishable from a missing one.
///
/// Used by one request on one thread: it remembers the parents it looked up.
final class AccessCheck {
    /// The kind's rule.
    let rule: KindAccess
    /// The caller's user id (`nil`: public records only).
    let user: String?
    /// The records of the parent kind, for ``KindAccess/through(kind:field:)``.
    private let parent: (_ id: String) -> RecordPayload?
    /// Parents already judged, by id.
    private var judged: [String: Bool] = [:]

    /// The check of `kind`'s records for `user`, reading parents from `engine`.
    init(kind: RecordKind, user: String?, engine: Engine) {
        rule = kind.definition.access
        self.user = user
        if case .through(let parentKind, _) = rule {
            let set = engine.pointSet(kind: parentKind.name)
            let placeless = engine.placelessSet(kind: parentKind.name)?.snapshot()
            parent = { id in
                if let e = set?.entry(id: id) { return Engine.payload(e) }
                return placeless?.byID[id] ?? nil
            }
        } else {
            parent = { _ in nil }
        }
    }

    /// True when every record of the kind is readable by anyone (no check needed).
    var allowsEveryone: Bool { rule == .everyone }

    /// Whether the caller may read a record of the kind.
    func allows(_ record: CatalogRecord) -> Bool {
        switch rule {
        case .everyone: return true
        case .owned: return record.access?.isVisible(to: user) ?? true
        case .through(_, let field):
            guard let id = AccessCheck.parentID(of: record, field: field) else { return false }
            if let known = judged[id] { return known }
            let visible = parent(id).map { $0.record.access?.isVisible(to: user) ?? true } ?? false
            judged[id] = visible
            return visible
        }
    }

    /// Whether the caller may read the record of a payload (`nil`: a record without fields,
    /// of a kind that has no owners).
    func allows(_ payload: RecordPayload?) -> Bool { allowsEveryone || allows(payload?.record ?? .other) }

    /// Whether everyone may read a record, whoever asks: so it may count in statistics every
    /// caller's answers share (the text index's document frequencies and lengths). A record
    /// read through another never counts (that one's visibility may change).
    static func isPublic(_ record: CatalogRecord, _ rule: KindAccess) -> Bool {
        switch rule {
        case .everyone: true
        case .owned: record.access.map { $0.visibility == .public } ?? true
        case .through: false
        }
    }

    /// The id a record's field names (a care entry's `pet_id`).
    static func parentID(of record: CatalogRecord, field: String) -> String? {
        switch (record, field) {
        case (.care(let e), "pet_id"): e.petID
        default: nil
        }
    }
}

extension Engine {
    /// The access check of a kind for a caller.
    func access(kind: RecordKind, user: String?) -> AccessCheck { AccessCheck(kind: kind, user: user, engine: self) }

    /// Checks a batch's records against the records they belong to: a care entry's pet must
    /// exist (in the store or earlier in the batch), and whoever logged it must own it or be
    /// one of the users it is shared with; an animal's shelter must exist. Errors name the
    /// record's field (under `fieldPath` when given: a patch's `set`). The caller holds the
    /// write lock, so a pet or shelter removed meanwhile is not taken for present.
    func checkReferences(_ records: [PointRecord], _ prepared: PreparedWrite, fieldPath: String? = nil) throws(ScoutError) {
        /// The path of a record's field: under `fieldPath`, else its source, else its place in the batch.
        func at(_ kind: RecordKind, _ id: String, _ field: String) -> String {
            if let fieldPath { return "\(fieldPath).\(field)" }
            let i = records.lastIndex { $0.kind == kind && $0.id == id } ?? 0
            return ((records.indices.contains(i) ? records[i].source.map { "\($0): " } : nil) ?? "records[\(i)].") + field
        }
        if let animals = prepared.located[RecordKind.animal.name], !animals.isEmpty {
            let batchShelters = Set((prepared.located[RecordKind.shelter.name] ?? []).map(\.id))
            let shelters = pointSet(kind: RecordKind.shelter.name)
            for r in animals {
                guard case .animal(let a)? = (r.payload as? RecordPayload)?.record else { continue }
                guard batchShelters.contains(a.shelterID) || shelters?.entry(id: a.shelterID) != nil else {
                    throw ScoutError(.invalidRequest, "shelter_id \(a.shelterID) names no shelter: store the shelter (kind shelter) first",
                                     path: at(.animal, r.id, "shelter_id"))
                }
            }
        }
        guard let entries = prepared.placeless[RecordKind.care.name], !entries.isEmpty else { return }
        var batchPets: [String: RecordAccess] = [:]
        for p in prepared.placeless[RecordKind.pet.name] ?? [] {
            if case .pet(let pet)? = p.payload?.record { batchPets[p.id] = pet.access }
        }
        let pets = placelessSet(kind: RecordKind.pet.name)?.snapshot()
        for entry in entries {
            guard case .care(let e)? = entry.payload?.record else { continue }
            var access = batchPets[e.petID]
            if access == nil, let stored = pets?.byID[e.petID], case .pet(let p)? = stored?.record { access = p.access }
            guard let access else {
                throw ScoutError(.invalidRequest, "pet_id \(e.petID) names no pet: store the pet (kind pet) first", path: at(.care, entry.id, "pet_id"))
            }
            guard access.isMember(e.loggedBy) else {
                throw ScoutError(.invalidRequest, "logged_by \(e.loggedBy) is not one of the pet's owners or the users it is shared with",
                                 path: at(.care, entry.id, "logged_by"))
            }
        }
    }

    /// Removes the care entries of these pets (the caller holds the write lock).
    func removeCareEntries(ofPets pets: Set<String>) {
        guard let entries = placelessSet(kind: RecordKind.care.name) else { return }
        let gone = entries.snapshot().byID.compactMap { id, payload -> String? in
            guard case .care(let e)? = payload?.record, pets.contains(e.petID) else { return nil }
            return id
        }
        entries.remove(ids: gone)
    }
}
