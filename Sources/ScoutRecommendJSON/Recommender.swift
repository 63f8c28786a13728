import ScoutCatalog
import ScoutCore
import ScoutRecommend

extension Recommender {
    /// Loads `activities.json`, `weights.json` and `enjoyment_prior.json` from a data
    /// directory, and checks the weights' care goals against the catalogue.
    public static func load(dataDirectory dir: String, breeds: BreedTable) throws(ScoutError) -> Recommender {
        let priorPath = dir + "/enjoyment_prior.json"
        return try load(activities: try ActivityCatalog.bytes(path: dir + "/activities.json"),
                        weights: try RecommenderWeights.bytes(path: dir + "/weights.json"),
                        prior: try DataFile.bytes(path: priorPath, what: "the enjoyment prior \(priorPath)", name: "prior"),
                        priorSource: priorPath, breeds: breeds)
    }

    /// Loads the recommender from the bytes of `activities.json`, `weights.json` and
    /// `enjoyment_prior.json` (a
    /// snapshot's copies, `Engine.referenceFiles`), and checks
    /// the weights' care goals against the catalogue. Errors are those of
    /// ``load(dataDirectory:breeds:)``: `parse_error` at `activities` or `weights` for bytes
    /// that are not JSON, at the field for a value out of range.
    /// `prior` is the bytes of `enjoyment_prior.json`, its errors prefixed by `priorSource`.
    public static func load(activities: [UInt8], weights: [UInt8], prior: [UInt8], priorSource: String = "enjoyment_prior.json",
                            breeds: BreedTable) throws(ScoutError) -> Recommender {
        let catalog = try ActivityCatalog.parse(bytes: activities)
        let weights = try RecommenderWeights.parse(bytes: weights)
        try weights.checkCareGoals(against: catalog)
        return Recommender(catalog: catalog, weights: weights, breeds: breeds,
                           prior: try EnjoymentPrior.parse(bytes: prior, source: priorSource))
    }
}
