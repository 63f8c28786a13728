import Foundation
import ScoutCore
import ScoutText

/// A dog breed's profile: AKC traits (1–5) joined with size and life span (see
/// `data/breeds.csv` and `docs/data-model.md`).
///
/// A class, so that records and filters share one profile without copying it.
public final class Breed: Sendable {
    /// Display name, e.g. "Labrador Retriever"; `Mixed` for the mixed-breed profile.
    public let name: String
    /// ``name`` folded (``TextFolding/fold(_:)``), kept for filters that compare many records.
    public let foldedName: String
    /// AKC popularity rank (1 = most popular); `nil` for Mixed.
    public let popularityRank: Int?
    /// The AKC traits, 1–5, by ``Trait``.
    public let traits: [Trait: Int]
    /// Coat type ("Double", "Smooth", …) and length ("Short", "Medium", "Long").
    public let coatType: String, coatLength: String
    /// Healthy adult weight range in kg; `nil` when the sources have none.
    public let weightKg: ClosedRange<Double>?
    /// Adult height range in cm.
    public let heightCm: ClosedRange<Double>?
    /// Life span range in years.
    public let lifeSpanYears: ClosedRange<Double>?
    /// Size class from the weight range's middle (see ``SizeClass``).
    public let sizeClass: SizeClass?
    /// Short-nosed breeds that overheat easily (Pug, Bulldog, …).
    public let brachycephalic: Bool

    /// True for the mixed or unknown-breed profile.
    public var isMixed: Bool { popularityRank == nil }

    /// The AKC traits Scout reads, named as in `breeds.csv` and in filters.
    public enum Trait: String, Sendable, CaseIterable, Hashable {
        case energy, mentalStimulation = "mental_stimulation", playfulness
        case goodWithDogs = "good_with_dogs", openness, trainability, adaptability, affectionate
        case goodWithChildren = "good_with_children", barking, shedding

        /// Position in ``allCases``.
        var ordinal: Int {
            switch self {
            case .energy: 0
            case .mentalStimulation: 1
            case .playfulness: 2
            case .goodWithDogs: 3
            case .openness: 4
            case .trainability: 5
            case .adaptability: 6
            case .affectionate: 7
            case .goodWithChildren: 8
            case .barking: 9
            case .shedding: 10
            }
        }
    }

    /// Trait values in ``Trait/allCases`` order, for lookups without hashing.
    private let values: [Int]

    /// Creates a profile; traits missing from `traits` read as 3.
    public init(name: String, popularityRank: Int?, traits: [Trait: Int], coatType: String, coatLength: String,
                weightKg: ClosedRange<Double>?, heightCm: ClosedRange<Double>?, lifeSpanYears: ClosedRange<Double>?,
                sizeClass: SizeClass?, brachycephalic: Bool) {
        self.name = name
        self.foldedName = TextFolding.fold(name)
        self.popularityRank = popularityRank
        self.traits = traits
        self.coatType = coatType
        self.coatLength = coatLength
        self.weightKg = weightKg
        self.heightCm = heightCm
        self.lifeSpanYears = lifeSpanYears
        self.sizeClass = sizeClass
        self.brachycephalic = brachycephalic
        values = Trait.allCases.map { traits[$0] ?? 3 }
    }

    /// A trait's value, 1–5 (3 when the source has none).
    public subscript(trait: Trait) -> Int { values[trait.ordinal] }
}

/// Size classes by adult weight: the mean of a breed's range, or a mixed dog's own weight.
public enum SizeClass: String, Sendable, CaseIterable {
    /// under 5 kg
    case toy
    /// 5 to 10 kg
    case small
    /// 10 to 25 kg
    case medium
    /// 25 to 45 kg
    case large
    /// 45 kg and more
    case giant

    /// The class of a weight in kg.
    public init(weightKg w: Double) {
        switch w {
        case ..<5: self = .toy
        case ..<10: self = .small
        case ..<25: self = .medium
        case ..<45: self = .large
        default: self = .giant
        }
    }
}

/// The breed table, looked up by name case- and accent-insensitively.
///
/// Names that are not in the table resolve to the `Mixed` profile: mixed and unknown
/// breeds are first-class, sized from the dog's own weight (see ``Dog/sizeClass``).
public struct BreedTable: Sendable {
    /// Every breed, in file order (by popularity).
    public let breeds: [Breed]
    private let byFoldedName: [String: Int]
    /// Other names of breeds ("Lab", "Alsatian", "owczarek niemiecki"), folded, to the breed's index.
    private let byFoldedAlias: [String: Int]
    /// The other names as given: (alias, breed name, language).
    public let aliases: [(alias: String, breed: String, language: String)]
    /// The mixed/unknown profile (all traits 3 unless the file says otherwise).
    public let mixed: Breed

    /// Builds a table; the `Mixed` row, when present, becomes ``mixed``.
    public init(_ breeds: [Breed]) { self.init(breeds, aliases: [], aliasIndex: [:]) }

    private init(_ breeds: [Breed], aliases: [(alias: String, breed: String, language: String)], aliasIndex: [String: Int]) {
        self.breeds = breeds
        var index: [String: Int] = [:]
        for (i, b) in breeds.enumerated() { index[TextFolding.fold(b.name)] = i }
        byFoldedName = index
        byFoldedAlias = aliasIndex
        self.aliases = aliases
        mixed = breeds.first { $0.name == "Mixed" } ?? Breed(
            name: "Mixed", popularityRank: nil,
            traits: Dictionary(uniqueKeysWithValues: Breed.Trait.allCases.map { ($0, 3) }),
            coatType: "Double", coatLength: "Medium", weightKg: nil, heightCm: nil,
            lifeSpanYears: 10...16, sizeClass: nil, brachycephalic: false)
    }

    /// An empty table: every dog gets the mixed profile.
    public static let empty = BreedTable([])

    /// The breed of that name or other name (case, accents and punctuation ignored), or `nil`.
    public func breed(named name: String) -> Breed? {
        let folded = TextFolding.fold(name)
        return (byFoldedName[folded] ?? byFoldedAlias[folded]).map { breeds[$0] }
    }

    /// This table with other names of its breeds, read from `breed_aliases.csv` text (a
    /// header `alias,breed,language`, then one name per line). An alias must name a breed of
    /// the table, must not be a breed's own name, and must not name two breeds; errors name
    /// the line.
    public func adding(aliasesCSV text: String) throws(ScoutError) -> BreedTable {
        var list = aliases
        var index = byFoldedAlias
        for row in DelimitedText.table(text, file: "breed_aliases.csv", separator: UInt8(ascii: ",")).rows {
            let at = row.location, cells = row.cells
            guard cells.count == 3, !cells[0].isEmpty else { throw ScoutError(.parseError, "expected alias,breed,language", path: at) }
            let folded = TextFolding.fold(cells[0])
            guard let target = byFoldedName[TextFolding.fold(cells[1])] else {
                throw ScoutError(.parseError, "the alias names a breed that is not in the table", path: at)
            }
            guard byFoldedName[folded] == nil else { throw ScoutError(.parseError, "the alias is a breed's own name", path: at) }
            if let other = index[folded], other != target { throw ScoutError(.parseError, "the alias already names another breed", path: at) }
            index[folded] = target
            list.append((cells[0], breeds[target].name, cells[2]))
        }
        return BreedTable(breeds, aliases: list, aliasIndex: index)
    }

    /// `breeds.csv` of a data directory, with `breed_aliases.csv` when it is there.
    public static func load(dataDirectory dir: String) throws(ScoutError) -> BreedTable {
        let table = try load(path: dir + "/breeds.csv")
        guard let aliases = try? String(contentsOfFile: dir + "/breed_aliases.csv", encoding: .utf8) else { return table }
        return try table.adding(aliasesCSV: aliases)
    }

    /// The breed a caller named, or `not_found` naming the closest breeds. Records keep
    /// the lenient ``breed(named:)`` (an unknown breed in data is a mixed dog); a request
    /// that names a breed gets an error instead of a guess.
    public func resolve(_ name: String, path: String) throws(ScoutError) -> Breed {
        if let b = breed(named: name) { return b }
        if TextFolding.fold(name) == TextFolding.fold(mixed.name) { return mixed }
        // Close names and other names, each shown as the breed it means, once.
        let names = breeds.map { ($0.name, $0.name) } + aliases.map { ($0.alias, $0.breed) }
        let folded = TextFolding.fold(name)
        var close: [String] = []
        for f in Suggestions.closest(to: folded, among: names.map { TextFolding.fold($0.0) }, limit: 5) {
            if let breed = names.first(where: { TextFolding.fold($0.0) == f })?.1, !close.contains(breed) { close.append(breed) }
        }
        if close.isEmpty {
            // "Retriever Labrador" → "Labrador Retriever": names that contain every word given.
            let words = folded.split(separator: " ")
            close = breeds.map(\.name).filter { n in let f = TextFolding.fold(n); return !words.isEmpty && words.allSatisfy { f.contains($0) } }
        }
        let hint = close.isEmpty ? "" : " (did you mean \(close.prefix(3).map { "\"\($0)\"" }.joined(separator: " or "))?)"
        throw ScoutError(.notFound, "no breed of that name\(hint); mixed and unknown breeds use \"Mixed\"", path: path)
    }

    /// Reads `breeds.csv` (see `data/README.md`). Errors name the line and column.
    public static func load(path: String) throws(ScoutError) -> BreedTable {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ScoutError(.notFound, "the breed table could not be read", path: "breeds")
        }
        let table = DelimitedText.table(text, file: "breeds.csv", separator: UInt8(ascii: ","))
        guard !table.header.isEmpty else { throw ScoutError(.parseError, "the breed table is empty", path: "breeds.csv") }
        let header = table.header
        var out: [Breed] = []
        for row in table.rows {
            let where_ = row.location, cells = row.cells
            guard cells.count == header.count else {
                throw ScoutError(.parseError, "expected \(header.count) columns, found \(cells.count)", path: where_)
            }
            func cell(_ name: String) throws(ScoutError) -> String { cells[try table.column(name)] }
            func number(_ name: String) throws(ScoutError) -> Double? {
                let s = try cell(name)
                if s.isEmpty { return nil }
                guard let d = Double(s), d.isFinite else { throw ScoutError(.parseError, "\(name) must be a number", path: where_) }
                return d
            }
            func range(_ lo: String, _ hi: String) throws(ScoutError) -> ClosedRange<Double>? {
                guard let a = try number(lo), let b = try number(hi) else { return nil }
                guard a <= b else { throw ScoutError(.parseError, "\(lo) is above \(hi)", path: where_) }
                return a...b
            }
            var traits: [Breed.Trait: Int] = [:]
            for t in Breed.Trait.allCases {
                if let v = try number(t.rawValue) {
                    guard v >= 1, v <= 5, v == v.rounded() else {
                        throw ScoutError(.parseError, "\(t.rawValue) must be a whole number 1-5", path: where_)
                    }
                    traits[t] = Int(v)
                }
            }
            let sizeText = try cell("size_class")
            guard sizeText.isEmpty || SizeClass(rawValue: sizeText) != nil else {
                throw ScoutError(.parseError, "unknown size_class", path: where_)
            }
            out.append(Breed(
                name: try cell("breed"), popularityRank: try number("popularity_rank").map { Int($0) },
                traits: traits, coatType: try cell("coat_type"), coatLength: try cell("coat_length"),
                weightKg: try range("weight_min_kg", "weight_max_kg"), heightCm: try range("height_min_cm", "height_max_cm"),
                lifeSpanYears: try range("life_span_min", "life_span_max"), sizeClass: SizeClass(rawValue: sizeText),
                brachycephalic: try cell("brachycephalic") == "true"))
        }
        return BreedTable(out)
    }
}
