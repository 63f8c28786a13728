// The README's "Using the library" section, as a program: a package that depends on the
// `Scout` product and imports nothing else. `bash scripts/examples_test.sh` builds and runs it,
// and `ScoutArchitectureTests` checks that the README shows this code (between the markers).
// Run from the repository's root: `swift run --package-path Examples/ScoutService library-tour`.
import Scout

// library-tour: begin
let engine = Engine(catalog: try Catalog.load(dataDirectory: "data"))
try engine.load(path: "data/sample/dogs.jsonl")
try engine.load(path: "data/sample/gyms.jsonl")
try engine.load(path: "data/sample/lovers.jsonl")

// Dogs near Galway that get on with other dogs ("Lab" is the Labrador Retriever).
let galway = try engine.catalog.places.resolve("Galway", country: "IE").place.point
let friendly = try RecordFilter.dogs(.goodWithDogs(atLeast: 4), .available, .breed(["Lab", "Border Collie"]),
                                     breeds: engine.catalog.breeds)
let near = try engine.nearest(NearestQuery(kind: "dog", from: galway, k: 5, filter: friendly))
for hit in near.hits { print("dog", hit.id, hit.distance!) }        // approximate: 100 m steps

// Open one dog's profile, and leave a review (a retry replaces it, never counts twice).
if let dog = near.hits.first, let profile = try engine.get(kind: "dog", ids: [dog.id])[0] {
    let outcome = try engine.review(kind: "dog", record: profile.id, reviewer: "lover-00042",
                                    ratings: [("temperament", 5), ("excitability", 2), ("experience_needed", 2)], text: "Gentle with my old spaniel.")
    print("reviewed", profile.id, "replaced:", outcome.replaced)
}

// Every dog lover, best reviewed first: a search without an area lists the whole kind.
let lovers = try engine.search(SearchQuery(kind: "lover", area: nil, limit: 10, sort: .rating))
print("lovers", lovers.total)

// "This or that" for a beagle in Galway on a dry November morning, with reasons.
let recommender = try Recommender.load(dataDirectory: "data", breeds: engine.catalog.breeds)
let pet = PetProfile(name: "Bran", species: .dog, breed: try engine.catalog.breeds.resolve("Beagle", path: "breed"),
                     birthDate: try LocalDate.parse("2021-04-02", path: "birth_date"), weightKg: 11)
let now = try Instant.parse("2026-11-28T10:30:00Z", path: "now")
let context = RecommendationContext(now: now, location: galway, weather: Weather(temperatureC: 9, condition: .cloudy))
let offer = recommender.recommendActivities(ActivityRequest(pet: pet, context: context, seed: 7))
for r in offer.recommendations { print("activity", r.activity.id, r.breakdown.score, r.reasons.first ?? "") }

// Gyms to visit within 4 km of Dublin's centre, by distance, votes and opening hours.
let dublin = try engine.catalog.places.resolve("Dublin", country: "IE").place.point
var weights = recommender.weights
weights.gyms.terms[.openNow] = 2                                       // typed: a misspelt term does not compile
let gyms = try PlaceRanker(engine: engine, weights: weights).rankGyms(GymRankQuery(from: dublin, now: now, limit: 3))
for g in gyms.hits { print("gym", g.hit.id, g.breakdown.score) }

// A durable engine: every write is journalled before it returns; a restart recovers it.
let directory = "/tmp/scout-library-tour-\(now.seconds)"
var state = try StateDirectory.open(directory, options: .init(policy: .always)) { () throws(ScoutError) in
    (Engine(catalog: engine.catalog), "data")
}
let gym: [(String, JSONValue)] = [("name", .string("New Gym")), ("type", .string("gym")), ("timezone", .string("Europe/Dublin"))]
try state.engine.upsert([PointRecord(id: "gym-new", kind: "gym", point: dublin, fields: gym)])
state.journal.close()
state = try StateDirectory.open(directory, options: .init(policy: .always)) { () throws(ScoutError) in
    (Engine(catalog: engine.catalog), "data")
}
print("recovered", try state.engine.get(kind: "gym", ids: ["gym-new"])[0]?.id ?? "nothing")
state.journal.close()
// library-tour: end
