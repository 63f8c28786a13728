import PropertyBased
import ScoutCore
import ScoutJSON
import Testing

@Suite struct JSONReaderTests {
    @Test func parsesEveryKindOfValue() throws {
        let v = try JSONReader.parse(#" {"a": [1, -2.5e3, true, false, null], "b": {"c": "d\n\u00e9\ud83d\ude00"}} "#)
        #expect(v["a"] == .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null]))
        #expect(v["b"]?["c"] == .string("d\né😀"))
        #expect(v["a"]?.array?[1].double == -2500)
    }

    @Test func keepsNumberTextExactly() throws {
        let v = try JSONReader.parse(#"{"id": 12345678901234567890}"#)
        var w = JSONWriter()
        w.value(v)
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"id":12345678901234567890}"#)
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "{\"a\":}", "01", "1.", "-", "\"abc", "\"\\x\"", "tru", "nul",
        "{\"a\":1}x", "[\"\u{01}\"]", "\"\\ud800\"", "{a:1}", "1e", "[1 2]",
    ])
    func rejectsMalformedInput(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONReader.parse(text) }
    }

    @Test func rejectsDeepNestingWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONReader.parse(deep) }
        let ok = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(throws: Never.self) { try JSONReader.parse(ok) }
    }

    @Test func errorsCarryTheByteOffset() {
        do {
            _ = try JSONReader.parse("[1, 2, x]")
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 7)
        }
    }
}

@Suite struct JSONWriterTests {
    @Test func escapesStringsSoTheyParseBack() async {
        await propertyCheck(count: 300, input: Gen.unicodeScalar(in: Unicode.Scalar(0)!...Unicode.Scalar(0x2FFF)!).array(of: 0...40)) { scalars in
            var s = ""
            s.unicodeScalars.append(contentsOf: scalars)
            var w = JSONWriter()
            w.objectStart(); w.key(s); w.string(s); w.objectEnd()
            let back = try? JSONReader.parse(w.bytes)
            #expect(back == .object([(s, .string(s))]))
        }
    }

    /// Strings dense in characters that need escaping, between runs that do not (the writer
    /// copies those runs whole), at the start, the end and side by side.
    @Test func escapesDenseSpecialCharactersBetweenPlainRuns() async {
        let alphabet: [String] = ["\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7}", "a", "Zz", "ł", "😀", "/", " ", "\u{7F}"]
        await propertyCheck(count: 400, input: Gen.element(of: alphabet).array(of: 0...30)) { pieces in
            let s = pieces.compactMap { $0 }.joined()
            var w = JSONWriter()
            w.objectStart(); w.key(s); w.string(s); w.key("t"); w.bool(true); w.key("f"); w.bool(false); w.key("n"); w.null(); w.objectEnd()
            let back = try? JSONReader.parse(w.bytes)
            #expect(back == .object([(s, .string(s)), ("t", .bool(true)), ("f", .bool(false)), ("n", .null)]), "\(s.debugDescription)")
            // Control characters never reach the text raw.
            #expect(!w.bytes.contains { $0 < 0x20 })
        }
    }

    @Test func writesNumbersThatRoundTrip() async {
        await propertyCheck(count: 500, input: Gen.double(in: -1e9...1e9)) { x in
            var w = JSONWriter()
            w.number(x)
            #expect(Double(String(decoding: w.bytes, as: UTF8.self)) == x)
        }
    }

    /// `number(_:)` writes what `Double.description` writes (integers without `.0`), also where
    /// it takes its own path (0.0001…10⁶ with up to nine decimals): coordinates of 0 to 13
    /// decimals, any bit pattern, both sides of the path's bounds, negatives.
    @Test func writesTheShortestFormAsDescriptionDoes() {
        func expected(_ x: Double) -> String {
            guard x.isFinite else { return "null" }
            if x == x.rounded(), abs(x) < 1e15 { return String(Int(x)) }
            return x.description
        }
        func written(_ x: Double) -> String { var w = JSONWriter(); w.number(x); return String(decoding: w.bytes, as: UTF8.self) }
        var rng = SplitMix64(state: 2026_11_29)
        var powers: [UInt64] = [1]
        for _ in 0..<15 { powers.append(powers.last! * 10) }
        var values: [Double] = []
        for _ in 0..<60_000 {
            let places = Int(rng.next() % 14), magnitude = Int(rng.next() % 10)
            let x = Double(rng.next() % powers[min(15, places + magnitude)]) / Double(powers[places])
            values.append(rng.next() & 1 == 0 ? x : -x)
            values.append(Double(bitPattern: rng.next()))
            values.append((rng.unit() - 0.5) * 4e6)
            values.append((rng.unit() - 0.5) * 2e-3)
        }
        for bound in [1e-4, 1e6, 1e-5, 1e-3, 999_999.999_999_999, 999_999.999_999_999_9, 0.000_100_000_000_1, 180, 90.000_001] {
            values += [bound, bound.nextUp, bound.nextDown, -bound]
        }
        values += [0, -0.0, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e15, 1e15.nextDown]
        var mismatches: [String] = []
        for x in values where written(x) != expected(x) { mismatches.append("\(x.bitPattern): \(written(x)) for \(expected(x))") }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(values.count): \(mismatches.prefix(5))")
    }

    /// Strings of every length from 0 to 300 bytes (checked and copied eight bytes at a time,
    /// long ones at once), plain and with one character to escape at each place, as keys and
    /// values with commas, parse back whole.
    @Test func writesStringsOfEveryLength() throws {
        for length in 0...300 {
            let plain = String(repeating: "k", count: length / 2) + String(repeating: "ł", count: (length - length / 2) / 2)
            var variants = [plain]
            for (i, special) in ["\"", "\\", "\u{1F}", "\n"].enumerated() where length > 0 {
                for place in Set([0, length - 1, length / 2, (length * (3 + i)) / 8]) {
                    var bytes = Array(String(repeating: "k", count: length).utf8)
                    bytes[place] = special.utf8.first!
                    variants.append(String(decoding: bytes, as: UTF8.self))
                }
            }
            for s in variants {
                var w = JSONWriter()
                w.objectStart(); w.key(s); w.string(s); w.key("n"); w.number(51.494636); w.objectEnd()
                #expect(try JSONReader.parse(w.bytes) == .object([(s, .string(s)), ("n", .number("51.494636"))]), "\(s.debugDescription)")
                #expect(!w.bytes.contains { $0 < 0x20 })
            }
        }
    }

    @Test func roundsToDecimalsLikeTheRoundedValue() async {
        await propertyCheck(count: 500, input: Gen.double(in: 0...30_000_000)) { x in
            var w = JSONWriter()
            w.number(x, decimals: 3)
            let text = String(decoding: w.bytes, as: UTF8.self)
            #expect(Double(text) == (x * 1000).rounded() / 1000, "\(x) -> \(text)")
            #expect(!text.hasSuffix("0") || !text.contains("."))
        }
    }

    /// Negative values, every decimal count, and long or escaped strings in an array: the
    /// text parses back to what was written, with commas where they belong.
    @Test func writesSignedRoundedNumbersIntegersAndLongStrings() async throws {
        await propertyCheck(count: 500, input: Gen.double(in: -5_000_000...5_000_000)) { x in
            for decimals in 0...9 {
                var w = JSONWriter()
                w.arrayStart(); w.int(7); w.number(x, decimals: decimals); w.arrayEnd()
                let text = String(decoding: w.bytes, as: UTF8.self)
                var scale = 1.0
                for _ in 0..<decimals { scale *= 10 }
                let expected = (x * scale).rounded() / scale
                #expect((try? JSONReader.parse(w.bytes)) == .array([.number("7"), .number(String(text.dropFirst(3).dropLast()))]))
                #expect(Double(text.dropFirst(3).dropLast()) == expected, "\(x) to \(decimals) places -> \(text)")
                #expect(!text.contains("-0]") && !text.contains(",-0.") || expected < 0, "\(text)")
            }
        }
        var w = JSONWriter()
        let long = String(repeating: "ab\"c", count: 100), plain = String(repeating: "x", count: 300)
        w.arrayStart(); w.int(.min); w.int(.max); w.int(0); w.int(-7); w.string(long); w.string(plain); w.string(""); w.arrayEnd()
        #expect(try JSONReader.parse(w.bytes) == .array([.number("\(Int.min)"), .number("\(Int.max)"), .number("0"), .number("-7"),
                                                          .string(long), .string(plain), .string("")]))
    }

    @Test func separatesMembersWithCommas() {
        var w = JSONWriter()
        w.objectStart(); w.key("a"); w.arrayStart(); w.int(1); w.int(-20); w.null(); w.arrayEnd(); w.key("b"); w.bool(false); w.objectEnd()
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"a":[1,-20,null],"b":false}"#)
    }
}
