/// Writes compact JSON into a byte buffer: the worker's response writer.
///
/// ```swift
/// var w = JSONWriter()
/// w.objectStart(); w.key("ok"); w.bool(true); w.objectEnd()
/// ```
/// Commas are inserted automatically. Strings are escaped per RFC 8259 (quotes,
/// backslashes and control characters; other Unicode passes through as UTF-8).
public struct JSONWriter {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    /// Creates an empty writer.
    public init() { bytes.reserveCapacity(1024) }

    /// Empties the buffer, keeping its capacity.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    @inline(__always) private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// `{`
    public mutating func objectStart() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    /// `}`
    public mutating func objectEnd() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    /// `[`
    public mutating func arrayStart() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    /// `]`
    public mutating func arrayEnd() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// A member name; the value follows.
    public mutating func key(_ k: String) {
        let comma = needsComma
        needsComma = false
        if plain(k, comma: comma, colon: true) { return }
        if comma { bytes.append(UInt8(ascii: ",")) }
        escaped(k)
        bytes.append(UInt8(ascii: ":"))
    }

    /// A string value.
    public mutating func string(_ s: String) {
        let comma = needsComma
        needsComma = true
        if plain(s, comma: comma, colon: false) { return }
        if comma { bytes.append(UInt8(ascii: ",")) }
        escaped(s)
    }

    /// Writes `,"s"` (the comma when `comma`, a `:` after when `colon`) in one append from a
    /// stack buffer when `s` is at most 256 bytes and needs no escape; `false`, having
    /// written nothing, otherwise.
    private mutating func plain(_ s: String, comma: Bool, colon: Bool) -> Bool {
        let done: Bool? = s.utf8.withContiguousStorageIfAvailable { u in
            guard u.count <= 256 else { return false }
            for c in u where c < 0x20 || c == 0x22 || c == 0x5C { return false }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: u.count + 4) { t in
                var n = 0
                if comma { t[0] = 0x2C; n = 1 }
                t[n] = 0x22; n += 1
                for c in u { t[n] = c; n += 1 }
                t[n] = 0x22; n += 1
                if colon { t[n] = 0x3A; n += 1 }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: t[..<n]))
            }
            return true
        }
        return done == true
    }

    /// `true` / `false`.
    public mutating func bool(_ b: Bool) {
        separate()
        let word: StaticString = b ? "true" : "false"
        bytes.append(contentsOf: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
        needsComma = true
    }

    /// `null`.
    public mutating func null() {
        separate()
        bytes.append(0x6E); bytes.append(0x75); bytes.append(0x6C); bytes.append(0x6C)
        needsComma = true
    }

    /// An integer.
    public mutating func int(_ v: Int) {
        let comma = needsComma
        needsComma = true
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { t in
            var n = 24, m = v.magnitude
            repeat { n -= 1; t[n] = UInt8(truncatingIfNeeded: m % 10) &+ 0x30; m /= 10 } while m > 0
            if v < 0 { n -= 1; t[n] = UInt8(ascii: "-") }
            if comma { n -= 1; t[n] = UInt8(ascii: ",") }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: t[n...]))
        }
    }

    /// A finite number in its shortest round-trip form (`null` for NaN or infinity, which
    /// Scout never produces on purpose).
    public mutating func number(_ v: Double) {
        guard v.isFinite else { null(); return }
        if v == v.rounded(), abs(v) < 1e15 { int(Int(v)); return }
        separate()
        bytes.append(contentsOf: v.description.utf8)
        needsComma = true
    }

    /// A number rounded to `decimals` places (0…9), without trailing zeros.
    public mutating func number(_ v: Double, decimals: Int) {
        guard v.isFinite, abs(v) < 1e15 else { number(v); return }
        var scale: UInt = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (v * Double(scale)).rounded()
        guard abs(scaled) < 1e19 else { number(v); return }
        let negative = scaled < 0
        let whole = UInt(abs(scaled))
        var frac = whole % scale, integer = whole / scale
        var digits = decimals
        while frac != 0 && frac % 10 == 0 { frac /= 10; digits -= 1 }
        let comma = needsComma
        needsComma = true
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { t in
            var n = 40
            if frac != 0 {
                for _ in 0..<digits { n -= 1; t[n] = UInt8(truncatingIfNeeded: frac % 10) &+ 0x30; frac /= 10 }
                n -= 1; t[n] = UInt8(ascii: ".")
            }
            repeat { n -= 1; t[n] = UInt8(truncatingIfNeeded: integer % 10) &+ 0x30; integer /= 10 } while integer > 0
            if negative && (whole != 0) { n -= 1; t[n] = UInt8(ascii: "-") }
            if comma { n -= 1; t[n] = UInt8(ascii: ",") }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: t[n...]))
        }
    }

    /// Any parsed value, written back compactly.
    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let t): separate(); bytes.append(contentsOf: t.utf8); needsComma = true
        case .string(let s): string(s)
        case .array(let a):
            arrayStart()
            for x in a { value(x) }
            arrayEnd()
        case .object(let m):
            objectStart()
            for (k, x) in m { key(k); value(x) }
            objectEnd()
        }
    }

    private mutating func escaped(_ s: String) {
        // Most strings need no escape: quote, bytes and quote in one reservation.
        let done: Bool? = s.utf8.withContiguousStorageIfAvailable { u in
            for c in u where c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { return false }
            bytes.reserveCapacity(bytes.count + u.count + 2)
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: u)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if done == true { return }
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { u in
            // Runs that need no escape (most strings whole) are copied at once, not a
            // byte at a time.
            var run = 0
            for (i, c) in u.enumerated() where c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
                if run < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[run..<i])) }
                run = i + 1
                switch c {
                case UInt8(ascii: "\""): bytes.append(0x5C); bytes.append(0x22)
                case UInt8(ascii: "\\"): bytes.append(0x5C); bytes.append(0x5C)
                case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    let digits = hex.utf8Start
                    bytes.append(0x5C); bytes.append(UInt8(ascii: "u")); bytes.append(0x30); bytes.append(0x30)
                    bytes.append(digits[Int(c >> 4)]); bytes.append(digits[Int(c & 15)])
                }
            }
            if run < u.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[run...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
