import Benchmark
import Foundation
import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutRecommend
import ScoutRecommendJSON
import ScoutWorker

// The pet tracker at scale: 100,000 pets (two owners each) with 1,000,000 care entries
// (10 a pet, seeded), and a pet's last 20 entries newest first, in process. Then this or that
// for a pet by its id (its pet, log and verdicts from the store) against the same request
// with them inline, through the worker's `respond(to:)`, in the same run.

let dataDirectory = ProcessInfo.processInfo.environment["SCOUT_DATA"] ?? "../data"
let petCount = 100_000, entriesPerPet = 10
let careTypes = ["feeding", "walk", "fetch", "brisk_walk", "vet_visit", "grooming"]

/// The seeded world: pets, then their care entries.
let engine: Engine = {
    let e = Engine(catalog: try! Catalog.load(dataDirectory: dataDirectory))
    var rng = SplitMix64(state: 35)
    var pets: [PointRecord] = []
    for p in 0..<petCount {
        pets.append(PointRecord(id: "pet-\(p)", kind: .pet, point: nil, fields: [
            ("name", .string("Pet \(p)")), ("species", .string("dog")), ("breed", .string("Beagle")), ("birth_date", .string("2021-04-02")),
            ("owners", .array([.string("u-\(p)"), .string("u-\(p + 1)")])),
        ]))
    }
    try! e.upsert(pets)
    for batch in 0..<(petCount * entriesPerPet / 100_000) {
        var entries: [PointRecord] = []
        for i in 0..<100_000 {
            let n = batch * 100_000 + i, pet = n % petCount
            let day = 1 + rng.below(27), hour = 6 + rng.below(16)
            let type = careTypes[rng.below(careTypes.count)]
            var fields: [(String, JSONValue)] = [
                ("pet_id", .string("pet-\(pet)")), ("type", .string(type)),
                ("start", .string("2026-10-\(day < 10 ? "0" : "")\(day)T\(hour < 10 ? "0" : "")\(hour):00:00Z")),
                ("minutes", .number(String(rng.below(61)))), ("comment", .string("entry \(n)")), ("logged_by", .string("u-\(pet)")),
            ]
            if type == "fetch" || type == "brisk_walk" { fields.append(("verdict", .string(["enjoyed", "neutral", "disliked"][rng.below(3)]))) }
            entries.append(PointRecord(id: "care-\(n)", kind: .care, point: nil, fields: fields))
        }
        try! e.upsert(entries)
    }
    return e
}()

let worker = Worker(engine: engine, recommender: try! Recommender.load(dataDirectory: dataDirectory, breeds: engine.catalog.breeds))

/// A pet's last 20 entries, as its owner reads them.
func lastEntries(_ pet: Int) -> SearchQuery {
    var q = SearchQuery(kind: .care, area: nil, limit: 20, sort: .newest, filter: .careEntries(.pet(["pet-\(pet)"])))
    q.user = "u-\(pet)"
    return q
}

/// This or that for pet 7 at an evening in October: by id, and with the same pet, log and
/// verdicts inline (the stored pet's own answer, read once).
let moment = #""now":"2026-10-28T18:30:00Z","timezone":"Europe/Dublin","location":{"lat":53.27,"lon":-9.05},"weather":{"temperature_c":12,"condition":"cloudy","wind_kmh":10},"seed":7"#
let byID = Array(#"{"op":"recommend_activities","pet_id":"pet-7","user":"u-7",\#(moment)}"#.utf8)[...]
let inline: ArraySlice<UInt8> = {
    var q = SearchQuery(kind: .care, area: nil, limit: 100, sort: .newest, filter: .careEntries(.pet(["pet-7"])))
    q.user = "u-7"
    let hits = try! engine.search(q).hits
    precondition(hits.count == entriesPerPet)
    func field(_ h: SearchHit, _ k: String) -> JSONValue? { h.fields.first { $0.0 == k }?.1 }
    let log = hits.reversed().map { h in
        #"{"type":"\#(field(h, "type")!.string!)","start":"\#(field(h, "start")!.string!)","minutes":\#(field(h, "minutes")!.double!)}"#
    }
    let feedback = hits.reversed().compactMap { h -> String? in
        guard let v = field(h, "verdict")?.string else { return nil }
        return #"{"activity":"\#(field(h, "type")!.string!)","rating":"\#(v)","at":"\#(field(h, "start")!.string!)"}"#
    }
    let pet = #"{"name":"Pet 7","species":"dog","breed":"Beagle","birth_date":"2021-04-02"}"#
    let line = #"{"op":"recommend_activities","pet":\#(pet),\#(moment),"log":[\#(log.joined(separator: ","))],"feedback":[\#(feedback.joined(separator: ","))]}"#
    let a = worker.respond(to: Array(line.utf8)[...]), b = worker.respond(to: byID)
    if a != b {
        let at = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
        fatalError("by id and inline answer differently at byte \(at):\n\(String(decoding: b.dropFirst(max(0, at - 300)).prefix(600), as: UTF8.self))\n\(String(decoding: a.dropFirst(max(0, at - 300)).prefix(600), as: UTF8.self))")
    }
    return Array(line.utf8)[...]
}()

/// The pets asked for, one after another (a prime stride over the 100,000).
nonisolated(unsafe) var cursor = 0
func nextPet() -> Int {
    cursor = (cursor + 7_919) % petCount
    return cursor
}

let benchmarks: @Sendable () -> Void = {
    let micro = Benchmark.Configuration(metrics: [.wallClock, .throughput], timeUnits: .microseconds, warmupIterations: 50,
                                        scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 100_000)
    // Warm: the first read after the load groups the entries by pet.
    blackHole(try! engine.search(lastEntries(0)))
    blackHole(inline)
    Benchmark("care 1M / a pet's last 20 entries, newest first", configuration: micro) { b in
        for _ in b.scaledIterations { blackHole(try! engine.search(lastEntries(nextPet()))) }
    }
    Benchmark("recommend_activities / by pet id", configuration: micro) { b in
        for _ in b.scaledIterations { blackHole(worker.respond(to: byID)) }
    }
    Benchmark("recommend_activities / inline (peer)", configuration: micro) { b in
        for _ in b.scaledIterations { blackHole(worker.respond(to: inline)) }
    }
}
