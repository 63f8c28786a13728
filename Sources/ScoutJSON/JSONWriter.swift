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

    /// Runs `body` on room for `capacity` more bytes at the end of the buffer (growing it
    /// geometrically); `body` returns how many it wrote. Every value goes in with one call.
    @inline(__always) private mutating func put(_ capacity: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        bytes.append(addingCapacity: capacity) { span in
            span.withUnsafeMutableBufferPointer { room, written in written += body(room.baseAddress!) }
        }
    }

    /// Writes the separating comma when one is due, then `body`'s bytes (at most
    /// `capacity`), in one step; `commaAfter` is whether the next value needs a comma.
    @inline(__always) private mutating func item(_ capacity: Int, commaAfter: Bool, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let comma = needsComma
        needsComma = commaAfter
        put(capacity + 1) { p in
            if comma { p[0] = 0x2C; return 1 + body(p + 1) }
            return body(p)
        }
    }

    @inline(__always) private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// `{`
    public mutating func objectStart() { item(1, commaAfter: false) { p in p[0] = 0x7B; return 1 } }
    /// `}`
    public mutating func objectEnd() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    /// `[`
    public mutating func arrayStart() { item(1, commaAfter: false) { p in p[0] = 0x5B; return 1 } }
    /// `]`
    public mutating func arrayEnd() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// A member name; the value follows.
    public mutating func key(_ k: String) {
        if plain(k, colon: true, commaAfter: false) { return }
        separate()
        needsComma = false
        escaped(k)
        bytes.append(UInt8(ascii: ":"))
    }

    /// A string value.
    public mutating func string(_ s: String) {
        if plain(s, colon: false, commaAfter: true) { return }
        separate()
        needsComma = true
        escaped(s)
    }

    /// Writes `s` quoted (a `:` after when `colon`) as the next item in one step when it needs
    /// no escape; `false`, having written nothing, otherwise.
    private mutating func plain(_ s: String, colon: Bool, commaAfter: Bool) -> Bool {
        let done: Bool? = s.utf8.withContiguousStorageIfAvailable { u in
            let count = u.count
            if let source = u.baseAddress, Self.needsEscape(source, count) { return false }
            item(count + 3, commaAfter: commaAfter) { p in
                p[0] = 0x22
                if let source = u.baseAddress {
                    if count <= 64 {
                        // Whole words, then the last bytes one by one.
                        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(p + 1)
                        var i = 0
                        while i + 8 <= count {
                            to.storeBytes(of: from.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
                            i += 8
                        }
                        while i < count { p[1 + i] = source[i]; i += 1 }
                    } else {
                        (p + 1).update(from: source, count: count)
                    }
                }
                var n = count + 1
                p[n] = 0x22; n += 1
                if colon { p[n] = 0x3A; n += 1 }
                return n
            }
            return true
        }
        return done == true
    }

    /// Whether any of the `count` bytes at `bytes` must be escaped in a JSON string: a
    /// control character, `"` or `\`. Eight bytes at a time: a byte below 0x20, or one that
    /// is 0 after an exclusive or with `"` or `\`, sets its high bit in the tests below
    /// (bytes of 0x80 and up never do, as their own high bit is masked out).
    @inline(__always) private static func needsEscape(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let raw = UnsafeRawPointer(bytes)
        var i = 0
        while i + 8 <= count {
            if hasEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return true }
            i += 8
        }
        guard i < count else { return false }
        // The last bytes in one word, the rest of it filled with a plain `a`.
        var x = 0x61 &* ones
        for j in 0..<(count - i) { x = x & ~(0xFF << UInt64(8 * j)) | UInt64(bytes[i + j]) << UInt64(8 * j) }
        return hasEscape(x)
    }

    /// Whether a byte of `x` is below 0x20, `"` or `\`.
    @inline(__always) private static func hasEscape(_ x: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quote = x ^ (0x22 &* ones), backslash = x ^ (0x5C &* ones)
        return (((x &- 0x20 &* ones) & ~x) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs != 0
    }

    /// `true` / `false`.
    public mutating func bool(_ b: Bool) {
        let word: StaticString = b ? "true" : "false"
        item(word.utf8CodeUnitCount, commaAfter: true) { p in
            p.update(from: word.utf8Start, count: word.utf8CodeUnitCount)
            return word.utf8CodeUnitCount
        }
    }

    /// `null`.
    public mutating func null() {
        item(4, commaAfter: true) { p in
            p[0] = 0x6E; p[1] = 0x75; p[2] = 0x6C; p[3] = 0x6C
            return 4
        }
    }

    /// An integer.
    public mutating func int(_ v: Int) {
        item(21, commaAfter: true) { p in Self.signed(v < 0, p) { Self.digits(UInt64(v.magnitude), $0) } }
    }

    /// Writes `-` when `negative`, then what `body` writes after it; returns how many bytes.
    @inline(__always) private static func signed(_ negative: Bool, _ p: UnsafeMutablePointer<UInt8>,
                                                 _ body: (UnsafeMutablePointer<UInt8>) -> Int) -> Int {
        guard negative else { return body(p) }
        p[0] = UInt8(ascii: "-")
        return 1 + body(p + 1)
    }

    /// Writes `v`'s decimal digits at `p`; returns how many.
    @inline(__always) private static func digits(_ v: UInt64, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 1, m = v
        while m >= 10 { m /= 10; count += 1 }
        var i = count, r = v
        repeat { i -= 1; p[i] = UInt8(truncatingIfNeeded: r % 10) &+ 0x30; r /= 10 } while i > 0
        return count
    }

    /// Writes `whole`, and `.` and the `places` digits of `fraction` less its trailing zeros
    /// when `fraction` is not 0; returns how many bytes.
    @inline(__always) private static func decimal(_ whole: UInt64, _ fraction: UInt64, places: Int,
                                                  _ p: UnsafeMutablePointer<UInt8>) -> Int {
        var n = digits(whole, p)
        guard fraction != 0 else { return n }
        var f = fraction, places = places
        while f % 10 == 0 { f /= 10; places -= 1 }
        p[n] = UInt8(ascii: "."); n += 1
        var i = n + places
        n = i
        repeat { i -= 1; p[i] = UInt8(truncatingIfNeeded: f % 10) &+ 0x30; f /= 10 } while i > n - places
        return n
    }

    /// A finite number in its shortest round-trip form, as `Double.description` writes it
    /// (`null` for NaN or infinity, which Scout never produces on purpose).
    ///
    /// A number from 0.0001 to 10⁶ whose nine-decimal rounding reads back as itself (every
    /// coordinate given with up to nine decimals) is written from that rounding: the doubles
    /// there lie closer together than 10⁻⁹, so no other decimal of up to nine places reads
    /// back as the same number, and the shortest form is that one less its trailing zeros.
    public mutating func number(_ v: Double) {
        guard v.isFinite else { null(); return }
        if abs(v) < 1e15, Double(Int64(v)) == v { int(Int(v)); return }
        let a = abs(v)
        if a >= 1e-4 && a < 1e6 {
            let units = UInt64(a * 1e9 + 0.5)
            if Double(units) / 1e9 == a {
                item(19, commaAfter: true) { p in
                    Self.signed(v < 0, p) { Self.decimal(units / 1_000_000_000, units % 1_000_000_000, places: 9, $0) }
                }
                return
            }
        }
        var text = v.description
        text.withUTF8 { u in
            item(u.count, commaAfter: true) { p in
                p.update(from: u.baseAddress!, count: u.count)
                return u.count
            }
        }
    }

    /// A number rounded to `decimals` places (0…9), without trailing zeros.
    public mutating func number(_ v: Double, decimals: Int) {
        guard v.isFinite, abs(v) < 1e15 else { number(v); return }
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (v * Double(scale)).rounded()
        guard abs(scaled) < 1e19 else { number(v); return }
        let units = UInt64(abs(scaled))
        let negative = scaled < 0 && units != 0
        item(31, commaAfter: true) { p in
            Self.signed(negative, p) { Self.decimal(units / scale, units % scale, places: decimals, $0) }
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

    /// `s` quoted with what RFC 8259 requires escaped (``plain(_:colon:commaAfter:)`` takes
    /// every string that needs no escape).
    private mutating func escaped(_ s: String) {
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
