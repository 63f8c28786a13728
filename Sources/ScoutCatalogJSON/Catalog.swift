import ScoutCatalog
import ScoutCore
import ScoutJSON

extension Catalog {
    /// Reads the typed record of a kind from its fields; `.other` for untyped kinds.
    /// Errors name the field under `path`.
    public func record(kind: RecordKind, fields: [(String, JSONValue)], path: String) throws(ScoutError) -> CatalogRecord {
        switch kind {
        case .dog: .dog(try Dog.read(fields, breeds: breeds, path: path))
        case .gym: .gym(try Gym.read(fields, zones: zones, path: path))
        case .shelter: .shelter(try Shelter.read(fields, path: path))
        case .animal: .animal(try ShelterAnimal.read(fields, species: species, path: path))
        case .article: .article(try Article.read(fields, species: species, path: path))
        case .program: .program(try Program.read(fields, path: path))
        case .lover: .lover(try Lover.read(fields, species: species, path: path))
        case .pet: .pet(try Pet.read(fields, species: species, path: path))
        case .care: .care(try CareEntry.read(fields, types: nil, now: CareEntry.wallClock, path: path))
        case .list: .list(try PersonalList.read(fields, path: path))
        case .own: .other
        }
    }

    /// The English names of the countries of the shelter catalogue, searched beside a town
    /// (their other names are synonyms: "Polska", "Irlandia", "UK").
    public static let countryNames = ["PL": "poland", "IE": "ireland", "GB": "united kingdom"]

    /// The searchable text of a record, one string per field (see ``textFieldWeights(kind:)``),
    /// the synonyms of its words last.
    public func searchableText(_ r: CatalogRecord, fields: [(String, JSONValue)]) -> [String] {
        func town() -> String { fields.first { $0.0 == "town" }?.1.string ?? "" }
        /// The record's country (`country`, or `address.country`) by name, after its town.
        func withCountry(_ town: String) -> String {
            var code = fields.first { $0.0 == "country" }?.1.string
            if code == nil, case .object(let address)? = fields.first(where: { $0.0 == "address" })?.1 {
                code = address.first { $0.0 == "country" }?.1.string
            }
            guard let code, let name = Catalog.countryNames[code.uppercased()] else { return town }
            return town + " " + name
        }
        func spaced(_ s: String) -> String { s.replacingOccurrences(of: "_", with: " ") }
        var text: [String]
        switch r {
        case .shelter(let s):
            text = [s.name, s.description, withCountry(s.town), s.animals.map(\.name).joined(separator: " "),
                    Set(s.animals.map { spaced($0.species) }).sorted().joined(separator: " "),
                    s.animals.map(\.marks).joined(separator: " ")]
        case .gym(let g): text = [g.name, spaced(g.type), g.town]
        case .dog(let d): text = [d.name, d.breedName, town(), d.about]
        case .animal(let a): text = [a.animal.name, spaced(a.animal.species), a.animal.marks, a.animal.description, withCountry(a.town), a.animal.traits]
        case .article(let a): text = [a.title, a.situation, a.keywords.joined(separator: " "), a.summary, a.body]
        case .program(let p): text = [p.name, spaced(p.goal) + " " + p.level, p.exercises.map(\.name).joined(separator: " "), p.description]
        case .lover(let l): text = [l.name, l.town, l.about]
        case .pet(let p): text = [p.name, spaced(p.species), p.breedName]
        case .care(let e): text = [e.comment, e.typeWords]
        case .list(let l): text = [l.name]
        case .other: return []
        }
        text.append(synonyms.expansion(of: text.joined(separator: " . ")))
        return text
    }
}
