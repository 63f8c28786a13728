import Foundation
import PropertyBased
import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutEngine
import ScoutGeodesy
import ScoutJSON
import ScoutTestSupport
import ScoutTime
import Synchronization
import Testing

// Oracle tests of the catalogue calls at the library level: area-less listings,
// species and breed names, get, records without a place, review/vote/patch idempotency and
// order-independence, and reads interleaved with writes. Every expectation is computed here
// from the JSON Lines files as Foundation parses them (never through the engine's reader,
// filters, folding or ratings).

/// A sample record as Foundation's JSONSerialization reads it.
typealias RawRecord = [String: Any]
/// Scout's sort orders (Foundation has a `SortOrder` too).
typealias ListingSort = ScoutEngine.SortOrder

/// The sample files, parsed independently, and the engines the tests share.
enum CallsSample {
    static let catalog = try! Catalog.load(dataDirectory: Repository.data)
    static let today = LocalDate(year: 2026, month: 11, day: 21)!

    /// The lines of `data/sample/<name>.jsonl`.
    static func lines(_ name: String) -> [String] {
        let text = try! String(contentsOfFile: "\(Repository.data)/sample/\(name).jsonl", encoding: .utf8)
        return text.split(separator: "\n").map(String.init)
    }

    static func parse(_ line: String) -> RawRecord {
        try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! RawRecord
    }

    nonisolated(unsafe) static let programs = lines("programs").map(parse)
    nonisolated(unsafe) static let lovers = lines("lovers").map(parse)
    nonisolated(unsafe) static let animals = lines("animals").map(parse)
    nonisolated(unsafe) static let articles = lines("articles").map(parse)
    /// The sample shelters, each with the animals whose `shelter_id` names it (what the
    /// engine derives), worked out here from the two files.
    nonisolated(unsafe) static let shelters: [RawRecord] = {
        var byShelter: [String: [RawRecord]] = [:]
        for a in animals {
            // As a shelter lists it: the animal's id and own fields, without its place and shelter_id.
            var listed = a
            for k in ["kind", "lat", "lon", "shelter_id"] { listed.removeValue(forKey: k) }
            byShelter[a["shelter_id"] as! String, default: []].append(listed)
        }
        return lines("shelters").map(parse).map { s in
            var s = s
            if let listed = byShelter[s["id"] as! String] { s["animals"] = listed }
            return s
        }
    }()

    /// The first 2,000 sample dogs (a quick load in a debug build).
    static let dogLines: [String] = {
        Repository.ensureSampleDogs()
        return Array(lines("dogs").prefix(2000))
    }()

    /// Extra dogs whose breed is written with another name (or a look-alike that is no breed).
    static let aliasDogLines: [String] = {
        let template = parse(dogLines[0])
        let written = ["Lab", "Labrador", "Alsatian", "Owczarek Niemiecki", "owczarek niemiecki", "GSD", "Labradoodle",
                       "LABRADOR RETRIEVER", "Deutscher Schäferhund", "Lab Retriever", "German Shepherd"]
        return written.enumerated().map { i, breed in
            var d = template
            d["id"] = "alias-dog-\(i)"
            d["breed"] = breed
            return String(decoding: try! JSONSerialization.data(withJSONObject: d, options: [.sortedKeys]), as: UTF8.self)
        }
    }()

    nonisolated(unsafe) static let dogs: [RawRecord] = (dogLines + aliasDogLines).map(parse)

    /// The records of a kind by the name tests use.
    static func raw(_ kind: String) -> [RawRecord] {
        switch kind {
        case "program": programs
        case "lover": lovers
        case "animal": animals
        case "article": articles
        case "shelter": shelters
        case "dog": dogs
        default: []
        }
    }

    /// Records parsed by Scout's own record reader (input to the engine, never an oracle).
    static func records(_ lines: [String]) -> [PointRecord] {
        lines.map { try! PointRecord.from(json: try! JSONReader.parse($0), defaultKind: nil, path: "") }
    }

    /// One engine with programs, lovers, animals, articles, shelters and a subset of dogs
    /// (default privacy: dogs are shown at their cell). Read-only: tests that write make their own.
    static let engine: Engine = {
        let e = Engine(catalog: catalog)
        for f in ["programs", "lovers", "shelters", "animals", "articles"] { try! e.load(path: "\(Repository.data)/sample/\(f).jsonl") }
        try! e.upsert(records(dogLines + aliasDogLines))
        return e
    }()

    static func json(_ s: String) -> JSONValue { try! JSONReader.parse(s) }

    static func filter(_ text: String, kind: String) throws -> RecordFilter {
        try RecordFilter.parse(json(text), kind: kind, today: today, breeds: catalog.breeds, species: catalog.species)
    }

    // MARK: Field access on Foundation values

    static func string(_ r: RawRecord, _ k: String) -> String? { r[k] as? String }
    static func number(_ r: RawRecord, _ k: String) -> Double? { (r[k] as? NSNumber)?.doubleValue }
    static func int(_ r: RawRecord, _ k: String) -> Int { (r[k] as? NSNumber)?.intValue ?? 0 }
    static func bool(_ r: RawRecord, _ k: String) -> Bool? { r[k] as? Bool }
    static func strings(_ r: RawRecord, _ k: String) -> [String] { (r[k] as? [Any])?.compactMap { $0 as? String } ?? [] }
    static func id(_ r: RawRecord) -> String { r["id"] as! String }

    /// Loaded votes of a record: (up, down).
    static func votes(_ r: RawRecord) -> (up: Int, down: Int) {
        guard let v = r["votes"] as? RawRecord else { return (0, 0) }
        return (int(v, "up"), int(v, "down"))
    }

    /// A loaded review aggregate: (mean, count).
    static func review(_ r: RawRecord, _ criterion: String) -> (mean: Double?, count: Int) {
        guard let c = (r["reviews"] as? RawRecord)?[criterion] as? RawRecord else { return (nil, 0) }
        return (number(c, "mean"), int(c, "count"))
    }

    // MARK: Independent folding and ratings

    static func fold(_ s: String) -> String { CatalogOracle.fold(s) }
    static func wilson(up: Int, down: Int) -> Double { CatalogOracle.wilson(up: up, down: down) }
    static func wilson(mean: Double?, count: Int) -> Double { CatalogOracle.wilson(mean: mean, count: count) }
    static func bayesian(mean: Double?, count: Int) -> Double { CatalogOracle.bayesian(mean: mean, count: count) }

    /// The name a listing sorts by.
    static func name(_ r: RawRecord, kind: String) -> String { string(r, kind == "article" ? "title" : "name") ?? "" }

    /// The rating a listing sorts by (`nil`: the kind has none).
    static func rating(_ r: RawRecord, kind: String) -> Double? {
        switch kind {
        case "program", "article": let v = votes(r); return wilson(up: v.up, down: v.down)
        case "lover": let a = review(r, "reliability"); return bayesian(mean: a.mean, count: a.count)
        default: return nil
        }
    }

    /// The listing sorts of a kind: name, id, and rating where the kind has one.
    static func sorts(_ kind: String) -> [ListingSort] { [.name, .id] + (rating([:], kind: kind) != nil ? [.rating] : []) }

    static func bytesBefore(_ a: String, _ b: String) -> Bool { CatalogOracle.bytesBefore(a, b) }

    /// The oracle's order of matching records.
    static func ordered(_ matches: [RawRecord], kind: String, sort: ListingSort) -> [String] {
        struct Key { let primary: Double; let name: String; let id: String }
        let keys = matches.map { r in
            Key(primary: sort == .rating ? -(rating(r, kind: kind) ?? 0) : 0, name: sort == .id ? "" : fold(name(r, kind: kind)), id: id(r))
        }
        return keys.sorted { a, b in
            if a.primary != b.primary { return a.primary < b.primary }
            if a.name != b.name { return bytesBefore(a.name, b.name) }
            return bytesBefore(a.id, b.id)
        }.map(\.id)
    }

    /// The fields of a hit as Foundation sees them (written by Scout's writer, read back by Foundation).
    static func foundationFields(_ h: SearchHit) -> NSDictionary {
        var w = JSONWriter()
        w.objectStart()
        for (k, v) in h.fields { w.key(k); w.value(v) }
        w.objectEnd()
        return try! JSONSerialization.jsonObject(with: Data(w.bytes)) as! NSDictionary
    }

    /// A raw record without its envelope (id, kind, lat, lon).
    static func ownFields(_ r: RawRecord) -> NSDictionary {
        var f = r
        for k in ["id", "kind", "lat", "lon"] { f.removeValue(forKey: k) }
        return f as NSDictionary
    }

    /// Everything a hit says, as text: id, point, fields in order.
    static func text(_ h: SearchHit?) -> String {
        guard let h else { return "nil" }
        var w = JSONWriter()
        w.objectStart()
        for (k, v) in h.fields { w.key(k); w.value(v) }
        w.objectEnd()
        return "\(h.id)@\(h.point.map { "\($0.lat),\($0.lon)" } ?? "-") " + String(decoding: w.bytes, as: UTF8.self)
    }
}

// MARK: - Random filters with their oracles

/// A random filter as JSON and the predicate that decides it from a raw record.
struct RandomFilter {
    var parts: [String] = []
    var tests: [(RawRecord) -> Bool] = []
    var text: String { "{" + parts.joined(separator: ",") + "}" }
    func matches(_ r: RawRecord) -> Bool { tests.allSatisfy { $0(r) } }
    mutating func add(_ json: String, _ test: @escaping (RawRecord) -> Bool) { parts.append(json); tests.append(test) }

    static func quoted(_ list: [String]) -> String { list.map { "\"\($0)\"" }.joined(separator: ",") }

    /// A string condition: one value or a list.
    mutating func oneOf(_ key: String, _ pool: [String], _ rng: inout SplitMix64, value: @escaping (RawRecord) -> String?) {
        let pick = Array(pool.shuffled(using: &rng).prefix(rng.int(1...max(1, min(3, pool.count)))))
        let json = pick.count == 1 && rng.chance(0.5) ? "\"\(pick[0])\"" : "[\(Self.quoted(pick))]"
        add("\"\(key)\":\(json)") { r in value(r).map(pick.contains) ?? false }
    }

    /// A number condition: exact, a list or a range.
    mutating func number(_ key: String, _ values: [Double], _ rng: inout SplitMix64, value: @escaping (RawRecord) -> Double?) {
        let lo = values.min() ?? 0, hi = values.max() ?? 1
        switch rng.int(0...3) {
        case 0:
            let x = rng.pick(values)
            add("\"\(key)\":\(x)") { value($0) == x }
        case 1:
            let xs = Array(Set((0..<rng.int(1...3)).map { _ in rng.pick(values) }))
            add("\"\(key)\":[\(xs.map { "\($0)" }.joined(separator: ","))]") { r in value(r).map(xs.contains) ?? false }
        case 2:
            let a = rng.uniform(lo, hi), b = rng.uniform(a, hi)
            add("\"\(key)\":{\"min\":\(a),\"max\":\(b)}") { r in value(r).map { $0 >= a && $0 <= b } ?? false }
        default:
            if rng.chance(0.5) {
                let a = rng.pick(values)
                add("\"\(key)\":{\"min\":\(a)}") { r in value(r).map { $0 >= a } ?? false }
            } else {
                let b = rng.pick(values)
                add("\"\(key)\":{\"max\":\(b)}") { r in value(r).map { $0 <= b } ?? false }
            }
        }
    }

    typealias S = CallsSample

    static func program(_ rng: inout SplitMix64) -> RandomFilter {
        var f = RandomFilter()
        let all = S.programs
        if rng.chance(0.4) { f.oneOf("goal", Program.goals, &rng) { S.string($0, "goal") } }
        if rng.chance(0.4) { f.oneOf("level", Program.levels, &rng) { S.string($0, "level") } }
        if rng.chance(0.3) { f.number("weeks", all.map { S.number($0, "weeks")! }, &rng) { S.number($0, "weeks") } }
        if rng.chance(0.3) { f.number("days_per_week", all.map { S.number($0, "days_per_week")! }, &rng) { S.number($0, "days_per_week") } }
        if rng.chance(0.2) {
            let authors = Array(Set(all.map { S.string($0, "author")! })).sorted()
            f.oneOf("author", authors, &rng) { S.string($0, "author") }
        }
        if rng.chance(0.3) {
            let min = rng.uniform(0, 0.9)
            f.add("\"rating\":{\"min\":\(min)}") { r in S.rating(r, kind: "program")! >= min }
        }
        return f
    }

    static func lover(_ rng: inout SplitMix64) -> RandomFilter {
        var f = RandomFilter()
        if rng.chance(0.4) { f.number("experience", [1, 2, 3, 4, 5], &rng) { S.number($0, "experience") } }
        if rng.chance(0.4) { f.number("activity_level", [1, 2, 3, 4, 5], &rng) { S.number($0, "activity_level") ?? 3 } }
        if rng.chance(0.3) {
            let want = rng.chance(0.5)
            f.add("\"vetted\":\(want)") { (S.bool($0, "vetted") ?? false) == want }
        }
        if rng.chance(0.3) {
            // Species named in English or Polish, as people type them.
            let names: [(String, String)] = [("dog", "dog"), ("psy", "dog"), ("cats", "cat"), ("kot", "cat"), ("Świnka morska", "guinea_pig"),
                                             ("rabbit", "rabbit"), ("królik", "rabbit"), ("ptak", "bird"), ("horse", "horse"), ("fish", "fish")]
            let pick = Array(names.shuffled(using: &rng).prefix(rng.int(1...2)))
            let species = pick.map(\.1)
            f.add("\"other_pets\":[\(quoted(pick.map(\.0)))]") { r in S.strings(r, "other_pets").contains(where: species.contains) }
        }
        if rng.chance(0.3) { f.oneOf("country", ["GB", "PL", "IE"], &rng) { S.string($0, "country") } }
        if rng.chance(0.3) {
            if rng.chance(0.2) {
                f.add("\"reliability\":{\"min_count\":0}") { _ in true }
            } else {
                let min = Double(rng.int(10...45)) / 10, count = rng.int(1...6)
                f.add("\"reliability\":{\"min\":\(min),\"min_count\":\(count)}") { r in
                    let a = S.review(r, "reliability")
                    return a.count >= count && (a.mean ?? 0) >= min
                }
            }
        }
        return f
    }

    static func animal(_ rng: inout SplitMix64) -> RandomFilter {
        var f = RandomFilter()
        if rng.chance(0.3) {
            let shelters = (0..<rng.int(1...4)).map { _ in S.string(rng.pick(S.animals), "shelter_id")! }
            f.oneOf("shelter_id", Array(Set(shelters)).sorted(), &rng) { S.string($0, "shelter_id") }
        }
        if rng.chance(0.4) { f.oneOf("species", ["dog", "cat", "rabbit", "guinea_pig", "bird", "ferret", "horse"], &rng) { S.string($0, "species") } }
        if rng.chance(0.3) { f.oneOf("sex", ["male", "female", "unknown"], &rng) { S.string($0, "sex") } }
        if rng.chance(0.3) { f.oneOf("size", ["small", "medium", "large"], &rng) { S.string($0, "size") } }
        if rng.chance(0.3) {
            let lo = Double(rng.int(0...60)) / 10, hi = lo + Double(rng.int(1...60)) / 10
            f.add("\"age_years\":{\"min\":\(lo),\"max\":\(hi)}") { r in let a = S.number(r, "age_years")!; return a >= lo && a <= hi }
        }
        if rng.chance(0.3) {
            let want = rng.chance(0.7)
            f.add("\"adoptable\":\(want)") { S.bool($0, "adoptable") == want }
        }
        if rng.chance(0.25) {
            if rng.chance(0.5) {
                let want = rng.chance(0.5)
                f.add("\"marks\":\(want)") { !(S.string($0, "marks") ?? "").isEmpty == want }
            } else {
                // A word of some animal's marks.
                let withMarks = S.animals.filter { !(S.string($0, "marks") ?? "").isEmpty }
                let word = rng.pick(S.fold(S.string(rng.pick(withMarks), "marks")!).split(separator: " ").map(String.init))
                f.add("\"marks\":\"\(word)\"") { r in S.fold(S.string(r, "marks") ?? "").split(separator: " ").contains { $0 == word } }
            }
        }
        return f
    }

    static func article(_ rng: inout SplitMix64) -> RandomFilter {
        var f = RandomFilter()
        if rng.chance(0.6) {
            let names: [(String, String)] = [("dog", "dog"), ("pies", "dog"), ("cat", "cat"), ("koty", "cat"), ("rabbits", "rabbit"),
                                             ("guinea pig", "guinea_pig"), ("bird", "bird"), ("horse", "horse"), ("other", "other"),
                                             ("reptile", "reptile"), ("fish", "fish"), ("ferret", "ferret")]
            let pick = Array(names.shuffled(using: &rng).prefix(rng.int(1...2)))
            let species = pick.map(\.1)
            f.add("\"species\":[\(quoted(pick.map(\.0)))]") { r in S.strings(r, "species").contains(where: species.contains) }
        }
        if rng.chance(0.5) { f.oneOf("urgency", Article.urgencies, &rng) { S.string($0, "urgency") } }
        return f
    }

    static func shelter(_ rng: inout SplitMix64) -> RandomFilter {
        var f = RandomFilter()
        if rng.chance(0.6) { f.oneOf("type", Shelter.types, &rng) { S.string($0, "type") } }
        if rng.chance(0.4) {
            let species = rng.pick(["dog", "cat", "rabbit", "horse", "ferret"])
            f.add("\"animal\":{\"species\":\"\(species)\",\"adoptable\":true}") { r in
                ((r["animals"] as? [RawRecord]) ?? []).contains { S.string($0, "species") == species && S.bool($0, "adoptable") == true }
            }
        }
        return f
    }

    static func random(kind: String, _ rng: inout SplitMix64) -> RandomFilter {
        switch kind {
        case "program": program(&rng)
        case "lover": lover(&rng)
        case "animal": animal(&rng)
        case "article": article(&rng)
        default: shelter(&rng)
        }
    }
}

// MARK: - Tests

@Suite struct CatalogCallsTests {
    typealias S = CallsSample

    /// Pages through a listing with `after` and checks it against the oracle's whole order.
    static func checkListing(_ engine: Engine, kind: String, filter: RecordFilter, sort: ListingSort?, text: String? = nil,
                             want: [String], limit: Int, context: String, _ log: inout FailureLog) throws {
        var got: [String] = []
        var after: String?
        var pages = 0
        repeat {
            let page = try engine.search(SearchQuery(kind: RecordKind(kind), area: nil, limit: limit, sort: sort, filter: filter, text: text, after: after))
            log.check(page.total == want.count, "\(context): total \(page.total), oracle \(want.count)")
            log.check(page.hits.count <= limit, "\(context): a page of \(page.hits.count) over limit \(limit)")
            if let next = page.nextAfter {
                log.check(page.hits.count == limit && next == page.hits.last?.id, "\(context): next_after \(next) on a page of \(page.hits.count)")
            }
            let placeless = ["program", "lover", "article"].contains(kind)
            log.check(page.hits.allSatisfy { ($0.point == nil) == placeless }, "\(context): a point where there should \(placeless ? "be none" : "be one")")
            got += page.hits.map(\.id)
            after = page.nextAfter
            pages += 1
        } while after != nil && pages <= want.count + 1
        log.check(got.count == Set(got).count, "\(context): a record listed twice")
        if got != want {
            let at = (0..<min(got.count, want.count)).first { got[$0] != want[$0] } ?? min(got.count, want.count)
            log.check(false, "\(context): first difference at \(at): got \(got.dropFirst(at).prefix(3)), oracle \(want.dropFirst(at).prefix(3)) (\(got.count) vs \(want.count))")
        }
    }

    @Test(arguments: ["program", "lover", "article", "shelter", "animal"])
    func listingsEqualTheOracleInEverySortPageByPage(kind: String) throws {
        var rng = SplitMix64(seed: 1200 + kind.utf8.count)
        var log = FailureLog(limit: 8)
        let raw = S.raw(kind)
        let sorts: [ListingSort?] = [nil] + S.sorts(kind)
        let cases = kind == "animal" ? 8 : kind == "shelter" ? 10 : 16
        var nonEmpty = 0
        for i in 0..<cases {
            // The first case of each kind has no filter: the whole kind.
            let f = i == 0 ? RandomFilter() : RandomFilter.random(kind: kind, &rng)
            let filter = try S.filter(f.text, kind: kind)
            let matches = raw.filter(f.matches)
            if !matches.isEmpty { nonEmpty += 1 }
            let sort = sorts[i % sorts.count]
            let want = S.ordered(matches, kind: kind, sort: sort ?? .name)
            // Pages of a random size: several pages, sometimes one, sometimes a page per record.
            let limit = matches.count <= 12 ? rng.int(1...4) : max(1, matches.count / rng.int(2...6) + rng.int(-1...1))
            try Self.checkListing(S.engine, kind: kind, filter: filter, sort: sort, want: want, limit: limit,
                                  context: "\(kind) filter \(f.text) sort \(sort.map(\.rawValue) ?? "default")", &log)
            if log.full { break }
        }
        #expect(nonEmpty >= cases / 2, "the filters must select something")
        #expect(log.isEmpty, "\(log.summary)")
    }

    /// Text listings (relevance order) page like the whole answer, most relevant first, equal
    /// scores by folded name then id.
    /// Names are folded once per snapshot for sorting (`Engine.folded`): after every rename,
    /// insert or removal, a listing in every sort (paged, and in one page) equals the oracle's
    /// order of the records as they now stand, for kinds with places and one without (the
    /// orders and names are carried from one snapshot to the next, not sorted again).
    @Test(arguments: ["animal", "program", "dog"])
    func listingsFollowEveryWrite(kind: String) throws {
        var rng = SplitMix64(seed: 1300 + kind.utf8.count)
        var log = FailureLog(limit: 8)
        let e = Engine(catalog: S.catalog)
        let lines = Array(S.lines(kind + "s").prefix(60))
        let sorts = S.sorts(kind)
        var current: [String: RawRecord] = [:]
        for line in lines { current[S.id(S.parse(line))] = S.parse(line) }
        // An animal's shelter must exist.
        if kind == "animal" { try e.upsert(S.records(S.lines("shelters"))) }
        try e.upsert(S.records(lines))
        let names = ["Łatka", "latka", "Zoë", "zoe", "Ámbar", "Burek", "burek", "Cleo", "Ęla", "ela", "Ola"]
        for step in 0..<40 {
            let pick = lines[rng.int(0...(lines.count - 1))]
            var raw = S.parse(pick)
            if rng.int(0...3) == 0 {
                let id = S.id(raw)
                _ = try e.remove(kind: RecordKind(kind), ids: [id])
                current[id] = nil
            } else {
                // A rename of an existing record, or a new record under a fresh id.
                raw["name"] = rng.pick(names)
                if rng.int(0...2) == 0 { raw["id"] = "\(kind)-new-\(step)" }
                let text = String(decoding: try JSONSerialization.data(withJSONObject: raw, options: [.sortedKeys]), as: UTF8.self)
                try e.upsert(S.records([text]))
                current[S.id(raw)] = raw
            }
            // Now and then a compaction renumbers the entries: names and orders start over.
            if step % 10 == 9 { e.pointSet(kind: kind)?.compact() }
            for sort in sorts {
                let want = S.ordered(Array(current.values), kind: kind, sort: sort)
                let whole = try e.search(SearchQuery(kind: RecordKind(kind), area: nil, limit: 1000, sort: sort))
                log.check(whole.hits.map(\.id) == want, "step \(step) \(sort): one page differs from the oracle")
                try Self.checkListing(e, kind: kind, filter: .all, sort: sort, want: want, limit: rng.int(1...9),
                                      context: "step \(step) \(sort)", &log)
            }
            if log.full { break }
        }
        #expect(log.isEmpty, "\(log.summary)")
    }

    /// After every rename, new record and removal, text listings (ids and relevance) equal
    /// those of an engine loaded afresh with the records as they now stand: the words kept
    /// per entry across writes give the index a fresh build would.
    @Test(arguments: ["animal", "program"])
    func textSearchFollowsEveryWrite(kind: String) throws {
        var rng = SplitMix64(seed: 1400 + kind.utf8.count)
        var log = FailureLog(limit: 8)
        let e = Engine(catalog: S.catalog)
        let lines = Array(S.lines(kind + "s").prefix(60))
        var current: [String: String] = [:]
        for line in lines { current[S.id(S.parse(line))] = line }
        // An animal's shelter must exist.
        if kind == "animal" { try e.upsert(S.records(S.lines("shelters"))) }
        try e.upsert(S.records(lines))
        let words = ["Burek", "quiet", "garden", "lap", "strength", "beginner", "Łatka", "walks"]
        for step in 0..<30 {
            var raw = S.parse(rng.pick(lines))
            if rng.int(0...3) == 0 {
                _ = try e.remove(kind: RecordKind(kind), ids: [S.id(raw)])
                current[S.id(raw)] = nil
            } else {
                raw["name"] = rng.pick(words) + " \(step)"
                if rng.int(0...2) == 0 { raw["id"] = "\(kind)-new-\(step)" }
                let text = String(decoding: try JSONSerialization.data(withJSONObject: raw, options: [.sortedKeys]), as: UTF8.self)
                try e.upsert(S.records([text]))
                current[S.id(raw)] = text
            }
            // Now and then a compaction renumbers the entries: the kept words start over.
            if step % 10 == 9 { e.pointSet(kind: kind)?.compact() }
            let fresh = Engine(catalog: S.catalog)
            if kind == "animal" { try fresh.upsert(S.records(S.lines("shelters"))) }
            try fresh.upsert(S.records(Array(current.values)))
            for text in [rng.pick(words), rng.pick(words) + " " + rng.pick(words), "\(step)"] {
                let q = SearchQuery(kind: RecordKind(kind), area: nil, limit: 1000, text: text)
                let got = try e.search(q).hits.map { "\($0.id) \($0.relevance!)" }
                let want = try fresh.search(q).hits.map { "\($0.id) \($0.relevance!)" }
                log.check(got == want, "step \(step) \"\(text)\": \(got.prefix(3)) vs fresh \(want.prefix(3))")
            }
            if log.full { break }
        }
        #expect(log.isEmpty, "\(log.summary)")
    }

    @Test func textListingsPageLikeTheWholeAnswer() throws {
        var rng = SplitMix64(seed: 1211)
        var log = FailureLog()
        for _ in 0..<12 {
            let kind = rng.pick(["article", "program", "lover"])
            let r = rng.pick(S.raw(kind))
            let source = kind == "article" ? S.strings(r, "keywords").joined(separator: " ") + " " + S.string(r, "situation")! : S.string(r, kind == "lover" ? "about" : "description")!
            let words = S.fold(source).split(separator: " ").filter { $0.count > 3 }.map(String.init)
            guard !words.isEmpty else { continue }
            let text = Array(words.shuffled(using: &rng).prefix(rng.int(1...2))).joined(separator: " ")
            // Every word (strict): the words are the record's own, so it must be among the matches.
            var query = SearchQuery(kind: RecordKind(kind), area: nil, limit: 100_000, text: text)
            query.words = .all
            let whole = try S.engine.search(query)
            log.check(whole.hits.contains { $0.id == S.id(r) }, "\(kind) \"\(text)\" misses \(S.id(r)), whose text has the words")
            let names = Dictionary(uniqueKeysWithValues: S.raw(kind).map { (S.id($0), S.fold(S.name($0, kind: kind))) })
            for (a, b) in zip(whole.hits, whole.hits.dropFirst()) {
                let ordered = a.relevance! > b.relevance! || (a.relevance! == b.relevance!
                    && (names[a.id]! != names[b.id]! ? S.bytesBefore(names[a.id]!, names[b.id]!) : S.bytesBefore(a.id, b.id)))
                log.check(ordered, "\(kind) \"\(text)\": \(a.id) before \(b.id)")
            }
            let limit = max(1, whole.total / rng.int(2...5))
            var paged: [String] = [], after: String?
            repeat {
                var next = SearchQuery(kind: RecordKind(kind), area: nil, limit: limit, text: text, after: after)
                next.words = .all
                let page = try S.engine.search(next)
                log.check(page.total == whole.total, "\(kind) \"\(text)\": page total")
                paged += page.hits.map(\.id)
                after = page.nextAfter
            } while after != nil && paged.count <= whole.total
            log.check(paged == whole.hits.map(\.id), "\(kind) \"\(text)\": pages differ from the whole")
        }
        #expect(log.isEmpty, "\(log.summary)")
    }

    /// Text listings in every sort, with random filters, page by page: the text's matches
    /// (those of the relevance listing) that pass the filter, in the oracle's order.
    @Test(arguments: ["program", "lover", "article", "animal", "shelter"])
    func textListingsEqualTheOracleInEverySort(kind: String) throws {
        var rng = SplitMix64(seed: 1300 + kind.utf8.count)
        var log = FailureLog(limit: 8)
        let raw = S.raw(kind)
        let sorts = S.sorts(kind)
        var checked = 0
        for i in 0..<9 {
            let r = rng.pick(raw)
            let field = ["article": "situation", "lover": "about", "shelter": "name"][kind] ?? "description"
            guard let source = S.string(r, field) else { continue }
            let words = S.fold(source).split(separator: " ").filter { $0.count > 3 }.map(String.init)
            guard let text = words.randomElement(using: &rng) else { continue }
            let matched = Set(try S.engine.search(SearchQuery(kind: RecordKind(kind), area: nil, limit: 100_000, text: text)).hits.map(\.id))
            let f = i % 3 == 0 ? RandomFilter() : RandomFilter.random(kind: kind, &rng)
            let filter = try S.filter(f.text, kind: kind)
            let sort = sorts[i % sorts.count]
            let want = S.ordered(raw.filter { matched.contains(S.id($0)) && f.matches($0) }, kind: kind, sort: sort)
            let limit = want.count <= 12 ? rng.int(1...4) : max(1, want.count / rng.int(2...5))
            try Self.checkListing(S.engine, kind: kind, filter: filter, sort: sort, text: text, want: want, limit: limit,
                                  context: "\(kind) \"\(text)\" \(sort) \(f.text)", &log)
            checked += 1
        }
        #expect(checked >= 5)
        #expect(log.isEmpty, "\(log.summary)")
    }

    @Test func animalsWithinARadiusEqualBruteForce() throws {
        var rng = SplitMix64(seed: 1210)
        var log = FailureLog()
        for _ in 0..<14 {
            let f = RandomFilter.animal(&rng)
            let filter = try S.filter(f.text, kind: "animal")
            let anchor = rng.pick(S.animals)
            let c = Scenario.near(GeoPoint(lat: S.number(anchor, "lat")!, lon: S.number(anchor, "lon")!), spread: 20_000, &rng)
            let r = rng.logUniform(2_000, 150_000)
            let inside = S.animals.filter { a in
                Geodesic.distance(GeoPoint(lat: S.number(a, "lat")!, lon: S.number(a, "lon")!), c) <= r && f.matches(a)
            }
            let byDistance = inside.map { a in (Oracle.mm(GeoPoint(lat: S.number(a, "lat")!, lon: S.number(a, "lon")!), c), S.id(a)) }
                .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : S.bytesBefore($0.1, $1.1) }
            let got = try S.engine.search(SearchQuery(kind: "animal", area: .radius(center: c, meters: r), limit: 100_000, filter: filter))
            log.check(got.total == inside.count, "radius \(r) filter \(f.text): total \(got.total), oracle \(inside.count)")
            log.check(got.hits.map(\.id) == byDistance.map(\.1), "radius \(r) filter \(f.text): order differs")
            log.check(got.hits.map { $0.distance! } == byDistance.map(\.0), "radius \(r) filter \(f.text): distances differ")
            let byName = try S.engine.search(SearchQuery(kind: "animal", area: .radius(center: c, meters: r), limit: 100_000, sort: .name, filter: filter))
            log.check(byName.hits.map(\.id) == S.ordered(inside, kind: "animal", sort: .name), "radius \(r) filter \(f.text): name order differs")
        }
        #expect(log.isEmpty, "\(log.summary)")
    }

    /// Species in Polish or English, with or without diacritics, select the animals of the
    /// canonical species (the expected species are what the words mean, not engine output).
    @Test(arguments: [("pies", "dog"), ("Psy", "dog"), ("świnka morska", "guinea_pig"), ("swinka morska", "guinea_pig"),
                      ("guinea pigs", "guinea_pig"), ("Świnki morskie", "guinea_pig"), ("kot", "cat"), ("cats", "cat"),
                      ("KRÓLIKI", "rabbit"), ("króliki", "rabbit"), ("konie", "horse"), ("fretka", "ferret")])
    func speciesNamesSelectTheCanonicalSpecies(name: String, species: String) throws {
        let want = S.animals.filter { S.string($0, "species") == species }.map(S.id).sorted(by: S.bytesBefore)
        #expect(!want.isEmpty)
        for filterText in [#"{"species":"\#(name)"}"#, #"{"species":["\#(name)"]}"#] {
            let got = try S.engine.search(SearchQuery(kind: "animal", area: nil, limit: 100_000, sort: .id, filter: try S.filter(filterText, kind: "animal")))
            #expect(got.total == want.count, "\(filterText)")
            #expect(got.hits.map(\.id) == want, "\(filterText)")
        }
        // The same word in a shelter's animal condition.
        let shelters = try S.engine.search(SearchQuery(kind: "shelter", area: nil, limit: 100_000, sort: .id,
                                                       filter: try S.filter(#"{"animal":{"species":"\#(name)"}}"#, kind: "shelter")))
        let wantShelters = S.shelters.filter { s in ((s["animals"] as? [RawRecord]) ?? []).contains { S.string($0, "species") == species } }
        #expect(shelters.hits.map(\.id) == wantShelters.map(S.id).sorted(by: S.bytesBefore))
    }

    /// A record whose species is written as a word of `species.tsv` other than the canonical
    /// one (a valid species word: lower-case a-z) is the same species as its canonical form:
    /// "Species and common words match in Polish and English … in both directions".
    @Test func aRecordWrittenWithAnotherSpeciesNameIsFoundByItsSpecies() throws {
        let e = Engine(catalog: S.catalog)
        let template = S.records([S.lines("animals")[0]])[0]
        func animal(_ id: String, _ species: String) -> PointRecord {
            var r = template
            r.id = id
            r.fields = r.fields.map { $0.0 == "species" ? ($0.0, .string(species)) : $0 }
            return r
        }
        try e.upsert(S.records([S.lines("shelters")[0]]))
        try e.upsert([animal("a-kot", "kot"), animal("a-cat", "cat"), animal("a-pies", "pies"), animal("a-dog", "dog")])
        for (word, want) in [("cat", ["a-cat", "a-kot"]), ("kot", ["a-cat", "a-kot"]), ("koty", ["a-cat", "a-kot"]),
                             ("dog", ["a-dog", "a-pies"]), ("psy", ["a-dog", "a-pies"])] {
            let got = try e.search(SearchQuery(kind: "animal", area: nil, limit: 100, sort: .id, filter: try S.filter(#"{"species":"\#(word)"}"#, kind: "animal")))
            #expect(got.hits.map(\.id) == want, "species \(word)")
        }
        // A dog lover whose other pets are written in Polish has a dog.
        let lover = S.records([S.lines("lovers")[0]])[0]
        var polish = lover
        polish.id = "lover-pl"
        polish.fields = polish.fields.map { $0.0 == "other_pets" ? ($0.0, .array([.string("pies")])) : $0 }
        try e.upsert([polish])
        let found = try e.search(SearchQuery(kind: "lover", area: nil, limit: 10, filter: try S.filter(#"{"other_pets":"dog"}"#, kind: "lover")))
        #expect(found.hits.map(\.id) == ["lover-pl"], "other_pets [\"pies\"] is a dog")
        if case .lover(let l)? = try e.get(kind: "lover", ids: ["lover-pl"])[0]?.record { #expect(l.hasDog, "a lover with a pies has a dog") }
    }

    /// The breed table and its aliases read from the CSV files with Foundation: folded name → breed.
    static let breedNames: [String: String] = {
        var out: [String: String] = [:]
        let breeds = try! String(contentsOfFile: Repository.data + "/breeds.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        for line in breeds { let name = String(line.split(separator: ",", omittingEmptySubsequences: false)[0]); out[S.fold(name)] = name }
        let aliases = try! String(contentsOfFile: Repository.data + "/breed_aliases.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        for line in aliases {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            out[S.fold(cells[0])] = cells[1]
        }
        return out
    }()

    @Test(arguments: [(["Lab"], ["Labrador Retriever"]), (["Alsatian"], ["German Shepherd Dog"]),
                      (["owczarek niemiecki"], ["German Shepherd Dog"]), (["OWCZAREK NIEMIECKI"], ["German Shepherd Dog"]),
                      (["Lab", "Alsatian"], ["Labrador Retriever", "German Shepherd Dog"]), (["labrador"], ["Labrador Retriever"])])
    func breedAliasesSelectExactlyTheTargetBreed(names: [String], breeds: [String]) throws {
        // A dog is of a breed when its written breed, or that name's breed, is it.
        let want = S.dogs.filter { d in
            let written = S.string(d, "breed")!
            return breeds.contains(Self.breedNames[S.fold(written)] ?? "Mixed")
        }.map(S.id).sorted(by: S.bytesBefore)
        #expect(want.count > 50)
        let filterText = #"{"breed":[\#(RandomFilter.quoted(names))]}"#
        let got = try S.engine.search(SearchQuery(kind: "dog", area: nil, limit: 100_000, sort: .id, filter: try S.filter(filterText, kind: "dog")))
        #expect(got.total == want.count, "\(filterText)")
        #expect(got.hits.map(\.id) == want, "\(filterText)")
        // Dogs written with another name are found; the look-alike is not.
        let extras = Set(got.hits.map(\.id).filter { $0.hasPrefix("alias-dog-") })
        #expect(!extras.contains("alias-dog-6"), "Labradoodle is no Labrador")
        #expect(!extras.isEmpty)
    }

    // MARK: get

    @Test func getAnswersInTheOrderAskedWithDuplicatesAndMissingIds() throws {
        var rng = SplitMix64(seed: 1220)
        for kind in ["program", "lover", "article", "animal", "shelter"] {
            let raw = S.raw(kind)
            var ids: [String] = []
            for _ in 0..<40 {
                switch rng.int(0...5) {
                case 0: ids.append("\(kind)-missing-\(rng.int(0...99))")
                case 1 where !ids.isEmpty: ids.append(rng.pick(ids))   // a duplicate
                default: ids.append(S.id(rng.pick(raw)))
                }
            }
            let byID = Dictionary(uniqueKeysWithValues: raw.map { (S.id($0), $0) })
            let got = try S.engine.get(kind: RecordKind(kind), ids: ids)
            #expect(got.count == ids.count)
            for (id, hit) in zip(ids, got) {
                guard let r = byID[id] else { #expect(hit == nil, "\(kind) \(id) should be missing"); continue }
                let h = try #require(hit, "\(kind) \(id) should be found")
                #expect(h.id == id && h.kind.name == kind)
                if let lat = S.number(r, "lat"), let lon = S.number(r, "lon") {
                    #expect(h.point == GeoPoint(lat: lat, lon: lon) && !h.isApproximate, "\(id): an exact point")
                } else {
                    #expect(h.point == nil, "\(id): no place")
                }
                #expect(S.foundationFields(h) == S.ownFields(r), "\(kind) \(id): fields as loaded")
            }
        }
    }

    @Test func getShowsADogAtItsPublishedCellNeverAtHome() throws {
        var rng = SplitMix64(seed: 1221)
        let dogs = (0..<60).map { _ in rng.pick(S.dogs) }
        let got = try S.engine.get(kind: "dog", ids: dogs.map(S.id))
        for (d, hit) in zip(dogs, got) {
            let h = try #require(hit)
            let home = GeoPoint(lat: S.number(d, "lat")!, lon: S.number(d, "lon")!)
            let cell = LocationPrivacy.approximate.shown(home, kind: "dog")
            #expect(h.point == cell && h.isApproximate)
            #expect(h.point != home)
            #expect(Geodesic.distance(h.point!, home) < 1_000, "the cell centre is within the ~1 km cell")
        }
        // A spatial search answers from the same published point.
        let d = dogs[0]
        let home = GeoPoint(lat: S.number(d, "lat")!, lon: S.number(d, "lon")!)
        let near = try S.engine.search(SearchQuery(kind: "dog", area: .radius(center: home, meters: 2_000), limit: 100_000))
        #expect(near.hits.first { $0.id == S.id(d) }?.point == got[0]?.point)
        for d in dogs.prefix(10) {
            let home = GeoPoint(lat: S.number(d, "lat")!, lon: S.number(d, "lon")!)
            let cell = LocationPrivacy.approximate.shown(home, kind: "dog")
            let atCell = try S.engine.search(SearchQuery(kind: "dog", area: .radius(center: cell, meters: 0.5), limit: 100_000))
            let atHome = try S.engine.search(SearchQuery(kind: "dog", area: .radius(center: home, meters: 0.5), limit: 100_000))
            #expect(atCell.hits.contains { $0.id == S.id(d) } && !atHome.hits.contains { $0.id == S.id(d) }, "\(S.id(d)) is indexed at its cell")
        }
    }

    @Test func getOfAKindNeverLoadedIsNotFound() {
        for kind in ["gym", "unicorn", "programs"] {
            #expect { try S.engine.get(kind: RecordKind(kind), ids: ["x"]) } throws: { e in
                (e as? ScoutError)?.code == .notFound && (e as? ScoutError)?.path == "kind"
            }
        }
        #expect { try S.engine.get(kind: "program", ids: (0...Engine.maximumGetIds).map { "p\($0)" }) } throws: { e in
            (e as? ScoutError)?.code == .limitExceeded
        }
        #expect((try? S.engine.get(kind: "program", ids: []))?.isEmpty == true)
    }

    // MARK: Records without a place

    @Test func placelessRecordsNeverAppearInSpatialQueriesAndMovesCountOnce() async {
        await propertyCheck(count: 6, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            let e = Engine(catalog: S.catalog)
            let centre = GeoPoint(lat: 53.35, lon: -6.26)
            // State: id → point (nil: placeless).
            var state: [String: GeoPoint?] = [:]
            let ids = (0..<40).map { String(format: "poi-%03d", $0) }
            for step in 0..<12 {
                var batch: [PointRecord] = []
                for id in ids where step == 0 || rng.chance(0.3) {
                    let p: GeoPoint? = rng.chance(0.5) ? nil : Scenario.near(centre, spread: 30_000, &rng)
                    state[id] = .some(p)
                    batch.append(PointRecord(id: id, kind: "poi", point: p, fields: [("step", .number("\(step)"))]))
                }
                if rng.chance(0.2), let gone = ids.filter({ state[$0] != nil }).randomElement(using: &rng) {
                    _ = try? e.remove(kind: "poi", ids: [gone])
                    state[gone] = nil
                    batch.removeAll { $0.id == gone }
                }
                if !batch.isEmpty { _ = try? e.upsert(batch) }
                let located = state.compactMap { id, p in p.map { (id, $0) } }
                let live = state.keys.sorted(by: S.bytesBefore)
                do {
                    let list = try e.search(SearchQuery(kind: "poi", area: nil, limit: 1000))
                    log.check(list.hits.map(\.id) == live, "step \(step): listing \(list.hits.map(\.id).count) vs \(live.count)")
                    log.check(list.total == live.count, "step \(step): listing total")
                    let world = try e.search(SearchQuery(kind: "poi", area: .box(GeoBox(west: -180, south: -90, east: 180, north: 90)), limit: 1000))
                    log.check(Set(world.hits.map(\.id)) == Set(located.map(\.0)) && world.total == located.count, "step \(step): world box")
                    let r = rng.uniform(1_000, 40_000)
                    let within = try e.search(SearchQuery(kind: "poi", area: .radius(center: centre, meters: r), limit: 1000))
                    let wantWithin = located.filter { Geodesic.distance($0.1, centre) <= r }.map(\.0)
                    log.check(Set(within.hits.map(\.id)) == Set(wantWithin) && within.hits.count == wantWithin.count, "step \(step): radius")
                    let nearest = try e.nearest(NearestQuery(kind: "poi", from: centre, k: 1000))
                    log.check(nearest.hits.count == located.count && Set(nearest.hits.map(\.id)) == Set(located.map(\.0)), "step \(step): nearest")
                    let got = try e.get(kind: "poi", ids: ids)
                    for (id, h) in zip(ids, got) {
                        switch state[id] {
                        case nil: log.check(h == nil, "step \(step): \(id) removed but found")
                        case .some(let p): log.check(h?.point == p && h?.fields.first?.1 != nil, "step \(step): \(id) place \(String(describing: h?.point)) vs \(String(describing: p))")
                        }
                    }
                } catch {
                    log.check(false, "step \(step): \(error)")
                }
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func typedPlacelessKindsAreInvisibleToSpatialQueries() throws {
        let e = Engine(catalog: S.catalog)
        try e.upsert(S.records(Array(S.lines("programs").prefix(20))))
        try e.upsert([PointRecord(id: "p-located", kind: "poi", point: GeoPoint(lat: 0, lon: 0))])
        let world = SearchArea.box(GeoBox(west: -180, south: -90, east: 180, north: 90))
        #expect(try e.search(SearchQuery(kind: "program", area: world)).total == 0)
        #expect(try e.nearest(NearestQuery(kind: "program", from: GeoPoint(lat: 0, lon: 0), k: 10)).hits.isEmpty)
        #expect(try e.search(SearchQuery(kind: "program", area: nil)).total == 20)
        #expect(e.stats().first { $0.kind == "program" }?.count == 20)
        // A program given a place is refused.
        #expect(throws: ScoutError.self) { try e.upsert([PointRecord(id: "program-x", kind: "program", point: GeoPoint(lat: 1, lon: 1), fields: S.records([S.lines("programs")[0]])[0].fields)]) }
    }

    // MARK: Reviews, votes and patches

    /// The sample lines the feedback tests load: lovers and dogs with and without reviews,
    /// programs with votes, without votes and with only down-votes, articles.
    static let feedbackLines: [String] = {
        let lovers = S.lines("lovers"), programs = S.lines("programs"), articles = S.lines("articles")
        return Array(lovers.prefix(6)) + Array(S.dogLines.prefix(6)) + Array(programs.prefix(6)) + [programs[9], programs[26], programs[30]]
            + Array(articles.prefix(3))
    }()

    static func feedbackEngine() throws -> Engine {
        let e = Engine(catalog: S.catalog)
        try e.upsert(S.records(feedbackLines))
        return e
    }

    /// The raw record of each feedback id.
    nonisolated(unsafe) static let feedbackRaw: [String: RawRecord] = Dictionary(uniqueKeysWithValues: feedbackLines.map { (S.id(S.parse($0)), S.parse($0)) })

    static func ids(kind: String) -> [String] { feedbackLines.map(S.parse).filter { $0["kind"] as? String == kind }.map(S.id) }

    /// Every record of the feedback kinds, as text (points, fields in order).
    static func dump(_ e: Engine) throws -> String {
        try ["lover", "dog", "program", "article"].map { kind in
            try e.get(kind: RecordKind(kind), ids: ids(kind: kind)).map(S.text).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// A review or a vote.
    struct FeedbackOp: Sendable, CustomStringConvertible {
        let kind: String, record: String, participant: String
        /// Stars per criterion, in the order given (reviews), empty for votes.
        let ratings: [(criterion: String, stars: Int)]
        let text: String
        /// 1, -1 or 0 (votes).
        let value: Int
        var isReview: Bool { !ratings.isEmpty }

        func apply(_ e: Engine) throws -> FeedbackOutcome {
            isReview ? try e.review(kind: RecordKind(kind), record: record, reviewer: participant, ratings: ratings, text: text)
                : try e.vote(kind: RecordKind(kind), record: record, voter: participant, value: value)
        }

        var description: String {
            isReview ? "review \(record) by \(participant) \(ratings.map { "\($0.criterion)=\($0.stars)" }) \"\(text)\""
                : "vote \(record) by \(participant) \(value)"
        }

        static func random(_ rng: inout SplitMix64, participant: String, review: Bool) -> FeedbackOp {
            if review {
                let kind = rng.chance(0.5) ? "lover" : "dog"
                let criteria = kind == "lover" ? ["reliability", "care"] : ["temperament", "excitability", "experience_needed"]
                let rated = criteria.shuffled(using: &rng)   // every criterion, in any order
                return FeedbackOp(kind: kind, record: rng.pick(CatalogCallsTests.ids(kind: kind)), participant: participant,
                                  ratings: rated.map { ($0, rng.int(1...5)) }, text: rng.pick(["", "", "Lovely.", "Late twice; kind to my dog."]), value: 0)
            }
            let kind = rng.chance(0.7) ? "program" : "article"
            return FeedbackOp(kind: kind, record: rng.pick(CatalogCallsTests.ids(kind: kind)), participant: participant, ratings: [], text: "",
                              value: rng.pick([1, 1, -1, -1, 0]))
        }
    }

    /// The oracle: every participant's last review or vote per record.
    struct FeedbackModel {
        /// record → reviewer → (stars by criterion, text).
        var reviews: [String: [String: (stars: [String: Int], text: String)]] = [:]
        /// record → voter → ±1.
        var votes: [String: [String: Int]] = [:]

        /// Applies an op; returns what the engine should answer: (replaced, changed).
        mutating func apply(_ op: FeedbackOp) -> (replaced: Bool, changed: Bool) {
            if op.isReview {
                let new = (stars: Dictionary(uniqueKeysWithValues: op.ratings.map { ($0.criterion, $0.stars) }), text: op.text)
                let old = reviews[op.record]?[op.participant]
                reviews[op.record, default: [:]][op.participant] = new
                return (old != nil, old.map { $0.stars != new.stars || $0.text != new.text } ?? true)
            }
            let old = votes[op.record]?[op.participant]
            if op.value == 0 {
                votes[op.record]?[op.participant] = nil
                return (old != nil, old != nil)
            }
            votes[op.record, default: [:]][op.participant] = op.value
            return (old != nil, old != op.value)
        }

        /// Expected (mean, count) of a criterion: the loaded aggregate plus every entry.
        func aggregate(_ record: String, _ criterion: String, raw: RawRecord) -> (mean: Double?, count: Int) {
            let base = S.review(raw, criterion)
            var sum = (base.mean ?? 0) * Double(base.count), n = base.count
            for (_, e) in reviews[record] ?? [:] { if let s = e.stars[criterion] { sum += Double(s); n += 1 } }
            return (n == 0 ? nil : sum / Double(n), n)
        }

        func tally(_ record: String, raw: RawRecord) -> (up: Int, down: Int) {
            let base = S.votes(raw), mine = votes[record]?.values ?? [:].values
            return (base.up + mine.filter { $0 == 1 }.count, base.down + mine.filter { $0 == -1 }.count)
        }
    }

    /// Checks a record against the model: aggregates, rating, the kept entries (sorted by
    /// participant) and every other field as loaded.
    static func check(_ h: SearchHit?, against model: FeedbackModel, _ log: inout FailureLog, _ context: String,
                      ownFields: NSDictionary? = nil) {
        guard let h, let raw = feedbackRaw[h.id] else { log.check(false, "\(context): record missing"); return }
        func close(_ a: Double?, _ b: Double?) -> Bool { a == nil ? b == nil : b != nil && abs(a! - b!) < 1e-9 }
        var own = S.foundationFields(h) as! [String: Any]
        let reviewsBy = own.removeValue(forKey: "reviews_by") as? [String: Any]
        let votesBy = own.removeValue(forKey: "votes_by") as? [String: Any]
        log.check((own as NSDictionary) == (ownFields ?? S.ownFields(raw)), "\(context): \(h.id) fields other than the entries changed")
        switch h.record {
        case .lover, .dog:
            let aggregates: [(String, ReviewAggregate)]
            switch h.record {
            case .lover(let l): aggregates = [("reliability", l.reliability), ("care", l.care)]
            case .dog(let d): aggregates = [("temperament", d.temperament), ("excitability", d.excitability), ("experience_needed", d.experienceNeeded)]
            default: aggregates = []
            }
            for (c, a) in aggregates {
                let want = model.aggregate(h.id, c, raw: raw)
                log.check(a.count == want.count && close(a.mean, want.mean), "\(context): \(h.id) \(c) \(a) vs oracle \(want)")
                log.check(close(Reviews.wilsonLowerBound(a), S.wilson(mean: want.mean, count: want.count)), "\(context): \(h.id) \(c) wilson")
            }
            let first = model.aggregate(h.id, aggregates[0].0, raw: raw)
            log.check(close(h.rating, S.bayesian(mean: first.mean, count: first.count)), "\(context): \(h.id) rating \(h.rating ?? -1)")
            let entries = model.reviews[h.id] ?? [:]
            var want: [String: Any] = [:]
            for (reviewer, e) in entries {
                var v: [String: Any] = ["ratings": e.stars]
                if !e.text.isEmpty { v["text"] = e.text }
                want[reviewer] = v
            }
            log.check(entries.isEmpty ? reviewsBy == nil : (reviewsBy as NSDictionary?) == (want as NSDictionary), "\(context): \(h.id) reviews_by")
        case .program, .article:
            let (up, down): (Int, Int)
            switch h.record {
            case .program(let p): (up, down) = (p.upVotes, p.downVotes)
            case .article(let a): (up, down) = (a.upVotes, a.downVotes)
            default: (up, down) = (-1, -1)
            }
            let want = model.tally(h.id, raw: raw)
            log.check(up == want.up && down == want.down, "\(context): \(h.id) votes \(up)/\(down) vs oracle \(want)")
            log.check(close(h.rating, S.wilson(up: want.up, down: want.down)), "\(context): \(h.id) rating")
            let entries = model.votes[h.id] ?? [:]
            log.check(entries.isEmpty ? votesBy == nil : (votesBy as NSDictionary?) == (entries as NSDictionary), "\(context): \(h.id) votes_by")
        default:
            log.check(false, "\(context): \(h.id) is not a reviewed or voted kind")
        }
        // Entries are kept in byte order of the participant.
        for key in ["reviews_by", "votes_by"] {
            if let m = h.fields.first(where: { $0.0 == key })?.1.members {
                log.check(zip(m, m.dropFirst()).allSatisfy { S.bytesBefore($0.0, $1.0) }, "\(context): \(h.id) \(key) not sorted")
            }
        }
    }

    static func checkAll(_ e: Engine, _ model: FeedbackModel, _ log: inout FailureLog, _ context: String) throws {
        for kind in ["lover", "dog", "program", "article"] {
            for h in try e.get(kind: RecordKind(kind), ids: ids(kind: kind)) { check(h, against: model, &log, context) }
        }
    }

    /// A random merge of per-participant sequences that keeps each participant's order.
    static func interleave(_ sequences: [[FeedbackOp]], _ rng: inout SplitMix64) -> [FeedbackOp] {
        var rest = sequences.filter { !$0.isEmpty }.map { $0[...] }
        var out: [FeedbackOp] = []
        while !rest.isEmpty {
            let i = rng.int(0...(rest.count - 1))
            out.append(rest[i].removeFirst())
            if rest[i].isEmpty { rest.remove(at: i) }
        }
        return out
    }

    @Test func reviewsAndVotesInAnyOrderLeaveIdenticalRecordsAndOracleAggregates() async {
        await propertyCheck(count: 8, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            // Each participant's own history: changes of mind, withdrawals, several records.
            var sequences: [[FeedbackOp]] = []
            for p in 0..<rng.int(4...10) {
                let name = rng.pick(["", "user-", "ówner-", "Z"]) + "\(p)"
                sequences.append((0..<rng.int(1...4)).map { _ in FeedbackOp.random(&rng, participant: name, review: true) })
                sequences.append((0..<rng.int(1...4)).map { _ in FeedbackOp.random(&rng, participant: name, review: false) })
            }
            do {
                var dumps: [String] = []
                for order in 0..<3 {
                    let e = try Self.feedbackEngine()
                    var model = FeedbackModel()
                    for op in Self.interleave(sequences, &rng) {
                        let want = model.apply(op)
                        let got = try op.apply(e)
                        log.check(got.replaced == want.replaced && got.changed == want.changed,
                                  "order \(order): \(op): replaced \(got.replaced) changed \(got.changed), oracle \(want)")
                        Self.check(got.record, against: model, &log, "order \(order) after \(op)")
                    }
                    try Self.checkAll(e, model, &log, "order \(order)")
                    dumps.append(try Self.dump(e))
                }
                log.check(dumps.allSatisfy { $0 == dumps[0] }, "the three orders left different records")
            } catch {
                log.check(false, "\(error)")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func repeatingAReviewVoteOrPatchEqualsDoingItOnce() throws {
        var rng = SplitMix64(seed: 1230)
        var log = FailureLog()
        let once = try Self.feedbackEngine(), many = try Self.feedbackEngine()
        var model = FeedbackModel()
        for i in 0..<24 {
            let op = FeedbackOp.random(&rng, participant: "p\(i % 5)", review: i % 2 == 0)
            let want = model.apply(op)
            let first = try op.apply(once)
            log.check(first.replaced == want.replaced && first.changed == want.changed, "\(op): first answer")
            _ = try op.apply(many)
            for _ in 0..<rng.int(2...5) {
                let again = try op.apply(many)
                // A repeat replaces the entry with itself: nothing changes (a repeated withdrawal has nothing to replace).
                log.check(again.changed == false && again.replaced == (op.isReview || op.value != 0), "\(op): repeat answered \(again)")
                log.check(S.text(again.record) == S.text(first.record), "\(op): a repeat changed the record")
            }
        }
        let patches: [(String, String, [(String, JSONValue)], [String])] = [
            ("lover", Self.ids(kind: "lover")[0], [("about", .string("Walks every morning.")), ("vetted", .bool(true))], ["town"]),
            ("dog", Self.ids(kind: "dog")[1], [("available", .bool(false)), ("weight_kg", .number("21.5"))], ["about"]),
            ("program", Self.ids(kind: "program")[2], [("weeks", .number("9")), ("description", .string("Shorter."))], []),
        ]
        for (kind, id, set, unset) in patches {
            let a = try once.patch(kind: RecordKind(kind), record: id, set: set, unset: unset)
            var last = a
            for _ in 0..<4 { last = try many.patch(kind: RecordKind(kind), record: id, set: set, unset: unset) }
            log.check(S.text(a) == S.text(last), "patch \(id): repeated patch differs")
            // The patched fields, as Foundation sees them: the loaded record with the changes.
            var want = S.ownFields(Self.feedbackRaw[id]!) as! [String: Any]
            for (k, v) in set { want[k] = v.string ?? (v.double as Any?) ?? (v == .bool(true)) }
            for k in unset { want.removeValue(forKey: k) }
            var got = S.foundationFields(a) as! [String: Any]
            got.removeValue(forKey: "reviews_by"); got.removeValue(forKey: "votes_by")
            log.check((got as NSDictionary) == (want as NSDictionary), "patch \(id): \(got) vs \(want)")
            // The patch kept the reviews and votes (and their aggregates).
            Self.check(a, against: model, &log, "after patch \(id)", ownFields: want as NSDictionary)
        }
        log.check(try Self.dump(once) == Self.dump(many), "repeated ops left different records")
        #expect(log.isEmpty, "\(log.summary)")
    }

    @Test func failedWritesChangeNothing() throws {
        let e = try Self.feedbackEngine()
        var model = FeedbackModel()
        let lover = Self.ids(kind: "lover")[0], dog = Self.ids(kind: "dog")[0], program = Self.ids(kind: "program")[0]
        for op in [FeedbackOp(kind: "lover", record: lover, participant: "a", ratings: [("care", 4), ("reliability", 3)], text: "ok", value: 0),
                   FeedbackOp(kind: "program", record: program, participant: "a", ratings: [], text: "", value: 1)] {
            _ = model.apply(op)
            _ = try op.apply(e)
        }
        let before = try Self.dump(e)
        func fails(_ code: ScoutError.Code, _ path: String, _ body: () throws -> Void) {
            do { try body(); Issue.record("expected \(code.rawValue) at \(path)") } catch let error as ScoutError {
                #expect(error.code == code && error.path == path, "\(error)")
            } catch { Issue.record("\(error)") }
        }
        fails(.notFound, "record") { _ = try e.review(kind: "lover", record: "lover-99999", reviewer: "a", ratings: [("care", 5), ("reliability", 5)]) }
        fails(.notFound, "record") { _ = try e.vote(kind: "program", record: "program-9999", voter: "a", value: 1) }
        fails(.notFound, "record") { _ = try e.vote(kind: "program", record: "program-9999", voter: "a", value: 0) }
        fails(.notFound, "record") { try e.patch(kind: "lover", record: "lover-99999", set: [("vetted", .bool(true))]) }
        fails(.invalidRequest, "ratings.reliabilty") { _ = try e.review(kind: "lover", record: lover, reviewer: "b", ratings: [("reliabilty", 5), ("care", 5)]) }
        fails(.invalidRequest, "ratings.care") { _ = try e.review(kind: "lover", record: lover, reviewer: "b", ratings: [("care", 6), ("reliability", 5)]) }
        fails(.invalidRequest, "ratings.care") { _ = try e.review(kind: "lover", record: lover, reviewer: "a", ratings: [("care", 0), ("reliability", 5)]) }
        // A review rates every criterion of its kind.
        fails(.invalidRequest, "ratings.care") { _ = try e.review(kind: "lover", record: lover, reviewer: "a", ratings: [("reliability", 5)]) }
        fails(.invalidRequest, "value") { _ = try e.vote(kind: "program", record: program, voter: "a", value: 2) }
        fails(.invalidRequest, "kind") { _ = try e.vote(kind: "lover", record: lover, voter: "a", value: 1) }
        fails(.invalidRequest, "kind") { _ = try e.review(kind: "program", record: program, reviewer: "a", ratings: [("care", 3)]) }
        fails(.invalidRequest, "set.experience") { try e.patch(kind: "lover", record: lover, set: [("about", .string("new")), ("experience", .number("9"))]) }
        fails(.invalidRequest, "set.weight_kg") { try e.patch(kind: "dog", record: dog, set: [("weight_kg", .number("-3"))]) }
        fails(.invalidRequest, "set.id") { try e.patch(kind: "dog", record: dog, set: [("id", .string("other"))]) }
        fails(.invalidRequest, "set.reviews_by") { try e.patch(kind: "lover", record: lover, set: [("reviews_by", .object([]))]) }
        fails(.invalidRequest, "set.votes_by") { try e.patch(kind: "program", record: program, set: [("votes_by", .object([]))]) }
        fails(.invalidRequest, "unset[1]") { try e.patch(kind: "lover", record: lover, set: [], unset: ["about", "reviews_by"]) }
        fails(.invalidRequest, "unset[0]") { try e.patch(kind: "dog", record: dog, set: [], unset: ["lat"]) }
        fails(.invalidRequest, "set.lat") { try e.patch(kind: "program", record: program, set: [("lat", .number("1"))]) }
        fails(.invalidRequest, "set.name") { try e.patch(kind: "program", record: program, set: [("name", .number("1"))]) }
        #expect(try Self.dump(e) == before)
        var log = FailureLog()
        try Self.checkAll(e, model, &log, "after failed writes")
        #expect(log.isEmpty, "\(log.summary)")
    }

    @Test func writesToADogKeepItAtItsPublishedCell() throws {
        let e = try Self.feedbackEngine()
        let id = Self.ids(kind: "dog")[0], raw = Self.feedbackRaw[id]!
        let home = GeoPoint(lat: S.number(raw, "lat")!, lon: S.number(raw, "lon")!)
        let cell = LocationPrivacy.approximate.shown(home, kind: "dog")
        _ = try e.review(kind: "dog", record: id, reviewer: "r", ratings: [("temperament", 5), ("excitability", 2), ("experience_needed", 3)])
        #expect(try e.get(kind: "dog", ids: [id])[0]?.point == cell)
        let patched = try e.patch(kind: "dog", record: id, set: [("available", .bool(false))])
        #expect(patched.point == cell && patched.isApproximate)
        #expect(try e.get(kind: "dog", ids: [id])[0]?.point == cell)
        // Moved to a new home: shown at the new home's cell, never at the home.
        let newHome = Geodesic.destination(from: home, azimuth: 45, meters: 5_000)
        let moved = try e.patch(kind: "dog", record: id, set: [("lat", .number("\(newHome.lat)")), ("lon", .number("\(newHome.lon)"))])
        let newCell = LocationPrivacy.approximate.shown(newHome, kind: "dog")
        #expect(moved.point == newCell && newCell != newHome)
        #expect(try e.get(kind: "dog", ids: [id])[0]?.point == newCell)
        let near = try e.search(SearchQuery(kind: "dog", area: .radius(center: newHome, meters: 2_000), limit: 100))
        #expect(near.hits.map(\.id) == [id] && near.hits[0].point == newCell)
        // The index holds the cell centre, not the home: a 1 m circle finds the dog at the centre only.
        #expect(try e.search(SearchQuery(kind: "dog", area: .radius(center: newCell, meters: 1), limit: 100)).hits.map(\.id) == [id])
        #expect(try e.search(SearchQuery(kind: "dog", area: .radius(center: newHome, meters: 1), limit: 100)).hits.isEmpty)
    }

    // MARK: Reads interleaved with writes

    /// Runs each body on its own thread (so readers and writers really interleave on two
    /// cores) and waits for all of them.
    static func runThreads(_ bodies: [@Sendable () -> Void]) {
        let group = DispatchGroup()
        for body in bodies {
            group.enter()
            let t = Thread { body(); group.leave() }
            t.stackSize = 8 << 20
            t.start()
        }
        group.wait()
    }

    /// Problems seen by reader threads, and how many reads they made.
    final class ReadLog: Sendable {
        let state = Mutex<(reads: Int, problems: [String], states: Set<String>)>((0, [], []))
        let writersDone = Mutex(0)
        func add(_ problems: [String], state: String) {
            self.state.withLock { s in
                s.reads += 1
                if s.problems.count < 8 { s.problems += problems.prefix(8 - s.problems.count) }
                s.states.insert(state)
            }
        }
        var finished: Bool { writersDone.withLock { $0 } >= 2 }
    }

    /// Consistency of one read: the aggregates equal the loaded ones plus the entries kept
    /// in the same record (so no read sees an aggregate without its entry, or the reverse).
    static func consistencyProblems(_ h: SearchHit?) -> [String] {
        guard let h, let raw = feedbackRaw[h.id] else { return ["a record vanished"] }
        var problems: [String] = []
        let by = h.fields.first { $0.0 == "reviews_by" }?.1.members ?? []
        func entries(_ c: String) -> [Double] { by.compactMap { $0.1["ratings"]?[c]?.double } }
        switch h.record {
        case .lover(let l):
            for (c, a) in [("reliability", l.reliability), ("care", l.care)] {
                let base = S.review(raw, c), mine = entries(c)
                let n = base.count + mine.count
                let mean = n == 0 ? nil : ((base.mean ?? 0) * Double(base.count) + mine.reduce(0, +)) / Double(n)
                if a.count != n || (a.mean == nil) != (mean == nil) || abs((a.mean ?? 0) - (mean ?? 0)) > 1e-9 {
                    problems.append("\(h.id) \(c): \(a) but \(mine.count) entries over \(base)")
                }
            }
        case .program(let p):
            let votes = (h.fields.first { $0.0 == "votes_by" }?.1.members ?? []).map { $0.1.double! }
            let base = S.votes(raw)
            if p.upVotes != base.up + votes.filter({ $0 == 1 }).count || p.downVotes != base.down + votes.filter({ $0 == -1 }).count {
                problems.append("\(h.id): \(p.upVotes)/\(p.downVotes) but entries \(votes) over \(base)")
            }
        default: problems.append("\(h.id): unexpected record")
        }
        return problems
    }

    @Test func readersSeeConsistentRecordsWhileWritersReviewAndVote() throws {
        let e = try Self.feedbackEngine()
        let lovers = Self.ids(kind: "lover"), programs = Self.ids(kind: "program")
        var rng = SplitMix64(seed: 1240)
        func ops(_ review: Bool) -> [FeedbackOp] {
            (0..<400).map { i in
                let participant = "\(review ? "r" : "v")\(rng.int(0...29))"
                if review {
                    let rated = ["reliability", "care"].shuffled(using: &rng)
                    return FeedbackOp(kind: "lover", record: rng.pick(lovers), participant: participant, ratings: rated.map { ($0, rng.int(1...5)) },
                                      text: i % 3 == 0 ? "" : "note \(i % 7)", value: 0)
                }
                return FeedbackOp(kind: "program", record: rng.pick(programs), participant: participant, ratings: [], text: "", value: rng.pick([1, -1, 0]))
            }
        }
        let reviews = ops(true), votes = ops(false)
        let log = ReadLog()
        let failures = Mutex<[String]>([])
        Self.runThreads([
            { for op in reviews { do { _ = try op.apply(e) } catch { failures.withLock { $0.append("\(op): \(error)") } } }
              log.writersDone.withLock { $0 += 1 } },
            { for op in votes { do { _ = try op.apply(e) } catch { failures.withLock { $0.append("\(op): \(error)") } } }
              log.writersDone.withLock { $0 += 1 } },
            {   // get, record by record
                repeat {
                    guard let hits = try? e.get(kind: "lover", ids: lovers + lovers.reversed()) else { log.add(["get failed"], state: ""); continue }
                    log.add(hits.flatMap(Self.consistencyProblems), state: hits.map(S.text).joined())
                } while !log.finished
            },
            {   // listings sorted by rating, whose order must agree with the records they show
                repeat {
                    guard let page = try? e.search(SearchQuery(kind: "program", area: nil, limit: 100, sort: .rating)),
                          let lover = try? e.search(SearchQuery(kind: "lover", area: nil, limit: 100, sort: .rating)) else {
                        log.add(["listing failed"], state: ""); continue
                    }
                    var problems = (page.hits + lover.hits).flatMap(Self.consistencyProblems)
                    let ratings = page.hits.map { S.wilson(up: $0.record.votes.up, down: $0.record.votes.down) }
                    if !zip(ratings, ratings.dropFirst()).allSatisfy({ $0 >= $1 - 1e-12 }) { problems.append("programs out of rating order") }
                    if page.total != programs.count || lover.total != lovers.count { problems.append("a listing lost a record") }
                    log.add(problems, state: page.hits.map(S.text).joined())
                } while !log.finished
            },
        ])
        #expect(failures.withLock { $0 }.isEmpty)
        let seen = log.state.withLock { $0 }
        #expect(seen.problems.isEmpty, "\(seen.problems)")
        #expect(seen.reads >= 10, "the readers must have read while the writers wrote")
        #expect(seen.states.count >= 3, "the readers must have seen the records change")
        // The final state is the sequential oracle's, and byte for byte a sequential run's.
        var model = FeedbackModel()
        for op in reviews + votes { _ = model.apply(op) }
        var checks = FailureLog()
        for h in try e.get(kind: "lover", ids: lovers) + e.get(kind: "program", ids: programs) { Self.check(h, against: model, &checks, "final") }
        #expect(checks.isEmpty, "\(checks.summary)")
        let sequential = try Self.feedbackEngine()
        for op in votes + reviews { _ = try op.apply(sequential) }
        #expect(try Self.dump(e) == Self.dump(sequential))
    }

    /// A record that moves between having a place and not (an untyped kind re-upserted with
    /// and without lat/lon) is, for every concurrent reader, found exactly once: never missing
    /// from `get` or a listing, never listed twice. (An upsert is atomic per kind, and a
    /// listing reads "an immutable snapshot, so a listing never sees half a write".)
    @Test func aRecordMovingInAndOutOfPlaceIsFoundOnceByConcurrentReaders() throws {
        let e = Engine(catalog: S.catalog)
        let ids = (0..<8).map { "mover-\($0)" }
        let others = (0..<200).map { PointRecord(id: "still-\($0)", kind: "poi", point: $0 % 2 == 0 ? nil : GeoPoint(lat: 50, lon: Double($0) / 100)) }
        try e.upsert(others + ids.map { PointRecord(id: $0, kind: "poi", point: GeoPoint(lat: 51, lon: 0)) })
        let done = Mutex(false)
        let counts = Mutex<[String: Int]>([:])
        Self.runThreads([
            {
                for round in 0..<200 {
                    let placed = round % 2 == 1
                    _ = try? e.upsert(ids.map { PointRecord(id: $0, kind: "poi", point: placed ? GeoPoint(lat: 51, lon: Double(round % 90)) : nil) })
                }
                done.withLock { $0 = true }
            },
            {
                repeat {
                    var seen: [String] = ["reads"]
                    if let got = try? e.get(kind: "poi", ids: ids), got.contains(where: { $0 == nil }) { seen.append("get missed a mover") }
                    if let list = try? e.search(SearchQuery(kind: "poi", area: nil, limit: 1000)) {
                        let listed = list.hits.map(\.id)
                        if listed.count > Set(listed).count { seen.append("listing held a mover twice") }
                        if Set(listed).count < 208 { seen.append("listing missed a mover") }
                        if list.total != 208 { seen.append("listing total wrong") }
                    }
                    counts.withLock { c in for k in seen { c[k, default: 0] += 1 } }
                } while !done.withLock({ $0 })
            },
        ])
        let c = counts.withLock { $0 }
        #expect((c["reads"] ?? 0) >= 10)
        #expect(c.keys.sorted() == ["reads"], "\(c)")
    }

    /// One id twice in a batch of an untyped kind, once with a place and once without: the
    /// later one wins, whichever it is — as it does when both have a place (found by the
    /// crash test, where a replayed batch and the live engine disagreed).
    @Test(arguments: [true, false])
    func theLastOfAnIdInABatchWinsAcrossPlacements(_ placedLast: Bool) throws {
        let engine = Engine()
        let placed = PointRecord(id: "a", kind: "spot", point: GeoPoint(lat: 10, lon: 20), fields: [("v", .number("1"))])
        let placeless = PointRecord(id: "a", kind: "spot", point: nil, fields: [("v", .number("2"))])
        try engine.upsert(placedLast ? [placeless, placed] : [placed, placeless])
        let got = try #require(try engine.get(kind: "spot", ids: ["a"]).first ?? nil)
        #expect((got.point != nil) == placedLast)
        #expect(got.fields.first?.1 == .number(placedLast ? "1" : "2"))
        let near = try engine.search(SearchQuery(kind: "spot", area: .radius(center: GeoPoint(lat: 10, lon: 20), meters: 1000)))
        #expect(near.total == (placedLast ? 1 : 0))
    }
}

extension CatalogRecord {
    /// Up- and down-votes of a voted record ((0, 0) for others).
    fileprivate var votes: (up: Int, down: Int) {
        switch self {
        case .program(let p): (p.upVotes, p.downVotes)
        case .article(let a): (a.upVotes, a.downVotes)
        case .gym(let g): (g.upVotes, g.downVotes)
        default: (0, 0)
        }
    }
}
