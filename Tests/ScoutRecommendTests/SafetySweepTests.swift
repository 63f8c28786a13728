import Foundation
import ScoutCatalog
import ScoutCore
import ScoutGeodesy
import ScoutRecommend
import ScoutSchedule
import ScoutSolar
import ScoutTestSupport
import ScoutTime
import Testing

/// The acceptance test of the rules: 100,000 random contexts with `SCOUT_TEST_FULL=1`
/// (`scripts/test_full.sh`), 6,000 of them (the first seeds of each part) in the test command (every breed row and the other
/// species; −20…40 °C, 0…10 mm/h, every sky, wind to 100 km/h; every local hour; a year of
/// dates; nine places from the equator to 89° N and on lon 179.9; puppies, adults, seniors;
/// conditions, away from home, calendars, custom waking hours, forecasts that turn, a quarter
/// with the owner's after-dark opt-in), each
/// judged by ``RuleOracle`` (docs/recommender.md and the data files, not the module's rules).
///
/// Every case is `SplitMix64(seed: part × 1,000,000 + i)`: a failure names its seed and the
/// situation, and ``replay(_:)`` (below) rebuilds it.
@Suite struct SafetySweepTests {
    static let parts = 4
    static let perPart = TestScale.count(short: 1_500, full: 25_000)

    struct Case {
        var situation: Situation
        var count: Int
        var mode: ActivityRequest.Mode
        var seed: UInt64
        var log: [LogEntry]
        var feedback: [Feedback]
        var request: ActivityRequest { situation.request(count: count, mode: mode, seed: seed, log: log, feedback: feedback) }
    }

    static let otherSpecies: [Species] = [.cat, .rabbit, .guineaPig, .bird]
    static let places = ["park", "beach", "dog_park", "trail", "water", "city"]
    static let year2026 = LocalDate(year: 2026, month: 1, day: 1)!.daysSinceEpoch

    static func sky(_ rng: inout SplitMix64) -> Sky {
        var s = Sky(temperatureC: rng.chance(0.2) ? Double(rng.int(-20...40)) : rng.uniform(-20, 40))
        switch rng.unit() {
        case ..<0.4: s.precipitationMmH = 0
        case ..<0.5: s.precipitationMmH = rng.pick([0.1, 0.1000001, 2.5, 2.5000001])
        default: s.precipitationMmH = rng.uniform(0, 10)
        }
        s.condition = rng.chance(0.6) ? rng.pick([.clear, .partlyCloudy, .cloudy, .fog]) : rng.pick(WeatherCondition.allCases)
        switch rng.unit() {
        case ..<0.1: s.windKmh = 0
        case ..<0.55: s.windKmh = rng.uniform(0, 30)
        case ..<0.9: s.windKmh = rng.uniform(30, 100)
        default: s.windKmh = rng.pick([20, 25, 30, 35, 40, 50, 60, 70, 74.999, 75])
        }
        return s
    }

    static func make(seed: Int) -> Case {
        var rng = SplitMix64(seed: seed)
        let place = rng.pick(Place.all)
        // A local wall time: a day of 2026, any hour, any minute (a third on the quarter hour).
        let day = year2026 + Int64(rng.int(0...364))
        let hour = rng.int(0...23), minute = rng.chance(0.33) ? 15 * rng.int(0...3) : rng.int(0...59)
        let wall = day * 86_400 + Int64(hour * 3600 + minute * 60)
        let now = wall - Int64(Clock.offset(place.zone, wall - Int64(Clock.offset(place.zone, wall))))
        let nowInstant = Instant(seconds: now, utcOffsetSeconds: Clock.offset(place.zone, now))

        var s = Situation(birth: nowInstant.localDate, place: place, now: now, location: place.point, sky: sky(&rng))
        s.useZone = rng.chance(0.75)
        // The pet.
        if rng.chance(0.85) {
            s.species = .dog
            // Breeds in turn, so that every part's first contexts hold every breed row.
            s.breed = Fixture.breeds.breeds[seed % Fixture.breeds.breeds.count]
            if rng.chance(0.6) {
                if let r = s.breed?.weightKg, s.breed?.isMixed == false {
                    s.weightKg = rng.uniform(r.lowerBound * 0.75, r.upperBound * 1.35)
                } else {
                    s.weightKg = rng.uniform(1.5, 60)
                }
            }
        } else {
            s.species = rng.pick(otherSpecies)
        }
        let years: Double
        switch rng.unit() {
        case ..<0.3: years = rng.uniform(0.05, 1.8)
        case ..<0.7: years = rng.uniform(1, 10)
        default: years = rng.uniform(7, 18)
        }
        s.birth = birthDate(yearsBefore: nowInstant, years)
        if rng.chance(0.2) {
            s.conditions.insert(rng.pick(PetCondition.allCases))
            if rng.chance(0.3) { s.conditions.insert(rng.pick(PetCondition.allCases)) }
        }
        // Home and away.
        switch rng.unit() {
        case ..<0.6: break
        case ..<0.8:
            s.home = (Geodesic.destination(from: place.point, azimuth: rng.uniform(-180, 180), meters: rng.uniform(0, 280)), 300)
        default:
            s.home = (Geodesic.destination(from: place.point, azimuth: rng.uniform(-180, 180), meters: rng.logUniform(350, 50_000)),
                      rng.chance(0.8) ? 300 : rng.uniform(50, 2_000))
        }
        // Forecast: hourly from around now; some turn to rain or storm, some pass one storm, some stop early.
        if rng.chance(0.4) {
            let start = (now / 3600 + Int64(rng.int(-1...1))) * 3600
            let hours = rng.chance(0.7) ? rng.int(20...30) : rng.int(1...12)
            var cur = s.sky
            let turn = rng.chance(0.4) ? rng.int(0...max(0, hours - 1)) : -1
            let passing = rng.chance(0.25) ? rng.int(0...max(0, hours - 1)) : -1
            let turnSky: WeatherCondition = rng.pick([.rain, .heavyRain, .thunderstorm, .storm, .drizzle, .hail])
            for h in 0..<hours {
                cur.temperatureC = max(-25, min(45, cur.temperatureC + rng.uniform(-2, 2)))
                cur.windKmh = max(0, min(110, cur.windKmh + rng.uniform(-8, 8)))
                if rng.chance(0.2) { cur.condition = rng.pick([.clear, .partlyCloudy, .cloudy, .fog, .drizzle]) }
                if rng.chance(0.2) { cur.precipitationMmH = rng.chance(0.5) ? 0 : rng.uniform(0, 6) }
                var entry = cur
                if turn >= 0 && h >= turn { entry.condition = turnSky; entry.precipitationMmH = max(entry.precipitationMmH, rng.uniform(0, 8)) }
                if h == passing { entry.condition = rng.pick([.thunderstorm, .hail, .storm]) }
                if h == passing + 1 && rng.chance(0.3) { continue }   // a hole in the forecast
                s.forecast.append((start + Int64(h) * 3600, entry))
            }
        }
        // Calendar.
        if rng.chance(0.3) {
            for _ in 0..<rng.int(1...3) {
                let b0 = (now + Int64(rng.uniform(-3 * 3600, 20 * 3600))) / 300 * 300
                s.busy.append((b0, b0 + Int64(rng.int(2...72)) * 300))
            }
        }
        // Waking hours.
        switch rng.unit() {
        case ..<0.7: break
        case ..<0.8: s.waking = (0, 1440)
        default:
            let a = rng.chance(0.5) ? 15 * rng.int(0...95) : rng.int(0...1439)
            var b = rng.chance(0.5) ? 15 * rng.int(0...96) : rng.int(0...1440)
            if b == a { b = (a + 600) % 1440 }
            s.waking = (a, b)
        }
        if rng.chance(0.25) { s.nearby = Set(places.filter { _ in rng.chance(0.5) }) }
        s.hasGarden = rng.chance(0.85)
        s.afterDark = rng.chance(0.25)

        var c = Case(situation: s, count: rng.chance(0.5) ? 2 : rng.int(1...4), mode: rng.chance(0.7) ? .explore : .best,
                     seed: rng.next(), log: [], feedback: [])
        let ids = Fixture.spec.activities(for: s.species.rawValue).map(\.id)
        if rng.chance(0.3) {
            for _ in 0..<rng.int(1...8) {
                c.log.append(LogEntry(activity: rng.pick(ids), start: Instant(seconds: now - Int64(rng.uniform(0, 10 * 86_400))),
                                      minutes: Double(rng.int(5...60))))
            }
        }
        if rng.chance(0.2) {
            for _ in 0..<rng.int(1...6) {
                c.feedback.append(Feedback(activity: rng.pick(ids), rating: rng.pick(Enjoyment.allCases),
                                           at: Instant(seconds: now - Int64(rng.uniform(0, 200 * 86_400)))))
            }
        }
        return c
    }

    struct Stats {
        var contexts = 0, wakingContexts = 0, wakingWithRecommendation = 0
        var recommendations = 0, outdoorRecommendations = 0, eitherMovedIn = 0
        var nextWindows = 0, nextWindowRecommendations = 0, ambiguous = 0
        /// Breed rows of the dogs, and the other species, seen.
        var breeds = Set<String>(), species = Set<String>(), places = Set<String>(), localHours = Set<Int>()
        var midSessionStorms: [String] = []
        var crossedLimits: [String] = []
    }

    /// Checks one answer against the oracle.
    static func check(_ c: Case, _ answer: ActivityRecommendations, seed: Int, oracle o: RuleOracle, log: inout FailureLog,
                      stats: inout Stats) {
        let s = c.situation
        func tag() -> String { "seed \(seed): \(s.summary)" }
        stats.contexts += 1
        if c.situation.species == .dog, let b = s.breed { stats.breeds.insert(b.name) } else { stats.species.insert(s.species.rawValue) }
        stats.places.insert(s.place.name)
        let minuteNow = o.minuteOfDay(s.now)
        stats.localHours.insert(minuteNow / 60)
        let waking = o.isWaking(minuteNow)
        if waking { stats.wakingContexts += 1 }
        if waking && !answer.recommendations.isEmpty { stats.wakingWithRecommendation += 1 }

        // The oracle's verdict on every activity of the species now.
        var verdicts: [String: RuleOracle.Verdict] = [:]
        for a in o.activities { verdicts[a.id] = o.verdict(a, at: s.now) }

        // Every recommendation now, and at the next window's own time.
        func judge(_ rec: ActivityRecommendation, _ v: RuleOracle.Verdict, at t: Int64, _ when: String) {
            let id = rec.activity.id
            let a = Fixture.spec.byID[id]!
            if v.ambiguous { stats.ambiguous += 1; return }
            log.check(v.general == 0, "\(tag()): \(when) recommended \(id) breaking \(Rule.codes(v.general).sorted())")
            let outdoors = a.setting == "outdoor" || rec.mode == .outdoor
            if outdoors {
                stats.outdoorRecommendations += 1
                if v.crossedLimits && v.outdoor == Rule.tooCold.bit {
                    stats.crossedLimits.append("seed \(seed): \(id) at \(s.sky.temperatureC) °C")
                } else {
                    log.check(v.outdoor == 0, "\(tag()): \(when) recommended \(id) outdoors breaking \(Rule.codes(v.outdoor).sorted())")
                }
                // Stricter than the spec's "start or end": a storm in a middle hour of the session.
                let end = t + Int64(a.minutes) * 60
                if a.minutes > 60 && o.skies(from: t, to: end).contains(where: { $0?.isStormy ?? false }) && v.outdoor & Rule.storm.bit == 0 {
                    stats.midSessionStorms.append("seed \(seed): \(id) \(a.minutes) min from \(Clock.hhmm(t, offset: s.nowOffset))")
                }
            }
            if a.setting == "indoor" { log.check(rec.mode == .indoor, "\(tag()): indoor \(id) offered \(rec.mode)") }
            if a.setting == "either" && rec.mode == .indoor {
                stats.eitherMovedIn += 1
                log.check(v.outdoor != 0, "\(tag()): \(when) either-activity \(id) moved indoors though outdoors breaks nothing")
            }
        }
        var offered = Set<String>()
        for rec in answer.recommendations {
            stats.recommendations += 1
            offered.insert(rec.activity.id)
            guard let v = verdicts[rec.activity.id] else {
                log.check(false, "\(tag()): recommended \(rec.activity.id), not an activity of the species in activities.json")
                continue
            }
            judge(rec, v, at: s.now, "now")
        }

        // The same eligible set as the oracle's, and exclusion codes the oracle also finds.
        var excludedIDs = Set<String>()
        for e in answer.excluded {
            let id = e.activity.id
            excludedIDs.insert(id)
            guard let v = verdicts[id] else { log.check(false, "\(tag()): excluded \(id), not of the species"); continue }
            if v.ambiguous { continue }
            if v.mode != nil {
                log.check(false, "\(tag()): \(id) excluded for \(e.reasons.map(\.code.rawValue)), the oracle finds it eligible")
                continue
            }
            let mine = v.all | v.uncertain
            let theirs = Rule.mask(e.reasons.map(\.code))
            log.check(theirs != 0 && theirs & ~mine == 0,
                      "\(tag()): \(id) excluded for \(e.reasons.map(\.code.rawValue)), the oracle finds \(Rule.codes(mine).sorted())")
        }
        var eligibleCount = 0
        for a in o.activities where !excludedIDs.contains(a.id) {
            eligibleCount += 1
            let v = verdicts[a.id]!
            if v.mode == nil && !v.ambiguous && !offered.contains(a.id) {
                if v.crossedLimits && v.outdoor == Rule.tooCold.bit && v.general == 0 { stats.crossedLimits.append("seed \(seed): \(a.id) eligible at \(s.sky.temperatureC) °C"); continue }
                log.check(false, "\(tag()): \(a.id) neither excluded nor offered, the oracle finds \(Rule.codes(v.all).sorted())")
            }
        }
        log.check(answer.recommendations.count == min(c.count, eligibleCount),
                  "\(tag()): \(answer.recommendations.count) recommendations for count \(c.count) and \(eligibleCount) eligible")
        log.check(offered.count == answer.recommendations.count, "\(tag()): an activity offered twice: \(answer.ids)")

        // The next window: the first quarter hour in the next 24 hours when something fits.
        guard answer.recommendations.isEmpty else {
            log.check(answer.nextWindow == nil, "\(tag()): a next window although something fits now")
            return
        }
        let step: Int64 = 15 * 60
        var t = (s.now / step + 1) * step
        var expected: Int64?
        while t <= s.now + 24 * 3600 {
            let e = o.eligible(at: t)
            if !e.ambiguous.isEmpty { return }   // too close to dusk to call
            if !e.modes.isEmpty { expected = t; break }
            t += step
        }
        log.check(answer.nextWindow?.at.seconds == expected,
                  "\(tag()): next window \(answer.nextWindow.map { $0.at.description } ?? "none"), oracle \(expected.map { Instant(seconds: $0, utcOffsetSeconds: s.nowOffset).description } ?? "none")")
        if let w = answer.nextWindow {
            stats.nextWindows += 1
            log.check(!w.recommendations.isEmpty, "\(tag()): next window without recommendations")
            log.check(w.at.utcOffsetSeconds == s.offset(at: w.at.seconds), "\(tag()): next window written with offset \(w.at.utcOffsetSeconds)")
            for rec in w.recommendations {
                stats.nextWindowRecommendations += 1
                guard let a = Fixture.spec.byID[rec.activity.id], a.species.contains(Spec.key(s.species.rawValue)) else {
                    log.check(false, "\(tag()): next window offers \(rec.activity.id), not of the species")
                    continue
                }
                judge(rec, o.verdict(a, at: w.at.seconds), at: w.at.seconds, "next window \(w.at)")
            }
        }
    }

    /// Runs seeds `part × 1,000,000 + 0..<count`; returns the stats and the ids of the first few.
    static func sweep(part: Int, count: Int, sabotageHotC: Double = 0, log: inout FailureLog) -> (Stats, [[String]]) {
        var stats = Stats()
        var firstIDs: [[String]] = []
        for i in 0..<count {
            let seed = part * 1_000_000 + i
            let c = make(seed: seed)
            let answer = Fixture.recommender.recommendActivities(c.request)
            let o = RuleOracle(c.situation)
            o.sabotageHotC = sabotageHotC
            check(c, answer, seed: seed, oracle: o, log: &log, stats: &stats)
            if i < 300 { firstIDs.append(answer.ids + (answer.nextWindow?.recommendations.map(\.activity.id) ?? [])) }
            if log.full { break }
        }
        return (stats, firstIDs)
    }

    static func runPart(_ part: Int) {
        let clock = ContinuousClock()
        let started = clock.now
        var log = FailureLog(limit: 8)
        let (stats, ids) = sweep(part: part, count: perPart, log: &log)
        if !log.isEmpty { Issue.record("safety sweep part \(part):\n\(log.summary)") }

        // Something is offered most of the time: the sweep cannot pass by offering nothing.
        #expect(stats.contexts == perPart || !log.isEmpty)
        #expect(Double(stats.wakingWithRecommendation) > 0.5 * Double(stats.wakingContexts),
                "\(stats.wakingWithRecommendation) of \(stats.wakingContexts) waking contexts got a recommendation")
        #expect(stats.outdoorRecommendations > stats.contexts / 20, "only \(stats.outdoorRecommendations) outdoor recommendations")
        #expect(stats.eitherMovedIn > 100, "only \(stats.eitherMovedIn) either-activities moved indoors")
        #expect(stats.nextWindows > stats.contexts / 10, "only \(stats.nextWindows) next windows")
        #expect(stats.species.count == 4)
        #expect(stats.places.count == Place.all.count)
        #expect(stats.localHours.count == 24)
        #expect(stats.breeds.count == Fixture.breeds.breeds.count, "\(stats.breeds.count) breeds seen")

        // Deterministic: the same seeds again give the same ids.
        var again = FailureLog()
        let (_, ids2) = sweep(part: part, count: ids.count, log: &again)
        #expect(ids == ids2)

        // Weather is judged over every hour of a session, and crossed limits mean no safe temperature.
        if !stats.midSessionStorms.isEmpty {
            Issue.record("\(stats.midSessionStorms.count) outdoor recommendations with a storm in a middle hour, e.g. \(stats.midSessionStorms.prefix(3))")
        }
        if !stats.crossedLimits.isEmpty {
            Issue.record("\(stats.crossedLimits.count) activities offered with no safe temperature, e.g. \(stats.crossedLimits.prefix(3))")
        }
        let elapsed = clock.now - started
        print("safety sweep part \(part): \(stats.contexts) contexts, \(stats.recommendations) recommendations "
              + "(\(stats.outdoorRecommendations) judged outdoors, \(stats.eitherMovedIn) either moved in), "
              + "\(stats.wakingWithRecommendation)/\(stats.wakingContexts) waking contexts served, \(stats.nextWindows) next windows "
              + "(\(stats.nextWindowRecommendations) recommendations), \(stats.ambiguous) within 0.002° of dusk, "
              + "\(stats.midSessionStorms.count) mid-session storms \(stats.midSessionStorms.prefix(2)), "
              + "\(stats.crossedLimits.count) crossed limits \(stats.crossedLimits.prefix(2)); \(elapsed)")
    }

    @Test func sweepPart0() { Self.runPart(0) }
    @Test func sweepPart1() { Self.runPart(1) }
    @Test func sweepPart2() { Self.runPart(2) }
    @Test func sweepPart3() { Self.runPart(3) }

    /// The oracle can fire: told that every limit is 3 °C lower than the spec says, it finds
    /// recommendations it calls too hot.
    @Test func theOracleFiresOnAWrongThreshold() {
        var log = FailureLog(limit: 3)
        _ = Self.sweep(part: 9, count: 3_000, sabotageHotC: -3, log: &log)
        #expect(!log.isEmpty)
        #expect(log.summary.contains("too_hot"))
    }

    /// Rebuilds one case of the sweep, for a failure's seed (kept for debugging).
    static func replay(_ seed: Int) -> (Case, ActivityRecommendations) {
        let c = make(seed: seed)
        return (c, Fixture.recommender.recommendActivities(c.request))
    }
}
