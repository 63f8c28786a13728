// Decimal numbers read from bytes: the common short forms exactly and without allocating,
// everything else by the standard library's own parser.

/// Reads a number written in decimal, as `Double(String)` does, faster for the short forms
/// files and requests carry (`-33.8688`, `151.20929`, `12`, `1.5e3`).
///
/// A text of at most 19 significant digits whose value is a whole number of at most 2^53
/// times a power of ten between 10^-22 and 10^22 is worked out as one correctly rounded
/// multiplication or division of two exactly representable doubles (Clinger's fast path),
/// so the result is the correctly rounded value, the same as `Double(String)`'s. Every other
/// text (more digits, larger exponents, `+1`, `.5`, `1.`, `inf`, `nan`, hexadecimal, blanks)
/// goes to `Double(String)` itself, so what is accepted and what it means never differ.
package enum DecimalText {
    /// Powers of ten that doubles hold exactly.
    private static let powers: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                           1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

    /// The number `bytes` spell, or `nil` when `Double(String)` would refuse them.
    package static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if let fast = fastPath(bytes) { return fast }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// The number a string spells, or `nil` when `Double(String)` would refuse it.
    package static func double(_ text: some StringProtocol) -> Double? {
        if let fast = text.utf8.withContiguousStorageIfAvailable({ fastPath($0) }) {
            return fast ?? Double(String(text))
        }
        return Double(String(text))
    }

    /// The value of `-?digits(.digits)?([eE][+-]?digits)?` when it is exact in one operation;
    /// `nil` for anything else (the caller then asks `Double(String)`).
    @inline(__always)
    package static func fastPath(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        let n = b.count
        var i = 0
        let negative = n > 0 && b[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        var mantissa: UInt64 = 0
        var significant = 0          // digits counted from the first non-zero one
        var exponent = 0             // the power of ten the mantissa is scaled by
        let integerStart = i
        while i < n, b[i] &- 0x30 < 10 {
            let d = UInt64(b[i] &- 0x30)
            if significant > 0 || d != 0 { significant += 1; mantissa = mantissa &* 10 &+ d }
            i += 1
        }
        guard i > integerStart else { return nil }
        if i < n, b[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < n, b[i] &- 0x30 < 10 {
                let d = UInt64(b[i] &- 0x30)
                if significant > 0 || d != 0 { significant += 1; mantissa = mantissa &* 10 &+ d }
                exponent -= 1
                i += 1
            }
            guard i > fractionStart else { return nil }
        }
        guard significant <= 19 else { return nil }
        if i < n, b[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var negativeExponent = false
            if i < n, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { negativeExponent = b[i] == UInt8(ascii: "-"); i += 1 }
            let digitsStart = i
            var e = 0
            while i < n, b[i] &- 0x30 < 10, e < 100_000 { e = e * 10 + Int(b[i] &- 0x30); i += 1 }
            guard i > digitsStart, i == n else { return nil }
            exponent += negativeExponent ? -e : e
        }
        guard i == n else { return nil }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        guard mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        let value = exponent < 0 ? Double(mantissa) / powers[-exponent] : Double(mantissa) * powers[exponent]
        return negative ? -value : value
    }
}
