import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutRanking
import ScoutRecommend
import ScoutRecommendJSON
import ScoutSchedule
import ScoutSolar
import ScoutText
import ScoutTime

/// The recommender's ops: `recommend_activities`, `progress`, `recommend_dogs`, `rank_gyms`
/// (`docs/protocol.md`, `docs/recommender.md`). `schedule` is one call into ScoutSchedule.
extension Worker {
    /// Most log entries or feedback items in one request.
    static let maximumHistory = 10_000
    /// Most forecast hours in one request.
    static let maximumForecast = 72

    /// The recommender (this thread's copy, when the worker makes copies), or `not_found`
    /// when the worker has none.
    func requireRecommender() throws(ScoutError) -> Recommender {
        if let replicas { return replicas.local }
        guard let r = recommender else {
            throw ScoutError(.notFound, "ranking needs the recommender's data (activities.json, weights.json): start scout serve with --data")
        }
        return r
    }

    func recommendActivities(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        let r = try requireRecommender()
        var places = ResolvedPlaces()
        let request = try activityRequest(f, r, &places)
        let context = request.context, now = context.now
        let answer = r.recommendActivities(request)

        w.objectStart()
        w.key("weights_version"); w.string(answer.weightsVersion)
        w.key("prior_version"); w.string(answer.priorVersion)
        w.key("catalogue_version"); w.string(answer.catalogueVersion)
        w.key("mode"); w.string(answer.mode.rawValue)
        w.key("seed"); w.int(Int(answer.seed & ((1 << 53) - 1)))
        writeResolved(places, &w)
        w.key("pet"); writeNeeds(answer.needs, &w)
        w.key("notes"); w.arrayStart(); for n in answer.notes { w.string(n) }; w.arrayEnd()
        w.key("context"); w.objectStart()
        w.key("local_time"); w.string(context.local(now.seconds).rfc3339)
        w.key("daylight"); w.string(answer.daylight.rawValue)
        w.key("away"); w.bool(answer.away)
        w.objectEnd()
        w.key("set_propensity"); w.number(answer.setPropensity)
        w.key("recommendations"); writeRecommendations(answer.recommendations, &w)
        w.key("excluded"); w.arrayStart()
        for x in answer.excluded {
            w.objectStart()
            w.key("activity"); w.string(x.activity.id)
            w.key("name"); w.string(x.activity.name)
            w.key("reasons"); w.arrayStart()
            for reason in x.reasons {
                w.objectStart(); w.key("code"); w.string(reason.code.rawValue); w.key("message"); w.string(reason.message); w.objectEnd()
            }
            w.arrayEnd()
            w.objectEnd()
        }
        w.arrayEnd()
        w.key("next_window")
        if let next = answer.nextWindow {
            w.objectStart()
            w.key("at"); w.string(next.at.rfc3339)
            w.key("set_propensity"); w.number(next.setPropensity)
            w.key("recommendations"); writeRecommendations(next.recommendations, &w)
            w.objectEnd()
        } else {
            w.null()
        }
        w.objectEnd()
    }

    /// The ``ActivityRequest`` of a `recommend_activities` request (inline pet), with the
    /// places it resolved.
    func activityRequest(_ f: RequestFields, _ r: Recommender, _ places: inout ResolvedPlaces) throws(ScoutError) -> ActivityRequest {
        let body = f.reader
        let (pet, now, zone) = try petAndClock(f, r, &places)
        var location: GeoPoint?
        if f.has("location") { location = try self.location(f, "location", &places) }
        var home: (point: GeoPoint, radiusM: Double)?
        if f.has("home") {
            let point = try self.location(f, "home", &places, extra: ["radius_m"])
            let radius = try FieldReader(f.object["home"]!, path: "home").optionalNumber("radius_m", in: 1...100_000)
            home = (point, radius ?? r.weights.rules.homeRadiusM)
        }
        guard let here = location ?? home?.point else {
            throw ScoutError(.invalidRequest, "location is required (or home, when the pet is at home)", path: "location")
        }
        guard let weatherReader = try body.object("weather") else {
            throw ScoutError(.invalidRequest, "weather is required: {\"temperature_c\", \"precipitation_mm_h\", \"condition\", \"wind_kmh\"}", path: "weather")
        }
        try weatherReader.checkKnown(Worker.weatherFields + ["forecast"])
        var forecast: [(at: Instant, weather: Weather)] = []
        for (i, v) in try weatherReader.array("forecast", maxCount: Worker.maximumForecast).enumerated() {
            let e = try FieldReader(v, path: "weather.forecast[\(i)]")
            try e.checkKnown(Worker.weatherFields + ["at"])
            forecast.append((try Instant.parse(try e.string("at", maxBytes: 40), path: e.at("at")), try Weather.read(e)))
        }
        var nearby: Set<String>?
        if body["nearby"] != nil {
            var set = Set<String>()
            for (i, v) in try body.array("nearby", maxCount: 20).enumerated() {
                guard let s = v.string, Worker.placeWords.contains(s) else {
                    throw ScoutError(.invalidRequest, "nearby places are among \(Worker.placeWords.joined(separator: ", "))", path: "nearby[\(i)]")
                }
                set.insert(s)
            }
            nearby = set
        }
        let context = RecommendationContext(
            now: now, zone: zone, location: here, home: home, weather: try Weather.read(weatherReader), forecast: forecast,
            busy: try BusyInterval.readList(body, key: "busy"), wakingHours: try WakingHours.read(body, key: "waking_hours"),
            nearby: nearby, hasGarden: try body.bool("has_garden", default: true), allowsAfterDark: try body.bool("after_dark", default: false))
        var seed: UInt64?
        if body["seed"] != nil { seed = UInt64(try body.integer("seed", in: 0...(1 << 53))) }
        return ActivityRequest(
            pet: pet, context: context, log: try log(body, r), feedback: try feedback(body, r),
            count: try body.integer("count", in: 1...10, default: 2),
            mode: ActivityRequest.Mode(rawValue: try body.oneOf("mode", ActivityRequest.Mode.allCases.map(\.rawValue), default: "explore"))!,
            seed: seed, weights: try r.weights.overriding(body["weights"], group: .activity, path: "weights"))
    }

    func progress(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        let r = try requireRecommender()
        let body = f.reader
        var places = ResolvedPlaces()
        let (pet, now, zone) = try petAndClock(f, r, &places)
        let today = now.localDate(in: zone)
        var first = today.adding(days: -(today.weekday - 1))
        if let text = try body.optionalString("week_start", maxBytes: 20) { first = try LocalDate.parse(text, path: "week_start") }
        func midnight(_ d: LocalDate) -> Instant {
            if let zone { return zone.instant(of: LocalDateTime(date: d, hour: 0, minute: 0)!) }
            return Instant(seconds: d.daysSinceEpoch * 86_400 - Int64(now.utcOffsetSeconds), utcOffsetSeconds: now.utcOffsetSeconds)
        }
        let p = r.progress(pet: pet, log: try log(body, r), from: midnight(first), to: midnight(first.adding(days: 7)), zone: zone, now: now)
        w.objectStart()
        w.key("weights_version"); w.string(r.weights.version)
        writeResolved(places, &w)
        w.key("week"); w.objectStart()
        w.key("start"); w.string(p.start.rfc3339)
        w.key("end"); w.string(p.end.rfc3339)
        w.objectEnd()
        w.key("pet"); writeNeeds(p.needs, &w)
        w.key("notes"); w.arrayStart(); for n in p.notes { w.string(n) }; w.arrayEnd()
        w.key("categories"); w.arrayStart()
        for c in p.categories {
            w.objectStart()
            w.key("category"); w.string(c.category.rawValue)
            w.key("unit"); w.string(c.category.unit)
            w.key("done"); w.number(c.done, decimals: 1)
            w.key("goal"); w.number(c.goal, decimals: 1)
            w.key("share"); if let s = c.share { w.number(s, decimals: 4) } else { w.null() }
            w.key("met"); w.bool(c.missing == 0)
            w.objectEnd()
        }
        w.arrayEnd()
        w.key("share_met"); w.number(p.shareMet, decimals: 4)
        w.key("biggest_gap")
        if let g = p.biggestGap {
            w.objectStart()
            w.key("category"); w.string(g.category.rawValue)
            w.key("unit"); w.string(g.category.unit)
            w.key("missing"); w.number(g.missing, decimals: 1)
            w.objectEnd()
        } else {
            w.null()
        }
        w.key("care_goals"); writeCareGoals(p.careGoals, &w)
        w.key("care_log"); w.objectStart()
        for t in CareType.allCases { w.key(t.rawValue); w.int(p.careLog[t] ?? 0) }
        w.objectEnd()
        w.objectEnd()
    }

    func recommendDogs(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        let r = try requireRecommender()
        let body = f.reader
        var places = ResolvedPlaces()
        var met = Set<String>()
        for (i, v) in try body.array("met", maxCount: Worker.maximumHistory).enumerated() {
            switch v {
            case .string(let s): met.insert(s)
            case .number(let t): met.insert(t)
            default: throw ScoutError(.invalidRequest, "met holds dog ids", path: "met[\(i)]")
            }
        }
        // A dog lover's profile stands in for experience, has_dog and activity_level.
        let experience: Double?, bringsDog: Bool?, activityLevel: Double?
        if f.has("lover") {
            if let both = ["experience", "has_dog", "activity_level"].first(where: { f.has($0) }) {
                throw ScoutError(.invalidRequest, "\(both) comes from the lover's profile; give either lover or the profile fields", path: both)
            }
            let id = try Worker.id(body["lover"], path: "lover")
            guard let hit = try engine.get(kind: "lover", ids: [id])[0], case .lover(let l) = hit.record else {
                throw ScoutError(.notFound, "no dog lover has that id", path: "lover")
            }
            experience = Double(l.experience); bringsDog = l.hasDog; activityLevel = Double(l.activityLevel)
        } else {
            experience = try body.number("experience", in: 1...5)
            bringsDog = try body.bool("has_dog", default: false)
            activityLevel = try body.optionalNumber("activity_level", in: 1...5) ?? 3
        }
        let q = DogMatchQuery(
            from: try location(f, "from", &places), radius: try distance(body, "radius_m", default: 5000),
            experience: experience!, bringsDog: bringsDog!, activityLevel: activityLevel!, met: met,
            limit: try body.integer("limit", in: 1...1000, default: 20), filter: try filter(f, kind: "dog", &places),
            weights: try r.weights.overriding(body["weights"], group: .dogs, path: "weights"))
        try writeRanked(try PlaceRanker(engine: engine, weights: r.weights).recommendDogs(q), places, today: try today(f), fields: try FieldSelection.read(f, kind: "dog"), &w)
    }

    func rankGyms(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        let r = try requireRecommender()
        let body = f.reader
        var places = ResolvedPlaces()
        let now = try Instant.parse(try body.string("now", maxBytes: 40), path: "now")
        let q = GymRankQuery(
            from: try location(f, "from", &places), radius: try distance(body, "radius_m", default: 4000), now: now,
            limit: try body.integer("limit", in: 1...1000, default: 20), filter: try filter(f, kind: "gym"),
            weights: try r.weights.overriding(body["weights"], group: .gyms, path: "weights"))
        try writeRanked(try PlaceRanker(engine: engine, weights: r.weights).rankGyms(q), places, today: now.localDate, fields: try FieldSelection.read(f, kind: "gym"), &w)
    }

    // MARK: Reading

    /// The fields of a weather report.
    static let weatherFields = ["temperature_c", "precipitation_mm_h", "condition", "wind_kmh"]

    /// The place words `nearby` takes.
    static let placeWords = ["park", "beach", "dog_park", "trail", "water", "city"]

    /// `pet`, `now` and the zone local time is read in: `timezone` when given, else the zone
    /// of the request's place (`location`, else `home`): a place name's gazetteer zone, or
    /// the time-zone map's zone of a lat/lon point. `nil` only when the request names no
    /// place at all (UTC then) or a point no zone covers.
    private func petAndClock(_ f: RequestFields, _ r: Recommender, _ resolved: inout ResolvedPlaces) throws(ScoutError) -> (PetProfile, Instant, Zone?) {
        let body = f.reader
        guard let petJSON = body["pet"] else { throw ScoutError(.invalidRequest, "pet is required", path: "pet") }
        // Breeds by other names ("Lab") are read as the breed they name, said under `resolved`.
        let pet = try PetProfile.read(petJSON, breeds: r.breeds, path: "pet")
        if let given = petJSON["breed"]?.string, let breed = pet.breed, TextFolding.fold(given) != TextFolding.fold(breed.name),
           r.breeds.breed(named: given) != nil {
            resolved.breeds.append(("pet.breed", given, breed.name))
        }
        let now = try Instant.parse(try body.string("now", maxBytes: 40), path: "now")
        var zone: Zone?
        if let id = try body.optionalString("timezone", maxBytes: 64) {
            zone = try engine.catalog.zones.zone(id, path: "timezone")
        } else {
            zone = try zoneOfPlace(f)
        }
        guard pet.birthDate <= now.localDate(in: zone) else { throw ScoutError(.invalidRequest, "birth_date is after now", path: "pet.birth_date") }
        return (pet, now, zone)
    }

    /// The zone of the request's `location` (else `home`), when it has one.
    private func zoneOfPlace(_ f: RequestFields) throws(ScoutError) -> Zone? {
        for key in ["location", "home"] where f.has(key) {
            var places = ResolvedPlaces()
            let point = try location(f, key, &places, extra: key == "home" ? ["radius_m"] : [])
            let id = places.list.first?.resolution.place.timeZone ?? engine.timeZoneIdentifier(at: point)
            guard let id, !id.isEmpty else { return nil }
            return try engine.catalog.zones.zone(id, path: key)
        }
        return nil
    }

    /// A distance in metres, up to 200 km.
    private func distance(_ body: FieldReader, _ key: String, default value: Double) throws(ScoutError) -> Double {
        guard body[key] != nil else { return value }
        let d = try body.number(key, in: 0...Double.greatestFiniteMagnitude)
        guard d <= 200_000 else { throw ScoutError(.limitExceeded, "\(key) must be at most 200 km", path: key) }
        return d
    }

    /// `log`: `[{"type", "start", "minutes"}]`. `type` (or its older name `activity`, not
    /// both) is a care type (`feeding`, `walk`, `vet_visit`, `grooming`, `medication`,
    /// `other`) or an activity of the catalogue; an unknown one is `invalid_request` naming
    /// the closest types. `minutes` is required for an activity, optional (0) for care.
    private func log(_ body: FieldReader, _ r: Recommender) throws(ScoutError) -> [LogEntry] {
        var out: [LogEntry] = []
        for (i, v) in try body.array("log", maxCount: Worker.maximumHistory).enumerated() {
            let e = try FieldReader(v, path: "log[\(i)]")
            try e.checkKnown(["type", "activity", "start", "minutes"])
            let type = try logType(e, r)
            let start = try Instant.parse(try e.string("start", maxBytes: 40), path: e.at("start"))
            let minutes: Double
            if type.activityID != nil { minutes = try e.number("minutes", in: 0...1440) } else { minutes = try e.optionalNumber("minutes", in: 0...1440) ?? 0 }
            out.append(LogEntry(type: type, start: start, minutes: minutes))
        }
        return out
    }

    /// A log entry's `type`, or its older name `activity`: exactly one of the two.
    private func logType(_ e: FieldReader, _ r: Recommender) throws(ScoutError) -> LogType {
        let key: String
        switch (e["type"] != nil, e["activity"] != nil) {
        case (true, true): throw ScoutError(.invalidRequest, "give type or activity (its older name), not both", path: e.at("activity"))
        case (false, false):
            throw ScoutError(.invalidRequest, "type is required: a care type (\(CareType.allCases.map(\.rawValue).joined(separator: ", "))) or an activity id",
                             path: e.at("type"))
        case (true, false): key = "type"
        case (false, true): key = "activity"
        }
        return try r.logTypes.read(try e.string(key, maxBytes: 100), path: e.at(key))
    }

    /// `feedback`: `[{"recommendation" or "activity", "rating", "over", "at"}]`: a rating names
    /// the offer it answers (`recommendations[].id`, then it is learnt in that offer's moment),
    /// or an activity; with both, they must agree. `over` lists the offers of the same answer
    /// passed over for the one taken (it needs `recommendation`); `rating` may then be left out.
    func feedback(_ body: FieldReader, _ r: Recommender) throws(ScoutError) -> [Feedback] {
        var out: [Feedback] = []
        for (i, v) in try body.array("feedback", maxCount: Worker.maximumHistory).enumerated() {
            let e = try FieldReader(v, path: "feedback[\(i)]")
            try e.checkKnown(["recommendation", "activity", "rating", "over", "at"])
            let ratings = Enjoyment.allCases.map(\.rawValue)
            let at = try Instant.parse(try e.string("at", maxBytes: 40), path: e.at("at"))
            if let id = try e.optionalString("recommendation", maxBytes: 120) {
                let offer = try OfferID.parse(id, catalog: r.catalog, path: e.at("recommendation"))
                if let named = try e.optionalString("activity", maxBytes: 100), named != offer.activity {
                    throw ScoutError(.invalidRequest, "activity is not the activity of the recommendation (\(offer.activity)); give one of the two",
                                     path: e.at("activity"))
                }
                // Absent: the other offer the id names (an answer of two), if any.
                var over: [OfferID]? = e["over"] == nil ? nil : []
                for (j, item) in try e.array("over", maxCount: 9).enumerated() {
                    guard let text = item.string else {
                        throw ScoutError(.invalidRequest, "over must list offer ids (recommendations[].id), not \(item.typeName)", path: e.at("over") + "[\(j)]")
                    }
                    let passed = try OfferID.parse(text, catalog: r.catalog, path: e.at("over") + "[\(j)]")
                    guard passed.activity != offer.activity else {
                        throw ScoutError(.invalidRequest, "over lists the offers passed over, not the one taken (\(offer.activity))",
                                         path: e.at("over") + "[\(j)]")
                    }
                    over?.append(passed)
                }
                // A choice alone (the offer taken, not rated yet) needs no rating.
                let passedOver = over ?? offer.others
                let rating = passedOver.isEmpty || e["rating"] != nil ? Enjoyment(rawValue: try e.oneOf("rating", ratings))! : nil
                out.append(Feedback(offer: offer, rating: rating, over: over, at: at))
            } else {
                guard e["activity"] != nil else {
                    throw ScoutError(.invalidRequest, "recommendation (an offer's id) or activity is required", path: e.at("recommendation"))
                }
                guard e["over"] == nil else {
                    throw ScoutError(.invalidRequest, "over needs recommendation: the id of the offer taken", path: e.at("over"))
                }
                let rating = Enjoyment(rawValue: try e.oneOf("rating", ratings))!
                out.append(Feedback(activity: try knownActivity(e, r), rating: rating, at: at))
            }
        }
        return out
    }

    /// `activity`: an id of the catalogue (feedback is about activities, not care); an unknown
    /// one is `not_found` naming the closest ids.
    private func knownActivity(_ e: FieldReader, _ r: Recommender) throws(ScoutError) -> String {
        let id = try e.string("activity", maxBytes: 100)
        guard r.catalog.activity(id: id) != nil else {
            throw ScoutError(.notFound, "unknown activity\(Suggestions.hint(for: id, among: r.logTypes.activityIDs)); ids are listed in docs/activities.md",
                             path: e.at("activity"))
        }
        return id
    }

    // MARK: Writing

    private func writeNeeds(_ n: PetNeeds, _ w: inout JSONWriter) {
        w.objectStart()
        w.key("species"); w.string(n.species.rawValue)
        w.key("generic_needs"); w.bool(n.isGeneric)
        w.key("age_years"); w.number(n.ageYears, decimals: 1)
        w.key("life_stage"); w.string(n.lifeStage.rawValue)
        w.key("weight_status"); w.string(n.weightStatus.rawValue)
        w.key("target_intensity"); w.number(n.targetIntensity, decimals: 1)
        w.key("weekly_goals"); w.objectStart()
        for c in ActivityCategory.allCases {
            w.key(c.rawValue); w.objectStart()
            w.key(c.unit); w.number(n.goals[c.ordinal], decimals: 1)
            w.objectEnd()
        }
        w.objectEnd()
        w.objectEnd()
    }

    /// `progress`'s `care_goals`: per goal the range expected, what the log shows and what is
    /// missing; per-day goals also list their days.
    private func writeCareGoals(_ goals: [CareGoalProgress], _ w: inout JSONWriter) {
        w.arrayStart()
        for g in goals {
            w.objectStart()
            w.key("goal"); w.string(g.rule.name)
            w.key("per"); w.string(g.rule.period.rawValue)
            w.key("at_least"); w.int(g.expected.atLeast)
            w.key("at_most"); if let m = g.expected.atMost { w.int(m) } else { w.null() }
            w.key("counts"); w.arrayStart(); for t in g.rule.counts { w.string(t.word) }; w.arrayEnd()
            if let note = g.rule.note { w.key("note"); w.string(note) }
            w.key("done"); w.int(g.done)
            if g.rule.period == .day {
                w.key("days_judged"); w.int(g.judged)
                w.key("days_met"); w.int(g.periodsMet)
                w.key("days"); w.arrayStart()
                for d in g.days {
                    w.objectStart()
                    w.key("date"); w.string(d.date.description)
                    w.key("done"); w.int(d.done)
                    w.key("judged"); w.bool(d.judged)
                    w.key("met"); w.bool(d.met)
                    w.objectEnd()
                }
                w.arrayEnd()
            }
            w.key("missing"); w.int(g.missing)
            w.key("extra"); w.int(g.extra)
            w.key("met"); w.bool(g.met)
            w.objectEnd()
        }
        w.arrayEnd()
    }

    /// `activities`: the catalogue's activities by id (`ids`, at most 1,000), with how to do
    /// them and their benefits (the recommender app's debrief), and the ids it does not have.
    func activities(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        let r = try requireRecommender()
        let ids = try Worker.ids(f, maximum: Engine.maximumGetIds)
        w.objectStart()
        w.key("catalogue_version"); w.string(r.catalog.version)
        w.key("results"); w.arrayStart()
        for id in ids {
            guard let a = r.catalog.activity(id: id) else { continue }
            w.objectStart()
            w.key("activity"); w.string(a.id)
            w.key("name"); w.string(a.name)
            w.key("species"); w.arrayStart(); for s in a.species.map(\.rawValue).sorted() { w.string(s) }; w.arrayEnd()
            w.key("category"); w.string(a.category.rawValue)
            w.key("setting"); w.string(a.setting.rawValue)
            w.key("intensity"); w.int(a.intensity)
            w.key("minutes"); w.int(a.minutes)
            w.key("how"); w.string(a.how)
            w.key("benefits"); w.arrayStart(); for b in a.benefits { w.string(b) }; w.arrayEnd()
            w.objectEnd()
        }
        w.arrayEnd()
        w.key("missing"); w.arrayStart()
        for id in ids where r.catalog.activity(id: id) == nil { w.string(id) }
        w.arrayEnd()
        w.objectEnd()
    }

    private func writeRecommendations(_ list: [ActivityRecommendation], _ w: inout JSONWriter) {
        w.arrayStart()
        for rec in list {
            let a = rec.activity
            w.objectStart()
            w.key("id"); w.string(rec.id.description)
            w.key("activity"); w.string(a.id)
            w.key("propensity"); w.number(rec.propensity, decimals: 6)
            w.key("name"); w.string(a.name)
            w.key("category"); w.string(a.category.rawValue)
            w.key("mode"); w.string(rec.mode.rawValue)
            w.key("intensity"); w.int(a.intensity)
            w.key("minutes"); w.int(a.minutes)
            rec.breakdown.write(into: &w)
            w.key("reasons"); w.arrayStart(); for s in rec.reasons { w.string(s) }; w.arrayEnd()
            w.key("how"); w.string(a.how)
            w.objectEnd()
        }
        w.arrayEnd()
    }

    private func writeRanked(_ r: RankedResult, _ places: ResolvedPlaces, today: LocalDate, fields: FieldSelection, _ w: inout JSONWriter) throws(ScoutError) {
        w.objectStart()
        w.key("weights_version"); w.string(r.weightsVersion)
        w.key("total"); w.int(r.total)
        writeResolved(places, &w)
        w.key("results"); w.arrayStart()
        for h in r.hits {
            writeHit(h.hit, today: today, fields: fields, &w) { w in h.breakdown.write(into: &w) }
        }
        w.arrayEnd()
        w.objectEnd()
    }
}
