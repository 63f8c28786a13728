import ScoutCatalog
import ScoutCore
import ScoutJSON

extension SpeciesNames {
    /// The species a record names at `key`: a known name in either language becomes its
    /// species ("kot" → `cat`), anything else must be a species word.
    public func read(_ f: FieldReader, _ key: String) throws(ScoutError) -> String {
        try species(try f.string(key, maxBytes: 64), path: f.at(key))
    }

    /// Reads a species word (lower-case a-z and `_`, 1–32 bytes) at `key`.
    public static func word(_ f: FieldReader, _ key: String) throws(ScoutError) -> String {
        let s = try f.string(key, maxBytes: 64)
        return try word(s, path: f.at(key))
    }
}
