import PropertyBased
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
