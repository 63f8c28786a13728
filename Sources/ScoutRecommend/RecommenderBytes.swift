import ScoutCatalog
import ScoutCore
import ScoutJSON

extension Recommender {
    /// A recommender from the bytes of `activities.json` and `weights.json` (as a snapshot
    /// keeps them), with the weights' care goals checked against the catalogue.
    public static func load(activities: [UInt8], weights: [UInt8], breeds: BreedTable) throws(ScoutError) -> Recommender {
        let catalogJSON: JSONValue, weightsJSON: JSONValue
        do throws(JSONParseError) { catalogJSON = try JSONReader.parse(activities) } catch {
            throw ScoutError(.parseError, "the activity catalogue is not valid JSON: \(error.description)", path: "activities")
        }
        do throws(JSONParseError) { weightsJSON = try JSONReader.parse(weights) } catch {
            throw ScoutError(.parseError, "the recommender weights are not valid JSON: \(error.description)", path: "weights")
        }
        let catalog = try ActivityCatalog.parse(catalogJSON), w = try RecommenderWeights.parse(weightsJSON)
        try w.checkCareGoals(against: catalog)
        return Recommender(catalog: catalog, weights: w, breeds: breeds)
    }
}
