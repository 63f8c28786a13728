import Foundation
import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutTestSupport
import Testing

/// The README's library example, run as written: typed filters, get, review, listing.
@Suite struct LibraryExampleTests {
    @Test func theReadmeExampleRunsAndIsTheOneInTheReadme() throws {
        Repository.ensureSampleDogs()
        let data = Repository.data
        // --- as in README.md (paths made absolute) ---
        let engine = Engine(catalog: try Catalog.load(dataDirectory: data))
        try engine.load(path: data + "/sample/dogs.jsonl")
        try engine.load(path: data + "/sample/lovers.jsonl")
        let galway = try engine.catalog.places.resolve("Galway", country: "IE").place.point
        let friendly = try RecordFilter.dogs(.goodWithDogs(atLeast: 4), .available, .breed(["Lab", "Border Collie"]),
                                             breeds: engine.catalog.breeds)
        let near = try engine.nearest(NearestQuery(kind: "dog", from: galway, k: 5, filter: friendly))
        var reviewed: FeedbackOutcome?
        if let dog = near.hits.first, let profile = try engine.get(kind: "dog", ids: [dog.id])[0] {
            reviewed = try engine.review(kind: "dog", record: profile.id, reviewer: "lover-00042",
                                         ratings: [("temperament", 5), ("excitability", 2), ("experience_needed", 2)], text: "Gentle with my old spaniel.")
        }
        let lovers = try engine.search(SearchQuery(kind: "lover", area: nil, limit: 10, sort: .rating))
        // --- checks ---
        #expect(near.hits.count == 5)
        for h in near.hits {
            guard case .dog(let d) = h.record else { Issue.record("not a dog"); continue }
            #expect(["Labrador Retriever", "Border Collie"].contains(d.breed.name))
            #expect(d.available && d.breed[.goodWithDogs] >= 4)
        }
        let outcome = try #require(reviewed)
        #expect(!outcome.replaced && outcome.changed)
        // A retry counts once.
        let again = try engine.review(kind: "dog", record: near.hits[0].id, reviewer: "lover-00042",
                                      ratings: [("temperament", 5), ("excitability", 2), ("experience_needed", 2)], text: "Gentle with my old spaniel.")
        #expect(again.replaced && !again.changed)
        #expect(lovers.total == 2000 && lovers.hits.count == 10)
        let ratings = lovers.hits.map { $0.rating! }
        #expect(ratings == ratings.sorted(by: >))

        // The README shows the same calls.
        let readme = try String(contentsOfFile: Repository.root + "/README.md", encoding: .utf8)
        for call in ["RecordFilter.dogs(.goodWithDogs(atLeast: 4), .available, .breed([\"Lab\", \"Border Collie\"]),",
                     "engine.nearest(NearestQuery(kind: \"dog\", from: galway, k: 5, filter: friendly))",
                     "engine.get(kind: \"dog\", ids: [dog.id])[0]",
                     "engine.review(kind: \"dog\", record: profile.id, reviewer: \"lover-00042\",",
                     "engine.search(SearchQuery(kind: \"lover\", area: nil, limit: 10, sort: .rating))"] {
            #expect(readme.contains(call), "README.md no longer shows \(call)")
        }
        #expect(!readme.contains("JSONReader.parse"), "the README's library example must not build JSON")
    }
}
