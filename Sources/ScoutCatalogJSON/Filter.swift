import ScoutCatalog
import ScoutCore
import ScoutJSON
import ScoutText
import ScoutTime

// A request's `"filter"` object, translated into a typed ``RecordFilter``: this file checks the
// JSON and resolves names (breeds, species) once; what each condition means is defined by its
// case in ScoutCatalog (`FilterConditions.swift`).

extension RecordFilter {
    /// Reads a filter for a kind. `today` is the date ages are computed on (the request's
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
        guard let known = fields(kind: kind) else {
            throw ScoutError(.invalidRequest, "filters apply to \(Catalog.typedKinds.sorted().joined(separator: ", ")); kind \(kind.prefix(64)) has no typed fields",
                             path: path)
        }
        let reader = FilterReader(today: today, breeds: breeds, species: species)
        var conditions: [FilterCondition] = []
        for (key, value) in members {
            guard known.contains(key) else {
                throw FieldReader.unknownField(key, known: known, path: "\(path).\(JSONReader.shown(key))", what: "\(kind) filter field")
            }
            conditions.append(try reader.condition(kind: kind, key: key, value, path: "\(path).\(key)"))
        }
        return RecordFilter(conditions)
    }
}

/// Reads one filter field's JSON into its condition.
private struct FilterReader {
    let today: LocalDate
    let breeds: BreedTable?
    let species: SpeciesNames

    func condition(kind: String, key: String, _ v: JSONValue, path: String) throws(ScoutError) -> FilterCondition {
        switch (kind, key) {
        case ("dog", "breed"):
            var names = try FilterReader.strings(v, path: path)
            if let breeds, !breeds.breeds.isEmpty {
                // Other names ("Lab", "owczarek niemiecki") mean their breed.
                for (i, name) in names.enumerated() { names[i] = try breeds.resolve(name, path: v.array == nil ? path : "\(path)[\(i)]").name }
            }
            return .dog(.breed(Set(names.map(TextFolding.fold))))
        case ("dog", "size"):
            return .dog(.size(Set(try FilterReader.strings(v, path: path, allowed: SizeClass.allCases.map(\.rawValue)).compactMap(SizeClass.init))))
        case ("dog", "sex"): return .dog(.sex(Set(try FilterReader.strings(v, path: path, allowed: Dog.sexes))))
        case ("dog", "age_years"): return .dog(.ageYears(try FilterReader.number(v, path: path), on: today))
        case ("dog", "weight_kg"): return .dog(.weightKg(try FilterReader.number(v, path: path)))
        case ("dog", "available"): return .dog(.available(try FilterReader.bool(v, key, path: path)))
        case ("dog", "owner_id"): return .dog(.owner(Set(try FilterReader.strings(v, path: path))))
        case ("dog", "owner_experience"): return .dog(.ownerExperience(try FilterReader.number(v, path: path)))
        case ("dog", "handler_experience"):
            guard let x = v.double, x >= 1, x <= 5 else {
                throw ScoutError(.invalidRequest, "handler_experience must be a number from 1 to 5", path: path)
            }
            return .dog(.handlerExperience(x))
        case ("dog", _):
            if let review = DogReview(rawValue: key) { return .dog(.review(review, try FilterReader.review(v, path: path))) }
            return .dog(.trait(Breed.Trait(rawValue: key)!, try FilterReader.number(v, path: path)))
        case ("gym", "type"): return .gym(.type(Set(try FilterReader.strings(v, path: path, allowed: Gym.types))))
        case ("gym", "open_at"):
            guard let text = v.string else { throw ScoutError(.invalidRequest, "open_at must be an RFC 3339 instant string", path: path) }
            return .gym(.openAt(try Instant.parse(text, path: path)))
        case ("gym", "votes_up"): return .gym(.votesUp(try FilterReader.number(v, path: path)))
        case ("gym", "rating"): return .gym(.rating(try FilterReader.number(v, path: path)))
        case ("shelter", "type"): return .shelter(.type(Set(try FilterReader.strings(v, path: path, allowed: Shelter.types))))
        case ("shelter", "animal"):
            guard let m = v.members, !m.isEmpty else { throw ScoutError(.invalidRequest, "animal must be a non-empty object", path: path) }
            var conditions = Set<AnimalCondition>()
            for (k, x) in m { conditions.insert(try animal(k, x, path: "\(path).\(k.prefix(64))")) }
            return .shelter(.animal(conditions))
        case ("animal", "shelter_id"): return .animal(.shelter(Set(try FilterReader.strings(v, path: path))))
        case ("animal", _): return .animal(try animal(key, v, path: path))
        case ("article", "species"): return .article(.species(try speciesNames(v, path: path)))
        case ("article", "urgency"): return .article(.urgency(Set(try FilterReader.strings(v, path: path, allowed: Article.urgencies))))
        case ("article", "rating"): return .article(.rating(try FilterReader.number(v, path: path)))
        case ("program", "goal"): return .program(.goal(Set(try FilterReader.strings(v, path: path, allowed: Program.goals))))
        case ("program", "level"): return .program(.level(Set(try FilterReader.strings(v, path: path, allowed: Program.levels))))
        case ("program", "weeks"): return .program(.weeks(try FilterReader.number(v, path: path)))
        case ("program", "days_per_week"): return .program(.daysPerWeek(try FilterReader.number(v, path: path)))
        case ("program", "author"): return .program(.author(Set(try FilterReader.strings(v, path: path))))
        case ("program", "rating"): return .program(.rating(try FilterReader.number(v, path: path)))
        case ("program", "votes_up"): return .program(.votesUp(try FilterReader.number(v, path: path)))
        case ("lover", "experience"): return .lover(.experience(try FilterReader.number(v, path: path)))
        case ("lover", "activity_level"): return .lover(.activityLevel(try FilterReader.number(v, path: path)))
        case ("lover", "vetted"): return .lover(.vetted(try FilterReader.bool(v, key, path: path)))
        case ("lover", "other_pets"): return .lover(.otherPets(try speciesNames(v, path: path)))
        case ("lover", "reliability"): return .lover(.reliability(try FilterReader.review(v, path: path)))
        case ("lover", "care"): return .lover(.care(try FilterReader.review(v, path: path)))
        case ("lover", "country"): return .lover(.country(Set(try FilterReader.strings(v, path: path))))
        case ("pet", "species"): return .pet(.species(try speciesNames(v, path: path)))
        case ("pet", "owner"): return .pet(.owner(Set(try FilterReader.strings(v, path: path))))
        case ("care", "pet_id"): return .care(.pet(Set(try FilterReader.strings(v, path: path))))
        case ("care", "type"): return .care(.type(Set(try FilterReader.strings(v, path: path))))
        case ("care", "start"): return .care(.start(try FilterReader.instants(v, path: path)))
        case ("care", "logged_by"): return .care(.loggedBy(Set(try FilterReader.strings(v, path: path))))
        case ("care", "verdict"): return .care(.verdict(Set(try FilterReader.strings(v, path: path, allowed: CareEntry.verdicts))))
        case ("care", "owner"): return .care(.petOwner(Set(try FilterReader.strings(v, path: path))))
        case ("list", "owner"): return .list(.owner(Set(try FilterReader.strings(v, path: path))))
        case ("list", "item_kind"): return .list(.itemKind(Set(try FilterReader.strings(v, path: path))))
        default:
            throw ScoutError(.invalidRequest, "unknown filter field", path: path)
        }
    }

    /// One field of a condition on an animal (of an `animal` record, or in a shelter's `animal` object).
    func animal(_ k: String, _ x: JSONValue, path p: String) throws(ScoutError) -> AnimalCondition {
        switch k {
        case "species": return .species(try speciesNames(x, path: p))
        case "size": return .size(Set(try FilterReader.strings(x, path: p, allowed: Animal.sizes)))
        case "sex": return .sex(Set(try FilterReader.strings(x, path: p, allowed: Animal.sexes)))
        case "age_years": return .ageYears(try FilterReader.number(x, path: p))
        case "adoptable":
            guard case .bool(let b) = x else { throw ScoutError(.invalidRequest, "adoptable must be true or false", path: p) }
            return .adoptable(b)
        case "marks":
            switch x {
            case .bool(let b): return .hasMarks(b)
            case .string(let s) where !TextFolding.fold(s).isEmpty && s.utf8.count <= 256: return .marksContain(TextFolding.fold(s))
            default: throw ScoutError(.invalidRequest, "marks must be true, false or a word the marks contain", path: p)
            }
        default:
            throw FieldReader.unknownField(k, known: RecordFilter.animalFields, path: p, what: "animal field")
        }
    }

    /// `true` or `false`.
    static func bool(_ v: JSONValue, _ key: String, path: String) throws(ScoutError) -> Bool {
        guard case .bool(let want) = v else { throw ScoutError(.invalidRequest, "\(key) must be true or false", path: path) }
        return want
    }

    /// An exact string, or a non-empty list of at most 1,000 (any of), in the order given;
    /// with `allowed`, each must be one of them.
    static func strings(_ v: JSONValue, path: String, allowed: [String]? = nil) throws(ScoutError) -> [String] {
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
        return list
    }

    /// An exact number, any of a list, or an inclusive `{"min", "max"}` range.
    /// A range of instants `{"from": "<RFC 3339>", "to": "<RFC 3339>"}` (either may be left
    /// out; both ends included), as seconds since 1970-01-01 UTC.
    static func instants(_ v: JSONValue, path: String) throws(ScoutError) -> ClosedRange<Int64> {
        guard let m = v.members, !m.isEmpty else {
            throw ScoutError(.invalidRequest, "start must be an object {\"from\", \"to\"} of RFC 3339 instants", path: path)
        }
        var from = Int64.min, to = Int64.max
        for (k, x) in m {
            guard k == "from" || k == "to" else {
                throw FieldReader.unknownField(k, known: ["from", "to"], path: "\(path).\(JSONReader.shown(k))")
            }
            guard let text = x.string else { throw ScoutError(.invalidRequest, "\(k) must be an RFC 3339 instant string", path: "\(path).\(k)") }
            let t = try Instant.parse(text, path: "\(path).\(k)").seconds
            if k == "from" { from = t } else { to = t }
        }
        guard from <= to else { throw ScoutError(.invalidRequest, "from is after to", path: "\(path).from") }
        return from...to
    }

    static func number(_ v: JSONValue, path: String) throws(ScoutError) -> NumberMatch {
        if let d = v.double, d.isFinite { return .exactly(d) }
        if let a = v.array, !a.isEmpty, a.count <= 1000 {
            var out: [Double] = []
            for (i, x) in a.enumerated() {
                guard let d = x.double, d.isFinite else { throw ScoutError(.invalidRequest, "expected a number", path: "\(path)[\(i)]") }
                out.append(d)
            }
            return .anyOf(out)
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
        return .within(lo...hi)
    }

    /// `{"min", "max", "min_count"}` on a review aggregate: at least `min_count` ratings
    /// (default 1) and a mean in range (default 1–5).
    static func review(_ v: JSONValue, path: String) throws(ScoutError) -> ReviewMatch {
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
        return ReviewMatch(means: lo...hi, minCount: count)
    }

    /// Species named in English or Polish, any of a list: "pies", "dogs" and "dog" all mean `dog`.
    func speciesNames(_ v: JSONValue, path: String) throws(ScoutError) -> Set<String> {
        let given = try FilterReader.strings(v, path: path)
        var out = Set<String>()
        for (i, s) in given.enumerated() {
            let p = v.array == nil ? path : "\(path)[\(i)]"
            if let c = species.canonical(s) { out.insert(c); continue }
            // A species the table does not know is still a species if it is a word ("axolotl").
            do throws(ScoutError) { out.insert(try SpeciesNames.word(s, path: p)) } catch {
                let known = species.rows.flatMap { [$0.species] + $0.english + $0.polish }
                throw ScoutError(.notFound, "no species of that name\(Suggestions.hint(for: s, among: known))", path: p)
            }
        }
        return out
    }
}
