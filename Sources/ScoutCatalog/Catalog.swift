import Foundation
import ScoutCore
import ScoutJSON
import ScoutTime
import Synchronization

/// Time zones by identifier, created once each (Foundation time zones are costly to make).
public final class ZoneCache: Sendable {
    private let zones = Mutex<[String: Zone]>([:])

    /// Creates an empty cache.
    public init() {}

    /// The zone of an IANA identifier; `invalid_request` at `path` when unknown.
    public func zone(_ identifier: String, path: String) throws(ScoutError) -> Zone {
        if let z = zones.withLock({ $0[identifier] }) { return z }
        let z = try Zone(identifier: identifier, path: path)
        zones.withLock { $0[identifier] = z }
        return z
    }
}

/// The reference data records are read against: breeds, places and time zones.
///
/// ```swift
/// let catalog = try Catalog.load(dataDirectory: "data")
/// let galway = try catalog.places.resolve("Galway").place.point
/// ```
public final class Catalog: Sendable {
    /// The breed table (empty: every dog gets the mixed profile).
    public let breeds: BreedTable
    /// The gazetteer (empty: every place name is unknown).
    public let places: Gazetteer
    /// Time zones seen so far.
    public let zones = ZoneCache()

    /// Creates a catalogue over loaded tables.
    public init(breeds: BreedTable = .empty, places: Gazetteer = .empty) {
        self.breeds = breeds
        self.places = places
    }

    /// Loads `breeds.csv` and `places.tsv` from a data directory (see `data/README.md`).
    public static func load(dataDirectory dir: String) throws(ScoutError) -> Catalog {
        Catalog(breeds: try BreedTable.load(path: dir + "/breeds.csv"), places: try Gazetteer.load(path: dir + "/places.tsv"))
    }

    /// The kinds with typed records.
    public static let typedKinds: Set<String> = ["dog", "gym", "shelter"]

    /// Reads the typed record of a kind from its fields; `.other` for untyped kinds.
    /// Errors name the field under `path`.
    public func record(kind: String, fields: [(String, JSONValue)], path: String) throws(ScoutError) -> CatalogRecord {
        switch kind {
        case "dog": .dog(try Dog.read(fields, breeds: breeds, path: path))
        case "gym": .gym(try Gym.read(fields, zones: zones, path: path))
        case "shelter": .shelter(try Shelter.read(fields, path: path))
        default: .other
        }
    }

    /// Field weights of the searchable text of a kind, in the order of ``searchableText(_:)``.
    public static func textFieldWeights(kind: String) -> [Double] {
        switch kind {
        case "shelter": [3, 1, 2, 2, 1, 1]   // name, description, town, animal names, species, marks
        case "gym": [3, 1, 2]                // name, type, town
        case "dog": [3, 2, 1, 1]             // name, breed, town, about
        default: []
        }
    }

    /// The searchable text of a record, one string per field (see ``textFieldWeights(kind:)``).
    public static func searchableText(_ r: CatalogRecord, fields: [(String, JSONValue)]) -> [String] {
        func town() -> String { fields.first { $0.0 == "town" }?.1.string ?? "" }
        switch r {
        case .shelter(let s):
            return [s.name, s.description, s.town, s.animals.map(\.name).joined(separator: " "),
                    Set(s.animals.map { $0.species.replacingOccurrences(of: "_", with: " ") }).sorted().joined(separator: " "),
                    s.animals.map(\.marks).joined(separator: " ")]
        case .gym(let g): return [g.name, g.type.replacingOccurrences(of: "_", with: " "), g.town]
        case .dog(let d): return [d.name, d.breedName, town(), d.about]
        case .other: return []
        }
    }
}
