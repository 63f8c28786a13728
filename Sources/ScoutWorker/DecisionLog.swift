import ScoutCore
import ScoutJSON
import ScoutRecommend

/// Decision logs (`docs/recommender.md`, "Decision logs"): one JSON object per line, what
/// `scout evaluate` and `scout fit-prior` read.
///
/// ```json
/// {"request": {…a recommend_activities request, pet inline…},
///  "offers": [{"id": "fetch.3f09a2c41b7e", "propensity": 0.41}],
///  "ratings": [{"recommendation": "fetch.3f09a2c41b7e", "rating": "enjoyed"}]}
/// ```
///
/// A decision of several offers also carries the answer's `set_propensity` (the probability
/// of offering exactly those activities together), which `scout evaluate` weighs it by.
extension Worker {
    /// Most offers in one logged decision.
    static let maximumLoggedOffers = 10

    /// Reads line `number` of a decision log. Every error names the line and the field
    /// (`line 12: offers[0].propensity`); a request is read as `recommend_activities` reads
    /// it, with its pet inline (a log is read without the store).
    public func loggedDecision(_ bytes: [UInt8], line number: Int) throws(ScoutError) -> LoggedDecision {
        let r = try requireRecommender()
        let prefix = "line \(number): "
        let json: JSONValue
        do throws(JSONParseError) { json = try JSONReader.parse(bytes) } catch {
            throw ScoutError(.parseError, "not a JSON object: \(error.description)", path: "line \(number)")
        }
        let top = try FieldReader(json, path: prefix)
        try top.checkKnown(["request", "offers", "set_propensity", "ratings"])
        guard let requestJSON = top["request"], requestJSON.members != nil else {
            throw ScoutError(.invalidRequest, "request is required: the recommend_activities request the offers answered", path: top.at("request"))
        }
        let request: ActivityRequest
        do throws(ScoutError) {
            let f = RequestFields(object: .object((requestJSON.members ?? []).filter { $0.0 != "op" }))
            if f.has("pet_id") { throw ScoutError(.invalidRequest, "a logged request carries its pet inline (pet), not pet_id", path: "pet_id") }
            try f.reader.checkKnown(["pet", "now", "timezone", "location", "home", "weather", "nearby", "has_garden", "after_dark", "busy",
                                     "waking_hours", "seed", "log", "feedback", "count", "mode", "weights"])
            var places = ResolvedPlaces()
            request = try activityRequest(f, r, &places)
        } catch {
            throw ScoutError(error.code, error.message, path: prefix + "request" + (error.path.map { "." + $0 } ?? ""))
        }
        var offers: [LoggedOffer] = []
        let offerList = try top.array("offers", maxCount: Worker.maximumLoggedOffers)
        guard !offerList.isEmpty else { throw ScoutError(.invalidRequest, "offers is required: what the policy offered", path: top.at("offers")) }
        for (i, v) in offerList.enumerated() {
            let o = try FieldReader(v, path: prefix + "offers[\(i)]")
            try o.checkKnown(["id", "activity", "propensity"])
            let id = try OfferID.parse(try o.string("id", maxBytes: 120), catalog: r.catalog, path: o.at("id"))
            if let named = try o.optionalString("activity", maxBytes: 100), named != id.activity {
                throw ScoutError(.invalidRequest, "activity is not the activity of the id (\(id.activity))", path: o.at("activity"))
            }
            guard o["propensity"] != nil else {
                throw ScoutError(.invalidRequest, "propensity is required: the probability with which the policy made this offer", path: o.at("propensity"))
            }
            let p = try o.number("propensity", in: 0...1)
            guard p > 0 else { throw ScoutError(.invalidRequest, "propensity must be above 0: an offer made was possible", path: o.at("propensity")) }
            offers.append(LoggedOffer(id: id, propensity: p))
        }
        var setPropensity: Double?
        if top["set_propensity"] != nil {
            let p = try top.number("set_propensity", in: 0...1)
            guard p > 0 else {
                throw ScoutError(.invalidRequest, "set_propensity must be above 0: the offers made were possible together", path: top.at("set_propensity"))
            }
            if offers.count == 1, abs(p - offers[0].propensity) > 1e-6 {
                throw ScoutError(.invalidRequest, "set_propensity of one offer is its propensity (\(offers[0].propensity))", path: top.at("set_propensity"))
            }
            setPropensity = p
        }
        var ratings: [String: Enjoyment] = [:]
        for (i, v) in try top.array("ratings", maxCount: Worker.maximumLoggedOffers).enumerated() {
            let e = try FieldReader(v, path: prefix + "ratings[\(i)]")
            try e.checkKnown(["recommendation", "activity", "rating", "at"])
            let activity: String
            if let id = try e.optionalString("recommendation", maxBytes: 120) {
                activity = try OfferID.parse(id, catalog: r.catalog, path: e.at("recommendation")).activity
            } else {
                activity = try e.string("activity", maxBytes: 100)
            }
            guard offers.contains(where: { $0.id.activity == activity }) else {
                throw ScoutError(.notFound, "rates an activity that was not offered (offered: \(offers.map(\.id.activity).joined(separator: ", ")))",
                                 path: e.at(e["recommendation"] != nil ? "recommendation" : "activity"))
            }
            ratings[activity] = Enjoyment(rawValue: try e.oneOf("rating", Enjoyment.allCases.map(\.rawValue)))!
        }
        return LoggedDecision(request: request, offers: offers, setPropensity: setPropensity ?? (offers.count == 1 ? offers[0].propensity : nil),
                              ratings: ratings, line: number)
    }
}
