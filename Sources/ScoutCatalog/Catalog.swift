import Foundation
import ScoutCore
import ScoutText
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

/// Whether records of a kind have a place.
public enum Placement: Sendable, Equatable {
    /// Every record has `lat` and `lon` (dogs, gyms, shelters, animals).
    case required
    /// No record has one (articles, programs, lovers): found by `get` and area-less
    /// `search`, never by a spatial query.
    case none
    /// Either (untyped kinds).
    case optional
}

/// The reference data records are read against: breeds (with their other names), places,
/// time zones, species names and synonyms.
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
    /// Species by their English and Polish names.
    public let species: SpeciesNames
    /// Words that mean the same, for the text index (species names included).
    public let synonyms: SynonymTable
    /// The languages text is searched in: stop words and base forms (``TextLanguage``).
    public let language: TextLanguage
    /// Time zones seen so far.
    public let zones = ZoneCache()

    /// Creates a catalogue over loaded tables; `synonyms` gains a group per species.
    public init(breeds: BreedTable = .empty, places: Gazetteer = .empty, species: SpeciesNames = .empty,
                synonyms: [[String]] = [], language: TextLanguage = .plain) {
        self.breeds = breeds
        self.language = language
        self.places = places
        self.species = species
        self.synonyms = SynonymTable(groups: species.synonymGroups + synonyms)
    }

    /// Loads `breeds.csv` (with `breed_aliases.csv` when present), `places.tsv` and, when
    /// present, `species.tsv` and `synonyms.tsv` from a data directory (see `data/README.md`),
    /// and the English and Polish text language (``TextLanguage/standard(polishDictionary:)``:
    /// a missing Polish dictionary is an error).
    public static func load(dataDirectory dir: String,
                            polishDictionary: String = WordForms.defaultPolishDictionary) throws(ScoutError) -> Catalog {
        let (species, synonyms) = try wordTables(dataDirectory: dir)
        return Catalog(breeds: try BreedTable.load(dataDirectory: dir), places: try Gazetteer.load(path: dir + "/places.tsv"),
                       species: species, synonyms: synonyms, language: try standardLanguage(polishDictionary: polishDictionary))
    }

    /// ``TextLanguage/standard(polishDictionary:)``, its error as a ``ScoutError``.
    public static func standardLanguage(polishDictionary: String = WordForms.defaultPolishDictionary) throws(ScoutError) -> TextLanguage {
        do throws(WordFormsError) { return try TextLanguage.standard(polishDictionary: polishDictionary) } catch {
            throw ScoutError(.invalidRequest, error.message, path: "dictionary")
        }
    }

    /// The species names and synonym groups of a data directory (empty where a file is absent).
    public static func wordTables(dataDirectory dir: String) throws(ScoutError) -> (SpeciesNames, [[String]]) {
        func read(_ name: String) -> String? { try? String(contentsOfFile: dir + "/" + name, encoding: .utf8) }
        let species = try read("species.tsv").map { (t) throws(ScoutError) in try SpeciesNames.parse(t) } ?? .empty
        guard let text = read("synonyms.tsv") else { return (species, []) }
        do throws(SynonymFileError) { return (species, try SynonymTable.parse(text).groups) } catch {
            throw ScoutError(.parseError, error.message, path: "synonyms")
        }
    }

    /// The kinds with typed records (``RecordKind/typed``).
    public static let typedKinds: Set<String> = Set(RecordKind.typed.map(\.name))

    /// Whether records of a kind have a place (``KindDefinition/placement``).
    public static func placement(kind: String) -> Placement { RecordKind(kind).definition.placement }

    /// Field weights of the searchable text of a kind, in the order of ``searchableText(_:fields:)``;
    /// the last weight is that of the synonyms the text's words bring in (``KindDefinition/textFields``).
    public static func textFieldWeights(kind: String) -> [Double] { RecordKind(kind).definition.textFieldWeights }
}
