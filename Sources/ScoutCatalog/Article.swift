import ScoutCore
import ScoutJSON

/// A "Help! My pet just…" article: what to do in a situation, for some species, and how
/// urgent it is. A record without a place (kind `article`). A class, like ``Dog``.
public final class Article: Sendable {
    /// How urgent a situation is.
    public static let urgencies = ["emergency", "call_vet", "home_care"]
    /// Title ("My dog ate chocolate"), the situation in a few words, a summary and the body.
    public let title: String, situation: String, summary: String, body: String
    /// The species it is for (species words: `dog`, `cat`, …).
    public let species: [String]
    /// One of ``urgencies``.
    public let urgency: String
    /// Words and phrases it is found by, besides its text.
    public let keywords: [String]
    /// Helpful votes: loaded plus the voters' own.
    public let upVotes: Int, downVotes: Int

    /// Creates an article from checked values.
    public init(title: String, situation: String, summary: String, body: String, species: [String], urgency: String,
                keywords: [String], upVotes: Int, downVotes: Int) {
        self.title = title; self.situation = situation; self.summary = summary; self.body = body
        self.species = species; self.urgency = urgency; self.keywords = keywords; self.upVotes = upVotes; self.downVotes = downVotes
    }

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

/// A workout program of the gym finder's users (kind `program`, without a place). A class, like ``Dog``.
public final class Program: Sendable {
    /// Goals in `goal`.
    public static let goals = ["strength", "hypertrophy", "endurance", "fat_loss", "mobility", "general_fitness"]
    /// Levels in `level`.
    public static let levels = ["beginner", "intermediate", "advanced"]
    /// One exercise of the program: sets of repetitions, or of a number of seconds.
    public struct Exercise: Sendable {
        /// The exercise's name.
        public let name: String
        /// Sets, 1–20.
        public let sets: Int
        /// Repetitions per set, or `nil` for a timed exercise.
        public let reps: Int?
        /// Seconds per set for a timed exercise, else `nil`.
        public let seconds: Int?
    }
    /// Name, description and the author's user id.
    public let name: String, description: String, author: String
    /// One of ``goals`` and one of ``levels``.
    public let goal: String, level: String
    /// Length in weeks (1–104) and training days a week (1–7).
    public let weeks: Int, daysPerWeek: Int
    /// The exercises, in order.
    public let exercises: [Exercise]
    /// Votes: loaded plus the voters' own.
    public let upVotes: Int, downVotes: Int

    /// Creates a program from checked values.
    public init(name: String, description: String, author: String, goal: String, level: String, weeks: Int, daysPerWeek: Int,
                exercises: [Exercise], upVotes: Int, downVotes: Int) {
        self.name = name; self.description = description; self.author = author; self.goal = goal; self.level = level
        self.weeks = weeks; self.daysPerWeek = daysPerWeek; self.exercises = exercises; self.upVotes = upVotes; self.downVotes = downVotes
    }

    /// Reads a program's fields.
    public static func read(_ fields: [(String, JSONValue)], path: String) throws(ScoutError) -> Program {
        let f = FieldReader(fields, path: path)
        var exercises: [Exercise] = []
        let list = try f.array("exercises", maxCount: 100)
        guard !list.isEmpty else { throw ScoutError(.invalidRequest, "exercises must list at least one exercise", path: f.at("exercises")) }
        for (i, v) in list.enumerated() {
            let e = try FieldReader(v, path: f.at("exercises[\(i)]"))
            try e.checkKnown(["name", "sets", "reps", "seconds"])
            let reps = e["reps"] == nil ? nil : try e.integer("reps", in: 1...1000)
            let seconds = e["seconds"] == nil ? nil : try e.integer("seconds", in: 1...36_000)
            guard (reps == nil) != (seconds == nil) else {
                throw ScoutError(.invalidRequest, "an exercise has either reps or seconds", path: e.path)
            }
            exercises.append(Exercise(name: try e.string("name", maxBytes: 128), sets: try e.integer("sets", in: 1...20), reps: reps, seconds: seconds))
        }
        let votes = try f.object("votes")
        let voted = try Reviews.votes(f)
        return Program(
            name: try f.string("name", maxBytes: 256), description: try f.optionalString("description", maxBytes: 8192) ?? "",
            author: try f.string("author", maxBytes: 256), goal: try f.oneOf("goal", goals), level: try f.oneOf("level", levels),
            weeks: try f.integer("weeks", in: 1...104), daysPerWeek: try f.integer("days_per_week", in: 1...7), exercises: exercises,
            upVotes: (try votes?.integer("up", in: 0...1_000_000_000, default: 0) ?? 0) + voted.up,
            downVotes: (try votes?.integer("down", in: 0...1_000_000_000, default: 0) ?? 0) + voted.down)
    }
}

/// A dog lover's profile (kind `lover`, without a place): someone who meets dogs, reviewed
/// by the owners they met. A class, like ``Dog``.
public final class Lover: Sendable {
    /// Name, free text, town and country (both optional, "" when absent).
    public let name: String, about: String, town: String, country: String
    /// Experience with dogs, 1–5, and how active they are, 1–5.
    public let experience: Int, activityLevel: Int
    /// Pets of their own (species words).
    public let otherPets: [String]
    /// Checked by the app's team.
    public let vetted: Bool
    /// Owners' ratings: loaded plus the owners' own reviews.
    public let reliability: ReviewAggregate, care: ReviewAggregate

    /// Creates a profile from checked values.
    public init(name: String, about: String, town: String, country: String, experience: Int, activityLevel: Int, otherPets: [String],
                vetted: Bool, reliability: ReviewAggregate, care: ReviewAggregate) {
        self.name = name; self.about = about; self.town = town; self.country = country; self.experience = experience
        self.activityLevel = activityLevel; self.otherPets = otherPets; self.vetted = vetted; self.reliability = reliability; self.care = care
    }

    /// True when one of their own pets is a dog (they would bring it along).
    public var hasDog: Bool { otherPets.contains("dog") }

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

/// An animal in a shelter's care as a record of its own (kind `animal`), at its shelter's
/// point, so the animals themselves can be searched near a place or within one shelter.
public final class ShelterAnimal: Sendable {
    /// The id of its shelter (a `shelter` record).
    public let shelterID: String
    /// The animal (its id is the record's).
    public let animal: Animal
    /// The shelter's town ("" when not given).
    public let town: String

    /// Creates an animal record from checked values.
    public init(shelterID: String, animal: Animal, town: String) {
        self.shelterID = shelterID; self.animal = animal; self.town = town
    }

    /// Reads an animal record's fields.
    public static func read(_ fields: [(String, JSONValue)], species names: SpeciesNames = .empty, path: String) throws(ScoutError) -> ShelterAnimal {
        let f = FieldReader(fields, path: path)
        return ShelterAnimal(shelterID: try f.string("shelter_id", maxBytes: 256), animal: try Animal.read(f, id: "", species: names),
                             town: try f.optionalString("town", maxBytes: 256) ?? "")
    }
}
