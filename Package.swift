// swift-tools-version: 6.1
// Scout: an in-memory geospatial search and recommendation engine.
//
// The target graph is the architecture (see docs/architecture.md, whose module table a test
// holds against this file: ScoutArchitectureTests). Each target of Sources/ declares exactly
// the package modules its sources import, no more and no fewer (the same test checks it;
// test targets are not held to this yet).
//   CGEOS, CPROJ          system C libraries (GEOS reentrant API, PROJ + geodesic.h)
//   CHunspell, CStemmer   system C libraries (Hunspell for Polish base forms, Snowball for English stems)
//   ScoutCore             shared vocabulary: GeoPoint, GeoBox, ScoutError
//   ScoutGeodesy          points, WGS84 distances and their cheap bounds, geohash
//   ScoutGeometry         polygons, CRS transforms and corridors (GEOS + PROJ)
//   ScoutIndex            packed kd-tree, live point sets, geohash grid, queries
//   ScoutJSON             small JSON reader/writer for the worker's hot path, typed field reads
//   ScoutText             Unicode folding, tokens, BM25 text index with typo tolerance
//   ScoutTime             RFC 3339 instants, time zones, OSM opening_hours
//   ScoutSchedule         reminders: next firing times across DST and short months, quiet hours, calendar
//   ScoutCatalog          typed records (dogs, gyms, shelters), breeds, gazetteer, filters, ratings, privacy
//   ScoutCatalogJSON      the JSON forms of the catalogue's records and filters (read at the edge)
//   ScoutSolar            the sun's elevation and the day's dawn, sunrise, sunset and dusk (NOAA)
//   ScoutRecommend        activity catalogue, care goals, hard context rules, enjoyment, scoring with reasons
//   ScoutRecommendJSON    the JSON forms of reminders, schedules, pets, weather, weights and the activity catalogue
//   ScoutEngine           the library facade: kinds, records, loading, search
//   ScoutRanking          place ranking above the engine: dogs to meet, gyms to visit
//   Scout                 the umbrella a service imports: re-exports Core, Time, Catalog, Schedule,
//                         Recommend, Engine, Ranking and State
//   ScoutState            durable state: a write-ahead journal, recovery, compaction into snapshots
//   ScoutWorker           the `scout serve` JSON Lines protocol
//   ScoutSource           follows PostgreSQL/PostGIS tables into an engine (postgres-nio): load, LISTEN, catch up
//   scout                 the command-line executable
//
// Products: a service depends on `Scout` (and on `ScoutSource` to follow PostgreSQL tables);
// `scout` is the executable; `ScoutFuzzProperties` (Fuzz/Properties) holds what the fuzz
// targets check, for Fuzz/ and for the tests that replay its seeds. `ScoutInternals` holds
// every module up to ScoutWorker one by one (not ScoutState, ScoutSource) for the project's own Benchmarks/ and Fuzz/ packages, which reach
// lower layers (ScoutIndex, ScoutGeometry, ScoutJSON, ScoutCatalogJSON, ScoutRecommendJSON,
// ScoutWorker) directly: no stability promise, not for services.
import PackageDescription

let package = Package(
    name: "Scout",
    products: [
        .library(name: "Scout", targets: ["Scout"]),
        // The PostgreSQL follower, apart: only a service that follows a database pulls in postgres-nio.
        .library(name: "ScoutSource", targets: ["ScoutSource"]),
        .library(name: "ScoutInternals", targets: [
            "ScoutCore", "ScoutGeodesy", "ScoutIndex", "ScoutGeometry", "ScoutJSON", "ScoutText", "ScoutTime", "ScoutSchedule", "ScoutCatalog",
            "ScoutCatalogJSON", "ScoutSolar", "ScoutRecommend", "ScoutRecommendJSON", "ScoutEngine", "ScoutRanking",
            "ScoutWorker"]),
        .executable(name: "scout", targets: ["scout"]),
        // The properties the fuzz targets of the project's own Fuzz/ package check (the root's
        // tests replay the committed seeds and regressions through them): not for services.
        .library(name: "ScoutFuzzProperties", targets: ["ScoutFuzzProperties"]),
    ],
    dependencies: [
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CGEOS", pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(
            name: "CPROJ", pkgConfig: "proj",
            providers: [.apt(["libproj-dev"])]),
        .systemLibrary(
            name: "CHunspell", pkgConfig: "hunspell",
            providers: [.apt(["libhunspell-dev", "hunspell-pl"])]),
        .systemLibrary(
            name: "CStemmer",
            providers: [.apt(["libstemmer-dev"])]),
        .target(name: "ScoutCore"),
        .target(name: "CIntrinsics"),
        .target(name: "ScoutGeodesy", dependencies: ["ScoutCore", "CPROJ", "CIntrinsics"]),
        .target(name: "ScoutIndex", dependencies: ["ScoutCore", "ScoutGeodesy", "CIntrinsics"],
                swiftSettings: [.define("SCOUT_INTERNAL_CHECKS", .when(configuration: .debug))]),
        .target(name: "ScoutGeometry", dependencies: ["ScoutCore", "CGEOS", "CPROJ", "ScoutGeodesy", "ScoutIndex"]),
        .target(name: "ScoutJSON", dependencies: ["ScoutCore"]),
        .target(name: "ScoutText", dependencies: ["ScoutCore", "CHunspell", "CStemmer"]),
        .target(name: "ScoutTime", dependencies: ["ScoutCore"]),
        .target(name: "ScoutCatalog", dependencies: ["ScoutCore", "ScoutGeodesy", "ScoutText", "ScoutTime", "ScoutSchedule"]),
        .target(name: "ScoutCatalogJSON", dependencies: ["ScoutCore", "ScoutJSON", "ScoutText", "ScoutTime", "ScoutSchedule", "ScoutCatalog"]),
        .target(name: "ScoutSolar", dependencies: ["ScoutTime"]),
        .target(name: "ScoutSchedule", dependencies: ["ScoutCore", "ScoutTime"]),
        .target(name: "ScoutRecommend", dependencies: ["ScoutCore", "ScoutGeodesy", "ScoutTime", "ScoutSolar",
                                                       "ScoutSchedule", "ScoutCatalog"]),
        .target(name: "ScoutRecommendJSON", dependencies: ["ScoutCore", "ScoutJSON", "ScoutTime", "ScoutCatalog", "ScoutCatalogJSON",
                                                           "ScoutSchedule", "ScoutRecommend"]),
        .target(name: "ScoutEngine", dependencies: ["ScoutCore", "ScoutIndex", "ScoutGeometry", "ScoutGeodesy", "ScoutJSON",
                                                    "ScoutCatalog", "ScoutCatalogJSON", "ScoutText"]),
        .target(name: "ScoutRanking", dependencies: ["ScoutCore", "ScoutTime", "ScoutJSON", "ScoutCatalog", "ScoutSchedule", "ScoutRecommend", "ScoutEngine"]),
        .target(name: "Scout", dependencies: ["ScoutCore", "ScoutTime", "ScoutCatalog", "ScoutSchedule", "ScoutRecommend",
                                              "ScoutRecommendJSON", "ScoutEngine", "ScoutRanking", "ScoutState", "ScoutJSON", "ScoutGeometry",
                                              "ScoutText", "ScoutSolar"]),
        .target(name: "ScoutState", dependencies: ["ScoutCore", "ScoutGeometry", "ScoutJSON", "ScoutCatalog", "ScoutEngine",
                                                   .product(name: "Logging", package: "swift-log"),
                                                   .product(name: "Metrics", package: "swift-metrics"),
                                                   .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),
        .target(name: "ScoutWorker", dependencies: ["ScoutEngine", "ScoutJSON", "ScoutCatalog", "ScoutCatalogJSON", "ScoutText", "ScoutTime",
                                                    "ScoutSchedule", "ScoutRecommend", "ScoutRecommendJSON", "ScoutRanking", "ScoutGeometry",
                                                    "ScoutCore", "ScoutSolar", .product(name: "Metrics", package: "swift-metrics")]),
        .target(name: "ScoutSource", dependencies: ["ScoutEngine", "ScoutCatalog", "ScoutCore", "ScoutJSON",
                                                    .product(name: "PostgresNIO", package: "postgres-nio"),
                                                    .product(name: "Logging", package: "swift-log"),
                                                    .product(name: "Metrics", package: "swift-metrics"),
                                                    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),
        .executableTarget(name: "scout", dependencies: ["ScoutWorker", "ScoutEngine", "ScoutCatalog", "ScoutRecommend", "ScoutRecommendJSON", "ScoutGeometry",
                                                   "ScoutCore", "ScoutJSON", "ScoutState", "ScoutSource", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                                   .product(name: "Logging", package: "swift-log")]),

        .target(name: "ScoutTestSupport", dependencies: ["ScoutCore", "ScoutGeodesy"], path: "Tests/ScoutTestSupport"),
        .target(name: "ScoutFuzzProperties", dependencies: [
            "ScoutCore", "ScoutJSON", "ScoutTime", "ScoutGeometry", "ScoutCatalog", "ScoutEngine", "ScoutRecommend", "ScoutRecommendJSON",
            "ScoutWorker"], path: "Fuzz/Properties"),
        .testTarget(name: "ScoutFuzzTests", dependencies: ["ScoutFuzzProperties", "ScoutJSON", "ScoutTestSupport"]),
        .testTarget(name: "ScoutSolarTests", dependencies: ["ScoutSolar", "ScoutTime", "ScoutTestSupport"]),
        .testTarget(name: "ScoutScheduleTests", dependencies: [
            "ScoutSchedule", "ScoutRecommendJSON", "ScoutTime", "ScoutJSON", "ScoutTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "ScoutRecommendTests", dependencies: [
            "ScoutRecommend", "ScoutRecommendJSON", "ScoutSolar", "ScoutSchedule", "ScoutCatalog", "ScoutTime", "ScoutJSON", "ScoutTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "ScoutCoreTests", dependencies: [
            "ScoutCore", "ScoutTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "ScoutGeodesyTests", dependencies: [
            "ScoutGeodesy", "ScoutTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "ScoutGeometryTests", dependencies: [
            "ScoutGeometry", "ScoutTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "ScoutIndexTests", dependencies: [
            "ScoutIndex", "ScoutGeometry", "ScoutTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "ScoutJSONTests", dependencies: [
            "ScoutJSON", "ScoutCore", "ScoutTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "ScoutTextTests", dependencies: [
            "ScoutText", "ScoutTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "ScoutTimeTests", dependencies: [
            "ScoutTime", "ScoutTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "ScoutCatalogTests", dependencies: [
            "ScoutCatalog", "ScoutText", "ScoutTime", "ScoutGeodesy", "ScoutTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "ScoutEngineTests", dependencies: [
            "ScoutEngine", "ScoutCatalog", "ScoutCatalogJSON", "ScoutRecommend", "ScoutRecommendJSON", "ScoutRanking", "ScoutJSON",
            "ScoutText", "ScoutTime", "ScoutGeodesy", "ScoutTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "ScoutRankingTests", dependencies: [
            "ScoutRanking", "ScoutEngine", "ScoutCatalog", "ScoutRecommend", "ScoutRecommendJSON", "ScoutJSON", "ScoutTime", "ScoutGeodesy", "ScoutTestSupport"]),
        .testTarget(name: "ScoutWorkerTests", dependencies: [
            "ScoutWorker", "ScoutEngine", "ScoutJSON", "ScoutCatalog", "ScoutCatalogJSON", "ScoutRecommend", "ScoutRecommendJSON",
            "ScoutTestSupport", "scout", .product(name: "MetricsTestKit", package: "swift-metrics")]),
        .testTarget(name: "ScoutStateTests", dependencies: [
            "ScoutState", "ScoutEngine", "ScoutIndex", "ScoutWorker", "ScoutCatalog", "ScoutJSON", "ScoutCore", "ScoutTestSupport",
            .product(name: "PropertyBased", package: "swift-property-based"), .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "ScoutSourceTests", dependencies: ["ScoutSource"]),
        .testTarget(name: "ScoutArchitectureTests", dependencies: ["Scout", "ScoutTestSupport"]),
    ]
)
