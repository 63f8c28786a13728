import ScoutCatalog
import ScoutCore
import ScoutJSON

// The JSON forms of articles, programs, dog lovers and animal records (`Article.swift` of ScoutCatalog).

extension Article {
    /// Reads an article's fields.
    public static func read(_ fields: [(String, JSONValue)], species names: SpeciesNames = .empty, path: String) throws(ScoutError) -> Article {
        let f = FieldReader(fields, path: path)
        let votes = try f.object("votes")
        let voted = try Reviews.votes(f)
        return Article(
            title: try f.string("title", maxBytes: 256), situation: try f.string("situation", maxBytes: 256),
            summary: try f.optionalString("summary", maxBytes: 4096) ?? "", body: try f.string("body", maxBytes: 65_536),
            species: try words(f, "species", maxCount: 32, required: true, names: names), urgency: try f.oneOf("urgency", urgencies),
            keywords: try strings(f, "keywords", maxCount: 64, maxBytes: 128),
            upVotes: (try votes?.integer("up", in: 0...1_000_000_000, default: 0) ?? 0) + voted.up,
            downVotes: (try votes?.integer("down", in: 0...1_000_000_000, default: 0) ?? 0) + voted.down)
    }

    /// A list of species at `key` (at least one when `required`), names in either language made species words.
    static func words(_ f: FieldReader, _ key: String, maxCount: Int, required: Bool, names: SpeciesNames) throws(ScoutError) -> [String] {
        let list = try f.array(key, maxCount: maxCount)
        if required && list.isEmpty { throw ScoutError(.invalidRequest, "\(key) must list at least one species", path: f.at(key)) }
        var out: [String] = []
        for (i, v) in list.enumerated() {
            guard let s = v.string else { throw ScoutError(.invalidRequest, "\(key) holds species words", path: f.at("\(key)[\(i)]")) }
            out.append(try names.species(s, path: f.at("\(key)[\(i)]")))
        }
        return out
    }

    /// A list of strings at `key`, each at most `maxBytes`.
    static func strings(_ f: FieldReader, _ key: String, maxCount: Int, maxBytes: Int) throws(ScoutError) -> [String] {
        var out: [String] = []
        for (i, v) in try f.array(key, maxCount: maxCount).enumerated() {
            guard let s = v.string, s.utf8.count <= maxBytes else {
                throw ScoutError(.invalidRequest, "\(key) holds strings of at most \(maxBytes) bytes", path: f.at("\(key)[\(i)]"))
            }
            out.append(s)
        }
        return out
    }
}

extension Program {
    /// Reads a program's fields.
    public static func read(_ fields: [(String, JSONValue)], path: String) throws(ScoutError) -> Program {
        let f = FieldReader(fields, path: path)
        var exercises: [Exercise] = []
        let list = try f.array("exercises", maxCount: 100)
        guard !list.isEmpty else { throw ScoutError(.invalidRequest, "exercises must list at least one exercise", path: f.at("exercises")) }
        for (i, v) in list.enumerated() {
            let e = try FieldReader(v, path: f.at("exercises[\(i)]"))
            try e.checkKnown(["name", "sets", "reps", "seconds", "instructions"])
            let reps = e["reps"] == nil ? nil : try e.integer("reps", in: 1...1000)
            let seconds = e["seconds"] == nil ? nil : try e.integer("seconds", in: 1...36_000)
            guard (reps == nil) != (seconds == nil) else {
                throw ScoutError(.invalidRequest, "an exercise has either reps or seconds", path: e.path)
            }
            exercises.append(Exercise(name: try e.string("name", maxBytes: 128), sets: try e.integer("sets", in: 1...20), reps: reps, seconds: seconds,
                                      instructions: try e.optionalString("instructions", maxBytes: 2048) ?? ""))
        }
        let votes = try f.object("votes")
        let voted = try Reviews.votes(f)
        return Program(
            name: try f.string("name", maxBytes: 256), description: try f.optionalString("description", maxBytes: 8192) ?? "",
            author: try f.string("author", maxBytes: 256), goal: try f.oneOf("goal", goals), level: try f.oneOf("level", levels),
            weeks: try f.integer("weeks", in: 1...104), daysPerWeek: try f.integer("days_per_week", in: 1...7), exercises: exercises,
            upVotes: (try votes?.integer("up", in: 0...1_000_000_000, default: 0) ?? 0) + voted.up,
            downVotes: (try votes?.integer("down", in: 0...1_000_000_000, default: 0) ?? 0) + voted.down,
            sessionMinutes: f["session_minutes"] == nil ? nil : try f.integer("session_minutes", in: 5...300),
            access: try RecordAccess.read(f, required: false))
    }
}

extension Lover {
    /// Reads a profile's fields.
    public static func read(_ fields: [(String, JSONValue)], species names: SpeciesNames = .empty, path: String) throws(ScoutError) -> Lover {
        let f = FieldReader(fields, path: path)
        let reviews = try f.object("reviews")
        let entries = try Reviews.entries(f, criteria: Reviews.criteria(kind: "lover"))
        func aggregate(_ c: String) throws(ScoutError) -> ReviewAggregate { Reviews.combined(try .read(reviews, c), entries, criterion: c) }
        return Lover(
            name: try f.string("name", maxBytes: 256), about: try f.optionalString("about", maxBytes: 4096) ?? "",
            town: try f.optionalString("town", maxBytes: 256) ?? "", country: try f.optionalString("country", maxBytes: 2) ?? "",
            experience: try f.integer("experience", in: 1...5), activityLevel: try f.integer("activity_level", in: 1...5, default: 3),
            otherPets: try Article.words(f, "other_pets", maxCount: 32, required: false, names: names), vetted: try f.bool("vetted", default: false),
            reliability: try aggregate("reliability"), care: try aggregate("care"))
    }
}

extension ShelterAnimal {
    /// Reads an animal record's fields.
    public static func read(_ fields: [(String, JSONValue)], species names: SpeciesNames = .empty, path: String) throws(ScoutError) -> ShelterAnimal {
        let f = FieldReader(fields, path: path)
        return ShelterAnimal(shelterID: try f.string("shelter_id", maxBytes: 256), animal: try Animal.read(f, id: "", species: names),
                             town: try f.optionalString("town", maxBytes: 256) ?? "")
    }
}
