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
                .product(name: "ScoutInternals", package: "Scout"),
            ]
        ),
        // Mean per query and build time, Scout against GEOS, alternating rounds.
        .executableTarget(
            name: "MeanPerQuery",
            dependencies: [
                "BenchSupport",
                .product(name: "ScoutInternals", package: "Scout"),
            ]
        ),
        .executableTarget(
            name: "SpatialBenchmarks",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ScoutInternals", package: "Scout"),
            ],
            path: "Benchmarks/SpatialBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // (pet, activity) scores per second through the recommender, library and worker.
        .executableTarget(
            name: "RecommenderThroughput",
            dependencies: [
                .product(name: "ScoutInternals", package: "Scout"),
            ]
        ),
        // Tens of millions of single-record upserts over a fixed set of ids: RSS and index
        // bytes must stay flat (scripts/soak.sh).
        // Filtered nearest queries between live writes at up to a million dogs
        // (scripts/bench-live-filters.sh).
        .executableTarget(
            name: "LiveFilters",
            dependencies: [
                .product(name: "ScoutInternals", package: "Scout"),
            ]
        ),
        .executableTarget(
            name: "Soak",
            dependencies: [
                .product(name: "ScoutInternals", package: "Scout"),
            ]
        ),
        // Filtered and text+geo queries on the sample catalogue, unfiltered as the baseline.
        .executableTarget(
            name: "CatalogBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ScoutInternals", package: "Scout"),
            ],
            path: "Benchmarks/CatalogBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Sentence queries of the labelled set (Benchmarks/search-quality) over the sample
        // articles and 10,000 animals, most words against strict AND, and the text index's build
        // with base forms against without, in the same run.
        .executableTarget(
            name: "TextBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ScoutInternals", package: "Scout"),
            ],
            path: "Benchmarks/TextBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The pet tracker at scale: a pet's last 20 care entries among 1,000,000, and this or that
        // by a stored pet's id against the same request inline, in the same run.
        .executableTarget(
            name: "PetBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ScoutInternals", package: "Scout"),
            ],
            path: "Benchmarks/PetBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
