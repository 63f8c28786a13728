import ScoutCore
import ScoutJSON
import ScoutTestSupport
import Testing

/// The reader refuses what RFC 8259 leaves open: repeated keys and bytes that are not UTF-8.
@Suite struct StrictJSONTests {
    @Test(arguments: [
        #"{"a":1,"a":2}"#,
        #"{"a":1,"b":{"c":1,"c":1}}"#,
        "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k17\":0}",   // a large object (set path)
        #"{"é":1,"\u00e9":2}"#,                                                               // same key, one escaped
    ])
    func repeatedKeysAreRefusedWithTheirName(_ text: String) {
        do {
            _ = try JSONReader.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.hasPrefix("duplicate key \""), "\(error)")
        }
    }

    @Test func distinctKeysInLargeObjectsStillParse() throws {
        let text = "{" + (0..<500).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        #expect(try JSONReader.parse(text).members?.count == 500)
    }

    /// Oracle: Swift's own UTF-8 validation. Random byte strings inside a JSON string are
    /// accepted exactly when they are UTF-8 (and hold no quote, backslash or control byte).
    @Test func stringsAreAcceptedExactlyWhenTheyAreUTF8() {
        var rng = SplitMix64(seed: 99)
        var accepted = 0, refused = 0
        for _ in 0..<20_000 {
            let n = Int(rng.next() % 6) + 1
            var bytes: [UInt8] = []
            for _ in 0..<n {
                let r = rng.next()
                // Mostly non-ASCII lead and continuation bytes, some ASCII letters.
                bytes.append(r % 4 == 0 ? UInt8(0x61 + r % 26) : UInt8(0x80 + (r >> 8) % 0x80))
            }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            let line = Array("{\"s\":\"".utf8) + bytes + Array("\"}".utf8)
            do {
                let v = try JSONReader.parse(line)
                accepted += 1
                #expect(valid, "accepted \(bytes)")
                #expect(Array(v["s"]!.string!.utf8) == bytes)
            } catch {
                refused += 1
                #expect(!valid, "refused valid \(bytes): \(error)")
                #expect(error.message == "invalid UTF-8")
            }
        }
        #expect(accepted > 500 && refused > 500)
        #expect(JSONReader.invalidUTF8Offset(in: Array("abc\u{1F600}".utf8)[...]) == nil)
        #expect(JSONReader.invalidUTF8Offset(in: [0x61, 0xC3, 0x28][...]) == 1)
    }
}

/// "Did you mean" suggestions.
@Suite struct SuggestionTests {
    @Test func closeNamesAreSuggestedAndFarOnesAreNot() {
        let ops = ["ping", "stats", "load", "upsert", "remove", "search", "nearest"]
        #expect(Suggestions.closest(to: "serch", among: ops) == ["search"])
        #expect(Suggestions.closest(to: "neraest", among: ops) == ["nearest"])
        #expect(Suggestions.closest(to: "LIMT", among: ["limit", "kind"]) == ["limit"])
        #expect(Suggestions.closest(to: "gyms", among: ["dog", "gym", "shelter"]) == ["gym"])
        #expect(Suggestions.closest(to: "teleport", among: ops).isEmpty)
        #expect(Suggestions.hint(for: "xyzzy", among: ops) == "")
        #expect(Suggestions.hint(for: "sortby", among: ["sort", "limit"]) == " (did you mean \"sort\"?)")
    }
}
