import Foundation
import ScoutCore
import ScoutText

/// A named place from the gazetteer (GeoNames via `data/places.tsv`).
public struct Place: Sendable, Equatable {
    /// GeoNames id.
    public let geonameID: Int
    /// Name as used locally, e.g. "Wrocław".
    public let name: String
    /// ASCII form, e.g. "Wroclaw".
    public let asciiName: String
    /// Other names, e.g. "Baile Átha Cliath" for Dublin.
    public let alternateNames: [String]
    /// ISO 3166-1 alpha-2 country code.
    public let country: String
    /// GeoNames first-level admin code.
    public let admin1: String
    /// Position.
    public let point: GeoPoint
    /// Population.
    public let population: Int
    /// IANA time zone.
    public let timeZone: String
}

/// A place name resolved: the chosen place and up to five others of the same name.
public struct PlaceResolution: Sendable {
    /// The most populous place of that name (in the country, when one was given).
    public let place: Place
    /// Other places of that name, most populous first (at most five).
    public let alternatives: [Place]
}

/// Place-name lookup: case-, accent- and punctuation-insensitive, over names, ASCII names
/// and alternate names.
///
/// ```swift
/// let r = try gazetteer.resolve("wroclaw")   // Wrocław, PL
/// let d = try gazetteer.resolve("Baile Átha Cliath", country: "IE")   // Dublin
/// ```
/// Ambiguous names pick the most populous place; unknown names throw `not_found` with up
/// to five close names (within the typo tolerance of ``EditDistance/allowedEdits(forLength:)``,
/// at least one edit, or sharing the name as a prefix).
public struct Gazetteer: Sendable {
    /// Every place, in file order.
    public let places: [Place]
    /// Folded name → place indexes, most populous first.
    private let byName: [String: [Int32]]
    /// Folded names, sorted, for suggestions.
    private let names: [String]

    /// Builds a gazetteer over places.
    public init(_ places: [Place]) {
        self.places = places
        var index: [String: [Int32]] = [:]
        for (i, p) in places.enumerated() {
            var keys = Set([TextFolding.fold(p.name), TextFolding.fold(p.asciiName)])
            for a in p.alternateNames { keys.insert(TextFolding.fold(a)) }
            for k in keys where !k.isEmpty { index[k, default: []].append(Int32(i)) }
        }
        for (k, v) in index {
            index[k] = v.sorted { (places[Int($0)].population, places[Int($1)].geonameID) > (places[Int($1)].population, places[Int($0)].geonameID) }
        }
        byName = index
        names = index.keys.sorted()
    }

    /// An empty gazetteer: every name is unknown.
    public static let empty = Gazetteer([])

    /// Longest place name accepted, in bytes.
    public static let maximumNameBytes = 200

    /// Resolves a place name, optionally within a country (ISO alpha-2, any case).
    /// - Throws: `invalid_request` for an empty or overlong name or a malformed country;
    ///   `not_found` naming close matches when nothing has that name.
    /// - Complexity: a hash lookup; on a miss, a scan of the distinct names.
    public func resolve(_ name: String, country: String? = nil, path: String = "place") throws(ScoutError) -> PlaceResolution {
        guard name.utf8.count <= Gazetteer.maximumNameBytes else {
            throw ScoutError(.limitExceeded, "a place name may be at most \(Gazetteer.maximumNameBytes) bytes", path: path)
        }
        let key = TextFolding.fold(name)
        guard !key.isEmpty else { throw ScoutError(.invalidRequest, "the place name is empty", path: path) }
        var cc: String?
        if let country {
            guard country.utf8.count == 2, country.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) }) else {
                throw ScoutError(.invalidRequest, "country must be a two-letter ISO 3166 code", path: "country")
            }
            cc = country.uppercased()
        }
        let all = byName[key] ?? []
        let found = cc.map { c in all.filter { places[Int($0)].country == c } } ?? all
        if let first = found.first {
            return PlaceResolution(place: places[Int(first)], alternatives: found.dropFirst().prefix(5).map { places[Int($0)] })
        }
        if let cc, !all.isEmpty {
            let elsewhere = Set(all.map { places[Int($0)].country }).sorted().prefix(5).joined(separator: ", ")
            throw ScoutError(.notFound, "no place of that name in \(cc); there is one in \(elsewhere)", path: path)
        }
        let close = suggestions(for: key, country: cc)
        let hint = close.isEmpty ? "" : "; did you mean " + close.map { "\($0.name) (\($0.country))" }.joined(separator: ", ") + "?"
        throw ScoutError(.notFound, "no place of that name" + hint, path: path)
    }

    /// Up to five places whose name is close to a folded key, best first: fewest edits,
    /// then most populous.
    public func suggestions(for key: String, country: String? = nil) -> [Place] {
        let allowed = max(1, EditDistance.allowedEdits(forLength: key.unicodeScalars.count))
        var scored: [(edits: Int, population: Int, index: Int32)] = []
        let keyLength = key.unicodeScalars.count
        for n in names {
            let length = n.unicodeScalars.count
            var edits: Int?
            if n.hasPrefix(key) && keyLength >= 3 { edits = 1 }
            else if abs(length - keyLength) <= allowed { edits = EditDistance.within(key, n, maximum: allowed) }
            guard let e = edits else { continue }
            for i in byName[n]! where country == nil || places[Int(i)].country == country {
                scored.append((e, places[Int(i)].population, i))
            }
        }
        scored.sort { ($0.edits, -$0.population, $0.index) < ($1.edits, -$1.population, $1.index) }
        var seen = Set<Int32>(), out: [Place] = []
        for s in scored where !seen.contains(s.index) {
            seen.insert(s.index)
            out.append(places[Int(s.index)])
            if out.count == 5 { break }
        }
        return out
    }

    /// Reads `places.tsv` (see `data/README.md`). Errors name the line.
    public static func load(path: String) throws(ScoutError) -> Gazetteer {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScoutError(.notFound, "the gazetteer could not be read", path: "places")
        }
        var out: [Place] = []
        out.reserveCapacity(40_000)
        var lineNumber = 0
        for raw in data.split(separator: 0x0A, omittingEmptySubsequences: true) {
            lineNumber += 1
            if lineNumber == 1 { continue }
            let c = raw.split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard c.count == 10, let id = Int(c[0]), let lat = Double(c[6]), let lon = Double(c[7]), let pop = Int(c[8]) else {
                throw ScoutError(.parseError, "expected 10 tab-separated columns with numeric id, lat, lon and population", path: "places line \(lineNumber)")
            }
            let p = try GeoPoint(lat: lat, lon: lon).validated(path: "places line \(lineNumber)")
            out.append(Place(geonameID: id, name: c[1], asciiName: c[2],
                             alternateNames: c[3].isEmpty ? [] : c[3].split(separator: "|").map(String.init),
                             country: c[4], admin1: c[5], point: p, population: pop, timeZone: c[9]))
        }
        return Gazetteer(out)
    }
}
