// swift-tools-version: 6.1
// Scout's benchmarks, kept apart so that `swift test` in the root never builds
// package-benchmark. Run: `bash scripts/bench.sh` (generates the data, then runs this).
import PackageDescription

let package = Package(
    name: "ScoutBenchmarks",
    dependencies: [
        .package(name: "Scout", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The peer: GEOS's STRtree through its C API, as a competent user would use it.
        .systemLibrary(name: "CGEOSBaseline", path: "Sources/CGEOSBaseline", pkgConfig: "geos"),
        // The benchmark data set and the GEOS baseline, shared by the two spatial drivers.
        .target(
            name: "BenchSupport",
            dependencies: [
                "CGEOSBaseline",
                .product(name: "ScoutGeodesy", package: "Scout"),
                .product(name: "ScoutCore", package: "Scout"),
            ]
        ),
        // Mean per query and build time, Scout against GEOS, alternating rounds.
        .executableTarget(
            name: "MeanPerQuery",
            dependencies: [
                "BenchSupport",
                .product(name: "ScoutIndex", package: "Scout"),
                .product(name: "ScoutGeometry", package: "Scout"),
                .product(name: "ScoutCore", package: "Scout"),
            ]
        ),
        .executableTarget(
            name: "SpatialBenchmarks",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ScoutIndex", package: "Scout"),
                .product(name: "ScoutGeometry", package: "Scout"),
                .product(name: "ScoutGeodesy", package: "Scout"),
                .product(name: "ScoutCore", package: "Scout"),
            ],
            path: "Benchmarks/SpatialBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // (pet, activity) scores per second through the recommender, library and worker.
        .executableTarget(
            name: "RecommenderThroughput",
            dependencies: [
                .product(name: "ScoutRecommend", package: "Scout"),
                .product(name: "ScoutRecommendJSON", package: "Scout"),
                .product(name: "ScoutSchedule", package: "Scout"),
                .product(name: "ScoutEngine", package: "Scout"),
                .product(name: "ScoutWorker", package: "Scout"),
                .product(name: "ScoutCatalog", package: "Scout"),
                .product(name: "ScoutCore", package: "Scout"),
                .product(name: "ScoutJSON", package: "Scout"),
                .product(name: "ScoutTime", package: "Scout"),
            ]
        ),
        // Tens of millions of single-record upserts over a fixed set of ids: RSS and index
        // bytes must stay flat (scripts/soak.sh).
        .executableTarget(
            name: "Soak",
            dependencies: [
                .product(name: "ScoutIndex", package: "Scout"),
                .product(name: "ScoutEngine", package: "Scout"),
                .product(name: "ScoutCatalog", package: "Scout"),
                .product(name: "ScoutCore", package: "Scout"),
                .product(name: "ScoutJSON", package: "Scout"),
            ]
        ),
        // Filtered and text+geo queries on the sample catalogue, unfiltered as the baseline.
        .executableTarget(
            name: "CatalogBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ScoutEngine", package: "Scout"),
                .product(name: "ScoutCatalog", package: "Scout"),
                .product(name: "ScoutCatalogJSON", package: "Scout"),
                .product(name: "ScoutCore", package: "Scout"),
                .product(name: "ScoutJSON", package: "Scout"),
                .product(name: "ScoutTime", package: "Scout"),
            ],
            path: "Benchmarks/CatalogBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
