import ScoutCatalog
import ScoutJSON
import ScoutTime

/// One thread's filters already parsed: the compiled filter and the breeds it named by
/// another name, by kind, day and the filter's JSON. At most ``capacity`` filters of at
/// most ``RecordFilter/maximumSignatureBytes`` of JSON each; a full cache starts over.
final class FilterCache: @unchecked Sendable {
    // @unchecked: one thread's own (``ThreadReplicas``).
    var entries: [Key: (filter: RecordFilter, resolved: [(field: String, given: String, breed: String)])] = [:]

    /// What a cached filter is found by: its kind, the day ages are computed on, and its
    /// JSON as written (compared as bytes: no date or string is formatted per request).
    struct Key: Hashable {
        let kind: String
        let today: LocalDate
        let json: [UInt8]
    }

    /// Most filters kept per thread.
    static let capacity = 256

    /// The key of a filter (`nil` for one too long to keep).
    static func key(_ filter: JSONValue, kind: String, today: LocalDate) -> Key? {
        var w = JSONWriter()
        w.value(filter)
        guard w.bytes.count <= RecordFilter.maximumSignatureBytes else { return nil }
        return Key(kind: kind, today: today, json: w.bytes)
    }

    /// Keeps a parsed filter.
    func keep(_ key: Key, _ value: (filter: RecordFilter, resolved: [(field: String, given: String, breed: String)])) {
        if entries.count >= FilterCache.capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = value
    }
}
