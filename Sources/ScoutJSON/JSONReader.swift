/// A small, strict JSON parser (RFC 8259) for request lines and data files.
///
/// ```swift
/// let v = try JSONReader.parse(Array(#"{"op":"ping"}"#.utf8))
/// ```
/// Nesting deeper than ``maximumDepth`` is rejected rather than risking the stack; a key
/// repeated in one object and bytes that are not UTF-8 are errors (RFC 8259 leaves both
/// to the parser: Scout refuses to guess which value a caller meant).
public struct JSONReader {
    /// Deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses one JSON text that must span the whole input (surrounding whitespace allowed).
    public static func parse(_ input: [UInt8]) throws(JSONParseError) -> JSONValue {
        var result: Result<JSONValue, JSONParseError> = .success(.null)
        input.withUnsafeBufferPointer { buf in
            var r = JSONReader(buf)
            do throws(JSONParseError) {
                r.skipSpace()
                let v = try r.value(depth: 0)
                r.skipSpace()
                if r.i != buf.count { throw r.fail("unexpected text after the JSON value") }
                result = .success(v)
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a JSON text given as a string.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// The offset of the first byte of `bytes` that does not start or continue well-formed
    /// UTF-8, or `nil` when all of it is UTF-8.
    public static func invalidUTF8Offset(in bytes: ArraySlice<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { buf -> Int? in
            var r = JSONReader(buf)
            while r.i < buf.count {
                if buf[r.i] < 0x80 { r.i += 1; continue }
                do throws(JSONParseError) { r.i += try r.utf8Length() } catch { return bytes.startIndex + r.i }
            }
            return nil
        }
    }

    /// A key as quoted in messages: at most 64 bytes, control characters and quotes dropped.
    public static func shown(_ key: String) -> String {
        String(String.UnicodeScalarView(key.unicodeScalars.filter { $0.value >= 0x20 && $0 != "\"" && $0 != "\\" }.prefix(64)))
    }

    private func fail(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: i) }

    private mutating func skipSpace() {
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
        }
    }

    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard i < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw fail("unexpected end of input") }
        let p = word.utf8Start
        for k in 0..<n where bytes[i + k] != p[k] { throw fail("invalid literal") }
        i += n
    }

    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits(_ r: inout JSONReader) -> Int {
            let s = r.i
            while r.i < r.bytes.count, r.bytes[r.i] >= 0x30, r.bytes[r.i] <= 0x39 { r.i += 1 }
            return r.i - s
        }
        guard i < bytes.count else { throw fail("invalid number") }
        if bytes[i] == UInt8(ascii: "0") { i += 1 } else if digits(&self) == 0 { throw fail("invalid number") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            if digits(&self) == 0 { throw fail("invalid number: digits expected after the point") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            if digits(&self) == 0 { throw fail("invalid number: digits expected in the exponent") }
        }
        if i - start > 64 { throw fail("number too long") }
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("unexpected end of input in a \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private mutating func string() throws(JSONParseError) -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw fail("control character in a string") }
            if c >= 0x80 { i += try utf8Length(); continue }
            i += 1
        }
        var out = Array(bytes[start..<i])
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 { throw fail("control character in a string") }
            if c >= 0x80 {
                let n = try utf8Length()
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<i + n]))
                i += n
                continue
            }
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            i += 1
            guard i < bytes.count else { break }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired surrogate in a \\u escape")
                    }
                    i += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw fail("unpaired surrogate in a \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw fail("unpaired surrogate in a \\u escape")
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
            default: throw fail("invalid escape")
            }
        }
        throw fail("unterminated string")
    }

    /// The length of the well-formed UTF-8 sequence starting at `i` (a non-ASCII byte):
    /// no stray continuation bytes, overlong forms, surrogates or scalars above U+10FFFF.
    private func utf8Length() throws(JSONParseError) -> Int {
        let c = bytes[i]
        let n: Int, low: UInt8, high: UInt8
        switch c {
        case 0xC2...0xDF: n = 2; low = 0x80; high = 0xBF
        case 0xE0: n = 3; low = 0xA0; high = 0xBF
        case 0xE1...0xEC, 0xEE...0xEF: n = 3; low = 0x80; high = 0xBF
        case 0xED: n = 3; low = 0x80; high = 0x9F
        case 0xF0: n = 4; low = 0x90; high = 0xBF
        case 0xF1...0xF3: n = 4; low = 0x80; high = 0xBF
        case 0xF4: n = 4; low = 0x80; high = 0x8F
        default: throw fail("invalid UTF-8")
        }
        guard i + n <= bytes.count else { throw fail("invalid UTF-8") }
        guard bytes[i + 1] >= low, bytes[i + 1] <= high else { throw fail("invalid UTF-8") }
        for k in 2..<max(2, n) where bytes[i + k] & 0xC0 != 0x80 { throw fail("invalid UTF-8") }
        return n
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONReader.maximumDepth else { throw fail("nesting deeper than \(JSONReader.maximumDepth)") }
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth))
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of input in an array") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw fail("expected , or ] in an array")
        }
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONReader.maximumDepth else { throw fail("nesting deeper than \(JSONReader.maximumDepth)") }
        i += 1
        var members: [(String, JSONValue)] = []
        var seen = Set<String>()
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
            let keyStart = i
            let key = try string()
            // Small objects (requests, points) scan; large ones (records) keep a set.
            let repeated: Bool
            if members.count < 16 {
                repeated = members.contains { $0.0 == key }
            } else {
                if seen.isEmpty { seen = Set(members.map(\.0)) }
                repeated = !seen.insert(key).inserted
            }
            if repeated {
                throw JSONParseError(message: "duplicate key \"\(JSONReader.shown(key))\"", offset: keyStart)
            }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected : after a member name") }
            i += 1
            skipSpace()
            members.append((key, try value(depth: depth)))
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of input in an object") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw fail("expected , or } in an object")
        }
    }
}
