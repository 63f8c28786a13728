import ScoutCore
import ScoutIndex
import ScoutText
import Synchronization

/// Everything the engine keeps for one kind, behind one lock: its records without a place
/// (the point set of those with one has its own concurrency), and what is derived from the
/// records per snapshot — posting lists (and their build on the spare core), the text index
/// and the words it is laid out from, names folded for sorting, the listing orders.
///
/// The caches bounded in bytes across kinds (``FilterMaps``, ``FilterTrees``,
/// ``RangeMatches``, ``PlanMemo``) stay with the engine: their budgets are the engine's.
final class KindStore: Sendable {
    /// The kind's records with a place.
    let points: PointSet
    /// What changes, behind the store's one lock.
    let state = Mutex(State())

    /// A kind's changing state.
    struct State {
        /// Records without a place (`nil` until the kind has had one).
        var placeless: PlacelessSet?
        /// The posting lists of the newest snapshot asked for, carried from one snapshot to the next (``PostingLists``).
        var postings: PostingLists?
        /// Posting lists being built on the spare core after a load, a restore or a
        /// compaction (``Engine/prepareFilters(kind:at:)``), for the first filtered query to
        /// take, with the snapshot they are built from (until the build takes it).
        var postingBuild: (job: SpareCore.Job<PostingLists?>, source: Engine.TakenOnce<PointSet.Snapshot>)?
        /// The text index, with the point set's and the placeless set's versions it was built at.
        var textIndex: (version: UInt64, placeless: UInt64, index: TextIndex)?
        /// Each entry's searchable texts as words of one ``TextCorpus``, by entry number
        /// (`nil` where not worked out), for one generation of entry numbers. They depend
        /// only on the entry's record, which no write changes, so a text index rebuilt after
        /// a write folds only the entries written since and lays out the rest from their words.
        var textTokens: (generation: Int, corpus: TextCorpus, tokens: [TextTokens?])?
        /// The records' names folded for sorting by name (``FoldedNames``).
        var foldedNames: FoldedNames?
        /// The records in each listing order (``ListingOrder``).
        var listingOrders: [SortOrder: ListingOrder] = [:]
        /// A care log's entries by pet, newest first, at one version of the records without
        /// a place (``Engine/entriesByPet(_:)``).
        var entriesByPet: (placeless: UInt64, groups: [String: [Int32]])?
    }

    /// A store of these points (and no records without a place yet).
    init(points: PointSet) { self.points = points }
}
