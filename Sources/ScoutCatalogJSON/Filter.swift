import ScoutCatalog
import ScoutCore
import ScoutJSON
import ScoutText
import ScoutTime

extension RecordFilter {
    /// Compiles a filter for a kind. `today` is the date ages are computed on (the request's
    /// `now`, or the current UTC date).
    ///
    /// With `breeds`, every breed a dog filter names must be in the table (or be "Mixed"):
    /// an unknown one is `not_found` naming the closest, never a filter that matches nothing.
    ///
    /// With `species`, species names are read in English or Polish ("pies" is `dog`).
    public static func parse(_ v: JSONValue, kind: String, today: LocalDate, breeds: BreedTable? = nil, species: SpeciesNames = .empty,
                             path: String = "filter") throws(ScoutError) -> RecordFilter {
        guard let members = v.members else { throw ScoutError(.invalidRequest, "filter must be an object", path: path) }
        if members.isEmpty { return .all }
        var tests: [@Sendable (CatalogRecord) -> Bool] = []
        func at(_ k: String) -> String { "\(path).\(k)" }
        guard let known = fields(kind: kind) else {
            throw ScoutError(.invalidRequest, "filters apply to \(Catalog.typedKinds.sorted().joined(separator: ", ")); kind \(kind.prefix(64)) has no typed fields",
                             path: path)
        }
        for (key, value) in members {
            guard known.contains(key) else {
                throw FieldReader.unknownField(key, known: known, path: at(JSONReader.shown(key)), what: "\(kind) filter field")
            }
            tests.append(try condition(kind: kind, key: key, value, today: today, breeds: breeds, species: species, path: at(key)))
        }
        let keys = try planningKeys(kind: kind, members, breeds: breeds, species: species, path: path)
        let ranges = try planningRanges(kind: kind, members, today: today, path: path)
        var w = JSONWriter()
        w.value(v)
        // Only short filters are remembered, so the engine's cache of them stays small in bytes.
        let signature = w.bytes.count <= RecordFilter.maximumSignatureBytes
            ? "\(kind)|\(today)|" + String(decoding: w.bytes, as: UTF8.self) : nil
        return RecordFilter(conditions: tests, keys: keys, ranges: ranges, signature: signature)
    }

    /// The numeric ranges of a parsed filter (its values already validated).
    private static func planningRanges(kind: String, _ members: [(String, JSONValue)], today: LocalDate,
                                       path: String) throws(ScoutError) -> [FilterRange] {
        let fields = FilterRange.fields(kind: kind)
        var ranges: [FilterRange] = []
        for (key, v) in members where fields.contains(key) || (kind == "dog" && ["age_years", "handler_experience"].contains(key)) {
            if kind == "dog" && FilterRange.dogReviews.contains(key) {
                let m = try ReviewMatch(v, path: "\(path).\(key)")
                ranges += FilterRange.ofReview(key, means: m.range, minCount: m.minCount)
                continue
            }
            if kind == "dog" && key == "handler_experience", let x = v.double {
                // A dog a handler of experience x can take: its estimate is at most x.
                ranges.append(FilterRange(field: "experience_needed_estimate", lower: -.infinity, upper: x))
                continue
            }
            if case .bool(let want) = v {
                ranges.append(FilterRange(field: key, lower: want ? 1 : 0, upper: want ? 1 : 0))
                continue
            }
            let m = try NumberMatch(v, path: "\(path).\(key)")
            guard let r = m.range ?? m.values.min().flatMap({ lo in m.values.max().map { lo...$0 } }) else { continue }
            ranges.append(key == "age_years" ? .ofAge(r, on: today) : FilterRange(field: key, lower: r.lowerBound, upper: r.upperBound))
        }
        return ranges
    }

    /// The categorical keys of a parsed filter (its values already validated).
    private static func planningKeys(kind: String, _ members: [(String, JSONValue)], breeds: BreedTable?, species: SpeciesNames,
                                     path: String) throws(ScoutError) -> [FilterKey] {
        var keys: [FilterKey] = []
        for (key, v) in members {
            switch (kind, key) {
            case ("dog", "breed"):
                let given = try StringMatch(v, path: path).given
                let names = (breeds?.breeds.isEmpty == false)
                    ? given.map { breeds!.breed(named: $0)?.name ?? ($0.lowercased() == "mixed" ? breeds!.mixed.name : $0) } : given
                keys.append(.dogBreed(Set(names.map(TextFolding.fold))))
            case ("dog", "owner_id"): keys.append(.dogOwner(Set(try StringMatch(v, path: path).given)))
            case ("animal", "shelter_id"): keys.append(.animalShelter(Set(try StringMatch(v, path: path).given)))
            case ("animal", "species"): keys.append(.animalSpecies(try SpeciesMatch(v, path: path, names: species).values))
            default: break
            }
        }
        return keys
    }

    private static func condition(kind: String, key: String, _ v: JSONValue, today: LocalDate, breeds: BreedTable?, species: SpeciesNames,
                                  path: String) throws(ScoutError) -> @Sendable (CatalogRecord) -> Bool {
        switch (kind, key) {
        case ("dog", "owner_id"):
            let m = try StringMatch(v, path: path)
            return { if case .dog(let d) = $0 { m.matches(d.ownerID) } else { false } }
        case ("animal", "shelter_id"):
            let m = try StringMatch(v, path: path)
            return { if case .animal(let a) = $0 { m.matches(a.shelterID) } else { false } }
        case ("animal", _):
            let m = try AnimalMatch(.object([(key, v)]), path: String(path.dropLast(key.count + 1)), species: species)
            return { if case .animal(let a) = $0 { m.matches(a.animal) } else { false } }
        case ("article", "species"):
            let m = try SpeciesMatch(v, path: path, names: species)
            return { if case .article(let a) = $0 { a.species.contains(where: m.matches) } else { false } }
        case ("article", "urgency"):
            let m = try StringMatch(v, path: path, allowed: Article.urgencies)
            return { if case .article(let a) = $0 { m.matches(a.urgency) } else { false } }
        case ("article", "rating"), ("program", "rating"):
            let m = try NumberMatch(v, path: path)
            return { Rating.votes($0).map { m.matches(Rating.wilsonLowerBound(up: $0.up, down: $0.down)) } ?? false }
        case ("program", "votes_up"):
            let m = try NumberMatch(v, path: path)
            return { if case .program(let p) = $0 { m.matches(Double(p.upVotes)) } else { false } }
        case ("program", "goal"):
            let m = try StringMatch(v, path: path, allowed: Program.goals)
            return { if case .program(let p) = $0 { m.matches(p.goal) } else { false } }
        case ("program", "level"):
            let m = try StringMatch(v, path: path, allowed: Program.levels)
            return { if case .program(let p) = $0 { m.matches(p.level) } else { false } }
        case ("program", "weeks"), ("program", "days_per_week"):
            let m = try NumberMatch(v, path: path)
            let weeks = key == "weeks"
            return { if case .program(let p) = $0 { m.matches(Double(weeks ? p.weeks : p.daysPerWeek)) } else { false } }
        case ("program", "author"):
            let m = try StringMatch(v, path: path)
            return { if case .program(let p) = $0 { m.matches(p.author) } else { false } }
        case ("lover", "experience"), ("lover", "activity_level"):
            let m = try NumberMatch(v, path: path)
            let experience = key == "experience"
            return { if case .lover(let l) = $0 { m.matches(Double(experience ? l.experience : l.activityLevel)) } else { false } }
        case ("lover", "vetted"):
            guard case .bool(let want) = v else { throw ScoutError(.invalidRequest, "vetted must be true or false", path: path) }
            return { if case .lover(let l) = $0 { l.vetted == want } else { false } }
        case ("lover", "other_pets"):
            let m = try SpeciesMatch(v, path: path, names: species)
            return { if case .lover(let l) = $0 { l.otherPets.contains(where: m.matches) } else { false } }
        case ("lover", "reliability"), ("lover", "care"):
            let m = try ReviewMatch(v, path: path)
            let reliability = key == "reliability"
            return { if case .lover(let l) = $0 { m.matches(reliability ? l.reliability : l.care) } else { false } }
        case ("lover", "country"):
            let m = try StringMatch(v, path: path)
            return { if case .lover(let l) = $0 { m.matches(l.country) } else { false } }
        case ("dog", "breed"):
            var names = try StringMatch(v, path: path, fold: true)
            if let breeds, !breeds.breeds.isEmpty {
                // Other names ("Lab", "owczarek niemiecki") mean their breed.
                var resolved: [String] = []
                for (i, name) in names.given.enumerated() {
                    resolved.append(try breeds.resolve(name, path: v.array == nil ? path : "\(path)[\(i)]").name)
                }
                names = try StringMatch(.array(resolved.map { .string($0) }), path: path, fold: true)
            }
            // Names are folded once here; each dog keeps its folded breed names.
            let wanted = names.values
            return { if case .dog(let d) = $0 { wanted.contains(d.breed.foldedName) || wanted.contains(d.foldedBreedName) } else { false } }
        case ("dog", "size"):
            let m = try StringMatch(v, path: path, allowed: SizeClass.allCases.map(\.rawValue))
            return { if case .dog(let d) = $0 { m.matches(d.sizeClass.rawValue) } else { false } }
        case ("dog", "sex"):
            let m = try StringMatch(v, path: path, allowed: ["male", "female"])
            return { if case .dog(let d) = $0 { m.matches(d.sex) } else { false } }
        case ("dog", "age_years"):
            let m = try NumberMatch(v, path: path)
            return { if case .dog(let d) = $0 { m.matches(d.ageYears(on: today)) } else { false } }
        case ("dog", "weight_kg"):
            let m = try NumberMatch(v, path: path)
            return { if case .dog(let d) = $0 { m.matches(d.weightKg) } else { false } }
        case ("dog", "owner_experience"):
            let m = try NumberMatch(v, path: path)
            return { if case .dog(let d) = $0 { m.matches(Double(d.ownerExperience)) } else { false } }
        case ("dog", "available"):
            guard case .bool(let want) = v else { throw ScoutError(.invalidRequest, "available must be true or false", path: path) }
            return { if case .dog(let d) = $0 { d.available == want } else { false } }
        case ("dog", "temperament"), ("dog", "excitability"), ("dog", "experience_needed"):
            let m = try ReviewMatch(v, path: path)
            switch key {
            case "temperament": return { if case .dog(let d) = $0 { m.matches(d.temperament) } else { false } }
            case "excitability": return { if case .dog(let d) = $0 { m.matches(d.excitability) } else { false } }
            default: return { if case .dog(let d) = $0 { m.matches(d.experienceNeeded) } else { false } }
            }
        case ("dog", "handler_experience"):
            guard let x = v.double, x >= 1, x <= 5 else {
                throw ScoutError(.invalidRequest, "handler_experience must be a number from 1 to 5", path: path)
            }
            return { if case .dog(let d) = $0 { d.experienceNeededEstimate <= x } else { false } }
        case ("dog", _):
            let trait = Breed.Trait(rawValue: key)!
            let m = try NumberMatch(v, path: path)
            return { if case .dog(let d) = $0 { m.matches(Double(d.breed[trait])) } else { false } }
        case ("gym", "type"):
            let m = try StringMatch(v, path: path, allowed: Gym.types)
            return { if case .gym(let g) = $0 { m.matches(g.type) } else { false } }
        case ("gym", "open_at"):
            guard let text = v.string else { throw ScoutError(.invalidRequest, "open_at must be an RFC 3339 instant string", path: path) }
            let instant = try Instant.parse(text, path: path)
            return { if case .gym(let g) = $0 { g.openingHours?.isOpen(at: instant, in: g.zone) ?? false } else { false } }
        case ("gym", "votes_up"):
            let m = try NumberMatch(v, path: path)
            return { if case .gym(let g) = $0 { m.matches(Double(g.upVotes)) } else { false } }
        case ("gym", "rating"):
            let m = try NumberMatch(v, path: path)
            return { if case .gym(let g) = $0 { m.matches(Rating.wilsonLowerBound(up: g.upVotes, down: g.downVotes)) } else { false } }
        case ("shelter", "type"):
            let m = try StringMatch(v, path: path, allowed: Shelter.types)
            return { if case .shelter(let s) = $0 { m.matches(s.type) } else { false } }
        case ("shelter", "animal"):
            let m = try AnimalMatch(v, path: path, species: species)
            return { if case .shelter(let s) = $0 { s.animals.contains(where: m.matches) } else { false } }
        default:
            throw ScoutError(.invalidRequest, "unknown filter field", path: path)
        }
    }
}

/// An exact string, or any of a list.
struct StringMatch: Sendable {
    let values: Set<String>
    let fold: Bool
    /// The strings as given, in order.
    let given: [String]

    init(_ v: JSONValue, path: String, fold: Bool = false, allowed: [String]? = nil) throws(ScoutError) {
        var list: [String] = []
        if let s = v.string { list = [s] } else if let a = v.array, !a.isEmpty, a.count <= 1000 {
            for (i, x) in a.enumerated() {
                guard let s = x.string else { throw ScoutError(.invalidRequest, "expected a string", path: "\(path)[\(i)]") }
                list.append(s)
            }
        } else {
            throw ScoutError(.invalidRequest, "expected a string or a non-empty list of at most 1000 strings", path: path)
        }
        if let allowed {
            for (i, s) in list.enumerated() where !allowed.contains(s) {
                throw ScoutError(.invalidRequest, "unknown value\(Suggestions.hint(for: s, among: allowed)); expected one of \(allowed.joined(separator: ", "))",
                                 path: v.array == nil ? path : "\(path)[\(i)]")
            }
        }
        given = list
        self.fold = fold
        values = Set(fold ? list.map(TextFolding.fold) : list)
    }

    func matches(_ s: String) -> Bool { values.contains(fold ? TextFolding.fold(s) : s) }
}

/// An exact number, any of a list, or an inclusive `{"min","max"}` range.
struct NumberMatch: Sendable {
    let range: ClosedRange<Double>?
    let values: [Double]

    init(_ v: JSONValue, path: String) throws(ScoutError) {
        if let d = v.double, d.isFinite { range = d...d; values = []; return }
        if let a = v.array, !a.isEmpty, a.count <= 1000 {
            var out: [Double] = []
            for (i, x) in a.enumerated() {
                guard let d = x.double, d.isFinite else { throw ScoutError(.invalidRequest, "expected a number", path: "\(path)[\(i)]") }
                out.append(d)
            }
            range = nil; values = out; return
        }
        guard let m = v.members else {
            throw ScoutError(.invalidRequest, "expected a number, a list of numbers or {\"min\", \"max\"}", path: path)
        }
        var lo = -Double.infinity, hi = Double.infinity
        for (k, x) in m {
            guard k == "min" || k == "max" else { throw ScoutError(.invalidRequest, "a range takes only min and max", path: "\(path).\(k.prefix(64))") }
            guard let d = x.double, d.isFinite else { throw ScoutError(.invalidRequest, "\(k) must be a number", path: "\(path).\(k)") }
            if k == "min" { lo = d } else { hi = d }
        }
        guard !m.isEmpty else { throw ScoutError(.invalidRequest, "a range needs min or max", path: path) }
        guard lo <= hi else { throw ScoutError(.invalidRequest, "min is above max", path: path) }
        range = lo...hi; values = []
    }

    func matches(_ x: Double) -> Bool { range.map { $0.contains(x) } ?? values.contains(x) }
}

/// `{"min", "max", "min_count"}` on a review aggregate: at least `min_count` ratings
/// (default 1) and a mean in range.
struct ReviewMatch: Sendable {
    let range: ClosedRange<Double>
    let minCount: Int

    init(_ v: JSONValue, path: String) throws(ScoutError) {
        guard let m = v.members else { throw ScoutError(.invalidRequest, "expected {\"min\", \"max\", \"min_count\"}", path: path) }
        var lo = 1.0, hi = 5.0, count = 1
        for (k, x) in m {
            guard let d = x.double, d.isFinite else { throw ScoutError(.invalidRequest, "\(k.prefix(64)) must be a number", path: "\(path).\(k.prefix(64))") }
            switch k {
            case "min": lo = d
            case "max": hi = d
            case "min_count":
                guard d >= 0, d == d.rounded(), d <= 1e9 else { throw ScoutError(.invalidRequest, "min_count must be a whole number", path: "\(path).min_count") }
                count = Int(d)
            default: throw ScoutError(.invalidRequest, "a review condition takes min, max and min_count", path: "\(path).\(k.prefix(64))")
            }
        }
        guard lo <= hi else { throw ScoutError(.invalidRequest, "min is above max", path: path) }
        range = lo...hi
        minCount = count
    }

    func matches(_ r: ReviewAggregate) -> Bool {
        guard r.count >= minCount else { return false }
        guard let m = r.mean else { return minCount == 0 && range == 1...5 }
        return range.contains(m)
    }
}

/// A condition on a shelter's animals: species, age, size, sex, adoptable, marks.
struct AnimalMatch: Sendable {
    let species: SpeciesMatch?, size: StringMatch?, sex: StringMatch?, age: NumberMatch?
    let adoptable: Bool?
    /// `true`/`false`: has marks or not; a string: the marks contain it (folded).
    let hasMarks: Bool?, marks: String?

    init(_ v: JSONValue, path: String, species names: SpeciesNames) throws(ScoutError) {
        guard let m = v.members, !m.isEmpty else { throw ScoutError(.invalidRequest, "animal must be a non-empty object", path: path) }
        var species: SpeciesMatch?, size: StringMatch?, sex: StringMatch?, age: NumberMatch?, adoptable: Bool?
        var hasMarks: Bool?, marks: String?
        for (k, x) in m {
            let p = "\(path).\(k.prefix(64))"
            switch k {
            case "species": species = try SpeciesMatch(x, path: p, names: names)
            case "size": size = try StringMatch(x, path: p, allowed: ["small", "medium", "large"])
            case "sex": sex = try StringMatch(x, path: p, allowed: Animal.sexes)
            case "age_years": age = try NumberMatch(x, path: p)
            case "adoptable":
                guard case .bool(let b) = x else { throw ScoutError(.invalidRequest, "adoptable must be true or false", path: p) }
                adoptable = b
            case "marks":
                switch x {
                case .bool(let b): hasMarks = b
                case .string(let s) where !TextFolding.fold(s).isEmpty && s.utf8.count <= 256: marks = TextFolding.fold(s)
                default: throw ScoutError(.invalidRequest, "marks must be true, false or a word the marks contain", path: p)
                }
            default:
                throw FieldReader.unknownField(k, known: RecordFilter.animalFields, path: p, what: "animal field")
            }
        }
        self.species = species; self.size = size; self.sex = sex; self.age = age; self.adoptable = adoptable
        self.hasMarks = hasMarks; self.marks = marks
    }

    func matches(_ a: Animal) -> Bool {
        (species?.matches(a.species) ?? true) && (size?.matches(a.size) ?? true) && (sex?.matches(a.sex) ?? true)
            && (age?.matches(a.ageYears) ?? true) && (adoptable.map { $0 == a.adoptable } ?? true)
            && (hasMarks.map { $0 == !a.marks.isEmpty } ?? true)
            && (marks.map { (" " + TextFolding.fold(a.marks) + " ").contains(" " + $0 + " ") } ?? true)
    }
}

/// Species named in English or Polish, any of a list: "pies", "dogs" and "dog" all mean `dog`.
struct SpeciesMatch: Sendable {
    let values: Set<String>

    init(_ v: JSONValue, path: String, names: SpeciesNames) throws(ScoutError) {
        let given = try StringMatch(v, path: path).given
        var out = Set<String>()
        for (i, s) in given.enumerated() {
            let p = v.array == nil ? path : "\(path)[\(i)]"
            if let c = names.canonical(s) { out.insert(c); continue }
            // A species the table does not know is still a species if it is a word ("axolotl").
            do throws(ScoutError) { out.insert(try SpeciesNames.word(s, path: p)) } catch {
                let known = names.rows.flatMap { [$0.species] + $0.english + $0.polish }
                throw ScoutError(.notFound, "no species of that name\(Suggestions.hint(for: s, among: known))", path: p)
            }
        }
        values = out
    }

    func matches(_ species: String) -> Bool { values.contains(species) }
}
