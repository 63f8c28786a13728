import Dispatch
import ScoutFuzzProperties
import ScoutJSON
import ScoutWorker
#if canImport(Glibc)
import Glibc
#endif

// Readers and a writer on one engine at once, for ThreadSanitizer (scripts/sanitize.sh tsan
// builds this with --sanitize=thread): the engine's documented model is one writer and any
// number of readers, and `Worker.respond(to:)` may run on several threads at once.
//
// Readers ask radius, nearest, polygon (the region cache lends prepared regions), corridor
// and text searches (the text index is rebuilt after writes, by whichever reader comes
// first) while the writer upserts and removes dogs and gyms near the readers' areas. Every
// response must be `"ok":true`. Usage: StressEngine [ROUNDS] (default 200).

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 200 : 200
let worker = Worker(engine: FuzzSupport.makeEngine(), recommender: FuzzSupport.reference.recommender)

let reads = [
    #"{"id":1,"op":"search","kind":"dog","near":{"lat":53.2707,"lon":-9.0568},"radius_m":20000,"limit":20,"fields":false}"#,
    #"{"id":2,"op":"nearest","kind":"gym","from":{"lat":53.3498,"lon":-6.2603},"k":5,"fields":false}"#,
    #"{"id":3,"op":"search","kind":"gym","within":{"type":"Polygon","coordinates":[[[-6.3,53.33],[-6.22,53.33],[-6.22,53.37],[-6.3,53.37],[-6.3,53.33]]]},"limit":10,"fields":false}"#,
    #"{"id":4,"op":"search","kind":"gym","within":"POLYGON((714000 732000, 718000 732000, 718000 736000, 714000 736000, 714000 732000))","crs":"EPSG:2157","limit":3,"fields":false}"#,
    #"{"id":5,"op":"search","kind":"dog","along":{"type":"LineString","coordinates":[[-9.06,53.27],[-9.04,53.28],[-9.02,53.27]]},"distance_m":2000,"limit":5,"fields":false}"#,
    #"{"id":6,"op":"search","kind":"dog","near":{"lat":53.2707,"lon":-9.0568},"radius_m":50000,"text":"loves","limit":5,"fields":false}"#,
    #"{"id":7,"op":"search","kind":"gym","near":{"place":"Dublin"},"radius_m":4000,"sort":"rating","filter":{"open_at":"2026-11-23T07:30:00Z"},"limit":3}"#,
    #"{"id":8,"op":"recommend_dogs","from":{"place":"Galway"},"radius_m":20000,"experience":3,"has_dog":true,"activity_level":4,"limit":3,"fields":false}"#,
    #"{"id":9,"op":"rank_gyms","from":{"lat":53.3498,"lon":-6.2603},"radius_m":4000,"now":"2026-06-10T07:30:00+01:00","limit":2,"fields":false}"#,
    #"{"id":10,"op":"stats"}"#,
].map { Array($0.utf8)[...] }

/// The first record of `data/sample/<file>.jsonl`: writes upsert whole, valid records.
func template(_ file: String) -> [(String, JSONValue)] {
    let path = FuzzSupport.repositoryRoot + "/data/sample/\(file).jsonl"
    guard let f = fopen(path, "r") else { FuzzSupport.fail("cannot open \(path)") }
    defer { fclose(f) }
    var buffer: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(buffer) }
    guard getline(&buffer, &capacity, f) > 0, let b = buffer, let v = try? JSONReader.parse(String(cString: b)),
          let members = v.members else { FuzzSupport.fail("cannot read a record from \(path)") }
    return members
}
let dogTemplate = template("dogs"), gymTemplate = template("gyms")

/// `template` with `id`, `lat` and `lon` replaced.
func record(_ template: [(String, JSONValue)], id: String, lat: Double, lon: Double, into w: inout JSONWriter) {
    w.objectStart()
    for (k, v) in template {
        w.key(k)
        switch k {
        case "id": w.string(id)
        case "lat": w.number(lat, decimals: 5)
        case "lon": w.number(lon, decimals: 5)
        default: w.value(v)
        }
    }
    w.objectEnd()
}

func writeLine(_ round: Int) -> ArraySlice<UInt8> {
    if round % 3 == 2 {
        return Array(#"{"id":"w\#(round)","op":"remove","kind":"dog","ids":["stress-\#(round - 1)","stress-\#(round - 2)"]}"#.utf8)[...]
    }
    var w = JSONWriter()
    w.objectStart()
    w.key("id"); w.string("w\(round)")
    w.key("op"); w.string("upsert")
    w.key("records"); w.arrayStart()
    record(dogTemplate, id: "stress-\(round)", lat: 53.27 + Double(round % 50) * 0.001, lon: -9.05 - Double(round % 37) * 0.001, into: &w)
    record(gymTemplate, id: "stress-gym-\(round % 7)", lat: 53.34 + Double(round % 20) * 0.001, lon: -6.26, into: &w)
    w.arrayEnd()
    w.objectEnd()
    return w.bytes[...]
}

final class Failures: @unchecked Sendable {
    // Guarded by `lock`.
    private var lock = pthread_mutex_t()
    private var list: [String] = []
    init() { pthread_mutex_init(&lock, nil) }
    func add(_ s: String) { pthread_mutex_lock(&lock); list.append(s); pthread_mutex_unlock(&lock) }
    var all: [String] { pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }; return list }
}
let failures = Failures()

func check(_ response: [UInt8], _ what: String) {
    guard let v = try? JSONReader.parse(response), case .bool(true)? = v["ok"] else {
        failures.add("\(what): \(String(decoding: response.prefix(300), as: UTF8.self))")
        return
    }
}

let threads = 4
DispatchQueue.concurrentPerform(iterations: threads) { t in
    if t == 0 {
        for r in 0..<rounds { check(worker.respond(to: writeLine(r)), "write \(r)") }
    } else {
        for r in 0..<rounds {
            let line = reads[(r * 7 + t) % reads.count]
            check(worker.respond(to: line), "reader \(t) round \(r)")
        }
    }
}
let found = failures.all
for f in found.prefix(10) { FuzzSupport.log(f) }
FuzzSupport.log("StressEngine: \(threads - 1) readers and a writer, \(rounds) rounds each: \(found.isEmpty ? "all responses ok" : "\(found.count) FAILED")")
exit(found.isEmpty ? 0 : 1)
