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

/// Hard rules checked by hand on single situations (docs/recommender.md, "Hard rules").
/// Limits are computed in the test from the activity's row and the weights file, never
/// taken from the module's answer.
@Suite struct RuleExampleTests {
    static let spec = Fixture.spec
    /// A fine June noon in Dublin: the sun is up from 04:57 to 21:57.
    static func june(_ breed: String, years: Double = 4, _ t: Double, h: Int = 12, mi: Int = 0) -> Situation {
        .at(.dublin, 2026, 6, 15, h, mi, breed: breed, years: years, sky: Sky(temperatureC: t, windKmh: 5))
    }

    static func limitText(_ c: Double) -> String { "limit \(Int(c)) °C" }

    // MARK: Temperature for the pet

    @Test func aDoubleCoatGetsNoFetchAt24Degrees() throws {
        let husky = Fixture.breed("Siberian Husky")
        #expect(husky.coatType == "Double" && husky.coatLength != "Long" && !husky.brachycephalic)
        let ans = Self.june("Siberian Husky", 24).all()
        #expect(ans.recommendation("fetch") == nil)
        let fetch = try #require(ans.exclusion("fetch"))
        let hot = try #require(fetch.reasons.first { $0.code == .tooHot })
        #expect(hot.message.contains("double coat"))
        let limit = Self.spec.byID["fetch"]!.tMax + Self.spec.rules["double_coat_max_c"]!   // 25 − 3
        #expect(hot.message.contains(Self.limitText(limit)), "\(hot.message)")
        // A smooth short coat has the catalogue's limit: fetch is on at 24 °C.
        let dalmatian = Self.june("Dalmatian", 24).all()
        #expect(dalmatian.recommendation("fetch")?.mode == .outdoor)
    }

    @Test func aFlatFacedDogGetsNoStrenuousOutdoorActivityAbove18Degrees() throws {
        let frenchie = Fixture.breed("French Bulldog")
        #expect(frenchie.brachycephalic)
        let ans = Self.june("French Bulldog", 20).all()
        for r in ans.recommendations where r.mode == .outdoor {
            #expect(r.activity.intensity <= 3, "\(r.activity.id) intensity \(r.activity.intensity) at 20 °C")
        }
        // Swimming (15–32 °C) is within its range even after −6 °C; the intensity rule rules it out.
        let swim = try #require(ans.exclusion("swimming"))
        #expect(swim.reasons.contains { $0.code == .tooHot && $0.message.contains("flat-faced") })
        // "Above 18 °C": at 18 °C the dog park (intensity 4, up to 26 − 6 = 20 °C) is fine, at 18.5 °C it is not.
        #expect(Self.june("French Bulldog", 18).all().recommendation("dog_park_visit")?.mode == .outdoor)
        #expect(Self.june("French Bulldog", 18.5).all().codes("dog_park_visit") == ["too_hot"])
        // Without a flat face the same breed-sized dog may go to the dog park at 20 °C.
        #expect(Self.june("Dalmatian", 20).all().recommendation("dog_park_visit")?.mode == .outdoor)
    }

    @Test func aSmallThinCoatedDogFeelsTheCold() throws {
        // Pug: small, short smooth coat (+3 and +5 on every minimum).
        let pug = Fixture.breed("Pug")
        #expect(pug.sizeClass == .small && pug.coatType == "Smooth" && pug.coatLength == "Short")
        let jan = Situation.at(.dublin, 2026, 1, 15, 12, breed: "Pug", sky: Sky(temperatureC: 2))
        let ans = jan.all()
        let jog = try #require(ans.exclusion("jog")?.reasons.first { $0.code == .tooCold })
        let jogMin = Self.spec.byID["jog"]!.tMin + Self.spec.rules["thin_coat_min_c"]! + Self.spec.rules["small_dog_min_c"]!   // 3
        #expect(jog.message.contains("small dog") && jog.message.contains("thin coat") && jog.message.contains(Self.limitText(jogMin)),
                "\(jog.message)")
        #expect(ans.recommendation("brisk_walk")?.mode == .outdoor)   // −15 + 8 = −7
    }

    @Test func aChihuahuaAt2Degrees() throws {
        let chi = Fixture.breed("Chihuahua")
        #expect(chi.coatType == "Smooth" && chi.coatLength == "Short")
        var s = Situation.at(.dublin, 2026, 1, 15, 12, breed: "Chihuahua", sky: Sky(temperatureC: 2))
        s.weightKg = 2.5
        let ans = s.all()
        // The short, thin coat: cycling (min 0 °C) needs 5 °C, beach runs (5 °C) need 10 °C.
        for id in ["cycling_alongside", "beach_run", "agility_course"] {
            #expect(ans.exclusion(id)?.reasons.contains { $0.code == .tooCold && $0.message.contains("thin coat") } == true, "\(id)")
        }
        #expect(ans.recommendation("brisk_walk")?.mode == .outdoor)
        // A Chihuahua (2.5 kg) is a toy dog, but breeds.csv has no size_class for it and the
        // module sizes only mixed breeds by their weight: jog's minimum stays −5 + 5 = 0 °C
        // instead of −5 + 5 + 3 = 3 °C.
        #expect(chi.sizeClass == nil)
        #expect(ans.exclusion("jog")?.reasons.contains { $0.code == .tooCold && $0.message.contains("small dog") } == true)
    }

    @Test func aSeniorBerneseHasFetchUpTo20DegreesWithTheCSVsMediumCoat() throws {
        // docs/recommender.md says "a senior Bernese Mountain Dog (long double coat) has fetch
        // only up to 18 °C"; data/breeds.csv gives the Bernese a Medium coat, so the limit the
        // rules give is 25 − 3 − 2 = 20 °C.
        let b = Fixture.breed("Bernese Mountain Dog")
        #expect(b.coatType == "Double" && b.coatLength == "Medium")
        let limit = Self.spec.byID["fetch"]!.tMax + Self.spec.rules["double_coat_max_c"]! + Self.spec.rules["senior_max_c"]!
        #expect(limit == 20)
        #expect(Self.june("Bernese Mountain Dog", years: 8.5, limit - 0.5).all().recommendation("fetch")?.mode == .outdoor)
        let hot = try #require(Self.june("Bernese Mountain Dog", years: 8.5, limit + 0.5).all().exclusion("fetch"))
        #expect(hot.reasons.contains { $0.code == .tooHot && $0.message.contains("a double coat and a senior") && $0.message.contains(Self.limitText(limit)) })
    }

    @Test func limitsThatCrossLeaveNoSafeTemperature() {
        // A flat-faced puppy with a heart condition: garden_lounge (5–24 °C) has a minimum of
        // 5 + 5 (thin coat) + 3 (puppy) = 13 °C and a maximum of 24 − 6 − 2 − 4 = 12 °C.
        var s = Self.june("French Bulldog", years: 0.6, 12)
        s.conditions = [.heartCondition]
        let a = Self.spec.byID["garden_lounge"]!
        let r = Self.spec.rules
        let lo = a.tMin + r["thin_coat_min_c"]! + r["puppy_min_c"]!
        let hi = a.tMax + r["brachycephalic_max_c"]! + r["puppy_max_c"]! + Self.spec.conditionMaxC["heart_condition"]!
        #expect(lo == 13 && hi == 12)
        let ans = s.all()
        #expect(ans.needs.lifeStage == .puppy)
        #expect(ans.recommendation("garden_lounge") == nil)
        // Between the crossed limits every temperature is both too hot and too cold; outside them, one of the two.
        #expect(Self.june("French Bulldog", years: 0.6, 12.5).with { $0.conditions = [.heartCondition] }.all().codes("garden_lounge") == ["too_hot", "too_cold"])
        #expect(Self.june("French Bulldog", years: 0.6, 13.5).with { $0.conditions = [.heartCondition] }.all().codes("garden_lounge") == ["too_hot"])
        #expect(Self.june("French Bulldog", years: 0.6, 11.5).with { $0.conditions = [.heartCondition] }.all().codes("garden_lounge") == ["too_cold"])
    }

    // MARK: Clock and calendar

    @Test func at3AMNothingIsOfferedAndTheNextWindowIs7AM() throws {
        let s = Self.june("Labrador Retriever", 15, h: 3)
        let ans = s.answer()
        #expect(ans.recommendations.isEmpty)
        #expect(!ans.excluded.isEmpty)
        for e in ans.excluded {
            #expect(e.reasons.contains { $0.code == .outsideWakingHours && $0.message == "outside waking hours (07:00–22:00)" }, "\(e.activity.id)")
        }
        let w = try #require(ans.nextWindow)
        let seven = Clock.instant("Europe/Dublin", 2026, 6, 15, 7)
        #expect(w.at == seven)
        #expect(w.at.utcOffsetSeconds == 3600)
        #expect(w.at.rfc3339 == "2026-06-15T07:00:00+01:00")
        #expect(!w.recommendations.isEmpty)
        let o = RuleOracle(s)
        for r in w.recommendations {
            let a = Self.spec.byID[r.activity.id]!
            let end = w.at.seconds + Int64(a.minutes) * 60
            #expect(o.isWaking(o.minuteOfDay(w.at.seconds)) && o.isWaking(o.minuteOfDay(end - 60)), "\(a.id)")
            #expect(o.verdict(a, at: w.at.seconds).mode == r.mode, "\(a.id)")
        }
    }

    @Test func aNightWorkersWakingHoursWrapMidnight() throws {
        var s = Self.june("Labrador Retriever", 15, h: 3)
        s.waking = (22 * 60, 6 * 60)
        #expect(!s.answer().recommendations.isEmpty)
        // At 05:50 only sessions of at most 10 minutes end by 06:00.
        s = Self.june("Labrador Retriever", 15, h: 5, mi: 50)
        s.waking = (22 * 60, 6 * 60)
        let ans = s.all()
        #expect(!ans.recommendations.isEmpty)
        for r in ans.recommendations { #expect(r.activity.minutes <= 10, "\(r.activity.id)") }
        #expect(ans.codes("calm_chew").contains("outside_waking_hours"))   // 20 minutes
        // At 06:30 nothing until 22:00.
        s = Self.june("Labrador Retriever", 15, h: 6, mi: 30)
        s.waking = (22 * 60, 6 * 60)
        let late = s.answer()
        #expect(late.recommendations.isEmpty)
        #expect(late.nextWindow?.at == Clock.instant("Europe/Dublin", 2026, 6, 15, 22))
    }

    @Test func busyUntil3PMMeansTheNextWindowIs3PM() throws {
        var s = Self.june("Labrador Retriever", 15, h: 13, mi: 10)
        let from = Clock.instant("Europe/Dublin", 2026, 6, 15, 13), to = Clock.instant("Europe/Dublin", 2026, 6, 15, 15)
        s.busy = [(from.seconds, to.seconds)]
        let ans = s.answer()
        #expect(ans.recommendations.isEmpty)
        for e in ans.excluded where e.activity.ages.contains(.adult) {
            #expect(e.reasons.contains { $0.code == .busy && $0.message == "busy until 15:00" }, "\(e.activity.id): \(e.reasons)")
        }
        #expect(ans.nextWindow?.at == to)
        // Ten minutes before the meeting, only sessions of at most ten minutes fit.
        s.now = Clock.instant("Europe/Dublin", 2026, 6, 15, 12, 50).seconds
        let before = s.all()
        #expect(!before.recommendations.isEmpty)
        for r in before.recommendations { #expect(r.activity.minutes <= 10, "\(r.activity.id)") }
        let puzzle = try #require(before.exclusion("puzzle_feeder"))   // 15 minutes
        #expect(puzzle.reasons.map(\.code) == [.notEnoughTime])
        #expect(puzzle.reasons.first?.message == "only 10 min before 13:00; it takes 15")
    }

    // MARK: Weather and light

    @Test func rainAt3mmKeepsDryAndLightRainActivitiesIndoorsOrOff() throws {
        var s = Self.june("Labrador Retriever", 15)
        s.sky = Sky(temperatureC: 15, precipitationMmH: 3, condition: .rain, windKmh: 10)
        let ans = s.all()
        for r in ans.recommendations where r.mode == .outdoor {
            #expect(Self.spec.byID[r.activity.id]!.rain == "any", "\(r.activity.id) offered outdoors in 3 mm/h")
        }
        for id in ["tug_of_war", "scent_work", "cafe_visit"] {
            let r = try #require(ans.recommendation(id), "\(id)")
            #expect(r.mode == .indoor, "\(id)")
            #expect(r.reasons.contains { $0.hasPrefix("indoors this time") }, "\(id): \(r.reasons)")
        }
        #expect(ans.codes("fetch") == ["rain"])
        #expect(ans.recommendation("brisk_walk")?.mode == .outdoor)
        #expect(ans.recommendation("sniff_walk")?.mode == .outdoor)
        // Drizzle at 0 mm/h implies 0.2 mm/h: "none" activities are off, "light" ones on.
        s.sky = Sky(temperatureC: 15, precipitationMmH: 0, condition: .drizzle)
        let drizzle = s.all()
        #expect(drizzle.codes("garden_lounge") == ["rain"])
        #expect(drizzle.codes("cycling_alongside") == ["rain"])
        #expect(drizzle.recommendation("fetch")?.mode == .outdoor)
    }

    @Test(arguments: [WeatherCondition.thunderstorm, .storm, .hail])
    func aStormKeepsEverythingIndoors(_ sky: WeatherCondition) {
        var s = Self.june("Labrador Retriever", 15)
        s.sky = Sky(temperatureC: 15, precipitationMmH: 0, condition: sky, windKmh: 10)
        let ans = s.all()
        #expect(!ans.recommendations.isEmpty)
        #expect(!ans.recommendations.contains { $0.mode == .outdoor })
        for a in Fixture.recommender.catalog.activities(for: .dog) where a.setting == .outdoor && a.ages.contains(.adult) {
            #expect(ans.codes(a.id).contains("storm"), "\(a.id): \(ans.codes(a.id))")
        }
    }

    @Test func stormForceWindKeepsEverythingIndoors() {
        var s = Self.june("Labrador Retriever", 15)
        s.sky = Sky(temperatureC: 15, windKmh: Self.spec.rules["storm_wind_kmh"]!)
        let ans = s.all()
        #expect(!ans.recommendations.contains { $0.mode == .outdoor })
        #expect(ans.exclusion("brisk_walk")?.reasons.first?.message.hasPrefix("storm-force wind") == true)
        // Just below: only activities with a lower wind limit are off.
        s.sky.windKmh = 55
        let windy = s.all()
        #expect(windy.recommendation("brisk_walk")?.mode == .outdoor)     // up to 60
        #expect(windy.codes("fetch") == ["wind"])                         // up to 50
    }

    @Test func aStormInTheMiddleOfALongSession() {
        // A 90-minute hike from 10:50 spans three forecast hours; the storm is in the middle one.
        var s = Self.june("Labrador Retriever", 15, h: 10, mi: 50)
        let hour = { (h: Int) in Clock.instant("Europe/Dublin", 2026, 6, 15, h).seconds }
        s.forecast = [(hour(10), Sky(temperatureC: 15)), (hour(11), Sky(temperatureC: 15, condition: .thunderstorm)),
                      (hour(12), Sky(temperatureC: 15))]
        let ans = s.all()
        #expect(ans.codes("brisk_walk").contains("storm"))   // 30 minutes, ends in the storm
        // The spec judges the weather at the start and the last minute only ("at the start or the end").
        #expect(ans.recommendation("trail_hike") == nil)
    }

    @Test func afterCivilDuskInDublinInDecemberNothingIsOutdoors() throws {
        let s = Situation.at(.dublin, 2026, 12, 21, 17, 30, sky: Sky(temperatureC: 8))
        // The premise, from the sun itself: at 17:30 the sun is more than 6° down.
        #expect(SolarPosition.elevation(latitude: 53.3498, longitude: -6.2603, at: Instant(seconds: s.now)) < -6)
        let ans = s.all()
        #expect(!ans.recommendations.isEmpty)
        #expect(!ans.recommendations.contains { $0.mode == .outdoor })
        for a in Fixture.recommender.catalog.activities(for: .dog) where a.setting == .outdoor && a.ages.contains(.adult) {
            #expect(ans.codes(a.id).contains("dark"), "\(a.id): \(ans.codes(a.id))")
        }
        let tug = try #require(ans.recommendation("tug_of_war"))
        #expect(tug.mode == .indoor && tug.reasons.contains("indoors this time: dark outside"), "\(tug.reasons)")
        #expect(ans.daylight == .dark)
    }

    @Test func withTheOwnersAfterDarkOptInOnlyDaylightActivitiesStayIn() throws {
        var s = Situation.at(.dublin, 2026, 12, 21, 17, 30, sky: Sky(temperatureC: 8))
        s.afterDark = true
        let ans = s.all()
        var outdoorOffered = 0
        for a in Fixture.recommender.catalog.activities(for: .dog) where a.setting == .outdoor && a.ages.contains(.adult) {
            // What needs daylight stays out, as without the opt-in; nothing else is out for the dark.
            #expect(a.needsDaylight == ans.codes(a.id).contains("dark"), "\(a.id): \(ans.codes(a.id))")
            if ans.exclusion(a.id) == nil { outdoorOffered += 1 }
        }
        #expect(outdoorOffered > 0, "some outdoor activity is eligible after dark with the opt-in")
    }

    @Test func inDecemberTwilightShortSessionsGoOutButDaylightOnesDoNot() throws {
        // Dublin, 21 December 2026, 16:20: after sunset (16:08), before civil dusk (≈16:51).
        let s = Situation.at(.dublin, 2026, 12, 21, 16, 20, sky: Sky(temperatureC: 8))
        let elevation = { (t: Int64) in SolarPosition.elevation(latitude: 53.3498, longitude: -6.2603, at: Instant(seconds: t)) }
        #expect(elevation(s.now) < -0.833 && elevation(s.now + 15 * 60) > -6)
        let ans = s.all()
        #expect(ans.recommendation("park_bench_watch")?.mode == .outdoor)   // 15 min, no daylight needed
        #expect(ans.codes("recall_practice") == ["needs_daylight"])
        #expect(ans.daylight == .twilight)
    }

    // MARK: Place

    @Test func awayFromHomeOnlyAwayActivities() throws {
        var s = Self.june("Labrador Retriever", 15)
        s.home = (Geodesic.destination(from: s.location, azimuth: 0, meters: 5_000), 300)
        let ans = s.all()
        #expect(ans.away)
        #expect(!ans.recommendations.isEmpty)
        for r in ans.recommendations { #expect(Self.spec.byID[r.activity.id]!.awayOK, "\(r.activity.id)") }
        let hide = try #require(ans.exclusion("hide_and_seek"))
        #expect(hide.reasons.contains { $0.code == .awayFromHome && $0.message.contains("is away") })
        // 200 m from home is at home.
        s.home = (Geodesic.destination(from: s.location, azimuth: 0, meters: 200), 300)
        let home = s.all()
        #expect(!home.away)
        #expect(home.recommendation("hide_and_seek")?.mode == .indoor)
    }

    @Test func placesNotWithinReachAndNoGarden() {
        var s = Self.june("Labrador Retriever", 15)
        s.nearby = ["city"]
        s.hasGarden = false
        let ans = s.all()
        #expect(ans.codes("fetch") == ["no_place_nearby"])          // park
        #expect(ans.codes("flirt_pole") == ["no_place_nearby"])     // garden
        #expect(ans.recommendation("cafe_visit") != nil)            // city
        #expect(ans.recommendation("brisk_walk") != nil)            // anywhere
        #expect(ans.recommendation("hide_and_seek") != nil)         // home
    }

    // MARK: Life stages

    @Test func lifeStagesFromAges() {
        func stage(_ species: Species, _ breed: String?, _ years: Double) -> LifeStage {
            Situation.at(.dublin, 2026, 6, 15, 12, species: species, breed: breed, years: years, sky: Sky(temperatureC: 15))
                .answer().needs.lifeStage
        }
        // Labrador Retriever: large (puppy under 1.5 years), life span 10–13 years (senior from 0.75 × 13 = 9.75).
        let lab = Fixture.breed("Labrador Retriever")
        #expect(lab.sizeClass == .large && lab.lifeSpanYears?.upperBound == 13)
        #expect(stage(.dog, "Labrador Retriever", 1.4) == .puppy)
        #expect(stage(.dog, "Labrador Retriever", 1.6) == .adult)
        #expect(stage(.dog, "Labrador Retriever", 9.7) == .adult)
        #expect(stage(.dog, "Labrador Retriever", 9.8) == .senior)
        // Beagle: medium (puppy under 1 year), senior from 0.75 × its longest life span.
        let beagle = Fixture.breed("Beagle")
        #expect(beagle.sizeClass == .medium)
        let seniorFrom = Fixture.spec.lifeStages["dog"]!["senior_from_life_span_share"]! * beagle.lifeSpanYears!.upperBound
        #expect(stage(.dog, "Beagle", 0.9) == .puppy)
        #expect(stage(.dog, "Beagle", 1.1) == .adult)
        #expect(stage(.dog, "Beagle", seniorFrom - 0.05) == .adult)
        #expect(stage(.dog, "Beagle", seniorFrom + 0.05) == .senior)
        // Mixed: senior from 8.
        #expect(stage(.dog, nil, 7.9) == .adult)
        #expect(stage(.dog, nil, 8.1) == .senior)
        #expect(stage(.cat, nil, 0.9) == .puppy)
        #expect(stage(.cat, nil, 10.9) == .adult)
        #expect(stage(.cat, nil, 11.1) == .senior)
        #expect(stage(.rabbit, nil, 0.4) == .puppy)
        #expect(stage(.rabbit, nil, 6.1) == .senior)
        #expect(stage(.guineaPig, nil, 0.2) == .puppy)
        #expect(stage(.guineaPig, nil, 0.3) == .adult)
        #expect(stage(.guineaPig, nil, 5.1) == .senior)
        #expect(stage(.bird, nil, 0.4) == .puppy)
        #expect(stage(.bird, nil, 7.9) == .adult)
        #expect(stage(.bird, nil, 8.1) == .senior)
    }

    @Test func lifeStageRulesTheActivitiesAndSeniorsNeverGetIntensity5() {
        let puppy = Self.june("Labrador Retriever", years: 0.5, 15).all()
        #expect(puppy.recommendation("crate_training") != nil)
        #expect(puppy.codes("jog") == ["not_for_age"])
        let senior = Self.june("Labrador Retriever", years: 11, 15).all()
        #expect(senior.recommendation("senior_stroll") != nil)
        #expect(senior.codes("crate_training") == ["not_for_age"])
        for r in senior.recommendations { #expect(r.activity.intensity <= 4) }
    }

    @Test func conditionsCapIntensity() throws {
        for (condition, cap) in Self.spec.conditionMaxIntensity {
            var s = Self.june("Border Collie", 15)
            s.conditions = [PetCondition(rawValue: condition)!]
            let ans = s.all()
            #expect(!ans.recommendations.isEmpty)
            for r in ans.recommendations { #expect(r.activity.intensity <= cap, "\(condition): \(r.activity.id)") }
            #expect(ans.needs.maxIntensity.value == cap)
            if cap < 4 {
                let fetch = try #require(ans.exclusion("fetch"))
                #expect(fetch.reasons.contains { $0.code == .health && $0.message.contains("at most \(cap)") }, "\(fetch.reasons)")
            }
        }
    }

    @Test func ageIsCountedOnTheLocalDateOfTheZone() {
        // 07:00 on 2 March in Sydney is 20:00 UTC on 1 March. A cat born on 1 March 2025 is
        // 366 days (over a year: an adult) old on the local date, 365 days on the UTC date.
        let local = Clock.instant("Australia/Sydney", 2026, 3, 2, 7)
        var s = Situation.at(.sydney, 2026, 3, 2, 7, species: .cat, breed: nil, years: 1, sky: Sky(temperatureC: 20))
        s.birth = LocalDate(year: 2025, month: 3, day: 1)!
        #expect(s.answer().needs.lifeStage == .adult)   // now written with Sydney's offset
        var ctx = s.context
        ctx.now = Instant(seconds: local.seconds, utcOffsetSeconds: 0)   // the same instant written in UTC, zone still Sydney
        let ans = Fixture.recommender.recommendActivities(ActivityRequest(pet: s.pet, context: ctx, seed: 1))
        #expect(ans.needs.lifeStage == .adult)
    }
}

extension Situation {
    /// A copy changed by `body`.
    func with(_ body: (inout Situation) -> Void) -> Situation {
        var copy = self
        body(&copy)
        return copy
    }
}

/// Edges of the request API.
@Suite struct RequestEdgeTests {
    @Test func overlappingBusyIntervalsNameTheirCommonEnd() throws {
        var s = Situation.at(.dublin, 2026, 6, 15, 13, 10, sky: Sky(temperatureC: 15))
        s.busy = [(Clock.instant("Europe/Dublin", 2026, 6, 15, 13).seconds, Clock.instant("Europe/Dublin", 2026, 6, 15, 15).seconds),
                  (Clock.instant("Europe/Dublin", 2026, 6, 15, 14, 30).seconds, Clock.instant("Europe/Dublin", 2026, 6, 15, 16).seconds)]
        let ans = s.answer()
        #expect(ans.recommendations.isEmpty)
        #expect(ans.nextWindow?.at == Clock.instant("Europe/Dublin", 2026, 6, 15, 16))
        let busy = try #require(ans.exclusion("puzzle_feeder")?.reasons.first { $0.code == .busy })
        #expect(busy.message == "busy until 16:00")
    }

    @Test func countZeroOffersNothingAndNoWindow() {
        let s = Situation.at(.dublin, 2026, 6, 15, 12, sky: Sky(temperatureC: 15))
        let ans = s.answer(count: 0)
        #expect(ans.recommendations.isEmpty)
        #expect(ans.nextWindow == nil)
    }
}
