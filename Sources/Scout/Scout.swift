// Scout: the one module a service imports.
//
// It re-exports the modules whose types a backend service names when it uses Scout as a
// library, in layer order:
//
// - `ScoutCore`: `GeoPoint`, `GeoBox`, `ScoutError` (stable codes and paths).
// - `ScoutTime`: `Instant`, `LocalDate`, `LocalDateTime`, `Zone`, `OpeningHours`.
// - `ScoutCatalog`: typed records (`Dog`, `Gym`, `Shelter`, `Animal`), `Catalog`,
//   `BreedTable`, `Gazetteer`, `RecordFilter`, `Rating`, `LocationPrivacy`.
// - `ScoutSchedule`: reminders (`Reminder`, `WakingHours`, `Schedule.compute`).
// - `ScoutRecommend`: the activity recommender (`Recommender`, `PetNeeds`, `ScoreBreakdown`),
//   and `ScoutRecommendJSON` for its loaders (`Recommender.load(dataDirectory:breeds:)`,
//   `RecommenderWeights.load(path:)`, `ActivityCatalog.load(path:)`): its wire-JSON readers and
//   writers are `package`, so the umbrella brings only the loaders of the data files.
// - `ScoutEngine`: the facade `Engine` (kinds, records, searches, snapshots).
// - `ScoutRanking`: place ranking over the engine (`PlaceRanker`: dogs to meet, gyms), and a
//   stored pet as the recommender takes it (`Engine.storedPet(_:user:activities:)`).
// - `ScoutState`: durable state (`StateDirectory`, `Journal`, `FsyncPolicy`).
//
// - A few types alone from lower modules, those the public signatures above name:
//   `JSONValue` (the value of an untyped kind's free-form fields, `PointRecord.fields`, built
//   as a value, never parsed from a string), `TimeZoneMap` (the zone polygons
//   `Engine(timeZones:)` takes), `SynonymTable` and `SynonymFileError` (`Catalog.synonyms`),
//   `TextLanguage`, `WordForms`, `WordFormsError` and `StopWords` (`Catalog.language`),
//   `WordMatching` (`SearchQuery.words`) and `Daylight` (`ActivityRecommendations.daylight`).
//
// Deliberately not re-exported:
// - `ScoutWorker` and the rest of `ScoutJSON` (reader, writer): the JSON Lines protocol is
//   the edge for other processes (`scout serve`, `scout rank`); a Swift service talks to
//   `Engine` with typed values.
// - `ScoutIndex`, `ScoutGeometry`, `ScoutGeodesy`, `ScoutText`, `ScoutSolar`: layers the engine
//   and the recommender wrap. The `ScoutInternals` product holds them for the project's own
//   Benchmarks/ and Fuzz/ packages, with no stability promise.

/// Scout's library surface: `import Scout` brings the engine, the catalogue's typed records
/// and filters, the recommender, reminders, time, durable state and the shared vocabulary.
///
///     import Scout
///
///     let engine = Engine(catalog: try Catalog.load(dataDirectory: "data"))
///     try engine.load(path: "data/sample/gyms.jsonl")
///     let dublin = try engine.catalog.places.resolve("Dublin", country: "IE").place.point
///     let result = try engine.nearest(NearestQuery(kind: "gym", from: dublin, k: 3))
///     for hit in result.hits { print(hit.id, hit.distance!) }   // metres, WGS84 geodesic
///
/// Which product to depend on, and what each module does: `docs/architecture.md`.
@_exported import ScoutCore
@_exported import ScoutTime
@_exported import ScoutCatalog
@_exported import ScoutSchedule
@_exported import ScoutRecommend
@_exported import ScoutRecommendJSON
@_exported import ScoutEngine
@_exported import ScoutRanking
@_exported import ScoutState
@_exported import enum ScoutJSON.JSONValue
@_exported import class ScoutGeometry.TimeZoneMap
@_exported import struct ScoutText.SynonymTable
@_exported import struct ScoutText.SynonymFileError
@_exported import struct ScoutText.TextLanguage
@_exported import class ScoutText.WordForms
@_exported import struct ScoutText.WordFormsError
@_exported import enum ScoutText.StopWords
@_exported import enum ScoutText.WordMatching
@_exported import enum ScoutSolar.Daylight
