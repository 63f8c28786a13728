import ScoutCore
import ScoutSchedule
import ScoutTime

/// How often a care goal is judged: per local day, or over the whole week.
public enum CarePeriod: String, Sendable, CaseIterable {
    /// Every local day of the period on its own ("2 meals a day").
    case day
    /// The period as a whole ("grooming once a week").
    case week
}

/// How many log entries a care goal expects in one period: at least ``atLeast``, and at
/// most ``atMost`` when there is an upper bound (a dog's 2 meals a day).
public struct CareRange: Sendable, Equatable, CustomStringConvertible {
    /// The fewest entries that meet the goal, 1 or more.
    public var atLeast: Int
    /// The most entries that still meet it; `nil`: no upper bound.
    public var atMost: Int?

    /// A range; `atMost`, when given, is at least `atLeast`.
    public init(atLeast: Int, atMost: Int? = nil) {
        precondition(atMost.map { $0 >= atLeast } ?? true, "atMost below atLeast")
        self.atLeast = atLeast
        self.atMost = atMost
    }

    /// Whether `n` entries meet the goal.
    public func contains(_ n: Int) -> Bool { n >= atLeast && n <= (atMost ?? Int.max) }

    /// "2", "3–4", "at least 2".
    public var description: String {
        guard let atMost else { return "at least \(atLeast)" }
        return atMost == atLeast ? "\(atLeast)" : "\(atLeast)–\(atMost)"
    }
}

/// One care goal of a species, as `care_log.goals` in `data/weights.json` gives it
/// (`docs/recommender.md`, "Care goals"): which log entries count, how many per day or
/// week, with ranges that replace the base one for puppies, seniors and long-coated dogs.
///
/// ```swift
/// let meals = weights.careGoals[.dog]!.first { $0.name == "meals" }!
/// meals.expected(lifeStage: .puppy, longCoat: false)   // 3–4 a day
/// ```
public struct CareGoalRule: Sendable {
    /// The goal's name in answers (`meals`, `walks`, `grooming`, `fresh_greens`).
    public var name: String
    /// Per day or per week.
    public var period: CarePeriod
    /// The range of an adult (and of any pet no override applies to).
    public var base: CareRange
    /// The range for the young of the species, when it differs.
    public var puppy: CareRange?
    /// The range for a senior, when it differs.
    public var senior: CareRange?
    /// The range for a dog whose breed has a long coat, when it differs (applied after the
    /// life stage's).
    public var longCoat: CareRange?
    /// The log types whose entries count toward the goal: care types and catalogue activities.
    public var counts: [LogType]
    /// Plain-language advice the count cannot capture ("hay and fresh water always available").
    public var note: String?

    /// A goal from checked values (the loader in ScoutRecommendJSON reads them from `weights.json`).
    package init(name: String, period: CarePeriod, base: CareRange, puppy: CareRange?, senior: CareRange?, longCoat: CareRange?,
                 counts: [LogType], note: String?) {
        self.name = name; self.period = period; self.base = base; self.puppy = puppy; self.senior = senior
        self.longCoat = longCoat; self.counts = counts; self.note = note
    }

    /// The range for a pet: the life stage's override, then the long-coat one; each replaces
    /// the range as a whole.
    public func expected(lifeStage: LifeStage, longCoat hasLongCoat: Bool) -> CareRange {
        var r = base
        if lifeStage == .puppy, let p = puppy { r = p }
        if lifeStage == .senior, let s = senior { r = s }
        if hasLongCoat, let c = longCoat { r = c }
        return r
    }
}

/// How one local day of the period went for a per-day care goal.
public struct CareDay: Sendable, Equatable {
    /// The local date.
    public let date: LocalDate
    /// Entries that count, starting that day.
    public let done: Int
    /// Whether the day is judged: it has begun by `now` (every day of a past week).
    public let judged: Bool
    /// Whether the count is in range.
    public let met: Bool
}

/// One care goal over a period of the dashboard: what is expected, what the log shows and
/// what is missing.
public struct CareGoalProgress: Sendable {
    /// The goal as the file gives it.
    public let rule: CareGoalRule
    /// The range for this pet (life stage, coat).
    public let expected: CareRange
    /// Per-day goals: every local day of the period, in order; empty for weekly goals.
    public let days: [CareDay]
    /// Entries in the period that count toward the goal.
    public let done: Int
    /// Per-day goals: days judged so far (begun by `now`); weekly goals: 1 once the week has
    /// begun, else 0.
    public let judged: Int
    /// Per-day goals: judged days whose count is in range; weekly goals: 1 when met.
    public let periodsMet: Int
    /// Entries still missing: for per-day goals the shortfall summed over judged days
    /// (today's included), for weekly goals `atLeast − done` once the week has begun.
    public let missing: Int
    /// Entries above the upper bound, summed the same way (an overfed dog); 0 without one.
    public let extra: Int

    /// Neither missing nor extra entries.
    public var met: Bool { missing == 0 && extra == 0 }
}

extension ActivityCatalog {
    /// Whether a word has the shape of an activity id (`brisk_walk`): lower-case letters,
    /// digits and `_`, starting with a letter, at most 100 bytes.
    public static func isActivityID(_ s: String) -> Bool {
        guard let first = s.utf8.first, first >= 0x61, first <= 0x7A, s.utf8.count <= 100 else { return false }
        return s.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }
}

extension RecommenderWeights {
    /// Checks that every activity a care goal counts is in `catalog` and is for the goal's
    /// species; an unknown id is `parse_error` at its path in the weights file
    /// (`care_log.goals.dog.walks.counts[2]`) with the closest ids.
    /// - Complexity: O(g) for g listed types, plus edit distances for an unknown one.
    public func checkCareGoals(against catalog: ActivityCatalog) throws(ScoutError) {
        for species in Species.known + [.other] {
            for rule in careGoals[species] ?? [] {
                for (i, type) in rule.counts.enumerated() {
                    guard case .activity(let id) = type else { continue }
                    let path = "care_log.goals.\(species.rawValue).\(rule.name).counts[\(i)]"
                    guard let a = catalog.activity(id: id) else {
                        throw ScoutError(.parseError, "not an activity of the catalogue\(Suggestions.hint(for: id, among: catalog.activities.map(\.id)))",
                                         path: path)
                    }
                    guard a.species.contains(species) else {
                        throw ScoutError(.parseError, "the activity is not for \(species.pluralNoun)", path: path)
                    }
                }
            }
        }
    }
}
