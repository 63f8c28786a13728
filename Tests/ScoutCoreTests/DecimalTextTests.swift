import Foundation
import ScoutCore
import Testing

/// Numbers read from bytes: the same value, to the bit, as `Double(String)` for every text,
/// and the fast path taken for the forms files carry.
@Suite struct DecimalTextTests {
    /// Both readers' answers, compared bit for bit (any NaN equals any NaN).
    func same(_ text: String) -> Bool {
        let expected = Double(text)
        let got = Array(text.utf8).withUnsafeBufferPointer { DecimalText.double($0) }
        guard let expected, let got else { return expected == nil && got == nil }
        return expected.isNaN ? got.isNaN : expected.bitPattern == got.bitPattern
    }

    /// Texts of every shape around the fast path's limits: coordinates at every precision,
    /// 1–25 digits, exponents from −30 to 30, leading zeros, signs, and what only the standard
    /// parser reads or refuses.
    @Test func everyTextReadsAsDoubleStringReadsIt() {
        var rng = SplitMix64(state: 20261129)
        var texts = ["0", "-0", "0.0", "-0.0", "00012", "1.50", "9007199254740992", "9007199254740993",
                     "9007199254740993e-5", "1e22", "1e23", "1e-22", "1e-23", "123456789012345678e-22",
                     "1234567890123456789", "12345678901234567890", "0.1", "0.3", "1.7976931348623157e308",
                     "4.9e-324", "2.2250738585072014e-308", "1e400", "-1e400", "0e99999", "1e1000000",
                     "+5", ".5", "5.", "-.5", "inf", "-inf", "nan", "NaN", "infinity", "0x1p3", " 1", "1 ",
                     "", "-", "+", ".", "e5", "1e", "1e+", "1e-", "1E5", "1e+05", "--1", "1..2", "1.2.3", "1,5",
                     "١٢", "1_000", "0000000000000000000000000001", "1.0000000000000000000001"]
        for _ in 0..<20_000 {
            let value = Double(bitPattern: rng.next())
            if value.isFinite { texts.append(value.description) }
            let coordinate = Double(Int64(bitPattern: rng.next()) % 180_000_000_000) / 1e9
            texts.append(String(format: "%.\(rng.next() % 18)f", coordinate))
            texts.append(String(format: "%.\(rng.next() % 20)e", coordinate))
            let digits = (0..<(1 + Int(rng.next() % 25))).map { _ in String(rng.next() % 10) }.joined()
            let point = Int(rng.next() % UInt64(digits.count + 1))
            var text = (rng.next() % 2 == 0 ? "-" : "") + String(digits.prefix(point))
            if point < digits.count { text += (point == 0 ? "0." : ".") + String(digits.dropFirst(point)) }
            if rng.next() % 3 == 0 { text += "e\(Int(rng.next() % 61) - 30)" }
            texts.append(text)
        }
        let wrong = texts.filter { !same($0) }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    /// The fast path reads coordinates as files write them (it is the reason the reader
    /// exists), and leaves what it cannot do exactly to the standard parser.
    @Test func theFastPathTakesCoordinatesAndLeavesTheRest() {
        func fast(_ text: String) -> Double? { Array(text.utf8).withUnsafeBufferPointer { DecimalText.fastPath($0) } }
        #expect(fast("53.349772") == 53.349772)
        #expect(fast("-2.734316") == -2.734316)
        #expect(fast("151.2093")?.bitPattern == Double("151.2093")?.bitPattern)
        #expect(fast("1.5e3") == 1500)
        #expect(fast("-0")?.sign == .minus)
        for text in ["1e23", "12345678901234567890", "9007199254740993", "+5", ".5", "5.", "inf", "0x1p3", " 1"] {
            #expect(fast(text) == nil, "\(text)")
        }
    }
}
