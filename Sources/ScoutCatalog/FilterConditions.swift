import ScoutCore
import ScoutText
import ScoutTime

// The conditions a filter is made of, one enum per kind, each case one field of a request's
// `"filter"` object (docs/data-model.md). The case is the condition's whole definition: what it
// matches (`matches`), what the query planner may use (`keys`, `ranges`) and its identity as
// a value. Swift callers build them directly; ScoutCatalogJSON translates JSON into the same
// values, so a filter built either way is the same filter.
//
//     let friendly = try RecordFilter.dogs(.goodWithDogs(atLeast: 4), .available, .size([.small, .medium]))
//     let cats = RecordFilter.animals(.species(["cat"]), .adoptable, .ageYears(.atMost(2)))

/// The numbers a condition accepts: an inclusive range (either end may be infinite), or any of a list.
public enum NumberMatch: Sendable, Hashable {
    /// Any number in the range.
    case within(ClosedRange<Double>)
    /// Any of these numbers.
    case anyOf([Double])

    /// This number or more.
    public static func atLeast(_ x: Double) -> NumberMatch { .within(x ... .infinity) }
    /// This number or less.
    public static func atMost(_ x: Double) -> NumberMatch { .within(-.infinity ... x) }
    /// Exactly this number.
    public static func exactly(_ x: Double) -> NumberMatch { .within(x ... x) }

    /// Whether `x` is accepted.
    @inline(__always) public func matches(_ x: Double) -> Bool {
        switch self {
        case .within(let r): r.contains(x)
        case .anyOf(let values): values.contains(x)
        }
    }

    /// The smallest range holding every accepted number (`nil` for an empty list).
    public var bounds: ClosedRange<Double>? {
        switch self {
        case .within(let r): r
        case .anyOf(let values): values.min().flatMap { lo in values.max().map { lo...$0 } }
        }
    }
}

/// A condition on a review aggregate: at least ``minCount`` ratings and a mean in ``means``.
/// A record without ratings passes only when `minCount` is 0 and `means` is the whole 1–5 scale.
public struct ReviewMatch: Sendable, Hashable {
    /// The means accepted (within 1–5).
    public let means: ClosedRange<Double>
    /// Fewest ratings accepted.
    public let minCount: Int

    /// Means in `means` from at least `minCount` ratings.
    public init(means: ClosedRange<Double> = 1...5, minCount: Int = 1) {
        self.means = means
        self.minCount = minCount
    }

    /// Whether an aggregate is accepted.
    public func matches(_ r: ReviewAggregate) -> Bool {
        guard r.count >= minCount else { return false }
        guard let m = r.mean else { return minCount == 0 && means == 1...5 }
        return means.contains(m)
    }

    /// The ranges of a review's fields (`name` for its mean, `<name>_count`) that every record
    /// it accepts lies in (``FilterRange/ofReview(_:means:minCount:)``).
    func ranges(_ name: String) -> [FilterRange] { FilterRange.ofReview(name, means: means, minCount: minCount) }
}

/// The review criteria of a dog (``Dog/temperament`` and the others), by their field names.
public enum DogReview: String, Sendable, Hashable, CaseIterable {
    case temperament, excitability
    case experienceNeeded = "experience_needed"

    /// This criterion's aggregate on a dog.
    public func aggregate(of d: Dog) -> ReviewAggregate {
        switch self {
        case .temperament: d.temperament
        case .excitability: d.excitability
        case .experienceNeeded: d.experienceNeeded
        }
    }
}

/// One condition on dogs.
public enum DogCondition: Sendable, Hashable {
    /// Any of these breeds, folded (a dog's breed profile or the breed name it was given).
    /// ``RecordFilter/dogs(_:today:breeds:)`` resolves other names ("Lab") through its breed
    /// table; `Mixed` is mixed and unknown breeds.
    case breed(Set<String>)
    /// Any of these size classes.
    case size(Set<SizeClass>)
    /// Any of `male`, `female`.
    case sex(Set<String>)
    /// Age in years on a day.
    case ageYears(NumberMatch, on: LocalDate)
    /// Weight in kg.
    case weightKg(NumberMatch)
    /// Available for play dates, or not.
    case available(Bool)
    /// Owned by any of these owners.
    case owner(Set<String>)
    /// The owner's experience (1–5).
    case ownerExperience(NumberMatch)
    /// One of the dog's review aggregates.
    case review(DogReview, ReviewMatch)
    /// A handler of this experience (1–5) can take the dog: its ``Dog/experienceNeededEstimate`` is at most this.
    case handlerExperience(Double)
    /// The breed's trait (1–5).
    case trait(Breed.Trait, NumberMatch)

    /// Available for play dates.
    public static var available: DogCondition { .available(true) }
    /// The breed is at least this good with other dogs (1–5).
    public static func goodWithDogs(atLeast n: Int) -> DogCondition { .trait(.goodWithDogs, .atLeast(Double(n))) }
    /// The breed's trait is at least this (1–5).
    public static func trait(_ t: Breed.Trait, atLeast n: Int) -> DogCondition { .trait(t, .atLeast(Double(n))) }
    /// The temperament's mean is at least this, from at least `ratings` ratings (0 ratings and
    /// a mean of at most 1 also take dogs nobody has rated).
    public static func temperament(atLeast mean: Double, ratings: Int) -> DogCondition {
        .review(.temperament, ReviewMatch(means: max(1, mean)...5, minCount: ratings))
    }

    /// Whether the dog meets the condition.
    @inline(__always) public func matches(_ d: Dog) -> Bool {
        switch self {
        case .breed(let names): names.contains(d.breed.foldedName) || names.contains(d.foldedBreedName)
        case .size(let sizes): d.sizeClass.map(sizes.contains) ?? false
        case .sex(let sexes): sexes.contains(d.sex)
        case .ageYears(let m, let today): m.matches(d.ageYears(on: today))
        case .weightKg(let m): d.weightKg.map(m.matches) ?? false
        case .available(let want): d.available == want
        case .owner(let ids): d.ownerID.map(ids.contains) ?? false
        case .ownerExperience(let m): d.ownerExperience.map { m.matches(Double($0)) } ?? false
        case .review(let r, let m): m.matches(r.aggregate(of: d))
        case .handlerExperience(let x): d.experienceNeededEstimate <= x
        case .trait(let t, let m): m.matches(Double(d.breed[t]))
        }
    }

    /// The posting-list key this condition implies, if any.
    var key: FilterKey? {
        switch self {
        case .breed(let names): .dogBreed(names)
        case .owner(let ids): .dogOwner(ids)
        default: nil
        }
    }

    /// The value ranges this condition implies.
    var ranges: [FilterRange] {
        switch self {
        case .ageYears(let m, let today): m.bounds.map { [.ofAge($0, on: today)] } ?? []
        case .weightKg(let m): FilterRange.of("weight_kg", m)
        case .available(let want): [FilterRange(field: "available", lower: want ? 1 : 0, upper: want ? 1 : 0)]
        case .ownerExperience(let m): FilterRange.of("owner_experience", m)
        case .review(let r, let m): m.ranges(r.rawValue)
        // A dog a handler of experience x can take: its estimate is at most x.
        case .handlerExperience(let x): [FilterRange(field: "experience_needed_estimate", lower: -.infinity, upper: x)]
        case .trait(let t, let m): FilterRange.of(t.rawValue, m)
        case .breed, .size, .sex, .owner: []
        }
    }
}

/// One condition on gyms.
public enum GymCondition: Sendable, Hashable {
    /// Any of these venue types (``Gym/types``).
    case type(Set<String>)
    /// Open at this instant, in the gym's own time zone.
    case openAt(Instant)
    /// The number of up-votes.
    case votesUp(NumberMatch)
    /// The Wilson lower bound of the up-vote share (0–1).
    case rating(NumberMatch)

    /// A Wilson lower bound of the up-vote share of at least this (0–1).
    public static func rating(atLeast x: Double) -> GymCondition { .rating(.atLeast(x)) }

    /// Whether the gym meets the condition.
    public func matches(_ g: Gym) -> Bool {
        switch self {
        case .type(let types): types.contains(g.type)
        case .openAt(let t): g.openingHours?.isOpen(at: t, in: g.zone) ?? false
        case .votesUp(let m): m.matches(Double(g.upVotes))
        case .rating(let m): m.matches(Rating.wilsonLowerBound(up: g.upVotes, down: g.downVotes))
        }
    }

    var ranges: [FilterRange] {
        switch self {
        case .votesUp(let m): FilterRange.of("votes_up", m)
        case .rating(let m): FilterRange.of("rating", m)
        case .type, .openAt: []
        }
    }
}

/// One condition on a shelter's animal: of a shelter animal record (kind `animal`), or
/// inside ``ShelterCondition/animal(_:)``.
public enum AnimalCondition: Sendable, Hashable {
    /// In any of these shelters (by shelter id).
    case shelter(Set<String>)
    /// Any of these species (canonical: `dog`, `cat`, `guinea_pig`, …).
    case species(Set<String>)
    /// Any of ``Animal/sizes``.
    case size(Set<String>)
    /// Any of ``Animal/sexes``.
    case sex(Set<String>)
    /// Age in years.
    case ageYears(NumberMatch)
    /// Ready for adoption, or not.
    case adoptable(Bool)
    /// Has distinguishing marks, or not.
    case hasMarks(Bool)
    /// The marks contain this word (folded, ``TextFolding/fold(_:)``).
    case marksContain(String)

    /// Ready for adoption.
    public static var adoptable: AnimalCondition { .adoptable(true) }

    /// Whether an animal of the shelter `shelterID` meets the condition (`nil`: an animal in a
    /// shelter record's list, for which ``shelter(_:)`` never holds: filter the shelters by id instead).
    public func matches(_ a: Animal, shelterID: String?) -> Bool {
        switch self {
        case .shelter(let ids): shelterID.map(ids.contains) ?? false
        case .species(let s): s.contains(a.species)
        case .size(let s): s.contains(a.size)
        case .sex(let s): s.contains(a.sex)
        case .ageYears(let m): m.matches(a.ageYears)
        case .adoptable(let want): a.adoptable == want
        case .hasMarks(let want): want == !a.marks.isEmpty
        case .marksContain(let word): (" " + TextFolding.fold(a.marks) + " ").contains(" " + word + " ")
        }
    }

    var key: FilterKey? {
        switch self {
        case .shelter(let ids): .animalShelter(ids)
        case .species(let s): .animalSpecies(s)
        default: nil
        }
    }
}

/// One condition on shelters.
public enum ShelterCondition: Sendable, Hashable {
    /// Any of these institution types (``Shelter/types``).
    case type(Set<String>)
    /// At least one of the shelter's animals meets every one of these conditions.
    case animal(Set<AnimalCondition>)

    /// Whether the shelter meets the condition.
    public func matches(_ s: Shelter) -> Bool {
        switch self {
        case .type(let types): types.contains(s.type)
        case .animal(let conditions): s.animals.contains { a in conditions.allSatisfy { $0.matches(a, shelterID: nil) } }
        }
    }
}

/// One condition on help articles.
public enum ArticleCondition: Sendable, Hashable {
    /// For any of these species (canonical).
    case species(Set<String>)
    /// Any of ``Article/urgencies``.
    case urgency(Set<String>)
    /// The Wilson lower bound of the up-vote share (0–1).
    case rating(NumberMatch)

    /// Whether the article meets the condition.
    public func matches(_ a: Article) -> Bool {
        switch self {
        case .species(let s): a.species.contains(where: s.contains)
        case .urgency(let u): u.contains(a.urgency)
        case .rating(let m): m.matches(Rating.wilsonLowerBound(up: a.upVotes, down: a.downVotes))
        }
    }
}

/// One condition on workout programs.
public enum ProgramCondition: Sendable, Hashable {
    /// Any of these goals (``Program/goals``).
    case goal(Set<String>)
    /// Any of these levels (``Program/levels``).
    case level(Set<String>)
    /// Length in weeks.
    case weeks(NumberMatch)
    /// Training days a week.
    case daysPerWeek(NumberMatch)
    /// Written by any of these users.
    case author(Set<String>)
    /// The Wilson lower bound of the up-vote share (0–1).
    case rating(NumberMatch)
    /// The number of up-votes.
    case votesUp(NumberMatch)

    /// At most this many weeks long.
    public static func weeks(atMost n: Int) -> ProgramCondition { .weeks(.atMost(Double(n))) }
    /// A Wilson lower bound of the up-vote share of at least this (0–1).
    public static func rating(atLeast x: Double) -> ProgramCondition { .rating(.atLeast(x)) }

    /// Whether the program meets the condition.
    public func matches(_ p: Program) -> Bool {
        switch self {
        case .goal(let g): g.contains(p.goal)
        case .level(let l): l.contains(p.level)
        case .weeks(let m): m.matches(Double(p.weeks))
        case .daysPerWeek(let m): m.matches(Double(p.daysPerWeek))
        case .author(let ids): ids.contains(p.author)
        case .rating(let m): m.matches(Rating.wilsonLowerBound(up: p.upVotes, down: p.downVotes))
        case .votesUp(let m): m.matches(Double(p.upVotes))
        }
    }
}

/// One condition on dog lovers' profiles.
public enum LoverCondition: Sendable, Hashable {
    /// Experience with dogs (1–5).
    case experience(NumberMatch)
    /// How active they are (1–5).
    case activityLevel(NumberMatch)
    /// Vetted, or not.
    case vetted(Bool)
    /// Has a pet of any of these species (canonical).
    case otherPets(Set<String>)
    /// Reviews of their reliability.
    case reliability(ReviewMatch)
    /// Reviews of their care.
    case care(ReviewMatch)
    /// In any of these countries.
    case country(Set<String>)

    /// Vetted.
    public static var vetted: LoverCondition { .vetted(true) }

    /// Whether the profile meets the condition.
    public func matches(_ l: Lover) -> Bool {
        switch self {
        case .experience(let m): m.matches(Double(l.experience))
        case .activityLevel(let m): m.matches(Double(l.activityLevel))
        case .vetted(let want): l.vetted == want
        case .otherPets(let s): l.otherPets.contains(where: s.contains)
        case .reliability(let m): m.matches(l.reliability)
        case .care(let m): m.matches(l.care)
        case .country(let c): c.contains(l.country)
        }
    }
}

/// One condition on pets.
public enum PetRecordCondition: Sendable, Hashable {
    /// Any of these species (canonical words).
    case species(Set<String>)
    /// Owned by any of these users.
    case owner(Set<String>)

    /// Whether the pet meets the condition.
    public func matches(_ p: Pet) -> Bool {
        switch self {
        case .species(let s): s.contains(p.species)
        case .owner(let ids): p.access.owners.contains(where: ids.contains)
        }
    }
}

/// One condition on care-log entries.
public enum CareCondition: Sendable, Hashable {
    /// Of any of these pets.
    case pet(Set<String>)
    /// Of any of these types (care type words or activity ids).
    case type(Set<String>)
    /// Started within these seconds since 1970-01-01 UTC, both ends included.
    case start(ClosedRange<Int64>)
    /// Logged by any of these users.
    case loggedBy(Set<String>)
    /// With any of these verdicts (``CareEntry/verdicts``).
    case verdict(Set<String>)
    /// Of pets any of these users owns (an owner's log of all their pets). An entry does not
    /// know its pet's owners: the engine replaces this condition with ``pet(_:)`` of the pets
    /// those users own when a search starts (``resolvingOwners(_:)``); unresolved, it matches
    /// nothing.
    case petOwner(Set<String>)

    /// Whether the entry meets the condition.
    public func matches(_ e: CareEntry) -> Bool {
        switch self {
        case .pet(let ids): ids.contains(e.petID)
        case .type(let words): words.contains(e.type.word)
        case .start(let r): r.contains(e.start.seconds)
        case .loggedBy(let ids): ids.contains(e.loggedBy)
        case .verdict(let v): e.verdict.map(v.contains) == true
        case .petOwner: false
        }
    }
}

/// One condition on personal lists.
public enum ListCondition: Sendable, Hashable {
    /// Owned by any of these users.
    case owner(Set<String>)
    /// Listing records of any of these kinds.
    case itemKind(Set<String>)

    /// Whether the list meets the condition.
    public func matches(_ l: PersonalList) -> Bool {
        switch self {
        case .owner(let ids): l.access.owners.contains(where: ids.contains)
        case .itemKind(let k): k.contains(l.itemKind)
        }
    }
}

/// One condition of a ``RecordFilter``: a condition on one kind's records. A record of
/// another kind never meets it.
public enum FilterCondition: Sendable, Hashable {
    case dog(DogCondition)
    case gym(GymCondition)
    case shelter(ShelterCondition)
    case animal(AnimalCondition)
    case article(ArticleCondition)
    case program(ProgramCondition)
    case lover(LoverCondition)
    case pet(PetRecordCondition)
    case care(CareCondition)
    case list(ListCondition)

    /// Whether the record meets the condition.
    @inline(__always) public func matches(_ record: CatalogRecord) -> Bool {
        switch (self, record) {
        case (.dog(let c), .dog(let d)): c.matches(d)
        case (.gym(let c), .gym(let g)): c.matches(g)
        case (.shelter(let c), .shelter(let s)): c.matches(s)
        case (.animal(let c), .animal(let a)): c.matches(a.animal, shelterID: a.shelterID)
        case (.article(let c), .article(let a)): c.matches(a)
        case (.program(let c), .program(let p)): c.matches(p)
        case (.lover(let c), .lover(let l)): c.matches(l)
        case (.pet(let c), .pet(let p)): c.matches(p)
        case (.care(let c), .care(let e)): c.matches(e)
        case (.list(let c), .list(let l)): c.matches(l)
        default: false
        }
    }

    /// The posting-list key this condition implies, if any.
    var key: FilterKey? {
        switch self {
        case .dog(let c): c.key
        case .animal(let c): c.key
        default: nil
        }
    }

    /// The value ranges this condition implies.
    var ranges: [FilterRange] {
        switch self {
        case .dog(let c): c.ranges
        case .gym(let c): c.ranges
        default: []
        }
    }

    /// About how many bytes the condition holds (its strings and numbers), for caches bounded in bytes.
    var bytes: Int {
        func strings(_ s: Set<String>) -> Int { s.reduce(16) { $0 + 16 + $1.utf8.count } }
        func numbers(_ m: NumberMatch) -> Int { if case .anyOf(let v) = m { 16 + 8 * v.count } else { 16 } }
        switch self {
        case .dog(.breed(let s)), .dog(.sex(let s)), .dog(.owner(let s)), .gym(.type(let s)), .animal(.shelter(let s)),
             .animal(.species(let s)), .animal(.size(let s)), .animal(.sex(let s)), .shelter(.type(let s)), .article(.species(let s)),
             .article(.urgency(let s)), .program(.goal(let s)), .program(.level(let s)), .program(.author(let s)),
             .lover(.otherPets(let s)), .lover(.country(let s)), .pet(.species(let s)), .pet(.owner(let s)), .care(.pet(let s)),
             .care(.type(let s)), .care(.loggedBy(let s)), .care(.verdict(let s)), .list(.owner(let s)), .list(.itemKind(let s)):
            return strings(s)
        case .dog(.ageYears(let m, _)), .dog(.weightKg(let m)), .dog(.ownerExperience(let m)), .dog(.trait(_, let m)),
             .gym(.votesUp(let m)), .gym(.rating(let m)), .animal(.ageYears(let m)), .article(.rating(let m)),
             .program(.weeks(let m)), .program(.daysPerWeek(let m)), .program(.rating(let m)), .program(.votesUp(let m)),
             .lover(.experience(let m)), .lover(.activityLevel(let m)):
            return numbers(m)
        case .animal(.marksContain(let w)): return 16 + w.utf8.count
        case .shelter(.animal(let conditions)): return conditions.reduce(16) { $0 + FilterCondition.animal($1).bytes }
        default: return 16
        }
    }
}

extension RecordFilter {
    /// Dogs meeting every condition. Age conditions built with a range (``DogCondition/ageYears(_:on:)``)
    /// are computed on their own day. With a breed table, breed names are resolved through it
    /// (other names included) and an unknown one is `not_found` naming the closest, as in a
    /// request; without one, they are only folded.
    public static func dogs(_ conditions: DogCondition..., breeds: BreedTable? = nil) throws(ScoutError) -> RecordFilter {
        var out: [FilterCondition] = []
        for c in conditions {
            switch c {
            case .breed(let names):
                var wanted = Set<String>()
                for n in names.sorted() {
                    if let breeds, !breeds.breeds.isEmpty { wanted.insert(TextFolding.fold(try breeds.resolve(n, path: "breed").name)) }
                    else { wanted.insert(TextFolding.fold(n)) }
                }
                out.append(.dog(.breed(wanted)))
            case .sex(let s):
                guard s.isSubset(of: Dog.sexes) else { throw ScoutError(.invalidRequest, "sex is male or female", path: "sex") }
                out.append(.dog(c))
            case .handlerExperience(let x):
                guard x >= 1, x <= 5 else { throw ScoutError(.invalidRequest, "handler_experience must be a number from 1 to 5", path: "handler_experience") }
                out.append(.dog(c))
            default: out.append(.dog(c))
            }
        }
        return RecordFilter(out)
    }

    /// Gyms meeting every condition.
    public static func gyms(_ conditions: GymCondition...) -> RecordFilter { RecordFilter(conditions.map { .gym($0) }) }

    /// Shelters meeting every condition.
    public static func shelters(_ conditions: ShelterCondition...) -> RecordFilter { RecordFilter(conditions.map { .shelter($0) }) }

    /// Shelter animals (kind `animal`) meeting every condition.
    public static func animals(_ conditions: AnimalCondition...) -> RecordFilter { RecordFilter(conditions.map { .animal($0) }) }

    /// Help articles meeting every condition.
    public static func articles(_ conditions: ArticleCondition...) -> RecordFilter { RecordFilter(conditions.map { .article($0) }) }

    /// Workout programs meeting every condition.
    public static func programs(_ conditions: ProgramCondition...) -> RecordFilter { RecordFilter(conditions.map { .program($0) }) }

    /// Dog lovers' profiles meeting every condition.
    public static func lovers(_ conditions: LoverCondition...) -> RecordFilter { RecordFilter(conditions.map { .lover($0) }) }

    /// Pets meeting every condition.
    public static func pets(_ conditions: PetRecordCondition...) -> RecordFilter { RecordFilter(conditions.map { .pet($0) }) }

    /// Care-log entries meeting every condition.
    ///
    /// ```swift
    /// // Rex's walks and feeds of the last week, newest first.
    /// let week = try Instant.parse("2026-11-21T00:00:00Z", path: "from").seconds ... now.seconds
    /// let q = SearchQuery(kind: .care, area: nil, limit: 20, sort: .newest,
    ///                     filter: .careEntries(.pet(["pet-rex"]), .type(["walk", "feeding"]), .start(week)))
    /// ```
    public static func careEntries(_ conditions: CareCondition...) -> RecordFilter { RecordFilter(conditions.map { .care($0) }) }

    /// The filter with each ``CareCondition/petOwner(_:)`` replaced by ``CareCondition/pet(_:)``
    /// of the pets `petsOwned` gives for those users (the engine's pets); `self` when it has none.
    public func resolvingOwners(_ petsOwned: (Set<String>) -> Set<String>) -> RecordFilter {
        guard conditions.contains(where: { if case .care(.petOwner) = $0 { true } else { false } }) else { return self }
        return RecordFilter(conditions.map { c in
            if case .care(.petOwner(let users)) = c { return .care(.pet(petsOwned(users))) }
            return c
        })
    }

    /// Personal lists meeting every condition.
    public static func lists(_ conditions: ListCondition...) -> RecordFilter { RecordFilter(conditions.map { .list($0) }) }
}
