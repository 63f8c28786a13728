import ScoutCatalog
import ScoutSolar
import ScoutTime

/// Why an activity is ruled out. Hard rules never trade off against scores: an activity that
/// breaks one is not offered, whatever its score.
public enum ExclusionCode: String, Sendable, CaseIterable {
    /// Not meant for the pet's life stage.
    case notForAge = "not_for_age"
    /// Too strenuous for a stated condition (or for a senior).
    case health
    /// The sun is more than 6° below the horizon at the start or the end.
    case dark
    /// Needs the sun up for the whole session.
    case needsDaylight = "needs_daylight"
    /// Above the highest safe temperature for this pet (coat, face, age, conditions).
    case tooHot = "too_hot"
    /// Below the lowest safe temperature for this pet.
    case tooCold = "too_cold"
    /// More rain than the activity tolerates.
    case rain
    /// A thunderstorm, storm, hail or storm-force wind: nothing outdoors.
    case storm
    /// Wind above the activity's limit.
    case wind
    /// The forecast given does not reach this time.
    case noForecast = "no_forecast"
    /// Needs the pet's home, and the pet is away.
    case awayFromHome = "away_from_home"
    /// Needs a place (beach, park, garden…) that is not within reach.
    case noPlace = "no_place_nearby"
    /// Starts or ends outside the waking hours.
    case outsideWakingHours = "outside_waking_hours"
    /// The calendar is busy at the start.
    case busy
    /// A busy interval starts before the session would end.
    case notEnoughTime = "not_enough_time"
}

/// One reason an activity is ruled out, with a plain-language message.
public struct Exclusion: Sendable, Equatable {
    /// The stable code.
    public let code: ExclusionCode
    /// What an owner reads ("27 °C: too hot for a double coat (limit 20 °C)").
    public let message: String
}

/// How an activity would be done when the rules allow it.
public enum ActivityMode: String, Sendable {
    /// Outside (an outdoor activity, or an either activity in good conditions).
    case outdoor
    /// Inside (an indoor activity, or an either activity moved in by weather or dark).
    case indoor
}

/// The hard rules for one pet in one context (`docs/recommender.md`, "Hard rules").
/// Built once per request; ``check(_:start:explain:into:)`` then costs a few comparisons per activity.
struct RuleBook {
    let pet: PetProfile
    let needs: PetNeeds
    let context: RecommendationContext
    let limits: RecommenderWeights.RuleLimits
    /// Changes to every activity's highest and lowest temperature, with their reasons.
    let hotterBy: [(delta: Double, reason: String)]
    let colderBy: [(delta: Double, reason: String)]
    let maxDelta: Double, minDelta: Double
    let away: Bool
    /// Limits read once from ``limits`` (dictionary reads are too slow per activity).
    let seniorMaxIntensity: Double, flatFaceMaxIntensity: Double, flatFaceAboveC: Double
    let isFlatFaced: Bool
    /// Light at the instants asked about so far (a request asks about a few dozen).
    private var daylightCache: [(t: Int64, light: Daylight)] = []

    init(pet: PetProfile, needs: PetNeeds, context: RecommendationContext, weights: RecommenderWeights) {
        self.pet = pet
        self.needs = needs
        self.context = context
        limits = weights.rules
        var hot: [(Double, String)] = [], cold: [(Double, String)] = []
        if pet.species == .dog, let b = pet.breed {
            if b.coatType == "Double" { hot.append((limits[.doubleCoatMaxC], "a double coat")) }
            if b.coatLength == "Long" { hot.append((limits[.longCoatMaxC], "a long coat")) }
            if b.coatType == "Hairless" {
                cold.append((limits[.hairlessMinC], "no coat"))
            } else if b.coatLength == "Short" && (b.coatType == "Smooth" || b.coatType == "Silky") {
                cold.append((limits[.thinCoatMinC], "a short, thin coat"))
            }
            if b.brachycephalic { hot.append((limits[.brachycephalicMaxC], "a flat-faced breed")) }
            let size = pet.sizeClass
            if size == .toy || size == .small { cold.append((limits[.smallDogMinC], "a small dog")) }
        }
        switch needs.lifeStage {
        case .puppy:
            hot.append((limits[.puppyMaxC], "a puppy"))
            cold.append((limits[.puppyMinC], "a puppy"))
        case .senior:
            hot.append((limits[.seniorMaxC], "a senior"))
            cold.append((limits[.seniorMinC], "a senior"))
        case .adult: break
        }
        for c in PetCondition.allCases where pet.conditions.contains(c) {
            if let d = limits.conditionMaxC[c.rawValue] { hot.append((d, c.words)) }
        }
        hotterBy = hot.filter { $0.0 != 0 }
        colderBy = cold.filter { $0.0 != 0 }
        maxDelta = hotterBy.reduce(0) { $0 + $1.delta }
        minDelta = colderBy.reduce(0) { $0 + $1.delta }
        away = context.isAway
        seniorMaxIntensity = limits[.seniorMaxIntensity]
        flatFaceMaxIntensity = limits[.brachycephalicMaxIntensity]
        flatFaceAboveC = limits[.brachycephalicIntensityAboveC]
        isFlatFaced = pet.breed?.brachycephalic == true
    }

    /// Light at `t`, memoised (a request asks about a few dozen distinct instants).
    mutating func daylight(_ t: Int64) -> Daylight {
        for c in daylightCache where c.t == t { return c.light }
        let d = Daylight.at(latitude: context.location.lat, longitude: context.location.lon, Instant(seconds: t))
        daylightCache.append((t, d))
        return d
    }

    /// The lowest and highest safe temperature of an activity for this pet. When the pet's
    /// adjustments push the minimum above the maximum, no temperature is safe: every
    /// temperature breaks one of the two.
    func temperatureLimits(_ a: Activity) -> (min: Double, max: Double) {
        (a.temperatureC.lowerBound + minDelta, a.temperatureC.upperBound + maxDelta)
    }

    /// Records a broken rule when explaining; tells the caller to stop when not.
    @inline(__always)
    private func broke(_ code: ExclusionCode, _ message: @autoclosure () -> String, _ explain: Bool, _ out: inout [Exclusion]) -> Bool {
        if explain { out.append(Exclusion(code: code, message: message())) }
        return !explain
    }

    /// Checks an activity for a session starting at `start` (UTC seconds). Returns how it
    /// would be done, or `nil` when a rule rules it out; with `explain`, every broken rule
    /// is appended to `out` with its message, else the check stops at the first one and
    /// builds no text (the next-window search).
    mutating func check(_ a: Activity, start: Int64, explain: Bool, into out: inout [Exclusion]) -> ActivityMode? {
        let before = out.count
        let end = start + Int64(a.minutes) * 60
        let stage = needs.lifeStage
        if !a.suits(stage),
           broke(.notForAge, "not for \(stage == .puppy ? "puppies" : stage == .senior ? "seniors" : "adults")", explain, &out) { return nil }
        if a.intensity > needs.maxIntensity.value, let c = needs.maxIntensity.because {
            if broke(.health, "too strenuous with \(c.words) (intensity \(a.intensity)/5, at most \(needs.maxIntensity.value))", explain, &out) { return nil }
        } else if stage == .senior, Double(a.intensity) > seniorMaxIntensity,
                  broke(.health, "too strenuous for a senior (intensity \(a.intensity)/5)", explain, &out) { return nil }
        if away && !a.awayOK, broke(.awayFromHome, "needs home, and \(pet.displayName) is away", explain, &out) { return nil }
        if let place = a.place {
            if place == "garden" && !context.hasGarden {
                if broke(.noPlace, "needs a garden", explain, &out) { return nil }
            } else if let nearby = context.nearby, place != "home", place != "garden", !nearby.contains(place),
                      broke(.noPlace, "no \(place.replacingOccurrences(of: "_", with: " ")) within reach", explain, &out) { return nil }
        }
        if !context.isWaking(minute: context.minuteOfDay(start)) || !context.isWaking(minute: context.minuteOfDay(end - 60)) {
            let ws = context.wakingHours.startMinute, we = context.wakingHours.endMinute
            if broke(.outsideWakingHours, "outside waking hours (\(RecommendationContext.clock(ws))–\(RecommendationContext.clock(we)))",
                     explain, &out) { return nil }
        }
        if let b = context.busyConflict(from: start, to: end) {
            if b.start <= start {
                if broke(.busy, "busy until \(context.clock(b.end))", explain, &out) { return nil }
            } else if broke(.notEnoughTime, "only \((b.start - start) / 60) min before \(context.clock(b.start)); it takes \(a.minutes)",
                            explain, &out) { return nil }
        }
        if out.count > before { return nil }
        if a.setting == .indoor { return .indoor }
        let outdoorStart = out.count
        if outdoorRules(a, start: start, end: end, explain: explain, into: &out) { return .outdoor }
        if a.setting == .either {
            out.removeSubrange(outdoorStart...)
            return .indoor
        }
        return nil
    }

    /// The rules for doing an activity outside: weather, temperature for this pet, light.
    /// True when all pass; otherwise false, with the broken rules in `out` when explaining.
    mutating func outdoorRules(_ a: Activity, start: Int64, end: Int64, explain: Bool, into out: inout [Exclusion]) -> Bool {
        guard let sky = context.worstWeather(from: start, to: end) else {
            _ = broke(.noForecast, "the forecast does not reach \(context.clock(end))", explain, &out)
            return false
        }
        let before = out.count
        let wind = sky.wind
        if let storm = sky.stormy {
            if broke(.storm, "\(storm.condition.words): nothing outdoors", explain, &out) { return false }
        } else if wind >= limits.stormWindKmh {
            if broke(.storm, "storm-force wind (\(Int(wind)) km/h): nothing outdoors", explain, &out) { return false }
        } else if wind > a.maxWindKmh, broke(.wind, "wind \(Int(wind)) km/h, above \(Int(a.maxWindKmh)) km/h", explain, &out) {
            return false
        }
        let wet = sky.wettest, rain = wet.precipitationMmH
        if a.rain == .none && rain > limits.dryMmH {
            if broke(.rain, "\(wet.condition.impliedPrecipitationMmH > 0 ? wet.condition.words : "wet") (\(RuleBook.mm(rain)) mm/h): needs dry weather",
                     explain, &out) { return false }
        } else if a.rain == .light && rain > limits.lightRainMmH,
                  broke(.rain, "heavy rain (\(RuleBook.mm(rain)) mm/h): light rain at most", explain, &out) { return false }
        let range = temperatureLimits(a)
        let hot = sky.hot, cold = sky.cold
        if hot > range.max {
            let why = hotterBy.isEmpty ? "" : " for " + hotterBy.map(\.reason).joined(separator: " and ")
            if broke(.tooHot, "\(RuleBook.degrees(hot)): too hot\(why) (limit \(RuleBook.degrees(range.max)))", explain, &out) { return false }
        } else if isFlatFaced, Double(a.intensity) > flatFaceMaxIntensity, hot > flatFaceAboveC,
                  broke(.tooHot, "\(RuleBook.degrees(hot)): too strenuous for a flat-faced breed above \(RuleBook.degrees(flatFaceAboveC))",
                        explain, &out) { return false }
        if cold < range.min {
            let why = colderBy.isEmpty ? "" : " for " + colderBy.map(\.reason).joined(separator: " and ")
            if broke(.tooCold, "\(RuleBook.degrees(cold)): too cold\(why) (limit \(RuleBook.degrees(range.min)))", explain, &out) { return false }
        }
        let light0 = daylight(start), light1 = daylight(end)
        if (light0 == .dark || light1 == .dark) && !(context.allowsAfterDark && !a.needsDaylight) {
            if broke(.dark, light0 == .dark ? "dark outside" : "dark by \(context.clock(end))", explain, &out) { return false }
        } else if a.needsDaylight && (light0 != .day || light1 != .day),
                  broke(.needsDaylight, light0 != .day ? "needs daylight: the sun is down" : "needs daylight: the sun sets before \(context.clock(end))",
                        explain, &out) { return false }
        return out.count == before
    }

    /// `13 °C` (whole degrees; halves kept).
    static func degrees(_ t: Double) -> String {
        let r = (t * 2).rounded() / 2
        return (r == r.rounded() ? String(Int(r)) : String(r)) + " °C"
    }

    /// Precipitation with one decimal.
    static func mm(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
