import Foundation
import ScoutTestSupport
import Testing

/// `scout snapshot`, then `serve --snapshot` and `rank --snapshot`, end to end through real
/// processes: byte for byte the answers of the same catalogue loaded from JSON Lines.
@Suite(.serialized) struct SnapshotCommandTests {
    static let directory: String = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("scout-snapshot-cli-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    static var input: String { CommandLineTests.requests.joined(separator: "\n") + "\n" }

    @Test func serveAndRankFromASnapshotAnswerAsFromJSONLines() throws {
        let path = Self.directory + "/catalogue.snap"
        let written = try CommandLineTests.run(["snapshot"] + CommandLineTests.catalogArguments + ["--out", path])
        #expect(written.status == 0, "\(written.err)")
        #expect(written.err.contains("wrote \(path)"), "\(written.err)")
        let fromLines = try CommandLineTests.run(["serve"] + CommandLineTests.catalogArguments, stdin: Self.input)
        #expect(fromLines.status == 0)
        let fromSnapshot = try CommandLineTests.run(["serve", "--data", Repository.data, "--snapshot", path], stdin: Self.input)
        #expect(fromSnapshot.status == 0, "\(fromSnapshot.err)")
        #expect(fromSnapshot.err.contains("snapshot \(path):"), "\(fromSnapshot.err)")
        #expect(fromSnapshot.out == fromLines.out)
        for threads in TestScale.isFull ? ["1", "3"] : ["3"] {
            let rank = try CommandLineTests.run(["rank", "--quiet", "--threads", threads, "--data", Repository.data, "--snapshot", path],
                                                stdin: Self.input)
            #expect(rank.status == 0, "\(rank.err)")
            #expect(rank.out == fromLines.out, "threads \(threads)")
        }
    }

    @Test func loadAddsRecordsOnTopOfASnapshot() throws {
        // Gyms in the snapshot, dogs from JSON Lines on top: the same answers as both from lines.
        let gyms = Self.directory + "/gyms.snap"
        let written = try CommandLineTests.run(["snapshot", "--data", Repository.data, "--load", Repository.data + "/sample/gyms.jsonl",
                                                "--out", gyms])
        #expect(written.status == 0, "\(written.err)")
        let fromLines = try CommandLineTests.run(["serve"] + CommandLineTests.catalogArguments, stdin: Self.input)
        let mixed = try CommandLineTests.run(["serve", "--data", Repository.data, "--snapshot", gyms, "--load", CatalogServeTests.dogs.path],
                                             stdin: Self.input)
        #expect(mixed.status == 0, "\(mixed.err)")
        #expect(mixed.out == fromLines.out)
    }

    @Test func aSnapshotIsRefusedInTheOtherPrivacyModeOrWhenDamaged() throws {
        let path = Self.directory + "/approximate.snap"
        let written = try CommandLineTests.run(["snapshot", "--load", CatalogServeTests.dogs.path, "--out", path])
        #expect(written.status == 0, "\(written.err)")
        let exact = try CommandLineTests.run(["serve", "--snapshot", path, "--exact-dog-locations"], stdin: #"{"op":"ping"}"# + "\n")
        #expect(exact.status == 1 && exact.out.isEmpty)
        #expect(exact.err.contains("approximate") && exact.err.contains("--exact-dog-locations"), "\(exact.err)")

        let bytes = try #require(FileManager.default.contents(atPath: path))
        let truncated = Self.directory + "/truncated.snap"
        #expect(FileManager.default.createFile(atPath: truncated, contents: bytes.prefix(bytes.count / 2)))
        let cut = try CommandLineTests.run(["rank", "--snapshot", truncated, "--quiet"])
        #expect(cut.status == 1 && cut.out.isEmpty)
        #expect(cut.err.contains("truncated"), "\(cut.err)")

        let foreign = try CommandLineTests.run(["rank", "--snapshot", CatalogServeTests.dogs.path, "--quiet"])
        #expect(foreign.status == 1 && foreign.err.contains("not a Scout snapshot"), "\(foreign.err)")
    }
}
