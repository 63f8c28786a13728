// swift-tools-version: 6.1
// Programs that use Scout the way a Swift backend does, from outside the Scout package:
//   library-tour        the README's "Using the library" section; depends on `Scout` and imports nothing else
//   dog-park-service    a Hummingbird 2 HTTP service that embeds Scout (dogs near a place,
//                       this-or-that for a pet, gyms to visit, votes), with Prometheus metrics
//   scout-in-process    Scout as a library in the peers' spatial workload (Benchmarks/peers/spatial.py):
//                       the GEOS C program's queries through `import Scout`, timed in the process
// `bash scripts/examples_test.sh` (part of the test command) builds them and exercises them.
import PackageDescription

let package = Package(
    name: "ScoutService",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "library-tour", targets: ["LibraryTour"]),
        .executable(name: "dog-park-service", targets: ["DogParkService"]),
        .executable(name: "scout-in-process", targets: ["ScoutInProcess"]),
    ],
    dependencies: [
        .package(name: "Scout", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    ],
    targets: [
        .executableTarget(name: "LibraryTour", dependencies: [.product(name: "Scout", package: "Scout")]),
        .executableTarget(name: "ScoutInProcess", dependencies: [.product(name: "Scout", package: "Scout")]),
        .executableTarget(name: "DogParkService", dependencies: [
            .product(name: "Scout", package: "Scout"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
        ]),
    ]
)
