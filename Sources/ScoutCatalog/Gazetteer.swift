import Foundation
import ScoutCore
import ScoutText
import Synchronization

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
    /// Folded name → place indexes, most populous first: built on a spare core from the
    /// start, so that a worker's start-up does not wait for it (folding 40,000 places'
    /// names is most of a catalogue's loading), and taken by the first lookup.
    private let names: NameIndex

    /// Builds a gazetteer over places. Its name index is built on a spare core
    /// (``SpareCore``), or by the first lookup if none took it.
    ///
    /// - Complexity: O(*n*) here; the index is O(*n* log *n*) in the places' names.
    public init(_ places: [Place]) {
        self.places = places
        names = NameIndex(places)
    }

    /// The folded-name index, built once.
    private final class NameIndex: Sendable {
        private let build: SpareCore.Job<[String: [Int32]]>
        private let built = Mutex<[String: [Int32]]?>(nil)

        init(_ places: [Place]) {
            build = SpareCore.post(expectedNanoseconds: 5_000 * places.count) { NameIndex.index(places) }
        }

        /// The index: the spare core's, or built here if it has not been.
        var byName: [String: [Int32]] {
            built.withLock { kept in
                if let kept { return kept }
                let index = build.result()
                kept = index
                return index
            }
        }

        /// Every distinct folded name of every place → the places', most populous first
        /// (then by GeoNames id).
        static func index(_ places: [Place]) -> [String: [Int32]] {
            var index: [String: [Int32]] = [:]
            index.reserveCapacity(places.count * 2)
            var keys: [String] = []
            for (i, p) in places.enumerated() {
                // A place's distinct folded names (a handful: a linear check beats a Set).
                keys.removeAll(keepingCapacity: true)
                func add(_ name: String) {
                    let k = TextFolding.fold(name)
                    if !k.isEmpty && !keys.contains(k) { keys.append(k) }
                }
                add(p.name)
                add(p.asciiName)
                p.alternateNames.forEach(add)
                for k in keys { index[k, default: []].append(Int32(i)) }
            }
            for (k, v) in index where v.count > 1 {
                index[k] = v.sorted { (places[Int($0)].population, places[Int($1)].geonameID) > (places[Int($1)].population, places[Int($0)].geonameID) }
            }
            return index
        }
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
        let all = names.byName[key] ?? []
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
        // Every folded name, in no particular order: the sort below decides the answer.
        for (n, indexes) in names.byName {
            let length = n.unicodeScalars.count
            var edits: Int?
            if n.hasPrefix(key) && keyLength >= 3 { edits = 1 }
            else if abs(length - keyLength) <= allowed { edits = EditDistance.within(key, n, maximum: allowed) }
            guard let e = edits else { continue }
            for i in indexes where country == nil || places[Int(i)].country == country {
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

    /// Reads `places.tsv` (see `data/README.md`): a header line, then one place a line in
    /// 10 tab-separated columns. Empty lines are skipped. Errors name the line.
    ///
    /// - Complexity: O(*n*) in the file's bytes, read in place (not split into `Data`
    ///   slices: at 40,000 places that was most of a worker's start-up).
    public static func load(path: String) throws(ScoutError) -> Gazetteer {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScoutError(.notFound, "the gazetteer could not be read", path: "places")
        }
        let places = try [UInt8](data).withUnsafeBufferPointer { bytes throws(ScoutError) in try parse(bytes) }
        return Gazetteer(places)
    }

    /// The places of a `places.tsv` file's bytes.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(ScoutError) -> [Place] {
        var out: [Place] = []
        out.reserveCapacity(40_000)
        var sawHeader = false
        var columns: [Range<Int>] = []
        columns.reserveCapacity(10)
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self) }
        try DelimitedText.forEachLine(bytes) { (lineNumber, line) throws(ScoutError) in
            if line.isEmpty { return }
            if !sawHeader { sawHeader = true; return }
            DelimitedText.cells(of: line, in: bytes, separator: 0x09, into: &columns)
            let at = DelimitedText.location(file: "places.tsv", line: lineNumber)
            guard columns.count == 10, let id = Int(text(columns[0])), let lat = Double(text(columns[6])),
                  let lon = Double(text(columns[7])), let pop = Int(text(columns[8])) else {
                throw ScoutError(.parseError, "expected 10 tab-separated columns with numeric id, lat, lon and population", path: at)
            }
            let p = try GeoPoint(lat: lat, lon: lon).validated(path: at)
            let alternates = text(columns[3])
            out.append(Place(geonameID: id, name: text(columns[1]), asciiName: text(columns[2]),
                             alternateNames: alternates.isEmpty ? [] : alternates.split(separator: "|").map(String.init),
                             country: text(columns[4]), admin1: text(columns[5]), point: p, population: pop, timeZone: text(columns[9])))
        }
        return out
    }
}
