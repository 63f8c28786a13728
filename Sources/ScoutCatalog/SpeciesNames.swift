import ScoutCore
import ScoutText

/// Species by the names people type, in English and Polish, with or without diacritics
/// ("pies", "psy", "dogs", "puppy" → `dog`; "świnka morska", "swinka morska" → `guinea_pig`),
/// read from `data/species.tsv` (see `data/README.md`).
///
/// ```swift
/// let names = try SpeciesNames.load(path: "data/species.tsv")
/// names.canonical("Kot")      // "cat"
/// ```
public struct SpeciesNames: Sendable {
    /// Each species with its English and Polish names, first the display name, in file order.
    public let rows: [(species: String, english: [String], polish: [String])]
    private let byFoldedName: [String: String]

    /// Builds a table; every species is also a name of itself.
    public init(rows: [(species: String, english: [String], polish: [String])]) {
        self.rows = rows
        var index: [String: String] = [:]
        for r in rows {
            for n in [r.species, r.species.replacingOccurrences(of: "_", with: " ")] + r.english + r.polish {
                index[TextFolding.fold(n)] = index[TextFolding.fold(n)] ?? r.species
            }
        }
        byFoldedName = index
    }

    /// No names: species are matched only as written.
    public static let empty = SpeciesNames(rows: [])

    /// The species a name means, or `nil` when the table does not know it.
    public func canonical(_ name: String) -> String? { byFoldedName[TextFolding.fold(name)] }

    /// Every known species word.
    public var species: [String] { rows.map(\.species) }

    /// The names of every species as synonym groups for the text index: a shelter listing
    /// a `guinea_pig` is found by "świnka morska" and "guinea pigs".
    public var synonymGroups: [[String]] { rows.map { [$0.species.replacingOccurrences(of: "_", with: " ")] + $0.english + $0.polish } }

    /// The species of a name: a known name becomes its species, anything else must be a species word.
    public func species(_ s: String, path: String) throws(ScoutError) -> String {
        if let c = canonical(s) { return c }
        return try Self.word(s, path: path)
    }

    /// Checks a species word (lower-case a-z and `_`, 1–32 bytes).
    public static func word(_ s: String, path: String) throws(ScoutError) -> String {
        guard !s.isEmpty, s.utf8.count <= 32, s.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }) else {
            throw ScoutError(.invalidRequest, "species must be a lower-case word of a-z and _ (at most 32)", path: path)
        }
        return s
    }

    /// Reads `species.tsv`: a header `species<TAB>en<TAB>pl`, then one species per line with
    /// `|`-separated names. Errors name the line.
    public static func parse(_ text: String) throws(ScoutError) -> SpeciesNames {
        var rows: [(species: String, english: [String], polish: [String])] = []
        for row in DelimitedText.table(text, file: "species.tsv", separator: UInt8(ascii: "\t")).rows {
            let cells = row.cells
            guard cells.count == 3 else { throw ScoutError(.parseError, "expected 3 tab-separated columns", path: row.location) }
            let species = try word(cells[0], path: row.location)
            func names(_ c: String) -> [String] { c.split(separator: "|").map(String.init).filter { !$0.isEmpty } }
            rows.append((species, names(cells[1]), names(cells[2])))
        }
        return SpeciesNames(rows: rows)
    }
}
