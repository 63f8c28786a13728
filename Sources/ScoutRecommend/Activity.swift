import Foundation
import ScoutCore
import ScoutSchedule

/// A pet's species: one of the five Scout has a profile for (``known``: life stages, weekly
/// goals, care goals, activities written for it), or any other species word (`ferret`,
/// `horse`, `fish`, `bearded_dragon`, `other`), which gets the generic needs of ``other``.
///
/// ```swift
/// Species(rawValue: "guinea_pig")      // .guineaPig, isKnown
/// Species(rawValue: "ferret")?.isKnown // false: generic needs
/// Species(rawValue: "Ferret")          // nil: a species word is lower-case a-z and _
/// ```
///
/// A species word is 1–32 bytes of lower-case `a`–`z` and `_`. An unknown species is never
/// treated as a dog: it has no breed, the generic life stages and goals (`other` in
/// `data/weights.json`), only the activities the catalogue lists for `other`, and every
/// answer says that generic needs were used (``genericNote``).
public struct Species: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The species word (`dog`, `guinea_pig`, `ferret`).
    public let rawValue: String
    /// Position in ``known``; `nil` for species without a profile.
    public let knownIndex: Int?

    /// The species a word names, or `nil` when the word is not 1–32 bytes of `a`–`z` and `_`.
    public init?(rawValue: String) {
        guard Species.isWord(rawValue) else { return nil }
        self.rawValue = rawValue
        knownIndex = Species.knownWords.firstIndex(of: rawValue)
    }

    private init(known word: String, _ index: Int) {
        rawValue = word
        knownIndex = index
    }

    /// Dogs.
    public static let dog = Species(known: "dog", 0)
    /// Cats.
    public static let cat = Species(known: "cat", 1)
    /// Rabbits.
    public static let rabbit = Species(known: "rabbit", 2)
    /// Guinea pigs.
    public static let guineaPig = Species(known: "guinea_pig", 3)
    /// Birds.
    public static let bird = Species(known: "bird", 4)
    /// The word data files use for every species Scout has no profile for (`other` in
    /// `life_stages` and `goals` of `data/weights.json`, in an activity's `species`); a pet
    /// may also be of species `other`.
    public static let other = Species(rawValue: "other")!

    private static let knownWords = ["dog", "cat", "rabbit", "guinea_pig", "bird"]
    /// The species Scout has a profile for, in this order.
    public static let known: [Species] = [.dog, .cat, .rabbit, .guineaPig, .bird]

    /// Whether Scout has a profile for the species (else its needs are generic).
    @inline(__always) public var isKnown: Bool { knownIndex != nil }

    /// ``rawValue``.
    public var description: String { rawValue }

    /// Whether a word is a species word: 1–32 bytes of lower-case `a`–`z` and `_`.
    public static func isWord(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 32 && s.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }
    }

    /// Reads a species word; anything else is `invalid_request` at `path` (with the closest
    /// known species when one is close: "Dog" → "dog"). The word itself is never repeated.
    public static func read(_ word: String, path: String) throws(ScoutError) -> Species {
        guard let s = Species(rawValue: word) else {
            throw ScoutError(.invalidRequest, "species must be a word of 1–32 lower-case letters a-z and _"
                             + Suggestions.hint(for: word, among: knownWords), path: path)
        }
        return s
    }

    /// The species as a noun: "dog", "guinea pig", "bearded dragon".
    public var noun: String { rawValue.replacingOccurrences(of: "_", with: " ") }

    /// The plural noun, for sentences about the species: "ferrets", "horses", "fish",
    /// "canaries"; "pets of this kind" for `other`.
    public var pluralNoun: String {
        if self == .other { return "pets of this kind" }
        let n = noun
        let irregular = ["sheep": "sheep", "deer": "deer", "mouse": "mice", "goose": "geese", "ox": "oxen", "cattle": "cattle",
                         "salmon": "salmon", "trout": "trout"]
        let last = n.split(separator: " ").last.map(String.init) ?? n
        if let p = irregular[last] { return String(n.dropLast(last.count)) + p }
        if n.hasSuffix("fish") { return n }
        if n.hasSuffix("s") || n.hasSuffix("x") || n.hasSuffix("z") || n.hasSuffix("ch") || n.hasSuffix("sh") { return n + "es" }
        if n.hasSuffix("y"), let before = n.dropLast().last, !"aeiou".contains(before) { return String(n.dropLast()) + "ies" }
        return n + "s"
    }

    /// What answers say when a species has no profile: "Scout has no profile for ferrets
    /// yet: general needs used"; `nil` for a known species.
    public var genericNote: String? {
        isKnown ? nil : "Scout has no profile for \(pluralNoun) yet: general needs used"
    }
}

/// What an activity does for the pet (`docs/activities.md`).
public enum ActivityCategory: String, Sendable, CaseIterable, Comparable {
    case physical, mental, social, training, care, rest

    /// Position in ``allCases``: the index of per-category arrays.
    public var ordinal: Int {
        switch self {
        case .physical: 0
        case .mental: 1
        case .social: 2
        case .training: 3
        case .care: 4
        case .rest: 5
        }
    }

    /// Whether the weekly goal counts minutes (physical, social) rather than sessions.
    public var countsMinutes: Bool { self == .physical || self == .social }

    /// The goal's unit word: `minutes` or `sessions`.
    public var unit: String { countsMinutes ? "minutes" : "sessions" }

    /// Orders by ``ordinal``.
    public static func < (a: ActivityCategory, b: ActivityCategory) -> Bool { a.ordinal < b.ordinal }
}

/// A pet's life stage. `puppy` is the young stage of every species.
public enum LifeStage: String, Sendable, CaseIterable {
    case puppy, adult, senior

    /// A bit position per stage.
    var bit: UInt8 { self == .puppy ? 0 : self == .adult ? 1 : 2 }
}

/// Where an activity happens.
public enum ActivitySetting: String, Sendable {
    /// Only inside: weather and daylight never rule it out.
    case indoor
    /// Only outside.
    case outdoor
    /// Inside or out: when the weather or the dark rules out the outdoor version, the indoor one remains.
    case either
}

/// The most rain an activity tolerates outdoors.
public enum RainTolerance: String, Sendable, Comparable {
    /// Dry only.
    case none
    /// Up to light rain.
    case light
    /// Steady rain is fine with a coat.
    case any

    private var rank: Int { self == .none ? 0 : self == .light ? 1 : 2 }
    /// `none < light < any`.
    public static func < (a: RainTolerance, b: RainTolerance) -> Bool { a.rank < b.rank }
}

/// One activity of the catalogue (`data/activities.json`, documented in `docs/activities.md`).
/// A class: the catalogue shares each activity, and scoring passes them around without
/// copying their strings and sets.
public final class Activity: Sendable {
    /// Stable identifier (`brisk_walk`).
    public let id: String
    /// Display name ("Brisk walk").
    public let name: String
    /// Who it is for: species with a profile, and ``Species/other`` for every species
    /// without one (see ``serves(_:)``).
    public let species: Set<Species>
    /// What it does for the pet.
    public let category: ActivityCategory
    /// Inside, outside or either.
    public let setting: ActivitySetting
    /// Physical effort, 1 (resting) to 5 (flat out).
    public let intensity: Int
    /// Typical session length.
    public let minutes: Int
    /// Offered only between sunrise and sunset.
    public let needsDaylight: Bool
    /// Safe outdoor air temperature for a typical adult with a medium coat, °C.
    public let temperatureC: ClosedRange<Double>
    /// The most rain it tolerates.
    public let rain: RainTolerance
    /// Highest sustained wind, km/h.
    public let maxWindKmh: Double
    /// Life stages it suits.
    public let ages: Set<LifeStage>
    /// Where it happens when that matters (`park`, `beach`, `home`, `garden`…); `nil` for anywhere.
    public let place: String?
    /// Makes sense away from home.
    public let awayOK: Bool
    /// How to do it, one or two sentences.
    public let how: String
    /// Plain-language benefits, used in reasons.
    public let benefits: [String]

    /// Creates an activity (the catalogue's loader checks the ranges).
    public init(id: String, name: String, species: Set<Species>, category: ActivityCategory, setting: ActivitySetting,
                intensity: Int, minutes: Int, needsDaylight: Bool, temperatureC: ClosedRange<Double>, rain: RainTolerance,
                maxWindKmh: Double, ages: Set<LifeStage>, place: String?, awayOK: Bool, how: String, benefits: [String]) {
        self.id = id
        self.name = name
        self.species = species
        self.category = category
        self.setting = setting
        self.intensity = intensity
        self.minutes = minutes
        self.needsDaylight = needsDaylight
        self.temperatureC = temperatureC
        self.rain = rain
        self.maxWindKmh = maxWindKmh
        self.ages = ages
        ageBits = ages.reduce(0) { $0 | (1 << $1.bit) }
        self.place = place
        self.awayOK = awayOK
        self.how = how
        self.benefits = benefits
    }

    /// ``ages`` as bits (`1 << stage.bit`), for the hot path.
    let ageBits: UInt8

    /// Whether it is for a species: listed for it, or, for a species without a profile,
    /// listed for ``Species/other``.
    public func serves(_ s: Species) -> Bool { species.contains(s.isKnown ? s : .other) }

    /// Whether it suits a life stage.
    @inline(__always) public func suits(_ stage: LifeStage) -> Bool { ageBits & (1 << stage.bit) != 0 }

    /// Whether it can be done inside (so weather and darkness never rule it out).
    public var canBeIndoors: Bool { setting != .outdoor }
    /// Whether it can only be done outside.
    public var isOutdoorOnly: Bool { setting == .outdoor }
    /// Whether it needs the pet's own home or garden.
    public var needsHome: Bool { place == "home" || place == "garden" }
}

/// The activity catalogue: every activity in file order, with its version.
///
/// ```swift
/// let catalogue = try ActivityCatalog.load(path: "data/activities.json")
/// let dogActivities = catalogue.activities(for: .dog)
/// ```
public struct ActivityCatalog: Sendable {
    /// The catalogue's version (`YYYY-MM-DD.N`), named in every recommendation.
    public let version: String
    /// Every activity, in file order.
    public let activities: [Activity]
    private let byID: [String: Int]
    private let bySpecies: [[Int]]
    /// Position by ``OfferID/tag(_:)`` of the id, for the tags no two activities share.
    private let byTag: [UInt16: Int]

    /// Creates a catalogue; ids must be unique.
    public init(version: String, activities: [Activity]) throws(ScoutError) {
        var byID: [String: Int] = [:]
        for (i, a) in activities.enumerated() {
            guard byID.updateValue(i, forKey: a.id) == nil else {
                throw ScoutError(.parseError, "activity id \(a.id) appears twice", path: "activities[\(i)].id")
            }
        }
        self.version = version
        self.activities = activities
        self.byID = byID
        self.bySpecies = (Species.known + [.other]).map { s in activities.indices.filter { activities[$0].species.contains(s) } }
        var byTag: [UInt16: Int] = [:], shared: Set<UInt16> = []
        for (i, a) in activities.enumerated() {
            let tag = OfferID.tag(a.id)
            if byTag.updateValue(i, forKey: tag) != nil { shared.insert(tag) }
        }
        for t in shared { byTag[t] = nil }
        self.byTag = byTag
    }

    /// The position of the activity whose id has this ``OfferID/tag(_:)``, when exactly one has.
    func index(tag: UInt16) -> Int? { byTag[tag] }

    /// The activity with an id, if any.
    public func activity(id: String) -> Activity? { byID[id].map { activities[$0] } }

    /// The position of an activity in ``activities``.
    public func index(of id: String) -> Int? { byID[id] }

    /// Positions in ``activities`` of the activities for a species, in file order: for a
    /// species without a profile, those listed for ``Species/other``.
    /// - Complexity: O(1).
    public func indices(for species: Species) -> [Int] {
        bySpecies[species.knownIndex ?? Species.known.count]
    }

    /// The care-log vocabulary of this catalogue: the care types and every activity id.
    public var logTypes: LogTypeVocabulary { LogTypeVocabulary(activityIDs: activities.map(\.id)) }

    /// The activities for a species, in file order.
    public func activities(for species: Species) -> [Activity] { indices(for: species).map { activities[$0] } }
}
