// A small HTTP service that embeds Scout, written the way a Swift backend would: Hummingbird 2
// for HTTP, swift-log for logs, swift-metrics with swift-prometheus for metrics (Scout's own
// journal counters and timers land in the same registry), swift-service-lifecycle for a
// graceful shutdown that closes Scout's journal after the server stopped.
//
//     swift run --package-path Examples/ScoutService dog-park-service --port 8080 --state /tmp/scout-state
//     curl 'http://127.0.0.1:8080/dogs/near?place=Galway&km=10&good_with_dogs=4'
//     curl 'http://127.0.0.1:8080/this-or-that?breed=Beagle&born=2021-04-02&kg=11&place=Galway&celsius=9'
//     curl 'http://127.0.0.1:8080/gyms?place=Dublin'
//     curl -X POST 'http://127.0.0.1:8080/gyms/gym-00001/votes?voter=ana&up=true'
//     curl 'http://127.0.0.1:8080/metrics'
//
// Run it from the repository's root (it reads `data/`). `bash scripts/examples_test.sh`
// builds it and exercises every route over real HTTP.
import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import Scout

/// The command line: `--port N` (0: any free port), `--state DIR`, `--data DIR`.
struct Options {
    var port = 8080
    var state = "/tmp/scout-dog-park-service"
    var data = "data"

    init(_ arguments: [String]) throws {
        var i = 1
        while i < arguments.count {
            guard i + 1 < arguments.count else { throw ServiceError("\(arguments[i]) needs a value") }
            switch arguments[i] {
            case "--port": guard let p = Int(arguments[i + 1]) else { throw ServiceError("--port needs a number") }; port = p
            case "--state": state = arguments[i + 1]
            case "--data": data = arguments[i + 1]
            default: throw ServiceError("unknown option \(arguments[i]); known: --port, --state, --data")
            }
            i += 2
        }
    }
}

struct ServiceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One dog near a place.
struct DogNear: Codable {
    let id: String
    let name: String
    let breed: String
    let metres: Double
}

/// Dogs near a place, nearest first.
struct DogsNear: ResponseEncodable {
    let place: String
    let dogs: [DogNear]
}

/// One activity offered, with its score and why.
struct Offer: Codable {
    let activity: String
    let name: String
    let score: Double
    let reasons: [String]
}

/// "This or that": the activities offered for a pet now.
struct ThisOrThat: ResponseEncodable {
    let weights: String
    let offers: [Offer]
}

/// One gym worth a visit.
struct GymToVisit: Codable {
    let id: String
    let score: Double
    let metres: Double
}

/// Gyms to visit, best first.
struct GymsToVisit: ResponseEncodable {
    let total: Int
    let gyms: [GymToVisit]
}

/// The result of a vote.
struct Voted: ResponseEncodable {
    let id: String
    let replaced: Bool
}

/// Scout's errors as HTTP errors: a named thing missing is 404, anything else the caller sent is 400.
func http<T>(_ body: () throws(ScoutError) -> T) throws -> T {
    do { return try body() } catch {
        let status: HTTPResponse.Status = switch error.code {
        case .notFound: .notFound
        case .internal: .internalServerError
        default: .badRequest
        }
        throw HTTPError(status, message: "\(error.code.rawValue): \(error.message)" + (error.path.map { " (at \($0))" } ?? ""))
    }
}

let options = try Options(CommandLine.arguments)
let registry = PrometheusCollectorRegistry()
MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))   // before Scout makes its metrics
let logger = Logger(label: "dog-park-service")

// The engine, durable in a state directory: created from the sample data on the first start,
// recovered from its snapshot and journal on every later one.
let catalog = try Catalog.load(dataDirectory: options.data)
let state = try StateDirectory.open(options.state, options: .init(policy: .always, logger: logger)) { () throws(ScoutError) in
    let engine = Engine(catalog: catalog)
    try engine.load(path: options.data + "/sample/dogs.jsonl")
    try engine.load(path: options.data + "/sample/gyms.jsonl")
    return (engine, options.data)
}
let engine = state.engine
let recommender = try Recommender.load(dataDirectory: options.data, breeds: catalog.breeds)
let ranker = PlaceRanker(engine: engine, weights: recommender.weights)

/// A point from `place=` (a place name) or `lat=` and `lon=`.
func point(_ q: Parameters) throws -> (name: String, point: GeoPoint) {
    if let name = q.get("place") {
        return try http { () throws(ScoutError) in (name, try engine.catalog.places.resolve(name).place.point) }
    }
    let lat = try q.require("lat", as: Double.self), lon = try q.require("lon", as: Double.self)
    return try http { () throws(ScoutError) in ("\(lat),\(lon)", try GeoPoint(lat: lat, lon: lon).validated(path: "lat")) }
}

let router = Router()
router.middlewares.add(MetricsMiddleware())
router.middlewares.add(LogRequestsMiddleware(.debug))

router.get("dogs/near") { request, _ -> DogsNear in
    let q = request.uri.queryParameters
    let (name, from) = try point(q)
    let km = q.get("km", as: Double.self) ?? 5
    let filter = try http { () throws(ScoutError) in
        try RecordFilter.dogs(.goodWithDogs(atLeast: q.get("good_with_dogs", as: Int.self) ?? 1), .available, breeds: catalog.breeds)
    }
    let found = try http { () throws(ScoutError) in
        try engine.nearest(NearestQuery(kind: "dog", from: from, k: q.get("limit", as: Int.self) ?? 5, maxDistance: km * 1000, filter: filter))
    }
    return DogsNear(place: name, dogs: found.hits.map { hit in
        guard case .dog(let d) = hit.record else { return DogNear(id: hit.id, name: "", breed: "", metres: hit.distance ?? 0) }
        return DogNear(id: hit.id, name: d.name, breed: d.breed.name, metres: hit.distance ?? 0)
    })
}

router.get("this-or-that") { request, _ -> ThisOrThat in
    let q = request.uri.queryParameters
    let (_, location) = try point(q)
    let pet = try http { () throws(ScoutError) in
        PetProfile(name: q.get("name") ?? "Rex", species: .dog, breed: try catalog.breeds.resolve(q.get("breed") ?? "Mixed", path: "breed"),
                   birthDate: try LocalDate.parse(q.get("born") ?? "2020-01-01", path: "born"), weightKg: q.get("kg", as: Double.self))
    }
    let now = try http { () throws(ScoutError) in try q.get("now").map { s throws(ScoutError) in try Instant.parse(s, path: "now") } }
        ?? Instant(seconds: Int64(Date.now.timeIntervalSince1970))
    let weather = Weather(temperatureC: q.get("celsius", as: Double.self) ?? 12, precipitationMmH: q.get("rain_mm_h", as: Double.self) ?? 0)
    let answer = recommender.recommendActivities(ActivityRequest(
        pet: pet, context: RecommendationContext(now: now, location: location, weather: weather), seed: q.get("seed", as: UInt64.self)))
    return ThisOrThat(weights: answer.weightsVersion, offers: answer.recommendations.map {
        Offer(activity: $0.activity.id, name: $0.activity.name, score: $0.breakdown.score, reasons: $0.reasons)
    })
}

router.get("gyms") { request, _ -> GymsToVisit in
    let q = request.uri.queryParameters
    let (_, from) = try point(q)
    let now = Instant(seconds: Int64(Date.now.timeIntervalSince1970))
    let ranked = try http { () throws(ScoutError) in
        try ranker.rankGyms(GymRankQuery(from: from, radius: q.get("km", as: Double.self).map { $0 * 1000 } ?? 4000, now: now,
                                         limit: q.get("limit", as: Int.self) ?? 5))
    }
    return GymsToVisit(total: ranked.total, gyms: ranked.hits.map { GymToVisit(id: $0.hit.id, score: $0.breakdown.score, metres: $0.hit.distance ?? 0) })
}

router.post("gyms/:id/votes") { request, context -> Voted in
    let id = try context.parameters.require("id")
    let q = request.uri.queryParameters
    let voter = try q.require("voter")
    let up = q.get("up", as: Bool.self) ?? true
    let outcome = try http { () throws(ScoutError) in try engine.vote(kind: "gym", record: id, voter: voter, value: up ? 1 : -1) }
    return Voted(id: id, replaced: outcome.replaced)
}

router.get("metrics") { _, _ -> String in registry.emitToString() }

// The journal is a Service: listed before the server (Hummingbird appends its server to these),
// it is shut down after the server stopped taking writes.
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: options.port)),
                      services: [state.journal],
                      onServerRunning: { channel in
                          // The test reads the port from this line (stderr) when it asked for port 0.
                          logger.notice("listening on port \(channel.localAddress?.port ?? -1)")
                      },
                      logger: logger)
try await app.runService()
