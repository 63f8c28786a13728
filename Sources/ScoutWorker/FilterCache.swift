import ScoutCatalog
import ScoutJSON
import ScoutTime

/// One thread's filters already parsed: the compiled filter and the breeds it named by
/// another name, by kind, day and the filter's JSON. At most ``capacity`` filters of at
/// most ``RecordFilter.maximumCachedBytes`` of JSON each; a full cache starts over.
final class FilterCache: @unchecked Sendable {
    // @unchecked: one thread's own (``ThreadReplicas``).
    var entries: [Key: Value] = [:]

    /// What a cached filter is found by: its kind, the day ages are computed on, and its
    /// JSON as written (compared as bytes: no date or string is formatted per request).
    struct Key: Hashable {
        let kind: String
        let today: LocalDate
        let json: [UInt8]

        /// The JSON hashed as one run of bytes (an array of bytes hashes them one by one).
        func hash(into h: inout Hasher) {
            h.combine(kind)
            h.combine(today)
            json.withUnsafeBytes { h.combine(bytes: $0) }
        }
    }

    /// The filters last found, newest last, with the JSON they were given as: a stream of
    /// requests repeating a few filters finds them here by comparing the request's parsed
    /// JSON, without writing and hashing a ``Key`` (~0.7 µs a request).
    private var recent: [(json: JSONValue, kind: String, today: LocalDate, value: Value)] = []

    /// A parsed filter with the breeds it named by another name.
    typealias Value = (filter: RecordFilter, resolved: [(field: String, given: String, breed: String)])

    /// Most filters kept per thread.
    static let capacity = 256
    /// Most filters compared by their JSON before the table is looked up.
    static let recentCapacity = 4

    /// The filter of this JSON, kind and day if it is among the last found.
    func recentlyFound(_ json: JSONValue, kind: String, today: LocalDate) -> Value? {
        for r in recent.reversed() where r.today == today && r.kind == kind && FilterCache.identical(r.json, json) { return r.value }
        return nil
    }

    /// Notes a filter found (in the table or parsed), for ``recentlyFound(_:kind:today:)``.
    func found(_ json: JSONValue, kind: String, today: LocalDate, _ value: Value) {
        if recent.count >= FilterCache.recentCapacity { recent.removeFirst() }
        recent.append((json, kind, today, value))
    }

    /// True when two JSON values are written alike: numbers by their text, strings by
    /// their bytes (`JSONValue`'s `==` takes `5` for `5.0` and compares strings as Unicode
    /// does, and a filter may read either differently).
    static func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)), let (.string(x), .string(y)): return x.utf8.elementsEqual(y.utf8)
        case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0.utf8.elementsEqual($1.0.utf8) && identical($0.1, $1.1) }
        default: return false
        }
    }

    /// The key of a filter (`nil` for one too long to keep).
    static func key(_ filter: JSONValue, kind: String, today: LocalDate) -> Key? {
        var w = JSONWriter()
        w.value(filter)
        guard w.bytes.count <= RecordFilter.maximumCachedBytes else { return nil }
        return Key(kind: kind, today: today, json: w.bytes)
    }

    /// Keeps a parsed filter.
    func keep(_ key: Key, _ value: Value) {
        if entries.count >= FilterCache.capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = value
    }
}
