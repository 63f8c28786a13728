import ScoutCatalog
import ScoutJSON
import ScoutTime

/// One thread's filters already parsed: the compiled filter and the breeds it named by
/// another name, by kind, day and the filter's JSON. At most ``capacity`` filters of at
/// most ``RecordFilter/maximumSignatureBytes`` of JSON each; a full cache starts over.
final class FilterCache: @unchecked Sendable {
    // @unchecked: one thread's own (``ThreadReplicas``).
    var entries: [String: (filter: RecordFilter, resolved: [(field: String, given: String, breed: String)])] = [:]

    /// Most filters kept per thread.
    static let capacity = 256

    /// The key of a filter (`nil` for one too long to keep).
    static func key(_ filter: JSONValue, kind: String, today: LocalDate) -> String? {
        var w = JSONWriter()
        w.value(filter)
        guard w.bytes.count <= RecordFilter.maximumSignatureBytes else { return nil }
        return "\(kind)|\(today)|" + String(decoding: w.bytes, as: UTF8.self)
    }

    /// Keeps a parsed filter.
    func keep(_ key: String, _ value: (filter: RecordFilter, resolved: [(field: String, given: String, breed: String)])) {
        if entries.count >= FilterCache.capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = value
    }
}
