import ScoutCatalog
import ScoutCore
import ScoutRecommend

extension Recommender {
    /// Loads `activities.json` and `weights.json` from a data directory, and checks the
    /// weights' care goals against the catalogue.
    public static func load(dataDirectory dir: String, breeds: BreedTable) throws(ScoutError) -> Recommender {
        try load(activities: try ActivityCatalog.bytes(path: dir + "/activities.json"),
                 weights: try RecommenderWeights.bytes(path: dir + "/weights.json"), breeds: breeds)
    }

    /// Loads the recommender from the bytes of `activities.json` and `weights.json` (a
    /// snapshot's copies, `Engine.referenceFiles`), and checks
    /// the weights' care goals against the catalogue. Errors are those of
    /// ``load(dataDirectory:breeds:)``: `parse_error` at `activities` or `weights` for bytes
    /// that are not JSON, at the field for a value out of range.
    public static func load(activities: [UInt8], weights: [UInt8], breeds: BreedTable) throws(ScoutError) -> Recommender {
        let catalog = try ActivityCatalog.parse(bytes: activities)
        let weights = try RecommenderWeights.parse(bytes: weights)
        try weights.checkCareGoals(against: catalog)
        return Recommender(catalog: catalog, weights: weights, breeds: breeds)
    }
}
