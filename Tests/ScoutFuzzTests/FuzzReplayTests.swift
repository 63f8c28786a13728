import Foundation
@testable import ScoutFuzzProperties
import ScoutJSON
import ScoutTestSupport
import Testing

/// The short form of fuzzing in the test command: every committed seed (`Fuzz/Corpus/<Target>/`)
/// and every reproducer of a problem found so far (`Fuzz/Regressions/<Target>/`) goes through
/// the check its libFuzzer target runs (`Fuzz/Properties`), in this build, without libFuzzer
/// or sanitizers. `scripts/fuzz.sh` builds the targets with them and fuzzes (docs/fuzzing.md).
@Suite struct FuzzReplayTests {
    /// The fuzz targets, each with the check it runs on one input.
    static let targets: [(name: String, check: @Sendable ([UInt8]) throws(PropertyViolation) -> Void)] = [
        ("FuzzJSON", { bytes throws(PropertyViolation) in try FuzzProperties.jsonRoundTrip(bytes) }),
        ("FuzzRequest", { bytes throws(PropertyViolation) in try FuzzProperties.workerRequests(bytes) }),
        ("FuzzGeometry", { bytes throws(PropertyViolation) in try FuzzProperties.geometryReaders(bytes) }),
        ("FuzzTime", { bytes throws(PropertyViolation) in try FuzzProperties.timeReaders(bytes) }),
    ]

    /// The committed inputs of `target` under `Fuzz/<folder>/`, by path.
    static func inputs(_ folder: String, _ target: String) throws -> [(path: String, bytes: [UInt8])] {
        let dir = Repository.root + "/Fuzz/\(folder)/\(target)"
        guard FileManager.default.fileExists(atPath: dir) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: dir).sorted().map { name in
            let path = "Fuzz/\(folder)/\(target)/\(name)"
            return (path, Array(try Data(contentsOf: URL(fileURLWithPath: Repository.root + "/" + path))))
        }
    }

    @Test(arguments: 0..<targets.count)
    func everySeedAndRegressionHoldsItsTargetsProperty(target: Int) throws {
        Repository.ensureSampleDogs()
        let (name, check) = Self.targets[target]
        let regressions = try Self.inputs("Regressions", name), seeds = try Self.inputs("Corpus", name)
        // Every target has seeds: an empty folder would make this test pass without checking anything.
        #expect(seeds.count >= 10, "\(name): \(seeds.count) seeds in Fuzz/Corpus/\(name)")
        for input in regressions + seeds {
            do throws(PropertyViolation) {
                try check(input.bytes)
            } catch {
                Issue.record("\(input.path): \(error.description)")
            }
        }
    }

    /// The checks can fail: an input that breaks each kind of property is caught.
    @Test func theChecksCatchABrokenProperty() throws {
        // An ok response whose id is not the request's, and one that is not one line.
        #expect(throws: PropertyViolation.self) {
            try FuzzProperties.checkResponse(Array(#"{"ok":true,"id":2,"result":{}}"#.utf8), sentID: .number("1"))
        }
        #expect(throws: PropertyViolation.self) {
            try FuzzProperties.checkResponse(Array("{\"ok\":false,\"id\":1,\n\"error\":{}}".utf8), sentID: .number("1"))
        }
        #expect(throws: PropertyViolation.self) {
            try FuzzProperties.checkResponse(Array(#"{"ok":false,"id":1,"error":{"code":"x"}}"#.utf8), sentID: .number("1"))
        }
        try FuzzProperties.checkResponse(Array(#"{"ok":true,"id":1,"result":[]}"#.utf8), sentID: .number("1"))
        // A region built in a CRS that is a bare name is a guess by name.
        #expect(throws: PropertyViolation.self) { try FuzzProperties.checkCRSWasNotGuessed("Irish Grid") }
        try FuzzProperties.checkCRSWasNotGuessed("EPSG:2157")
    }
}
