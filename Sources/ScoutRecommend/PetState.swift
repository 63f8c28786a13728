import ScoutCatalog
import ScoutSolar
import ScoutTime

/// Everything about the pet a request scores with, computed once: this week's gaps, when
/// each activity was last done, and what it enjoys (``EnjoymentModel``).
struct PetState {
    let pet: PetProfile
    let needs: PetNeeds
    let catalog: ActivityCatalog
    let context: RecommendationContext
    /// Done in the last 7 days per category (minutes or sessions), by ordinal.
    let done: [Double]
    /// Share of each goal still open, 0–1, by ordinal.
    let gaps: [Double]
    /// Seconds since each activity was last done, by catalogue position (`nil`: never).
    let lastDone: [Int64?]
    /// Activities done in the 60 hours before `now`: position, category ordinal, seconds ago.
    let recent: [(index: Int, category: ActivityCategory, age: Int64)]
    let enjoyment: EnjoymentModel
    let noveltyDays: Double
    /// Individual-fit bonuses, read once from the weights.
    let fitBonus: (seniorMental: Double, lowImpact: Double, lowImpactUpTo: Double)
    /// The term weights, in ``ActivityTerm/allCases`` order; the enjoyment weight grown with
    /// the pet's evidence (``RecommenderWeights/enjoymentWeight(evidence:)``).
    let weightVector: (Double, Double, Double, Double, Double)

    /// The local hour and weekday at `now` (most moments are asked at `now`).
    let clockNow: (hour: Int, weekday: Int)

    /// How long an activity counts as just done for ``Moment/repeatedActivity``, seconds.
    static let repeatWindow: Int64 = 36 * 3600

    init(request: ActivityRequest, needs: PetNeeds, catalog: ActivityCatalog, weights: RecommenderWeights, prior: EnjoymentPrior) {
        pet = request.pet
        self.needs = needs
        self.catalog = catalog
        context = request.context
        let now = context.now.seconds
        var done = [Double](repeating: 0, count: ActivityCategory.allCases.count)
        var last = [Int64?](repeating: nil, count: catalog.activities.count)
        var recent: [(index: Int, category: ActivityCategory, age: Int64)] = []
        for e in request.log {
            guard e.start.seconds <= now, let counted = e.counted(in: catalog, weights: weights) else { continue }
            let age = now - e.start.seconds
            if let i = counted.index {
                if last[i] == nil || age < last[i]! { last[i] = age }
                if age < PetState.repeatWindow + Recommender.windowHorizon { recent.append((i, counted.category, age)) }
            }
            let c = counted.category
            if age < 7 * 86_400 { done[c.ordinal] += c.countsMinutes ? e.minutes : 1 }
        }
        self.done = done
        gaps = zip(done, needs.goals).map { d, g in g > 0 ? max(0, 1 - d / g) : 0 }
        lastDone = last
        self.recent = recent
        enjoyment = EnjoymentModel(feedback: request.feedback, catalog: catalog, now: request.context.now, weights: weights, prior: prior,
                                   pet: PetFeatures(pet: request.pet, needs: needs))
        noveltyDays = weights.noveltyDays
        clockNow = (context.minuteOfDay(now) / 60, Instant(seconds: now, utcOffsetSeconds: context.utcOffset(at: now)).localDate.weekday)
        fitBonus = (weights[FitParameter.seniorMentalBonus], weights[FitParameter.overweightLowImpactBonus],
                    weights[FitParameter.overweightIntensityCap])
        let k = weights.activityTerms
        weightVector = (k[.needsGap], k[.individualFit], weights.enjoymentWeight(evidence: enjoyment.evidence), k[.novelty], k[.context])
    }

    /// What a decision at `t` knows about doing activity `i` in `mode` (the offer id carries it).
    func moment(_ i: Int, mode: ActivityMode, at t: Int64, rules: inout RuleBook) -> Moment {
        let a = catalog.activities[i]
        let w = context.weather(at: t) ?? context.weather
        let shift = t - context.now.seconds
        let clock = shift == 0 ? clockNow
            : (context.minuteOfDay(t) / 60, Instant(seconds: t, utcOffsetSeconds: context.utcOffset(at: t)).localDate.weekday)
        let repeated = lastDone[i].map { $0 + shift <= PetState.repeatWindow } ?? false
        let sameCategory = recent.contains { $0.index != i && $0.category == a.category && $0.age + shift <= PetState.repeatWindow }
        return Moment(mode: mode, wet: w.precipitationMmH > rules.limits.dryMmH, temperatureC: Int(w.temperatureC.rounded()),
                      daylight: rules.daylight(t), hour: clock.0, weekday: clock.1,
                      away: rules.away, repeatedActivity: repeated, repeatedCategory: sameCategory)
    }

    /// The five term values of activity `i` done in `mode` at `t`, in
    /// ``ActivityTerm/allCases`` order.
    @inline(__always)
    func values(_ i: Int, mode: ActivityMode, at t: Int64, rules: inout RuleBook, weights w: RecommenderWeights)
        -> (Double, Double, Double, Double, Double) {
        let a = catalog.activities[i]
        let novelty = lastDone[i].map { min(1, Double($0 + (t - context.now.seconds)) / 86_400 / noveltyDays) } ?? 1
        let enjoyed = enjoyment.mean(i, a, moment(i, mode: mode, at: t, rules: &rules))
        return (gaps[a.category.ordinal], fit(a, weights: w), enjoyed, novelty, contextValue(a, mode: mode, at: t, rules: &rules))
    }

    /// The score of activity `i` done in `mode` at `t`, without building its breakdown.
    func score(_ i: Int, mode: ActivityMode, at t: Int64, rules: inout RuleBook, weights w: RecommenderWeights) -> Double {
        let v = values(i, mode: mode, at: t, rules: &rules, weights: w)
        let k = weightVector
        return k.0 * v.0 + k.1 * v.1 + k.2 * v.2 + k.3 * v.3 + k.4 * v.4
    }

    /// The five terms of activity `i` done in `mode` at `t`.
    func terms(_ i: Int, mode: ActivityMode, at t: Int64, rules: inout RuleBook, weights w: RecommenderWeights) -> ScoreBreakdown {
        let v = values(i, mode: mode, at: t, rules: &rules, weights: w)
        let k = weightVector
        return ScoreBreakdown([
            ScoreTerm(name: ActivityTerm.needsGap.rawValue, value: v.0, weight: k.0),
            ScoreTerm(name: ActivityTerm.individualFit.rawValue, value: v.1, weight: k.1),
            ScoreTerm(name: ActivityTerm.enjoyment.rawValue, value: v.2, weight: k.2),
            ScoreTerm(name: ActivityTerm.novelty.rawValue, value: v.3, weight: k.3),
            ScoreTerm(name: ActivityTerm.context.rawValue, value: v.4, weight: k.4),
        ])
    }

    /// How well the activity's intensity and kind suit this pet (1 best).
    func fit(_ a: Activity, weights w: RecommenderWeights) -> Double {
        var v = 1 - abs(Double(a.intensity) - needs.targetIntensity) / 4
        if needs.lifeStage == .senior && a.category == .mental { v += fitBonus.seniorMental }
        if needs.weightStatus == .over && a.category == .physical && Double(a.intensity) <= fitBonus.lowImpactUpTo {
            v += fitBonus.lowImpact
        }
        return min(1, max(0, v))
    }

    /// Whether the weather and light at `t` make outdoors unpleasant (rain, dark, cold, heat).
    func outdoorsPoor(at t: Int64, rules: inout RuleBook) -> Bool {
        guard let w = context.weather(at: t) else { return true }
        return w.precipitationMmH > rules.limits.dryMmH || w.condition.isStorm || w.temperatureC < 5 || w.temperatureC > 25
            || rules.daylight(t) != .day
    }

    /// How good the moment is for the activity, 0–1. The hard rules have already passed;
    /// this prefers outdoor activities on fine days and indoor ones on poor days.
    func contextValue(_ a: Activity, mode: ActivityMode, at t: Int64, rules: inout RuleBook) -> Double {
        if mode == .indoor { return a.setting == .either ? 0.7 : outdoorsPoor(at: t, rules: &rules) ? 0.8 : 0.5 }
        guard let w = context.weather(at: t) else { return 0 }
        var v = 1.0
        if w.precipitationMmH > rules.limits.dryMmH { v -= 0.4 }
        if rules.daylight(t) != .day { v -= 0.2 }
        let range = rules.temperatureLimits(a)
        if w.temperatureC > range.max - 3 || w.temperatureC < range.min + 3 { v -= 0.2 }
        return max(0, v)
    }

    /// Plain-language reasons for an offered activity, most telling first; for a species
    /// without a profile, first of all that generic needs were used.
    func reasons(_ i: Int, mode: ActivityMode, at t: Int64, terms: ScoreBreakdown, rules: inout RuleBook) -> [String] {
        let a = catalog.activities[i]
        let name = pet.displayName
        var out: [(weight: Double, text: String)] = []
        let c = a.category
        let gap = gaps[c.ordinal]
        let goal = needs.goals[c.ordinal]
        // Needs: the breed's trait when it is high, else this week's numbers.
        if goal > 0 && gap > 0 {
            let breedTrait = traitReason(c)
            let numbers = "\(PetState.amount(done[c.ordinal])) of \(PetState.amount(goal)) \(PetState.goalWords(c)) this week"
            out.append((terms.terms[0].contribution, breedTrait.map { $0 + "; " + numbers } ?? numbers))
        } else if goal > 0 {
            out.append((0.01, "this week's \(PetState.goalWords(c)) are done: \(a.benefits.first ?? "a change of pace")"))
        }
        // Individual fit.
        var fitText: String?
        if needs.lifeStage == .senior && c == .mental {
            fitText = "brain work keeps a senior sharp without strain"
        } else if needs.weightStatus == .over && c == .physical && a.intensity <= 3,
                  let range = pet.breed?.weightKg, let kg = pet.weightKg {
            fitText = "low-impact exercise helps with weight: \(PetState.amount(kg)) kg, \(PetState.amount(range.lowerBound))–\(PetState.amount(range.upperBound)) kg is healthy for the breed"
        } else if needs.lifeStage == .puppy && a.intensity <= 2 {
            fitText = "short and gentle, right for a puppy"
        } else if abs(Double(a.intensity) - needs.targetIntensity) <= 0.5 {
            fitText = "intensity \(a.intensity)/5 suits \(name)"
        }
        if let fitText { out.append((terms.terms[1].contribution, fitText)) }
        // Enjoyment.
        if let history = enjoyment.history[i], let first = history.first {
            var run = 0
            while run < history.count && history[run] == first { run += 1 }
            let verb = first == .enjoyed ? "loved" : first == .disliked ? "did not enjoy" : "was lukewarm about"
            let times = run == 1 ? "last time" : "the last \(run) times"
            out.append((terms.terms[2].contribution, "\(name) \(verb) \(a.name.lowercased()) \(times)"))
        } else if enjoyment.categoryWeight[c.ordinal] >= 1 && enjoyment.categoryMean[c.ordinal] >= 0.6 {
            out.append((terms.terms[2].contribution, "\(name) enjoys \(c.rawValue) activities"))
        }
        // Novelty.
        if let age = lastDone[i] {
            let days = Int((age + t - context.now.seconds) / 86_400)
            if days >= 7 { out.append((terms.terms[3].contribution, "not done for \(days) days")) }
        } else if enjoyment.history[i] == nil {
            out.append((terms.terms[3].contribution, "something new for \(name)"))
        }
        // Context.
        out.append((terms.terms[4].contribution, contextReason(a, mode: mode, at: t, rules: &rules)))
        out.sort { $0.weight > $1.weight }
        return (pet.species.genericNote.map { [$0] } ?? []) + out.map(\.text) + (a.benefits.first.map { [$0] } ?? [])
    }

    /// "Border Collies need a job: mental stimulation 5/5" when the breed's trait is 4 or 5.
    func traitReason(_ c: ActivityCategory) -> String? {
        guard pet.species == .dog, let b = pet.breed, !b.isMixed else { return nil }
        let plural = PetState.plural(b.name)
        switch c {
        case .physical where b[.energy] >= 4: return "\(plural) need plenty of exercise: energy \(b[.energy])/5"
        case .mental where b[.mentalStimulation] >= 4: return "\(plural) need a job: mental stimulation \(b[.mentalStimulation])/5"
        case .social where b[.playfulness] >= 4: return "\(plural) love company: playfulness \(b[.playfulness])/5"
        case .training where b[.trainability] >= 4: return "\(plural) learn fast: trainability \(b[.trainability])/5"
        case .care where b[.shedding] >= 4: return "\(plural) shed a lot: shedding \(b[.shedding])/5"
        default: return nil
        }
    }

    /// "13 °C and dry until 18:40", or why indoors suits the moment.
    func contextReason(_ a: Activity, mode: ActivityMode, at t: Int64, rules: inout RuleBook) -> String {
        if mode == .indoor {
            if a.setting == .either {
                var why: [Exclusion] = []
                _ = rules.outdoorRules(a, start: t, end: t + Int64(a.minutes) * 60, explain: true, into: &why)
                return "indoors this time: " + (why.first?.message ?? "outdoors does not suit")
            }
            guard let w = context.weather(at: t) else { return "an indoor activity" }
            let light = rules.daylight(t)
            if w.precipitationMmH > rules.limits.dryMmH { return "a good indoor choice: \(w.condition.words == "clear" ? "wet" : w.condition.words) outside" }
            if light == .dark { return "a good indoor choice: dark outside" }
            if w.temperatureC < 5 || w.temperatureC > 25 { return "a good indoor choice at \(RuleBook.degrees(w.temperatureC))" }
            return "an indoor activity"
        }
        guard let w = context.weather(at: t) else { return "" }
        let dry = w.precipitationMmH <= rules.limits.dryMmH
        // How long the conditions hold: the next change of light toward dark, or of rain.
        var until: Int64?
        if let change = SolarPosition.nextDaylightChange(latitude: context.location.lat, longitude: context.location.lon,
                                                         after: Instant(seconds: t), withinSeconds: 6 * 3600),
           change.to < rules.daylight(t) {
            until = change.at.seconds
        }
        for f in context.forecast where f.at.seconds > t && f.at.seconds < t + 6 * 3600 {
            if (f.weather.precipitationMmH <= rules.limits.dryMmH) != dry {
                until = min(until ?? f.at.seconds, f.at.seconds)
                break
            }
        }
        let sky = dry ? "dry" : w.condition.words
        return "\(RuleBook.degrees(w.temperatureC)) and \(sky)" + (until.map { " until \(context.clock($0))" } ?? "")
    }

    /// What a category's goal counts, in words.
    static func goalWords(_ c: ActivityCategory) -> String {
        switch c {
        case .physical: "exercise minutes"
        case .mental: "brain-work sessions"
        case .social: "social minutes"
        case .training: "training sessions"
        case .care: "care sessions"
        case .rest: "rest sessions"
        }
    }

    /// A number without a needless `.0`.
    static func amount(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    /// "Border Collies", "Boxers", "Shih Tzus".
    static func plural(_ breed: String) -> String {
        if breed.hasSuffix("s") || breed.hasSuffix("x") || breed.hasSuffix("ch") || breed.hasSuffix("sh") { return breed + "es" }
        return breed + "s"
    }
}
