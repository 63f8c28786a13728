// swift-tools-version: 6.1
// Scout's libFuzzer targets, kept apart (like Benchmarks/) so that `swift test` in the root
// never builds them. Build and run: `bash scripts/fuzz.sh [SECONDS]` (docs/fuzzing.md).
//
// Each executable is one fuzz target: a `LLVMFuzzerTestOneInput` entry point, and a
// `<Target>_main` that hands over to libFuzzer's driver (`LLVMFuzzerRunDriver`): SwiftPM links
// an executable with `--defsym main=<Target>_main`, so libFuzzer's own `main` cannot be used.
// The package only links with `-Xswiftc -sanitize=fuzzer,address` (scripts/fuzz.sh passes it).
import PackageDescription

let fuzzFlags: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "ScoutFuzz",
    dependencies: [
        .package(name: "Scout", path: ".."),
    ],
    targets: [
        // The declaration of libFuzzer's driver entry point, and the Swift call into it.
        .systemLibrary(name: "CFuzzDriver"),
        .target(name: "FuzzDriver", dependencies: ["CFuzzDriver"]),
        // What several targets share: the repository's location, a small engine.
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "ScoutEngine", package: "Scout"),
                .product(name: "ScoutCatalog", package: "Scout"),
                .product(name: "ScoutRecommend", package: "Scout"),
                .product(name: "ScoutRecommendJSON", package: "Scout"),
                .product(name: "ScoutJSON", package: "Scout"),
                .product(name: "ScoutCore", package: "Scout"),
            ]
        ),
        // JSONReader.parse, then a JSONWriter round trip must re-parse to an equal value.
        .executableTarget(
            name: "FuzzJSON",
            dependencies: ["FuzzDriver", .product(name: "ScoutJSON", package: "Scout")],
            swiftSettings: fuzzFlags
        ),
        // Every line through Worker.respond(to:): one line of JSON with "ok", never a crash.
        .executableTarget(
            name: "FuzzRequest",
            dependencies: [
                "FuzzDriver", "FuzzSupport",
                .product(name: "ScoutWorker", package: "Scout"),
                .product(name: "ScoutEngine", package: "Scout"),
                .product(name: "ScoutJSON", package: "Scout"),
            ],
            swiftSettings: fuzzFlags
        ),
        // GeoJSON polygons and WKT into Region (GEOS, PROJ), LineStrings into Corridor.
        .executableTarget(
            name: "FuzzGeometry",
            dependencies: [
                "FuzzDriver",
                .product(name: "ScoutGeometry", package: "Scout"),
                .product(name: "ScoutJSON", package: "Scout"),
                .product(name: "ScoutCore", package: "Scout"),
            ],
            swiftSettings: fuzzFlags
        ),
        // OpeningHours, Instant (RFC 3339), LocalDate and Zone parsing.
        .executableTarget(
            name: "FuzzTime",
            dependencies: [
                "FuzzDriver",
                .product(name: "ScoutTime", package: "Scout"),
                .product(name: "ScoutCore", package: "Scout"),
            ],
            swiftSettings: fuzzFlags
        ),
        // Not a fuzz target: readers and a writer on one engine at once, for ThreadSanitizer
        // (scripts/sanitize.sh tsan builds it with --sanitize=thread).
        .executableTarget(
            name: "StressEngine",
            dependencies: [
                "FuzzSupport",
                .product(name: "ScoutWorker", package: "Scout"),
                .product(name: "ScoutJSON", package: "Scout"),
            ]
        ),
    ]
)
