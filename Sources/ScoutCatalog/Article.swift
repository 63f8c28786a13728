import ScoutCore

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
        /// How to do it, in the author's words ("" when not given).
        public let instructions: String

        /// Creates an exercise from checked values.
        package init(name: String, sets: Int, reps: Int?, seconds: Int?, instructions: String = "") {
            self.name = name; self.sets = sets; self.reps = reps; self.seconds = seconds; self.instructions = instructions
        }
    }
    /// Name, description and the author's user id.
    public let name: String, description: String, author: String
    /// One of ``goals`` and one of ``levels``.
    public let goal: String, level: String
    /// Length in weeks (1–104) and training days a week (1–7).
    public let weeks: Int, daysPerWeek: Int
    /// How long one session takes, in minutes (5–300), when the author says.
    public let sessionMinutes: Int?
    /// The exercises, in order.
    public let exercises: [Exercise]
    /// Votes: loaded plus the voters' own.
    public let upVotes: Int, downVotes: Int
    /// For a user's own copy ("My programs"): its owners and who else may read it; `nil` for
    /// a program of the public catalogue.
    public let access: RecordAccess?

    /// Creates a program from checked values.
    public init(name: String, description: String, author: String, goal: String, level: String, weeks: Int, daysPerWeek: Int,
                exercises: [Exercise], upVotes: Int, downVotes: Int, sessionMinutes: Int? = nil, access: RecordAccess? = nil) {
        self.name = name; self.description = description; self.author = author; self.goal = goal; self.level = level
        self.weeks = weeks; self.daysPerWeek = daysPerWeek; self.exercises = exercises; self.upVotes = upVotes; self.downVotes = downVotes
        self.sessionMinutes = sessionMinutes; self.access = access
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
}
