import Foundation
import Scout

// Scout as a library, in the peers' spatial workload (Benchmarks/peers/spatial.py): the same
// points and queries as the GEOS C program (geos_baseline.c), through the public API a Swift
// service uses (`import Scout`: Engine.load, search, nearest), timed query by query in the
// process. Written by the Scout team.
//
//   scout-in-process POINTS.csv QUERIES.txt
//
// QUERIES.txt has one query a line, as geos_baseline.c reads them:
//   R lat lon metres      points within a WGS84 geodesic radius
//   N lat lon k           the k nearest
//   B west south east north
//   P POLYGON((x y, ...)) points covered by the polygon
// Output: `build <µs> <resident bytes gained>` (the load: CSV read, ids, index), then per
// query `<µs> <count> <id> <id> ...` (ids in Scout's order: distance for radius and nearest).
// Each query type's list is answered once untimed first (warm-up), then once timed.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("scout-in-process: \(message)\n".utf8))
    exit(1)
}

func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0) * 1024
    }
    return 0
}

func microseconds(_ start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: scout-in-process POINTS.csv QUERIES.txt") }
let kind: RecordKind = "pt"

enum Request {
    case search(SearchQuery)
    case nearest(NearestQuery)
}

func numbers(_ fields: ArraySlice<Substring>, _ count: Int, line: Int) -> [Double] {
    let values = fields.prefix(count).compactMap { Double($0) }
    guard values.count == count else { fail("line \(line): expected \(count) numbers") }
    return values
}

func request(_ text: Substring, line: Int) -> Request {
    let fields = text.split(separator: " ")
    switch fields.first {
    case "R":
        let v = numbers(fields.dropFirst(), 3, line: line)
        return .search(SearchQuery(kind: kind, area: .radius(center: GeoPoint(lat: v[0], lon: v[1]), meters: v[2]),
                                   limit: SearchQuery.maximumLimit))
    case "N":
        let v = numbers(fields.dropFirst(), 3, line: line)
        return .nearest(NearestQuery(kind: kind, from: GeoPoint(lat: v[0], lon: v[1]), k: Int(v[2])))
    case "B":
        let v = numbers(fields.dropFirst(), 4, line: line)
        return .search(SearchQuery(kind: kind, area: .box(GeoBox(west: v[0], south: v[1], east: v[2], north: v[3])),
                                   limit: SearchQuery.maximumLimit))
    case "P":
        return .search(SearchQuery(kind: kind, area: .polygon(.wkt(String(text.dropFirst(2))), crs: nil), limit: SearchQuery.maximumLimit))
    default:
        fail("line \(line): a query starts with R, N, B or P")
    }
}

guard let queryText = try? String(contentsOfFile: arguments[2], encoding: .utf8) else { fail("cannot read \(arguments[2])") }
let requests = queryText.split(separator: "\n").enumerated().map { request($0.element, line: $0.offset + 1) }

let engine = Engine()
let before = residentBytes()
let start = ContinuousClock.now
do {
    try engine.load(path: arguments[1], kind: kind)
} catch {
    fail("loading \(arguments[1]): \(error)")
}
let buildMicroseconds = microseconds(start)
print(String(format: "build %.1f %d", buildMicroseconds, residentBytes() - before))

func answer(_ r: Request) -> SearchResult {
    do {
        switch r {
        case .search(let q): return try engine.search(q)
        case .nearest(let q): return try engine.nearest(q)
        }
    } catch {
        fail("a query failed: \(error)")
    }
}

/// Which of the four query types a request is (nearest, radius, box, polygon).
func queryType(_ r: Request) -> Int {
    switch r {
    case .nearest: return 0
    case .search(let q):
        switch q.area {
        case .radius: return 1
        case .box: return 2
        default: return 3
        }
    }
}

// Runs of one query type, in the file's order: warm-up, then timed.
var first = 0
var output = ""
while first < requests.count {
    var end = first + 1
    while end < requests.count && queryType(requests[end]) == queryType(requests[first]) { end += 1 }
    var results = 0
    for r in requests[first..<end] { results &+= answer(r).hits.count }
    for r in requests[first..<end] {
        let t = ContinuousClock.now
        let result = answer(r)
        let took = microseconds(t)
        output += String(format: "%.3f %d", took, result.hits.count)
        for hit in result.hits { output += " " + hit.id }
        output += "\n"
    }
    first = end
}
print(output, terminator: "")
