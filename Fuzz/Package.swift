// swift-tools-version: 6.1
// Scout's libFuzzer targets, kept apart (like Benchmarks/) so that `swift test` in the root
// never builds them. Build and run: `bash scripts/fuzz.sh [SECONDS]` (docs/fuzzing.md).
//
// Each executable is one fuzz target: a `LLVMFuzzerTestOneInput` entry point over one of the
// root package's `FuzzProperties` checks, and a `<Target>_main` that hands over to libFuzzer's
// driver (`LLVMFuzzerRunDriver`): SwiftPM links an executable with
// `--defsym main=<Target>_main`, so libFuzzer's own `main` cannot be used.
// The package only links with `-Xswiftc -sanitize=fuzzer,address` (scripts/fuzz.sh passes it).
import PackageDescription

let fuzzFlags: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
// What each target checks lives in the root package (Fuzz/Properties), so that the root's
// tests replay every committed seed and regression through the same checks without libFuzzer.
let properties: Target.Dependency = .product(name: "ScoutFuzzProperties", package: "Scout")

let package = Package(
    name: "ScoutFuzz",
    dependencies: [
        .package(name: "Scout", path: ".."),
    ],
    targets: [
        // The declaration of libFuzzer's driver entry point, and the Swift call into it.
        .systemLibrary(name: "CFuzzDriver"),
        .target(name: "FuzzDriver", dependencies: ["CFuzzDriver"]),
        // JSONReader.parse, then a JSONWriter round trip must re-parse to an equal value.
        .executableTarget(
            name: "FuzzJSON",
            dependencies: ["FuzzDriver", properties],
            swiftSettings: fuzzFlags
        ),
        // Every line through Worker.respond(to:): one line of JSON with "ok", never a crash.
        .executableTarget(
            name: "FuzzRequest",
            dependencies: ["FuzzDriver", properties],
            swiftSettings: fuzzFlags
        ),
        // GeoJSON polygons and WKT into Region (GEOS, PROJ), LineStrings into Corridor.
        .executableTarget(
            name: "FuzzGeometry",
            dependencies: ["FuzzDriver", properties],
            swiftSettings: fuzzFlags
        ),
        // OpeningHours, Instant (RFC 3339), LocalDate and Zone parsing.
        .executableTarget(
            name: "FuzzTime",
            dependencies: ["FuzzDriver", properties],
            swiftSettings: fuzzFlags
        ),
        // Not a fuzz target: readers and a writer on one engine at once, for ThreadSanitizer
        // (scripts/sanitize.sh tsan builds it with --sanitize=thread).
        .executableTarget(
            name: "StressEngine",
            dependencies: [properties, .product(name: "ScoutInternals", package: "Scout")]
        ),
    ]
)
