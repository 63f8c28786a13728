// Shared fixtures for the recommender tests, and an oracle of the hard rules written from
// docs/recommender.md ("Hard rules", "Life stage") with every number read from
// data/weights.json and data/activities.json through Foundation's JSONSerialization — not
// through the module's RuleBook, catalogue or weights parser. The only module code the
// oracle borrows is the sun (ScoutSolar, tested on its own against astral) and the breed
// rows (ScoutCatalog, tested against the CSV).
import Foundation
import ScoutCatalog
import ScoutCore
import ScoutGeodesy
import ScoutRecommend
import ScoutRecommendJSON
import ScoutSchedule
import ScoutSolar
import ScoutTestSupport
import ScoutTime

/// Loaded once per test process: the breed table, the recommender and the oracle's spec.
enum Fixture {
    static let breeds: BreedTable = try! BreedTable.load(path: Repository.data + "/breeds.csv")
    static let recommender: Recommender = try! Recommender.load(dataDirectory: Repository.data, breeds: breeds)
    static let spec = Spec.load()

    static func breed(_ name: String) -> Breed {
        guard let b = breeds.breed(named: name) else { fatalError("no breed \(name) in data/breeds.csv") }
        return b
    }
}

// MARK: - Places and clocks

/// A place of the sweep and the hand examples, with its IANA zone.
struct Place: Sendable {
    let name: String
    let point: GeoPoint
    let zone: String

    static let dublin = Place(name: "Dublin", point: GeoPoint(lat: 53.3498, lon: -6.2603), zone: "Europe/Dublin")
    static let tromso = Place(name: "Tromsø", point: GeoPoint(lat: 69.65, lon: 18.96), zone: "Europe/Oslo")
    static let quito = Place(name: "Quito", point: GeoPoint(lat: -0.1807, lon: -78.4678), zone: "America/Guayaquil")
    static let sydney = Place(name: "Sydney", point: GeoPoint(lat: -33.8688, lon: 151.2093), zone: "Australia/Sydney")
    static let anchorage = Place(name: "Anchorage", point: GeoPoint(lat: 61.2181, lon: -149.9003), zone: "America/Anchorage")
    static let singapore = Place(name: "Singapore", point: GeoPoint(lat: 1.3521, lon: 103.8198), zone: "Asia/Singapore")
    static let nearPole = Place(name: "89N", point: GeoPoint(lat: 89, lon: 0), zone: "UTC")
    static let fiji = Place(name: "lon 179.9 (Fiji)", point: GeoPoint(lat: -16.5, lon: 179.9), zone: "Pacific/Fiji")
    /// On lon 179.9 east but on the clock of Adak (UTC−10): local noon is far from solar noon.
    static let aleutians = Place(name: "lon 179.9 (Aleutians)", point: GeoPoint(lat: 51.8, lon: 179.9), zone: "America/Adak")

    static let all: [Place] = [dublin, tromso, quito, sydney, anchorage, singapore, nearPole, fiji, aleutians]
}

enum Clock {
    /// Foundation's zones of the places, made once.
    static let zones: [String: TimeZone] = Dictionary(uniqueKeysWithValues: Place.all.map { ($0.zone, TimeZone(identifier: $0.zone)!) })

    /// The UTC offset of an IANA zone at `t` (Unix seconds), by Foundation.
    static func offset(_ zone: String, _ t: Int64) -> Int32 {
        Int32((zones[zone] ?? TimeZone(identifier: zone)!).secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))))
    }

    /// The instant of a local wall time in `zone`, written with that zone's offset.
    static func instant(_ zone: String, _ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int = 0) -> Instant {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: zone)!
        let date = cal.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi))!
        let s = Int64(date.timeIntervalSince1970)
        return Instant(seconds: s, utcOffsetSeconds: offset(zone, s))
    }

    /// `HH:MM` of `t` on a clock with offset `offset`.
    static func hhmm(_ t: Int64, offset: Int32) -> String {
        let m = Int((((t + Int64(offset)) % 86_400) + 86_400) % 86_400) / 60
        return String(format: "%02d:%02d", m / 60, m % 60)
    }
}

// MARK: - The spec, read from the data files

/// One activity as the oracle reads it from `data/activities.json`.
final class SpecActivity: Sendable {
    let id: String
    let species: Set<String>
    let category: String
    let setting: String
    let intensity: Int
    let minutes: Int
    let needsDaylight: Bool
    let tMin: Double, tMax: Double
    let rain: String
    let maxWind: Double
    let ages: Set<String>
    let place: String?
    let awayOK: Bool

    /// The same facts as small integers, for the sweep's millions of checks.
    var isIndoor: Bool { setting == "indoor" }
    let ageMask: UInt8
    let speciesMask: UInt8

    static func stageBit(_ stage: String) -> UInt8 { stage == "puppy" ? 1 : stage == "adult" ? 2 : 4 }
    /// A bit per species word of the data files; a species without a profile has `other`'s.
    static func speciesBit(_ species: String) -> UInt8 { UInt8(1) << UInt8(Spec.speciesWords.firstIndex(of: Spec.key(species))!) }

    init(id: String, species: Set<String>, category: String, setting: String, intensity: Int, minutes: Int, needsDaylight: Bool,
         tMin: Double, tMax: Double, rain: String, maxWind: Double, ages: Set<String>, place: String?, awayOK: Bool) {
        self.id = id; self.species = species; self.category = category; self.setting = setting; self.intensity = intensity
        self.minutes = minutes; self.needsDaylight = needsDaylight; self.tMin = tMin; self.tMax = tMax; self.rain = rain
        self.maxWind = maxWind; self.ages = ages; self.place = place; self.awayOK = awayOK
        ageMask = ages.reduce(0) { $0 | SpecActivity.stageBit($1) }
        speciesMask = species.reduce(0) { $0 | SpecActivity.speciesBit($1) }
    }
}

/// Every number the oracle needs, read with JSONSerialization.
struct Spec: Sendable {
    let activities: [SpecActivity]
    let byID: [String: SpecActivity]
    let bySpecies: [String: [SpecActivity]]
    let weightsVersion: String
    let termWeights: [String: Double]
    let rules: [String: Double]
    let conditionMaxIntensity: [String: Int]
    let conditionMaxC: [String: Double]
    /// `life_stages`, per species, by key.
    let lifeStages: [String: [String: Double]]
    let halfLifeDays: Double
    /// `enjoyment.evidence_max_factor` and `enjoyment.evidence_half`.
    let evidenceMaxFactor: Double, evidenceHalf: Double
    /// `exploration.gamma`.
    let gamma: Double
    /// `data/enjoyment_prior.json`'s coefficients by feature name.
    let prior: [String: Double]
    let noveltyDays: Double
    let fit: [String: Double]
    /// `goals.dog` tables (5 values each) and `rest_sessions`.
    let dogGoals: [String: [Double]]
    let dogRestSessions: Double
    /// `goals.<species>` for the other species.
    let speciesGoals: [String: [String: Double]]
    let goalAdjustments: [String: Double]
    /// `care_log.counts_toward`: care type → category.
    let careCategories: [String: String]

    /// The category a log entry counts toward: its activity's, or its care type's from
    /// `care_log.counts_toward`; `nil` for an unknown activity or care that counts toward none.
    func category(of type: LogType) -> String? {
        switch type {
        case .activity(let id): byID[id]?.category
        case .care(let c): careCategories[c.rawValue]
        }
    }

    /// The species words of the data files: the five with a profile, then `other` for all the rest.
    static let speciesWords = ["dog", "cat", "rabbit", "guinea_pig", "bird", "other"]

    /// The data files' key for a species: its word when it has a profile, else `other`.
    static func key(_ species: String) -> String { speciesWords.dropLast().contains(species) ? species : "other" }

    /// The activities of a species, in file order (a species without a profile: those for `other`).
    func activities(for species: String) -> [SpecActivity] { bySpecies[Spec.key(species)] ?? [] }

    static func load() -> Spec {
        func json(_ name: String) -> [String: Any] {
            let data = FileManager.default.contents(atPath: Repository.data + "/" + name)!
            return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        }
        func num(_ any: Any?) -> Double { (any as! NSNumber).doubleValue }
        func numbers(_ any: Any?) -> [String: Double] {
            var out: [String: Double] = [:]
            for (k, v) in any as! [String: Any] { if let n = v as? NSNumber { out[k] = n.doubleValue } }
            return out
        }
        let cat = json("activities.json")
        var acts: [SpecActivity] = []
        for case let a as [String: Any] in cat["activities"] as! [Any] {
            let t = a["temperature_c"] as! [String: Any]
            acts.append(SpecActivity(
                id: a["id"] as! String, species: Set(a["species"] as! [String]), category: a["category"] as! String,
                setting: a["setting"] as! String, intensity: Int(num(a["intensity"])), minutes: Int(num(a["minutes"])),
                needsDaylight: a["needs_daylight"] as! Bool, tMin: num(t["min"]), tMax: num(t["max"]), rain: a["rain"] as! String,
                maxWind: num(a["max_wind_kmh"]), ages: Set(a["ages"] as! [String]), place: a["place"] as? String,
                awayOK: a["away_ok"] as! Bool))
        }
        let w = json("weights.json")
        let rules = w["rules"] as! [String: Any]
        var stages: [String: [String: Double]] = [:]
        for (k, v) in w["life_stages"] as! [String: Any] { stages[k] = numbers(v) }
        let enjoyment = w["enjoyment"] as! [String: Any]
        let goals = w["goals"] as! [String: Any]
        return Spec(
            activities: acts, byID: Dictionary(uniqueKeysWithValues: acts.map { ($0.id, $0) }),
            bySpecies: Dictionary(uniqueKeysWithValues: Spec.speciesWords.map { sp in (sp, acts.filter { $0.species.contains(sp) }) }),
            weightsVersion: w["version"] as! String, termWeights: numbers(w["activity_terms"]), rules: numbers(rules),
            conditionMaxIntensity: numbers(rules["condition_max_intensity"]).mapValues { Int($0) },
            conditionMaxC: numbers(rules["condition_max_c"]), lifeStages: stages,
            halfLifeDays: num(enjoyment["half_life_days"]), evidenceMaxFactor: num(enjoyment["evidence_max_factor"]),
            evidenceHalf: num(enjoyment["evidence_half"]), gamma: num((w["exploration"] as! [String: Any])["gamma"]),
            prior: numbers(json("enjoyment_prior.json")["features"]),
            noveltyDays: num(w["novelty_days"]), fit: numbers(w["individual_fit"]),
            dogGoals: (goals["dog"] as! [String: Any]).compactMapValues { ($0 as? [NSNumber])?.map(\.doubleValue) },
            dogRestSessions: num((goals["dog"] as! [String: Any])["rest_sessions"]),
            speciesGoals: goals.filter { $0.key != "dog" }.mapValues { numbers($0) },
            goalAdjustments: numbers(w["goal_adjustments"]),
            careCategories: (w["care_log"] as! [String: Any])["counts_toward"] as! [String: String])
    }
}

// MARK: - A situation: everything the oracle judges, mirrored into a request

/// The weather as the test states it (precipitation as given, not yet raised).
struct Sky: Sendable, CustomStringConvertible {
    var temperatureC: Double
    var precipitationMmH: Double = 0
    var condition: WeatherCondition = .clear
    var windKmh: Double = 0

    var weather: Weather { Weather(temperatureC: temperatureC, precipitationMmH: precipitationMmH, condition: condition, windKmh: windKmh) }

    /// The precipitation the spec counts: at least what the condition implies.
    var effectivePrecipitation: Double {
        let implied: Double
        switch condition {
        case .drizzle: implied = 0.2
        case .rain, .sleet: implied = 1
        case .heavyRain: implied = 4
        case .snow: implied = 0.5
        default: implied = 0
        }
        return max(precipitationMmH, implied)
    }

    var isStormy: Bool { condition == .thunderstorm || condition == .storm || condition == .hail }

    var description: String {
        String(format: "%.2f°C %.2fmm/h %@ %.1fkm/h", temperatureC, precipitationMmH, condition.rawValue, windKmh)
    }
}

struct Situation: Sendable {
    var species: Species = .dog
    var breed: Breed?
    var birth: LocalDate
    var weightKg: Double?
    var conditions: Set<PetCondition> = []
    var place: Place
    /// Whether the context carries the zone (else `now`'s written offset holds for 24 h).
    var useZone = true
    var now: Int64
    var location: GeoPoint
    var home: (point: GeoPoint, radiusM: Double)?
    var sky: Sky
    var forecast: [(at: Int64, sky: Sky)] = []
    var busy: [(Int64, Int64)] = []
    var waking: (start: Int, end: Int) = (7 * 60, 22 * 60)
    var nearby: Set<String>?
    var hasGarden = true
    var afterDark = false

    /// The offset `now` is written with: the zone's at `now`.
    var nowOffset: Int32 { Clock.offset(place.zone, now) }

    /// The local clock's offset at `t`, by the rule in `RecommendationContext`'s documentation.
    func offset(at t: Int64) -> Int32 { useZone ? Clock.offset(place.zone, t) : nowOffset }

    func minuteOfDay(_ t: Int64) -> Int {
        let s = t + Int64(offset(at: t))
        return Int(((s % 86_400) + 86_400) % 86_400) / 60
    }

    var pet: PetProfile {
        PetProfile(name: nil, species: species, breed: species == .dog ? (breed ?? Fixture.breeds.mixed) : nil, birthDate: birth,
                   weightKg: weightKg, conditions: conditions)
    }

    var context: RecommendationContext {
        RecommendationContext(
            now: Instant(seconds: now, utcOffsetSeconds: nowOffset),
            zone: useZone ? try! Zone(identifier: place.zone, path: "zone") : nil,
            location: location, home: home, weather: sky.weather,
            forecast: forecast.map { (at: Instant(seconds: $0.at), weather: $0.sky.weather) },
            busy: busy.map { BusyInterval(start: Instant(seconds: $0.0), end: Instant(seconds: $0.1)) },
            wakingHours: WakingHours(startMinute: waking.start, endMinute: waking.end)!,
            nearby: nearby, hasGarden: hasGarden, allowsAfterDark: afterDark)
    }

    func request(count: Int = 2, mode: ActivityRequest.Mode = .explore, seed: UInt64? = 1, log: [LogEntry] = [],
                 feedback: [Feedback] = [], weights: RecommenderWeights? = nil) -> ActivityRequest {
        ActivityRequest(pet: pet, context: context, log: log, feedback: feedback, count: count, mode: mode, seed: seed, weights: weights)
    }

    var summary: String {
        let who = species == .dog ? (breed?.name ?? "Mixed") : species.rawValue
        let f = forecast.map { "\(Clock.hhmm($0.at, offset: nowOffset)) \($0.sky)" }.joined(separator: "; ")
        let b = busy.map { "\(Clock.hhmm($0.0, offset: nowOffset))–\(Clock.hhmm($0.1, offset: nowOffset))" }.joined(separator: ", ")
        return "\(who) born \(birth) \(weightKg.map { String(format: "%.1f kg", $0) } ?? "") \(conditions.map(\.rawValue).sorted()) "
            + "at \(place.name) \(Instant(seconds: now, utcOffsetSeconds: nowOffset)) zone:\(useZone) \(sky) "
            + "forecast:[\(f)] busy:[\(b)] waking:\(waking.start)-\(waking.end) away:\(home.map { "\($0.radiusM)m" } ?? "-") "
            + "nearby:\(nearby.map { $0.sorted().joined(separator: ",") } ?? "all") garden:\(hasGarden) after_dark:\(afterDark)"
    }
}

// MARK: - The oracle

/// The rule codes of docs/recommender.md, as bits (the oracle runs millions of checks).
enum Rule: Int, CaseIterable {
    case species, notForAge, health, awayFromHome, noPlace, outsideWakingHours, busy, notEnoughTime
    case noForecast, storm, wind, rain, tooHot, tooCold, dark, needsDaylight

    var code: String {
        switch self {
        case .species: "species"
        case .notForAge: "not_for_age"
        case .health: "health"
        case .awayFromHome: "away_from_home"
        case .noPlace: "no_place_nearby"
        case .outsideWakingHours: "outside_waking_hours"
        case .busy: "busy"
        case .notEnoughTime: "not_enough_time"
        case .noForecast: "no_forecast"
        case .storm: "storm"
        case .wind: "wind"
        case .rain: "rain"
        case .tooHot: "too_hot"
        case .tooCold: "too_cold"
        case .dark: "dark"
        case .needsDaylight: "needs_daylight"
        }
    }
    var bit: UInt32 { 1 << UInt32(rawValue) }

    static func codes(_ mask: UInt32) -> Set<String> { Set(allCases.filter { mask & $0.bit != 0 }.map(\.code)) }

    /// Bits by code text.
    static let byCode: [String: UInt32] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.code, $0.bit) })

    /// The module's codes as bits (bit 31 for a code the doc does not have).
    static func mask(_ codes: [ExclusionCode]) -> UInt32 { codes.reduce(0) { $0 | (byCode[$1.rawValue] ?? 1 << 31) } }
}

/// The rules of docs/recommender.md, applied to a ``Situation``. A class: the sweep
/// passes it around millions of times, and its memo tables grow as it goes.
final class RuleOracle {
    let s: Situation
    let spec: Spec
    let activities: [SpecActivity]
    let stage: String
    let stageBit: UInt8, speciesBit: UInt8
    let nowOffset: Int32
    let hotDelta: Double, coldDelta: Double
    let maxIntensity: Int
    let away: Bool
    let brachycephalic: Bool
    let forecast: [(at: Int64, sky: Sky)]
    let seniorMax: Double, brachyMaxIntensity: Double, brachyAboveC: Double, dry: Double, light: Double, stormWind: Double
    /// A deliberately wrong change to the hot limits, used only to show the oracle can fire.
    var sabotageHotC: Double = 0
    private var elevations: [Int64: Double] = [:]
    private var days: [Int64: Bool] = [:]
    private var offsets: [Int64: Int32] = [:]

    /// The tolerance around −6° within which "dark" is not judged: the module cuts at
    /// astral's geometric −6.0549° (apparent −6.0005°).
    static let darkTolerance = 0.002

    init(_ s: Situation, spec: Spec = Fixture.spec) {
        self.s = s
        self.spec = spec
        activities = spec.activities(for: s.species.rawValue)
        stage = RuleOracle.lifeStage(s, spec: spec)
        stageBit = SpecActivity.stageBit(stage)
        speciesBit = SpecActivity.speciesBit(s.species.rawValue)
        nowOffset = s.nowOffset
        var hot = 0.0, cold = 0.0
        let r = spec.rules
        let b = s.breed ?? Fixture.breeds.mixed
        if s.species == .dog {
            if b.coatType == "Double" { hot += r["double_coat_max_c"]! }
            if b.coatLength == "Long" { hot += r["long_coat_max_c"]! }
            if b.brachycephalic { hot += r["brachycephalic_max_c"]! }
            if b.coatType == "Hairless" { cold += r["hairless_min_c"]! }
            else if b.coatLength == "Short" && (b.coatType == "Smooth" || b.coatType == "Silky") { cold += r["thin_coat_min_c"]! }
            let size = RuleOracle.size(s, b)
            if size == .toy || size == .small { cold += r["small_dog_min_c"]! }
        }
        brachycephalic = s.species == .dog && b.brachycephalic
        if stage == "puppy" { hot += r["puppy_max_c"]!; cold += r["puppy_min_c"]! }
        if stage == "senior" { hot += r["senior_max_c"]!; cold += r["senior_min_c"]! }
        for c in s.conditions { hot += spec.conditionMaxC[c.rawValue] ?? 0 }
        hotDelta = hot
        coldDelta = cold
        maxIntensity = s.conditions.map { spec.conditionMaxIntensity[$0.rawValue] ?? 5 }.min() ?? 5
        if let home = s.home {
            away = Geodesic.distance(s.location, home.point) > home.radiusM
        } else {
            away = false
        }
        forecast = s.forecast.sorted { $0.at < $1.at }
        seniorMax = r["senior_max_intensity"]!
        brachyMaxIntensity = r["brachycephalic_max_intensity"]!
        brachyAboveC = r["brachycephalic_intensity_above_c"]!
        dry = r["dry_mm_h"]!
        light = r["light_rain_mm_h"]!
        stormWind = r["storm_wind_kmh"]!
    }

    /// Age in years on `now`'s local date.
    static func ageYears(_ s: Situation) -> Double {
        let localDay = floorDiv(s.now + Int64(s.nowOffset), 86_400)
        return max(0, Double(localDay - s.birth.daysSinceEpoch) / 365.25)
    }

    /// A dog's size by docs/recommender.md: the breed's size class, else the dog's own weight,
    /// else the middle of the breed's weight range (mixed dogs: their weight).
    static func size(_ s: Situation, _ b: Breed) -> SizeClass? {
        if !b.isMixed, let c = b.sizeClass { return c }
        if let w = s.weightKg { return SizeClass(weightKg: w) }
        if !b.isMixed, let r = b.weightKg { return SizeClass(weightKg: (r.lowerBound + r.upperBound) / 2) }
        return nil
    }

    /// The life stage by the "Life stage" table.
    static func lifeStage(_ s: Situation, spec: Spec) -> String {
        let age = ageYears(s)
        let st = spec.lifeStages[Spec.key(s.species.rawValue)]!
        var puppy = st["puppy_until_years"]!
        var senior = st["senior_from_years"] ?? st["senior_without_breed_years"]!
        if s.species == .dog, let b = s.breed, !b.isMixed {
            let size = RuleOracle.size(s, b)
            if size == .large || size == .giant { puppy = st["large_puppy_until_years"]! }
            if let span = b.lifeSpanYears { senior = st["senior_from_life_span_share"]! * span.upperBound }
        }
        return age < puppy ? "puppy" : age >= senior ? "senior" : "adult"
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// The weather at `t`: the forecast hour holding it; the current sky before the first
    /// entry or with no forecast; `nil` when a forecast was given and does not cover `t`.
    func sky(at t: Int64) -> Sky? {
        guard let first = forecast.first else { return s.sky }
        if t < first.at { return s.sky }
        var i = forecast.count - 1
        while forecast[i].at > t { i -= 1 }
        return t < forecast[i].at + 3600 ? forecast[i].sky : nil
    }

    func isWaking(_ minute: Int) -> Bool {
        let (a, b) = s.waking
        return a < b ? (minute >= a && minute < b) : (minute >= a || minute < b)
    }

    /// Minutes after local midnight (offsets memoised per UTC hour: the zones here change
    /// offset only on whole UTC hours).
    func minuteOfDay(_ t: Int64) -> Int {
        let off: Int32
        if !s.useZone {
            off = nowOffset
        } else if let o = offsets[RuleOracle.floorDiv(t, 3600)] {
            off = o
        } else {
            off = Clock.offset(s.place.zone, t)
            offsets[RuleOracle.floorDiv(t, 3600)] = off
        }
        let x = t + Int64(off)
        return Int(((x % 86_400) + 86_400) % 86_400) / 60
    }

    func apparentElevation(_ t: Int64) -> Double {
        if let e = elevations[t] { return e }
        let e = SolarPosition.elevation(latitude: s.location.lat, longitude: s.location.lon, at: Instant(seconds: t))
        elevations[t] = e
        return e
    }

    func isDay(_ t: Int64) -> Bool {
        if let d = days[t] { return d }
        let d = Daylight.at(latitude: s.location.lat, longitude: s.location.lon, Instant(seconds: t)) == .day
        days[t] = d
        return d
    }

    /// What the rules say about activity `a` starting at `t`.
    struct Verdict {
        /// Broken rules that do not depend on the weather or the light (``Rule`` bits).
        var general: UInt32 = 0
        /// Broken outdoor rules (weather, temperature, light).
        var outdoor: UInt32 = 0
        /// Rules too close to call: "dark" when the sun is within ``RuleOracle/darkTolerance``
        /// of −6° at the start or end (the module may or may not apply it).
        var uncertain: UInt32 = 0
        /// How it may be done, or `nil` when ruled out.
        var mode: ActivityMode?
        /// The pet-adjusted minimum is above the adjusted maximum (no safe temperature), and
        /// the temperature is at that maximum: see the known issue in the sweep.
        var crossedLimits = false
        /// Whether an uncertain rule decides the outcome: not judged.
        var ambiguous: Bool { uncertain != 0 && general == 0 && outdoor == 0 }
        var all: UInt32 { general | outdoor }
    }

    /// Whether every activity is ruled out at `t` by the clock or the calendar alone.
    func closed(at t: Int64) -> Bool {
        if !isWaking(minuteOfDay(t)) { return true }
        for (b0, b1) in s.busy where b0 <= t && t < b1 { return true }
        return false
    }

    /// `full: false` skips the outdoor rules once a general rule has ruled the activity out.
    func verdict(_ a: SpecActivity, at t: Int64, full: Bool = true) -> Verdict {
        var v = Verdict()
        let end = t + Int64(a.minutes) * 60
        if a.speciesMask & speciesBit == 0 { v.general |= Rule.species.bit }
        if a.ageMask & stageBit == 0 { v.general |= Rule.notForAge.bit }
        if a.intensity > maxIntensity || (stageBit == 4 && Double(a.intensity) > seniorMax) { v.general |= Rule.health.bit }
        if away && !a.awayOK { v.general |= Rule.awayFromHome.bit }
        if let p = a.place {
            if p == "garden" { if !s.hasGarden { v.general |= Rule.noPlace.bit } }
            else if p != "home", let nearby = s.nearby, !nearby.contains(p) { v.general |= Rule.noPlace.bit }
        }
        if !isWaking(minuteOfDay(t)) || !isWaking(minuteOfDay(end - 60)) { v.general |= Rule.outsideWakingHours.bit }
        for (b0, b1) in s.busy {
            if b0 <= t && t < b1 { v.general |= Rule.busy.bit }
            else if b0 > t && b0 < end { v.general |= Rule.notEnoughTime.bit }
        }
        if !a.isIndoor && (full || v.general == 0) {
            outdoorRules(a, start: t, end: end, into: &v)
        }
        if v.general != 0 { return v }
        switch a.setting {
        case "indoor": v.mode = .indoor
        case "either": v.mode = v.outdoor == 0 ? .outdoor : .indoor
        default: v.mode = v.outdoor == 0 ? .outdoor : nil
        }
        return v
    }

    func outdoorRules(_ a: SpecActivity, start t: Int64, end: Int64, into v: inout Verdict) {
        // Every hour of the session counts (docs/recommender.md: "at any time during the session").
        let all = skies(from: t, to: end)
        guard all.allSatisfy({ $0 != nil }) else {
            v.outdoor |= Rule.noForecast.bit
            return
        }
        let skies = all.map { $0! }
        let wind = skies.map(\.windKmh).max()!
        if skies.contains(where: \.isStormy) || wind >= stormWind { v.outdoor |= Rule.storm.bit }
        if wind > a.maxWind { v.outdoor |= Rule.wind.bit }
        let rain = skies.map(\.effectivePrecipitation).max()!
        if (a.rain == "none" && rain > dry) || (a.rain == "light" && rain > light) { v.outdoor |= Rule.rain.bit }
        let hot = skies.map(\.temperatureC).max()!, cold = skies.map(\.temperatureC).min()!
        if hot > a.tMax + hotDelta + sabotageHotC { v.outdoor |= Rule.tooHot.bit }
        if brachycephalic && Double(a.intensity) > brachyMaxIntensity && hot > brachyAboveC { v.outdoor |= Rule.tooHot.bit }
        if cold < a.tMin + coldDelta {
            v.outdoor |= Rule.tooCold.bit
            let hi = a.tMax + hotDelta
            if a.tMin + coldDelta > hi && cold >= hi && hot <= hi { v.crossedLimits = true }
        }
        // After dark only with the owner's opt-in, and never for what needs daylight.
        let e = min(apparentElevation(t), apparentElevation(end))
        if s.afterDark && !a.needsDaylight {
        } else if e < -6 - RuleOracle.darkTolerance {
            v.outdoor |= Rule.dark.bit
        } else if e < -6 + RuleOracle.darkTolerance {
            v.uncertain |= Rule.dark.bit
        }
        if a.needsDaylight && (!isDay(t) || !isDay(end)) { v.outdoor |= Rule.needsDaylight.bit }
    }

    /// The activities of the species that may start at `t`, with how.
    func eligible(at t: Int64) -> (modes: [String: ActivityMode], ambiguous: Set<String>) {
        var out: [String: ActivityMode] = [:]
        var amb = Set<String>()
        if closed(at: t) { return (out, amb) }
        for a in activities {
            let v = verdict(a, at: t, full: false)
            if v.ambiguous { amb.insert(a.id) }
            if let m = v.mode { out[a.id] = m }
        }
        return (out, amb)
    }

    /// Every forecast hour (and the current sky) the session `[t, end)` overlaps.
    func skies(from t: Int64, to end: Int64) -> [Sky?] {
        var out: [Sky?] = []
        var u = t
        while u < end {
            out.append(sky(at: u))
            u = (u / 3600 + 1) * 3600
        }
        out.append(sky(at: end - 60))
        return out
    }
}

// MARK: - Small helpers

extension ActivityRecommendations {
    /// Ids of the recommendations, in order.
    var ids: [String] { recommendations.map(\.activity.id) }
    /// The excluded entry of an activity.
    func exclusion(_ id: String) -> ExcludedActivity? { excluded.first { $0.activity.id == id } }
    func codes(_ id: String) -> Set<String> { Set(exclusion(id)?.reasons.map(\.code.rawValue) ?? []) }
    func recommendation(_ id: String) -> ActivityRecommendation? { recommendations.first { $0.activity.id == id } }
}


/// A day of a pet's birth `years` before `now`'s local date (in whole days).
func birthDate(yearsBefore now: Instant, _ years: Double) -> LocalDate {
    LocalDate(daysSinceEpoch: now.localDate.daysSinceEpoch - Int64((years * 365.25).rounded()))
}

extension Situation {
    /// A pet `years` old at a local wall time of `place`, at home, in `sky`.
    static func at(_ place: Place = .dublin, _ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int = 0, species: Species = .dog,
                   breed: String? = "Labrador Retriever", years: Double = 4, sky: Sky) -> Situation {
        let now = Clock.instant(place.zone, y, mo, d, h, mi)
        return Situation(species: species, breed: species == .dog ? breed.map(Fixture.breed) : nil,
                         birth: birthDate(yearsBefore: now, years), place: place, now: now.seconds, location: place.point, sky: sky)
    }

    /// Every activity the module offers for this situation (a count larger than the catalogue).
    func all(mode: ActivityRequest.Mode = .best, seed: UInt64? = 1, log: [LogEntry] = [], feedback: [Feedback] = [],
             weights: RecommenderWeights? = nil) -> ActivityRecommendations {
        Fixture.recommender.recommendActivities(request(count: 1_000, mode: mode, seed: seed, log: log, feedback: feedback, weights: weights))
    }

    func answer(count: Int = 2, mode: ActivityRequest.Mode = .explore, seed: UInt64? = 1) -> ActivityRecommendations {
        Fixture.recommender.recommendActivities(request(count: count, mode: mode, seed: seed))
    }
}

// MARK: - Needs and terms, by the spec

/// Needs (weight status, goals, target intensity) and the score terms of docs/recommender.md,
/// with the numbers of data/weights.json.
struct NeedsOracle {
    let s: Situation
    let spec: Spec
    let stage: String
    let weightStatus: String
    let goals: [Double]
    let target: Double

    static let categories = ["physical", "mental", "social", "training", "care", "rest"]

    init(_ s: Situation, spec: Spec = Fixture.spec) {
        self.s = s
        self.spec = spec
        stage = RuleOracle.lifeStage(s, spec: spec)
        let b = s.breed ?? Fixture.breeds.mixed
        if s.species == .dog, !b.isMixed, let range = b.weightKg, let w = s.weightKg, stage != "puppy" {
            weightStatus = w > range.upperBound * spec.rules["overweight_share"]! ? "over"
                : w < range.lowerBound * spec.rules["underweight_share"]! ? "under" : "healthy"
        } else {
            weightStatus = "unknown"
        }
        var g: [Double]
        let adj = spec.goalAdjustments
        if s.species == .dog {
            let t = spec.dogGoals
            let social = Int((Double(b[.playfulness] + b[.goodWithDogs]) / 2).rounded(.toNearestOrAwayFromZero))
            g = [t["physical_minutes_by_energy"]![b[.energy] - 1], t["mental_sessions_by_mental_stimulation"]![b[.mentalStimulation] - 1],
                 t["social_minutes_by_sociability"]![social - 1], t["training_sessions_by_trainability"]![b[.trainability] - 1],
                 t["care_sessions_by_shedding"]![b[.shedding] - 1], spec.dogRestSessions]
            if b.coatLength == "Long" { g[4] += adj["long_coat_care_extra"]! }
        } else {
            let t = spec.speciesGoals[Spec.key(s.species.rawValue)]!
            g = [t["physical_minutes"]!, t["mental_sessions"]!, t["social_minutes"]!, t["training_sessions"]!, t["care_sessions"]!,
                 t["rest_sessions"]!]
        }
        if stage == "puppy" { g[0] *= adj["puppy_physical_factor"]!; g[3] += adj["puppy_training_extra"]!; g[5] += adj["puppy_rest_extra"]! }
        if stage == "senior" { g[0] *= adj["senior_physical_factor"]!; g[1] += adj["senior_mental_extra"]!; g[5] += adj["senior_rest_extra"]! }
        if weightStatus == "over" { g[0] *= adj["overweight_physical_factor"]! }
        goals = g
        var target = s.species == .dog ? Double(b[.energy]) : 3
        if stage == "senior" { target += spec.fit["senior_intensity_shift"]! }
        if stage == "puppy" { target += spec.fit["puppy_intensity_shift"]! }
        if weightStatus == "over" { target = min(target, spec.fit["overweight_intensity_cap"]!) }
        let cap = s.conditions.map { spec.conditionMaxIntensity[$0.rawValue] ?? 5 }.min() ?? 5
        target = min(Double(cap), max(1, min(5, target)))
        self.target = target
    }

    /// Done per category in the 7 days before `now` (minutes for physical and social).
    func done(_ log: [LogEntry]) -> [Double] {
        var d = [Double](repeating: 0, count: 6)
        for e in log {
            guard let category = spec.category(of: e.type), e.start.seconds <= s.now, s.now - e.start.seconds < 7 * 86_400 else { continue }
            let c = NeedsOracle.categories.firstIndex(of: category)!
            d[c] += c == 0 || c == 2 ? e.minutes : 1
        }
        return d
    }

    func gaps(_ log: [LogEntry]) -> [Double] {
        zip(done(log), goals).map { d, g in g > 0 ? max(0, 1 - d / g) : 0 }
    }

    func fit(_ a: SpecActivity) -> Double {
        var v = 1 - abs(Double(a.intensity) - target) / 4
        if stage == "senior" && a.category == "mental" { v += spec.fit["senior_mental_bonus"]! }
        if weightStatus == "over" && a.category == "physical" && Double(a.intensity) <= spec.fit["overweight_intensity_cap"]! {
            v += spec.fit["overweight_low_impact_bonus"]!
        }
        return min(1, max(0, v))
    }

    /// Days since last done / novelty_days, at most 1; 1 when never done (at time `t`).
    func novelty(_ a: SpecActivity, log: [LogEntry], at t: Int64) -> Double {
        let last = log.filter { $0.type == .activity(a.id) && $0.start.seconds <= s.now }.map(\.start.seconds).max()
        guard let last else { return 1 }
        return min(1, Double(t - last) / 86_400 / spec.noveltyDays)
    }

    /// The predicted enjoyment of a pet without ratings: the logistic of the prior's
    /// coefficients times the features of docs/recommender.md ("Enjoyment"), computed here
    /// from that table, not from the module's feature code.
    func priorEnjoyment(_ a: SpecActivity, mode: ActivityMode, at t: Int64, log: [LogEntry], rules o: RuleOracle) -> Double {
        let b = s.breed ?? Fixture.breeds.mixed
        func trait(_ x: Breed.Trait) -> Double { s.species == .dog && !b.isMixed ? (Double(b[x]) - 3) / 2 : 0 }
        let i = (Double(a.intensity) - 3) / 2
        let len = min(2, max(-1, (Double(a.minutes) - 30) / 30))
        let out = mode == .outdoor ? 1.0 : 0
        let w = o.sky(at: t) ?? s.sky
        let temp = w.temperatureC.rounded()
        let cold = max(0, 10 - temp) / 10, heat = max(0, temp - 22) / 10
        let hour = o.minuteOfDay(t) / 60
        let weekday = Instant(seconds: t, utcOffsetSeconds: s.offset(at: t)).localDate.weekday
        let window: Int64 = 36 * 3600
        let done = log.filter { $0.start.seconds <= s.now && t - $0.start.seconds <= window }
        let repeated = done.contains { $0.type == .activity(a.id) }
        let sameCategory = done.contains { e in
            if case .activity(let id) = e.type, id != a.id, Fixture.spec.byID[id]?.category == a.category { return true }
            return false
        }
        let c = a.category
        let x: [String: Double] = [
            "category_physical": c == "physical" ? 1 : 0, "category_mental": c == "mental" ? 1 : 0, "category_social": c == "social" ? 1 : 0,
            "category_training": c == "training" ? 1 : 0, "category_care": c == "care" ? 1 : 0, "category_rest": c == "rest" ? 1 : 0,
            "energy_x_intensity": trait(.energy) * i, "mental_need_x_mental": c == "mental" ? trait(.mentalStimulation) : 0,
            "playfulness_x_social": c == "social" ? trait(.playfulness) : 0, "trainability_x_training": c == "training" ? trait(.trainability) : 0,
            "puppy_x_intensity": stage == "puppy" ? i : 0, "senior_x_intensity": stage == "senior" ? i : 0,
            "senior_x_length": stage == "senior" ? len : 0, "overweight_x_intensity": weightStatus == "over" ? i : 0,
            "condition_x_intensity": s.conditions.isEmpty ? 0 : i, "not_dog_x_intensity": s.species == .dog ? 0 : i,
            "length": len, "outdoor": out, "outdoor_x_wet": w.effectivePrecipitation > spec.rules["dry_mm_h"]! ? out : 0,
            "outdoor_x_cold": out * cold, "outdoor_x_heat": out * heat, "intensity_x_heat": i * heat,
            "outdoor_x_not_day": o.isDay(t) ? 0 : out, "evening_x_intensity": hour >= 19 || hour < 7 ? i : 0,
            "morning_x_physical": hour >= 5 && hour < 10 && c == "physical" ? 1 : 0, "weekend_x_length": weekday >= 6 ? len : 0,
            "away_x_social": o.away && c == "social" ? 1 : 0, "away_x_rest": o.away && c == "rest" ? 1 : 0,
            "repeat_activity": repeated ? 1 : 0, "repeat_category": sameCategory ? 1 : 0,
            "intensity_gap": abs(Double(a.intensity) - target) / 4,
        ]
        precondition(Set(x.keys) == Set(spec.prior.keys), "the oracle's features are the prior file's")
        let z = x.reduce(0.0) { $0 + spec.prior[$1.key]! * $1.value }
        return 1 / (1 + exp(-z))
    }

    /// The enjoyment term's weight for `feedback` ("Evidence"): the file's weight ×
    /// `(1 + (factor − 1)·n / (n + half))`, `n` the ratings' decayed weight.
    func enjoymentWeight(_ feedback: [Feedback], base: Double) -> Double {
        var n = 0.0
        for f in feedback where spec.byID[f.activity] != nil && f.at.seconds <= s.now {
            n += pow(0.5, Double(s.now - f.at.seconds) / 86_400 / spec.halfLifeDays)
        }
        return base * (1 + (spec.evidenceMaxFactor - 1) * n / (n + spec.evidenceHalf))
    }

    /// The context term of docs/recommender.md ("Score"), or `nil` when `t` sits on a
    /// boundary the text does not settle ("within 3 °C" exactly).
    func context(_ a: SpecActivity, mode: ActivityMode, at t: Int64, rules o: RuleOracle) -> Double? {
        let w = o.sky(at: t)
        let day = o.isDay(t)
        if mode == .indoor {
            if a.setting == "either" { return 0.7 }
            guard let w else { return 0.8 }
            let poor = w.effectivePrecipitation > spec.rules["dry_mm_h"]! || w.isStormy || w.temperatureC < 5 || w.temperatureC > 25 || !day
            return poor ? 0.8 : 0.5
        }
        guard let w else { return nil }
        var v = 1.0
        if w.effectivePrecipitation > spec.rules["dry_mm_h"]! { v -= 0.4 }
        if !day { v -= 0.2 }
        let hi = a.tMax + o.hotDelta, lo = a.tMin + o.coldDelta
        if abs(w.temperatureC - (hi - 3)) < 1e-9 || abs(w.temperatureC - (lo + 3)) < 1e-9 { return nil }
        if w.temperatureC > hi - 3 || w.temperatureC < lo + 3 { v -= 0.2 }
        return max(0, v)
    }
}
