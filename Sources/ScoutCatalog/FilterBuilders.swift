import ScoutCore
import ScoutText
import ScoutTime

// Typed filters for Swift callers: the same conditions as a request's `"filter"` object
// (docs/data-model.md), built from values instead of JSON.
//
//     let friendly = try RecordFilter.dogs(.goodWithDogs(atLeast: 4), .available, .size([.small, .medium]))
//     let cats = RecordFilter.animals(.species(["cat"]), .adoptable, .youngerThan(years: 2))

/// One condition on dogs, for ``RecordFilter/dogs(_:today:breeds:)``.
public enum DogCondition: Sendable {
    /// Any of these breeds, by name or other name ("Lab"); `Mixed` is mixed and unknown breeds.
    case breed([String])
    /// Any of these size classes.
    case size([SizeClass])
    /// `male` or `female`.
    case sex(String)
    /// Age in years, inclusive range.
    case ageYears(ClosedRange<Double>)
    /// Weight in kg, inclusive range.
    case weightKg(ClosedRange<Double>)
    /// Available for play dates.
    case available
    /// Owned by this owner.
    case owner(String)
    /// The breed's trait is at least this (1–5).
    case trait(Breed.Trait, atLeast: Int)
    /// The temperament rating's mean is at least this, from at least `ratings` ratings.
    case temperament(atLeast: Double, ratings: Int)
    /// A handler of this experience (1–5) can take the dog.
    case handlerExperience(Double)

    /// The breed is at least this good with other dogs (1–5).
    public static func goodWithDogs(atLeast n: Int) -> DogCondition { .trait(.goodWithDogs, atLeast: n) }
}

/// One condition on gyms, for ``RecordFilter/gyms(_:)``.
public enum GymCondition: Sendable {
    /// Any of these venue types (``Gym/types``).
    case type([String])
    /// Open at this instant, in the gym's own time zone.
    case openAt(Instant)
    /// Wilson lower bound of the up-vote share at least this (0–1).
    case rating(atLeast: Double)
}

/// One condition on shelter animals (kind `animal`), for ``RecordFilter/animals(_:)``.
public enum AnimalCondition: Sendable {
    /// In this shelter.
    case shelter(String)
    /// Any of these species words (canonical: `dog`, `cat`, `guinea_pig`, …).
    case species([String])
    /// `male`, `female` or `unknown`.
    case sex(String)
    /// Any of `small`, `medium`, `large`.
    case size([String])
    /// Younger than this many years.
    case youngerThan(years: Double)
    /// Ready for adoption.
    case adoptable
}

/// One condition on workout programs, for ``RecordFilter/programs(_:)``.
public enum ProgramCondition: Sendable {
    /// Any of these goals (``Program/goals``).
    case goal([String])
    /// Any of these levels (``Program/levels``).
    case level([String])
    /// At most this many weeks long.
    case weeks(atMost: Int)
    /// Written by this user.
    case author(String)
    /// Wilson lower bound of the up-vote share at least this (0–1).
    case rating(atLeast: Double)
}

extension RecordFilter {
    /// Dogs meeting every condition; ages are computed on `today`. With a breed table,
    /// breeds are resolved through it (other names included) and an unknown one is
    /// `not_found` naming the closest, as in a request.
    public static func dogs(_ conditions: DogCondition..., today: LocalDate = .today, breeds: BreedTable? = nil) throws(ScoutError) -> RecordFilter {
        var tests: [@Sendable (CatalogRecord) -> Bool] = []
        // What the planner may use, as for a request's filter.
        var keys: [FilterKey] = [], ranges: [FilterRange] = []
        for c in conditions {
            switch c {
            case .breed(let names):
                var wanted = Set<String>()
                for (i, n) in names.enumerated() {
                    if let breeds, !breeds.breeds.isEmpty { wanted.insert(TextFolding.fold(try breeds.resolve(n, path: "breed[\(i)]").name)) }
                    else { wanted.insert(TextFolding.fold(n)) }
                }
                let set = wanted
                keys.append(.dogBreed(set))
                tests.append { if case .dog(let d) = $0 { set.contains(d.breed.foldedName) || set.contains(d.foldedBreedName) } else { false } }
            case .size(let sizes):
                let set = Set(sizes.map(\.rawValue))
                tests.append { if case .dog(let d) = $0 { set.contains(d.sizeClass.rawValue) } else { false } }
            case .sex(let sex):
                guard ["male", "female"].contains(sex) else { throw ScoutError(.invalidRequest, "sex is male or female", path: "sex") }
                tests.append { if case .dog(let d) = $0 { d.sex == sex } else { false } }
            case .ageYears(let r):
                ranges.append(.ofAge(r, on: today))
                tests.append { if case .dog(let d) = $0 { r.contains(d.ageYears(on: today)) } else { false } }
            case .weightKg(let r):
                ranges.append(FilterRange(field: "weight_kg", lower: r.lowerBound, upper: r.upperBound))
                tests.append { if case .dog(let d) = $0 { r.contains(d.weightKg) } else { false } }
            case .available:
                ranges.append(FilterRange(field: "available", lower: 1, upper: 1))
                tests.append { if case .dog(let d) = $0 { d.available } else { false } }
            case .owner(let id):
                keys.append(.dogOwner([id]))
                tests.append { if case .dog(let d) = $0 { d.ownerID == id } else { false } }
            case .trait(let t, let n):
                ranges.append(FilterRange(field: t.rawValue, lower: Double(n), upper: .infinity))
                tests.append { if case .dog(let d) = $0 { d.breed[t] >= n } else { false } }
            case .temperament(let m, let count):
                // (A dog without ratings counts as a mean of 0 here.)
                if m > 0 { ranges.append(FilterRange(field: "temperament", lower: m, upper: .infinity)) }
                if count > 0 { ranges.append(FilterRange(field: "temperament_count", lower: Double(count), upper: .infinity)) }
                tests.append { if case .dog(let d) = $0 { d.temperament.count >= count && (d.temperament.mean ?? 0) >= m } else { false } }
            case .handlerExperience(let x):
                ranges.append(FilterRange(field: "experience_needed_estimate", lower: -.infinity, upper: x))
                tests.append { if case .dog(let d) = $0 { d.experienceNeededEstimate <= x } else { false } }
            }
        }
        return RecordFilter(conditions: tests, keys: keys, ranges: ranges)
    }

    /// Gyms meeting every condition.
    public static func gyms(_ conditions: GymCondition...) -> RecordFilter {
        let ranges = conditions.compactMap { c -> FilterRange? in
            if case .rating(let x) = c { FilterRange(field: "rating", lower: x, upper: .infinity) } else { nil }
        }
        return RecordFilter(conditions: conditions.map { c -> @Sendable (CatalogRecord) -> Bool in
            switch c {
            case .type(let types): { if case .gym(let g) = $0 { types.contains(g.type) } else { false } }
            case .openAt(let t): { if case .gym(let g) = $0 { g.openingHours?.isOpen(at: t, in: g.zone) ?? false } else { false } }
            case .rating(let x): { if case .gym(let g) = $0 { Rating.wilsonLowerBound(up: g.upVotes, down: g.downVotes) >= x } else { false } }
            }
        }, keys: [], ranges: ranges)
    }

    /// Shelter animals (kind `animal`) meeting every condition.
    public static func animals(_ conditions: AnimalCondition...) -> RecordFilter {
        RecordFilter(conditions: conditions.map { c -> @Sendable (CatalogRecord) -> Bool in
            switch c {
            case .shelter(let id): { if case .animal(let a) = $0 { a.shelterID == id } else { false } }
            case .species(let s): { if case .animal(let a) = $0 { s.contains(a.animal.species) } else { false } }
            case .sex(let sex): { if case .animal(let a) = $0 { a.animal.sex == sex } else { false } }
            case .size(let sizes): { if case .animal(let a) = $0 { sizes.contains(a.animal.size) } else { false } }
            case .youngerThan(let y): { if case .animal(let a) = $0 { a.animal.ageYears < y } else { false } }
            case .adoptable: { if case .animal(let a) = $0 { a.animal.adoptable } else { false } }
            }
        })
    }

    /// Workout programs meeting every condition.
    public static func programs(_ conditions: ProgramCondition...) -> RecordFilter {
        RecordFilter(conditions: conditions.map { c -> @Sendable (CatalogRecord) -> Bool in
            switch c {
            case .goal(let goals): { if case .program(let p) = $0 { goals.contains(p.goal) } else { false } }
            case .level(let levels): { if case .program(let p) = $0 { levels.contains(p.level) } else { false } }
            case .weeks(let n): { if case .program(let p) = $0 { p.weeks <= n } else { false } }
            case .author(let id): { if case .program(let p) = $0 { p.author == id } else { false } }
            case .rating(let x): { if case .program(let p) = $0 { Rating.wilsonLowerBound(up: p.upVotes, down: p.downVotes) >= x } else { false } }
            }
        })
    }
}
