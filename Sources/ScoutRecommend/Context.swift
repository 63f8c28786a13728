import ScoutCore
import ScoutGeodesy
import ScoutSchedule
import ScoutTime

/// The sky as the caller reports it.
public enum WeatherCondition: String, Sendable, CaseIterable {
    case clear
    case partlyCloudy = "partly_cloudy"
    case cloudy, fog, drizzle, rain
    case heavyRain = "heavy_rain"
    case snow, sleet, hail, thunderstorm, storm

    /// Thunderstorms, storms and hail rule out every outdoor activity.
    public var isStorm: Bool { self == .thunderstorm || self == .storm || self == .hail }

    /// The precipitation the condition implies at least, mm/h: a report of "rain" with
    /// 0 mm/h still counts as raining.
    public var impliedPrecipitationMmH: Double {
        switch self {
        case .drizzle: 0.2
        case .rain, .sleet: 1
        case .heavyRain: 4
        case .snow: 0.5
        default: 0
        }
    }

    /// The condition in an owner's words ("raining").
    public var words: String {
        switch self {
        case .clear: "clear"
        case .partlyCloudy: "partly cloudy"
        case .cloudy: "cloudy"
        case .fog: "foggy"
        case .drizzle: "drizzling"
        case .rain: "raining"
        case .heavyRain: "pouring"
        case .snow: "snowing"
        case .sleet: "sleeting"
        case .hail: "hailing"
        case .thunderstorm: "a thunderstorm"
        case .storm: "a storm"
        }
    }
}

/// The weather over one span of time.
public struct Weather: Sendable, Equatable {
    /// Air temperature, °C.
    public var temperatureC: Double
    /// Precipitation, mm/h, at least what ``condition`` implies.
    public var precipitationMmH: Double
    /// The sky.
    public var condition: WeatherCondition
    /// Sustained wind, km/h.
    public var windKmh: Double

    /// Creates a report; precipitation is raised to what the condition implies.
    public init(temperatureC: Double, precipitationMmH: Double = 0, condition: WeatherCondition = .clear, windKmh: Double = 0) {
        self.temperatureC = temperatureC
        self.precipitationMmH = max(precipitationMmH, condition.impliedPrecipitationMmH)
        self.condition = condition
        self.windKmh = windKmh
    }
}

/// One entry of the pet's log: an activity of the catalogue, or care (a meal, a walk, a vet
/// visit, grooming, medication, other).
///
/// ```swift
/// LogEntry(activity: "fetch", start: t, minutes: 20)
/// LogEntry(type: .care(.feeding), start: t)
/// ```
public struct LogEntry: Sendable, Equatable {
    /// What was done.
    public var type: LogType
    /// When it started.
    public var start: Instant
    /// How long it lasted (0 when the log does not say).
    public var minutes: Double

    /// Creates an entry.
    public init(type: LogType, start: Instant, minutes: Double = 0) {
        self.type = type
        self.start = start
        self.minutes = minutes
    }

    /// Creates an entry of a catalogue activity.
    public init(activity: String, start: Instant, minutes: Double) {
        self.init(type: .activity(activity), start: start, minutes: minutes)
    }

    /// The type's word as the log writes it (`activity` is the protocol's older name of
    /// `type`): the activity's id, or the care type (`feeding`).
    public var activity: String { type.word }

    /// The category the entry counts toward this week, with the activity's position in the
    /// catalogue: an activity's own category; a care type's from
    /// ``RecommenderWeights/careLogCategories`` (a walk's minutes are exercise); `nil` for an
    /// activity the catalogue does not know or care that counts toward no category.
    func counted(in catalog: ActivityCatalog, weights: RecommenderWeights) -> (category: ActivityCategory, index: Int?)? {
        switch type {
        case .activity(let id):
            guard let i = catalog.index(of: id) else { return nil }
            return (catalog.activities[i].category, i)
        case .care(let t):
            return weights.careLogCategories[t].map { ($0, nil) }
        }
    }
}

/// How much the pet enjoyed an activity.
public enum Enjoyment: String, Sendable, CaseIterable {
    case enjoyed, neutral, disliked
}

/// One piece of enjoyment feedback about an activity the pet did: how much it enjoyed it,
/// and, in "this or that", which offers of the same answer the owner passed over for it.
/// When the caller names the offer, it is learnt in the moment the offer was made.
///
/// ```swift
/// Feedback(activity: "fetch", rating: .enjoyed, at: t)
/// Feedback(offer: taken, rating: .disliked, at: t)
/// Feedback(offer: taken, over: [passed], at: t)    // chosen, not rated (yet)
/// ```
public struct Feedback: Sendable, Equatable {
    /// The activity's id in the catalogue.
    public var activity: String
    /// The verdict; `nil` when the feedback only says what was chosen (``over``).
    public var rating: Enjoyment?
    /// When it was given.
    public var at: Instant
    /// The moment of the offer it answers; `nil` for a rating without an offer id.
    public var moment: Moment?
    /// Offers of the same answer the owner passed over for this one: each says the pet was
    /// expected to enjoy this one more (a comparison, learnt as in Bradley–Terry).
    public var over: [OfferID]

    /// Feedback on an activity, without the offer it answers.
    public init(activity: String, rating: Enjoyment, at: Instant) {
        self.activity = activity
        self.rating = rating
        self.at = at
        over = []
    }

    /// Feedback on an offer: its activity, read in the moment the offer knew, the verdict
    /// when there is one, and the offers passed over for it: by default the other offer the
    /// id names (``OfferID/others``: an answer of two, where taking one passes the other
    /// over); `[]` when the owner took neither over the other. Feedback with neither a
    /// rating nor an offer passed over says nothing and is not read.
    public init(offer: OfferID, rating: Enjoyment? = nil, over: [OfferID]? = nil, at: Instant) {
        activity = offer.activity
        self.rating = rating
        self.at = at
        moment = offer.moment
        self.over = over ?? offer.others
    }
}

/// Everything around the pet at the moment of a recommendation. All instants are UTC
/// seconds; local clock times use ``zone`` when given, else the offset written in ``now``.
public struct RecommendationContext: Sendable {
    /// The moment the recommendation is for, with the caller's UTC offset.
    public var now: Instant
    /// The IANA zone of the pet's clock; `nil` keeps `now`'s offset for the next 24 hours.
    public var zone: Zone?
    /// Where the pet is.
    public var location: GeoPoint
    /// Home and its radius, metres; `nil` means the pet is taken to be at home.
    public var home: (point: GeoPoint, radiusM: Double)?
    /// The weather now (for the first hour, or until the first forecast entry).
    public var weather: Weather
    /// Hourly forecast: each entry holds for one hour from its instant. Empty: the current
    /// weather is assumed to hold.
    public var forecast: [(at: Instant, weather: Weather)]
    /// Calendar busy intervals `[start, end)`.
    public var busy: [BusyInterval]
    /// Waking hours on the local clock (may wrap midnight); the rest is quiet.
    public var wakingHours: WakingHours
    /// Place types within reach (`park`, `beach`, `dog_park`, `trail`, `water`, `city`);
    /// `nil`: assume every place is within reach.
    public var nearby: Set<String>?
    /// Whether the pet's home has a garden.
    public var hasGarden: Bool
    /// The owner allows outdoor activities after dark (the app's setting): the `dark` rule
    /// then leaves out only the activities that need daylight, which the `needs_daylight`
    /// rule keeps out anyway; every other rule holds as without it.
    public var allowsAfterDark: Bool

    /// Creates a context. Defaults: at home, no calendar, waking 07:00–22:00, a garden, no
    /// outdoor activity after dark.
    public init(now: Instant, zone: Zone? = nil, location: GeoPoint, home: (point: GeoPoint, radiusM: Double)? = nil,
                weather: Weather, forecast: [(at: Instant, weather: Weather)] = [], busy: [BusyInterval] = [],
                wakingHours: WakingHours = .standard, nearby: Set<String>? = nil, hasGarden: Bool = true, allowsAfterDark: Bool = false) {
        self.now = now
        self.zone = zone
        self.location = location
        self.home = home
        self.weather = weather
        self.forecast = forecast.sorted { $0.at < $1.at }
        self.busy = busy.sorted { $0.start < $1.start }
        self.wakingHours = wakingHours
        self.nearby = nearby
        self.hasGarden = hasGarden
        self.allowsAfterDark = allowsAfterDark
    }

    /// The UTC offset of the local clock at `t`, seconds.
    public func utcOffset(at t: Int64) -> Int32 {
        zone?.offset(at: Instant(seconds: t)) ?? now.utcOffsetSeconds
    }

    /// `t` written with the local clock's offset.
    public func local(_ t: Int64) -> Instant { Instant(seconds: t, utcOffsetSeconds: utcOffset(at: t)) }

    /// Minutes after local midnight at `t`.
    public func minuteOfDay(_ t: Int64) -> Int {
        let s = t + Int64(utcOffset(at: t))
        return Int(((s % 86_400) + 86_400) % 86_400) / 60
    }

    /// `HH:MM` on the local clock.
    public func clock(_ t: Int64) -> String { RecommendationContext.clock(minuteOfDay(t)) }

    /// `HH:MM` for a minute of the day.
    public static func clock(_ minute: Int) -> String {
        let h = minute / 60 % 24, m = minute % 60
        return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
    }

    /// Whether the pet is farther from home than the home radius.
    public var isAway: Bool {
        guard let home else { return false }
        return Geodesic.distance(location, home.point) > home.radiusM
    }

    /// The weather at `t`: the forecast hour holding `t`; before the first entry (or with no
    /// forecast at all) the current weather; `nil` past the end of a forecast.
    public func weather(at t: Int64) -> Weather? {
        guard let first = forecast.first else { return weather }
        if t < first.at.seconds { return weather }
        var lo = 0, hi = forecast.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if forecast[mid].at.seconds <= t { lo = mid } else { hi = mid - 1 }
        }
        return t < forecast[lo].at.seconds + 3600 ? forecast[lo].weather : nil
    }

    /// The worst weather over the session `[start, end)`: every forecast hour it overlaps
    /// (and the current weather before the first entry); `nil` when part of it lies past
    /// the forecast or in a gap between entries.
    func worstWeather(from start: Int64, to end: Int64) -> WeatherSpan? {
        guard var span = weather(at: start).map(WeatherSpan.init) else { return nil }
        guard let last = weather(at: end - 60) else { return nil }
        span.add(last)
        // Entries are sorted: the hours that begin or end inside the session.
        for e in forecast {
            let begins = e.at.seconds, ends = begins + 3600
            if begins >= end { break }
            for t in [begins, ends] where t > start && t < end {
                guard let w = weather(at: t) else { return nil }
                span.add(w)
            }
        }
        return span
    }

    /// The local calendar date of `now`: in ``zone`` when given, else at `now`'s offset.
    public var localDate: LocalDate { now.localDate(in: zone) }

    /// Whether local minute `m` lies in the waking hours.
    public func isWaking(minute m: Int) -> Bool { !wakingHours.isQuiet(minuteOfDay: m) }

    /// The busy stretch holding `t`, or the first one starting in `(t, end)`: overlapping
    /// and touching intervals join, so "busy until" names the end of the whole stretch.
    func busyConflict(from t: Int64, to end: Int64) -> (start: Int64, end: Int64)? {
        guard let first = busy.firstIndex(where: { $0.end.seconds > t && $0.start.seconds < end }) else { return nil }
        var stretch = (start: busy[first].start.seconds, end: busy[first].end.seconds)
        for b in busy[(first + 1)...] where b.start.seconds <= stretch.end {
            stretch.end = max(stretch.end, b.end.seconds)
        }
        return stretch
    }
}

/// The extremes of the weather over a span of time.
struct WeatherSpan {
    var hot: Double, cold: Double, wind: Double
    /// The wettest and the first stormy report.
    var wettest: Weather
    var stormy: Weather?

    init(_ w: Weather) {
        hot = w.temperatureC
        cold = w.temperatureC
        wind = w.windKmh
        wettest = w
        stormy = w.condition.isStorm ? w : nil
    }

    mutating func add(_ w: Weather) {
        hot = max(hot, w.temperatureC)
        cold = min(cold, w.temperatureC)
        wind = max(wind, w.windKmh)
        if w.precipitationMmH > wettest.precipitationMmH { wettest = w }
        if stormy == nil && w.condition.isStorm { stormy = w }
    }
}
