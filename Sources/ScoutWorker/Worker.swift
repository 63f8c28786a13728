import Metrics
import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutEngine
import ScoutGeometry
import ScoutJSON
import ScoutRecommend
import ScoutRecommendJSON
import ScoutSchedule
import ScoutText
import ScoutTime

/// The `scout serve` protocol: one JSON request object in, one JSON response line out.
///
/// See `docs/protocol.md`. The worker never throws and never crashes on input: every
/// problem becomes an error response with a stable code.
public final class Worker: Sendable {
    /// The version reported by `ping`.
    public static let version = "0.1.0"
    /// Longest request line accepted, in bytes.
    public static let maximumLineBytes = 16 << 20

    /// The engine requests run against.
    public let engine: Engine
    /// The activity recommender and the ranking weights (`nil` without them: the
    /// recommending and ranking ops then answer `not_found`).
    public let recommender: Recommender?
    /// Per-thread copies of ``recommender``, when the worker was given a way to make them.
    let replicas: ThreadReplicas<Recommender>?
    /// Per thread: filters already parsed, by kind, day and JSON (``FilterCache``).
    let filterCaches = ThreadReplicas { FilterCache() }

    /// Which files the `load` op may read (none unless the operator allowed a root).
    public let files: FileAccess
    /// The longest a request's geometry work may run, in milliseconds (`nil`: no limit); past
    /// it the request is answered `limit_exceeded` (see ``GeometryDeadline``).
    public let deadlineMilliseconds: Int?

    /// Requests counted and timed by op and outcome (swift-metrics; see ``RequestMetrics``).
    let metrics: RequestMetrics

    /// The default per-request deadline: one second.
    public static let defaultDeadlineMilliseconds = 1000

    /// Creates a worker over an engine. A worker keeps no per-request state, so
    /// ``respond(to:)`` may run on several threads at once.
    ///
    /// `replicate`, when given, makes a copy of `recommender` that shares no object with it
    /// (for example, by loading the same files again): each thread that answers requests
    /// then uses its own copy, and threads never contend for its reference counts
    /// (``ThreadReplicas``). Every copy must answer as `recommender` does.
    ///
    /// Requests are counted and timed through `metrics` (swift-metrics; by default the
    /// bootstrapped backend's factory, and nothing at all without one): see ``RequestMetrics``.
    public init(engine: Engine, recommender: Recommender? = nil, replicate: (@Sendable () -> Recommender)? = nil,
                files: FileAccess = .none, deadlineMilliseconds: Int? = Worker.defaultDeadlineMilliseconds,
                metrics factory: any MetricsFactory = MetricsSystem.factory) {
        self.engine = engine
        self.recommender = recommender
        replicas = recommender == nil ? nil : replicate.map { ThreadReplicas($0) }
        self.files = files
        self.deadlineMilliseconds = deadlineMilliseconds
        metrics = RequestMetrics(operations: Worker.operations.map(\.name), factory: factory)
    }

    /// A request line, parsed: either refused before any op ran (the line was bad), or a
    /// request with its op, looked up once. `LineServer` parses a run of lines, then answers
    /// its reads at once.
    package enum Parsed: Sendable {
        /// A line refused before any op ran (not JSON, not an object, a bad id, too long): the
        /// error its answer carries, with a `null` id.
        case refused(ScoutError)
        /// A well-formed request object with its echoed id, and the index of its op in
        /// ``Worker/operations`` when `op` names one.
        case request(id: JSONValue, body: JSONValue, op: Int?)

        /// True for requests that only read (they may run concurrently with each other):
        /// derived from ``Worker/operations``. Bad lines and unknown ops count as reads
        /// (their answer is an error that touches nothing).
        package var isReadOnly: Bool {
            switch self {
            case .refused: return true
            case .request(_, _, let op): return op.map { Worker.operations[$0].isReadOnly } ?? true
            }
        }
    }

    /// One operation of the protocol: its name, whether it only reads, the request fields
    /// it takes (besides `id` and `op`), and what it does. Dispatch, the list of known ops
    /// and the read-only set are all derived from ``operations``.
    public struct Operation: Sendable {
        /// The `op` value.
        public let name: String
        /// True when the op never changes the engine.
        public let isReadOnly: Bool
        /// Every request field the op reads; any other is `invalid_request`.
        public let fields: [String]
        let run: @Sendable (Worker, RequestFields, inout JSONWriter) throws(ScoutError) -> Void
    }

    private static let searchFields = ["kind", "near", "radius_m", "bbox", "within", "crs", "along", "distance_m", "from",
                                       "sort", "after", "limit", "filter", "text", "words", "fields", "now", "explain", "user"]

    /// Every op the worker knows, in the order `docs/protocol.md` lists them.
    public static let operations: [Operation] = [
        Operation(name: "ping", isReadOnly: true, fields: []) { _, _, w throws(ScoutError) in
            w.objectStart(); w.key("version"); w.string(Worker.version); w.objectEnd()
        },
        Operation(name: "stats", isReadOnly: true, fields: []) { worker, _, w throws(ScoutError) in worker.stats(&w) },
        Operation(name: "load", isReadOnly: false, fields: ["path", "kind"]) { worker, f, w throws(ScoutError) in try worker.load(f, &w) },
        Operation(name: "upsert", isReadOnly: false, fields: ["records", "kind"]) { worker, f, w throws(ScoutError) in
            try worker.upsert(f, &w)
        },
        Operation(name: "remove", isReadOnly: false, fields: ["kind", "ids"]) { worker, f, w throws(ScoutError) in
            try worker.remove(f, &w)
        },
        Operation(name: "search", isReadOnly: true, fields: searchFields) { worker, f, w throws(ScoutError) in
            try worker.search(f, &w)
        },
    ] + catalogOperations + [
        Operation(name: "nearest", isReadOnly: true, fields: ["kind", "from", "k", "max_distance_m", "filter", "text", "words", "fields", "now", "explain"]) {
            worker, f, w throws(ScoutError) in try worker.nearest(f, &w)
        },
        Operation(name: "place", isReadOnly: true, fields: ["name", "country"]) { worker, f, w throws(ScoutError) in
            let r = try worker.engine.catalog.places.resolve(try f.string("name"), country: try f.optionalString("country"), path: "name")
            worker.writePlace(r.place, alternatives: r.alternatives, &w)
        },
        Operation(name: "breed", isReadOnly: true, fields: ["name"]) { worker, f, w throws(ScoutError) in
            let name = try f.string("name")
            let b = try worker.engine.catalog.breeds.resolve(name, path: "name")
            worker.writeBreed(b, given: TextFolding.fold(name) == TextFolding.fold(b.name) ? nil : name, &w)
        },
        Operation(name: "recommend_activities", isReadOnly: true,
                  fields: ["pet", "now", "timezone", "location", "home", "weather", "nearby", "busy", "waking_hours", "has_garden", "after_dark",
                           "seed", "log", "feedback", "count", "mode", "weights", "pet_id", "user"]) { worker, f, w throws(ScoutError) in
            try worker.recommendActivities(try worker.withStoredPet(f, filling: ["pet", "log", "feedback"]), &w)
        },
        Operation(name: "activities", isReadOnly: true, fields: ["ids"]) { worker, f, w throws(ScoutError) in try worker.activities(f, &w) },
        Operation(name: "progress", isReadOnly: true, fields: ["pet", "now", "timezone", "location", "week_start", "log", "pet_id", "user"]) {
            worker, f, w throws(ScoutError) in try worker.progress(try worker.withStoredPet(f, filling: ["pet", "log"]), &w)
        },
        Operation(name: "schedule", isReadOnly: true,
                  fields: ["timezone", "now", "reminders", "count", "waking_hours", "avoid_quiet_hours", "busy", "avoid_busy", "pet_id", "user"]) {
            worker, f, w throws(ScoutError) in
            let request = try worker.withStoredPet(f, filling: ["reminders"])
            Schedule.compute(try ScheduleRequest.read(request.object, types: worker.recommender?.logTypes ?? .careTypes)).write(into: &w)
        },
        Operation(name: "recommend_dogs", isReadOnly: true,
                  fields: ["from", "radius_m", "lover", "experience", "has_dog", "activity_level", "met", "limit", "filter", "weights",
                           "fields", "now"]) { worker, f, w throws(ScoutError) in try worker.recommendDogs(f, &w)
        },
        Operation(name: "rank_gyms", isReadOnly: true, fields: ["from", "radius_m", "now", "limit", "filter", "weights", "fields"]) {
            worker, f, w throws(ScoutError) in try worker.rankGyms(f, &w)
        },
    ]

    /// The index of each of ``operations`` by its name.
    static let table: [String: Int] = Dictionary(uniqueKeysWithValues: operations.enumerated().map { ($1.name, $0) })

    /// The names of every op, in protocol order.
    public static var operationNames: [String] { operations.map(\.name) }

    /// The response line (without newline) for one request line.
    public func respond(to line: ArraySlice<UInt8>) -> [UInt8] { execute(parse(line)) }

    /// True when a request line only reads (``Operation/isReadOnly``), so that a driver
    /// answering lines itself may answer a run of such lines at once, as `LineServer` does;
    /// a bad line or an unknown op counts as a read (its answer is an error that touches
    /// nothing).
    public func isReadOnly(_ line: ArraySlice<UInt8>) -> Bool { parse(line).isReadOnly }

    /// Parses a request line, checks its envelope and looks its op up.
    package func parse(_ line: ArraySlice<UInt8>) -> Parsed {
        let request: JSONValue
        do throws(JSONParseError) {
            request = try JSONReader.parse(Array(line))
        } catch {
            return .refused(ScoutError(.parseError, "the request is not valid JSON: \(error.description)"))
        }
        guard request.members != nil else {
            return .refused(ScoutError(.invalidRequest, "a request must be a JSON object, not \(request.typeName)"))
        }
        let id = request["id"] ?? .null
        switch id {
        case .string(let s) where s.utf8.count <= Worker.maximumIdBytes: break
        case .number, .null: break
        case .string: return .refused(ScoutError(.limitExceeded, "id may be at most \(Worker.maximumIdBytes) bytes", path: "id"))
        default: return .refused(ScoutError(.invalidRequest, "id must be a string, a number or null", path: "id"))
        }
        return .request(id: id, body: request, op: request["op"]?.string.flatMap { Worker.table[$0] })
    }

    /// What a line longer than ``maximumLineBytes`` is answered with (the line itself is dropped).
    package static var oversizedLine: Parsed {
        .refused(ScoutError(.limitExceeded, "a request line may be at most \(Worker.maximumLineBytes) bytes"))
    }

    /// Longest string `id` echoed back, in bytes.
    public static let maximumIdBytes = 256

    /// A response line and, for an error, its code.
    public struct Response: Sendable {
        /// The line, without its newline.
        public let line: [UInt8]
        /// The error's code; `nil` for `"ok": true`.
        public let error: ScoutError.Code?
    }

    /// Runs a parsed request and returns its response line.
    package func execute(_ parsed: Parsed) -> [UInt8] { execute(parsed, allowWrites: true).line }

    /// Runs a parsed request; with `allowWrites` false a write op is answered with an
    /// `invalid_request` error and not run (`scout rank`).
    package func execute(_ parsed: Parsed, allowWrites: Bool) -> Response {
        let id: JSONValue, request: JSONValue, known: Int?
        switch parsed {
        case .refused(let error):
            metrics.recordRefused(error.code)
            return Response(line: errorLine(id: .null, error), error: error.code)
        case .request(let i, let body, let op): id = i; request = body; known = op
        }
        let started = metrics.start()
        do throws(ScoutError) {
            let fields = RequestFields(object: request)
            guard request["op"] != nil else { throw ScoutError(.invalidRequest, "op is required", path: "op") }
            let name = try fields.reader.string("op", maxBytes: 64)
            guard let index = known else {
                throw ScoutError(.unknownOp, "unknown op \"\(JSONReader.shown(name))\"\(Suggestions.hint(for: name, among: Worker.operationNames)); "
                                 + "known: \(Worker.operationNames.joined(separator: ", "))", path: "op")
            }
            let op = Worker.operations[index]
            guard allowWrites || op.isReadOnly else {
                throw ScoutError(.invalidRequest, "\(name) changes the catalogue; a ranking job answers only read-only ops "
                                 + "(\(Worker.operations.filter(\.isReadOnly).map(\.name).joined(separator: ", ")))", path: "op")
            }
            try fields.reader.checkKnown(["id", "op"] + op.fields)
            var w = JSONWriter()
            w.objectStart()
            w.key("id"); w.value(id)
            w.key("ok"); w.bool(true)
            w.key("result")
            try GeometryDeadline.run(milliseconds: deadlineMilliseconds) { () throws(ScoutError) in try op.run(self, fields, &w) }
            w.objectEnd()
            metrics.record(operation: index, outcome: nil, since: started)
            return Response(line: w.bytes, error: nil)
        } catch {
            metrics.record(operation: known, outcome: error.code, since: started)
            return Response(line: errorLine(id: id, error), error: error.code)
        }
    }

    /// A response line for a request line that was too long (the line itself is dropped).
    public func respondToOversizedLine() -> [UInt8] { execute(Worker.oversizedLine) }

    /// The error response line for a request: `{"id", "ok": false, "error": {"code", "message", "path"?}}`.
    func errorLine(id: JSONValue, _ e: ScoutError) -> [UInt8] {
        var writer = JSONWriter()
        writer.objectStart()
        writer.key("id"); writer.value(id)
        writer.key("ok"); writer.bool(false)
        writer.key("error")
        writer.objectStart()
        writer.key("code"); writer.string(e.code.rawValue)
        writer.key("message"); writer.string(e.message)
        if let p = e.path { writer.key("path"); writer.string(p) }
        writer.objectEnd()
        writer.objectEnd()
        return writer.bytes
    }

    // MARK: The catalogue ops

    private func stats(_ w: inout JSONWriter) {
        let stats = engine.stats()
        w.objectStart()
        w.key("kinds"); w.objectStart()
        for s in stats { w.key(s.kind); w.int(s.count) }
        w.objectEnd()
        w.key("total"); w.int(stats.reduce(0) { $0 + $1.count })
        w.key("index_bytes"); w.int(stats.reduce(0) { $0 + $1.indexBytes })
        w.objectEnd()
    }

    private func load(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        let path = try f.reader.string("path", maxBytes: 4096)
        let n = try engine.load(path: try files.resolve(path, path: "path"), kind: try f.optionalString("kind").map { RecordKind($0) },
                                maximumBytes: files.maximumBytes)
        w.objectStart(); w.key("loaded"); w.int(n); w.objectEnd()
    }

    private func upsert(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        guard let records = f.reader["records"]?.array else {
            throw ScoutError(.invalidRequest, "records must be an array of record objects", path: "records")
        }
        guard records.count <= SearchQuery.maximumLimit else {
            throw ScoutError(.limitExceeded, "at most \(SearchQuery.maximumLimit) records per upsert", path: "records")
        }
        let defaultKind = try f.optionalString("kind")
        var parsed: [PointRecord] = []
        parsed.reserveCapacity(records.count)
        var reader = PointRecord.Reader(defaultKind: defaultKind)
        for (i, r) in records.enumerated() {
            let record = try reader.record(from: r, path: "records[\(i)]")
            // A care entry's type, checked against the recommender's activities when the worker
            // has them (the engine alone knows the care types only).
            if record.kind == .care, let types = recommender?.logTypes, case .string(let word)? = record.fields.first(where: { $0.0 == "type" })?.1 {
                _ = try types.read(word, path: "records[\(i)].type")
            }
            // A pet's reminders' types, the same way.
            if record.kind == .pet, let types = recommender?.logTypes, case .array(let list)? = record.fields.first(where: { $0.0 == "reminders" })?.1 {
                for (j, reminder) in list.enumerated() { _ = try Reminder.read(reminder, zone: .utc, types: types, path: "records[\(i)].reminders[\(j)]") }
            }
            parsed.append(record)
        }
        let n = try engine.upsert(parsed)
        w.objectStart(); w.key("upserted"); w.int(n); w.objectEnd()
    }

    private func remove(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        let kind = try f.string("kind")
        let n = try engine.remove(kind: RecordKind(kind), ids: try Worker.ids(f, maximum: SearchQuery.maximumLimit))
        w.objectStart(); w.key("removed"); w.int(n); w.objectEnd()
    }

    private func search(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        var places = ResolvedPlaces()
        let q = try searchQuery(f, &places)
        try writeResult(try engine.search(q), places, today: try today(f), fields: try FieldSelection.read(f, kind: q.kind.name),
                        explain: try f.bool("explain", default: false), &w)
    }

    private func nearest(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        var places = ResolvedPlaces()
        let kind = try f.string("kind")
        var q = NearestQuery(kind: RecordKind(kind), from: try location(f, "from", &places),
                             k: try f.integer("k"), maxDistance: try f.optionalNumber("max_distance_m"),
                             filter: try filter(f, kind: kind, &places), text: try f.optionalString("text"))
        q.words = try wordMatching(f)
        try writeResult(try engine.nearest(q), places, today: try today(f), fields: try FieldSelection.read(f, kind: kind),
                        explain: try f.bool("explain", default: false), &w)
    }

    /// Place names resolved while reading a request, by field.
    struct ResolvedPlaces {
        var list: [(field: String, resolution: PlaceResolution)] = []
        /// Breeds named by another name ("Lab"): the field, the name given and the breed.
        var breeds: [(field: String, given: String, breed: String)] = []
    }

    /// A point field that is either `{"lat","lon"}` or `{"place", "country"?}`, and nothing
    /// else (`extra` names fields the caller reads beside them, such as `home.radius_m`).
    func location(_ f: RequestFields, _ key: String, _ places: inout ResolvedPlaces, extra: [String] = []) throws(ScoutError) -> GeoPoint {
        guard let v = f.object[key], v["place"] != nil else { return try f.point(key, extra: extra) }
        let reader = FieldReader(v.members ?? [], path: key)
        try reader.checkKnown(["place", "country"] + extra)
        guard let name = v["place"]?.string else { throw ScoutError(.invalidRequest, "place must be a string", path: "\(key).place") }
        let r = try engine.catalog.places.resolve(name, country: try reader.optionalString("country", maxBytes: .max), path: "\(key).place")
        places.list.append((key, r))
        return r.place.point
    }

    /// The date ages are computed on: the request's `now`, else today (UTC).
    func today(_ f: RequestFields) throws(ScoutError) -> LocalDate {
        guard let now = try f.optionalString("now") else { return LocalDate.today }
        return try Instant.parse(now, path: "now").localDate
    }

    func filter(_ f: RequestFields, kind: String) throws(ScoutError) -> RecordFilter {
        var ignored = ResolvedPlaces()
        return try filter(f, kind: kind, &ignored)
    }

    /// The request's filter; breeds it names by another name are added to `resolved`.
    /// A filter is parsed once per thread (the catalogue it is read against never changes
    /// under a worker), then taken from ``FilterCache``.
    func filter(_ f: RequestFields, kind: String, _ resolved: inout ResolvedPlaces) throws(ScoutError) -> RecordFilter {
        guard let v = f.object["filter"], v != .null else { return .all }
        let today = try today(f)
        let cache = filterCaches.local
        if let hit = cache.recentlyFound(v, kind: kind, today: today) {
            resolved.breeds.append(contentsOf: hit.resolved)
            return hit.filter
        }
        let key = FilterCache.key(v, kind: kind, today: today)
        if let key, let hit = cache.entries[key] {
            cache.found(v, kind: kind, today: today, hit)
            resolved.breeds.append(contentsOf: hit.resolved)
            return hit.filter
        }
        let parsed = try RecordFilter.parse(v, kind: kind, today: today, breeds: engine.catalog.breeds, species: engine.catalog.species)
        var breeds: [(field: String, given: String, breed: String)] = []
        if kind == "dog", let given = v["breed"] {
            let names = given.array ?? [given]
            for (i, n) in names.enumerated() {
                guard let s = n.string, let b = engine.catalog.breeds.breed(named: s), TextFolding.fold(s) != TextFolding.fold(b.name) else { continue }
                breeds.append((given.array == nil ? "filter.breed" : "filter.breed[\(i)]", s, b.name))
            }
        }
        if let key {
            cache.keep(key, (parsed, breeds))
            cache.found(v, kind: kind, today: today, (parsed, breeds))
        }
        resolved.breeds.append(contentsOf: breeds)
        return parsed
    }

    private func searchQuery(_ f: RequestFields, _ places: inout ResolvedPlaces) throws(ScoutError) -> SearchQuery {
        let kind = try f.string("kind")
        let shapes = ["near", "bbox", "within", "along"].filter { f.has($0) }
        guard shapes.count <= 1 else {
            throw ScoutError(.invalidRequest, "a search takes only one of near, bbox, within or along", path: shapes[1])
        }
        // Without an area, a search lists the whole kind; the area's own fields then make no sense.
        if shapes.isEmpty, let stray = ["radius_m", "crs", "distance_m"].first(where: { f.has($0) }) {
            let owner = stray == "radius_m" ? "near" : stray == "crs" ? "within" : "along"
            throw ScoutError(.invalidRequest, "\(stray) goes with \(owner), which is missing", path: stray)
        }
        let area: SearchArea?
        switch shapes.first {
        case nil: area = nil
        case "near": area = .radius(center: try location(f, "near", &places), meters: try f.number("radius_m"))
        case "bbox": area = .box(try f.box("bbox"))
        case "within": area = .polygon(try f.polygon("within"), crs: try f.optionalString("crs"))
        default: area = .corridor(route: try f.lineString("along"), meters: try f.number("distance_m"))
        }
        var sort: SortOrder?
        if let s = try f.optionalString("sort") {
            let orders = ["distance", "id", "name", "rating", "relevance", "newest"]
            guard let order = SortOrder(rawValue: s) else {
                throw ScoutError(.invalidRequest, "unknown sort \"\(JSONReader.shown(s))\"\(Suggestions.hint(for: s, among: orders)); "
                                 + "sort is one of \(orders.joined(separator: ", "))", path: "sort")
            }
            sort = order
        }
        var after: String?
        if let v = f.object["after"], v != .null {
            switch v {
            case .string(let s): after = s
            case .number(let t): after = t
            default: throw ScoutError(.invalidRequest, "after must be the id of the last result of the previous page", path: "after")
            }
        }
        var q = SearchQuery(kind: RecordKind(kind), area: area, limit: try f.integer("limit", default: SearchQuery.defaultLimit),
                            from: f.has("from") ? try location(f, "from", &places) : nil, sort: sort,
                            filter: try filter(f, kind: kind, &places), text: try f.optionalString("text"), after: after)
        q.words = try wordMatching(f)
        q.user = try Worker.user(f)
        return q
    }

    /// `"user"`: the caller's user id, from the trusted backend (records that belong to users
    /// are found by their owners and those they are shared with only); `nil` when not given.
    static func user(_ f: RequestFields) throws(ScoutError) -> String? {
        guard let u = try f.optionalString("user") else { return nil }
        guard !u.isEmpty, u.utf8.count <= 256 else { throw ScoutError(.invalidRequest, "user must be a user id of 1-256 bytes", path: "user") }
        return u
    }

    /// `"words"`: how many of the text's words a record must match, `most` (the default) or `all`.
    private func wordMatching(_ f: RequestFields) throws(ScoutError) -> WordMatching {
        guard let given = try f.optionalString("words") else { return .most }
        let names = WordMatching.allCases.map(\.rawValue)
        guard let rule = WordMatching(rawValue: given) else {
            throw ScoutError(.invalidRequest, "unknown words \"\(JSONReader.shown(given))\"\(Suggestions.hint(for: given, among: names)); "
                             + "words is one of \(names.joined(separator: ", "))", path: "words")
        }
        guard f.has("text") else { throw ScoutError(.invalidRequest, "words goes with text, which is missing", path: "words") }
        return rule
    }

    private func writeResult(_ r: SearchResult, _ places: ResolvedPlaces, today: LocalDate, fields: FieldSelection, explain: Bool,
                             _ w: inout JSONWriter) throws(ScoutError) {
        w.objectStart()
        w.key("total"); w.int(r.total)
        if !r.droppedWords.isEmpty { w.key("dropped_words"); w.arrayStart(); for word in r.droppedWords { w.string(word) }; w.arrayEnd() }
        if let note = r.note { w.key("note"); w.string(note) }
        if explain {
            // How the matches were found: the plan and the counts behind the choice.
            w.key("explain"); w.objectStart()
            w.key("plan"); w.string(r.plan?.plan.rawValue ?? "listing")
            if let p = r.plan {
                w.key("records"); w.int(p.records)
                if let key = p.key { w.key("key"); w.string(key) }
                if let c = p.candidates { w.key("candidates"); w.int(c) }
            }
            w.objectEnd()
        }
        if let next = r.nextAfter { w.key("next_after"); w.string(next) }
        writeResolved(places, &w)
        w.key("results"); w.arrayStart()
        for h in r.hits { writeHit(h, today: today, fields: fields, &w) }
        w.arrayEnd()
        w.objectEnd()
    }

    /// `"resolved"`: the place names read, keyed by the request field they were given in
    /// ("near", "from"); nothing when there were none.
    func writeResolved(_ places: ResolvedPlaces, _ w: inout JSONWriter) {
        guard !places.list.isEmpty || !places.breeds.isEmpty else { return }
        w.key("resolved"); w.objectStart()
        for (field, resolution) in places.list {
            w.key(field); writePlace(resolution.place, alternatives: resolution.alternatives, &w)
        }
        for b in places.breeds {
            w.key(b.field); w.objectStart(); w.key("given"); w.string(b.given); w.key("breed"); w.string(b.breed); w.objectEnd()
        }
        w.objectEnd()
    }

    /// One result object; `extra` writes more members before it closes (scores).
    func writeHit(_ h: SearchHit, today: LocalDate, fields: Bool, _ w: inout JSONWriter, extra: (inout JSONWriter) -> Void = { _ in }) {
        writeHit(h, today: today, fields: fields ? .all : .none, &w, extra: extra)
    }

    /// One result object with the record's fields chosen by `fields`; `extra` writes more
    /// members before it closes (scores). A record without a place has no `lat`/`lon`.
    func writeHit(_ h: SearchHit, today: LocalDate, fields: FieldSelection, _ w: inout JSONWriter,
                  extra: (inout JSONWriter) -> Void = { _ in }) {
        w.objectStart()
        w.key("id"); w.string(h.id)
        w.key("kind"); w.string(h.kind.name)
        if let p = h.point {
            w.key("lat"); w.number(p.lat)
            w.key("lon"); w.number(p.lon)
        }
        if h.isApproximate { w.key("approximate"); w.bool(true) }
        if let d = h.distance { w.key("distance_m"); w.number(d, decimals: h.isApproximate ? 0 : 3) }
        if let rating = h.rating { w.key("rating"); w.number(rating, decimals: 4) }
        if let score = h.relevance { w.key("relevance"); w.number(score, decimals: 4) }
        if !h.matchedWords.isEmpty { w.key("matched_words"); w.arrayStart(); for word in h.matchedWords { w.string(word) }; w.arrayEnd() }
        if case .dog(let d) = h.record {
            w.key("age_years"); w.number(d.ageYears(on: today), decimals: 1)
            if let size = d.sizeClass { w.key("size"); w.string(size.rawValue) }
            w.key("breed_profile"); w.string(d.breed.name)
            let missing = d.notGiven
            if !missing.isEmpty { w.key("not_given"); w.arrayStart(); for m in missing { w.string(m) }; w.arrayEnd() }
        }
        writeFeedback(h.record, &w)
        if fields != .none && !h.fields.isEmpty {
            w.key("fields"); w.objectStart()
            for (k, v) in h.fields where fields.includes(k) { w.key(k); w.value(v) }
            w.objectEnd()
        }
        extra(&w)
        w.objectEnd()
    }

    func writePlace(_ p: Place, alternatives: [Place]? = nil, _ w: inout JSONWriter) {
        w.objectStart()
        w.key("name"); w.string(p.name)
        w.key("country"); w.string(p.country)
        w.key("admin1"); w.string(p.admin1)
        w.key("lat"); w.number(p.point.lat)
        w.key("lon"); w.number(p.point.lon)
        w.key("population"); w.int(p.population)
        w.key("timezone"); w.string(p.timeZone)
        if let alternatives {
            w.key("alternatives"); w.arrayStart(); for a in alternatives { writePlace(a, &w) }; w.arrayEnd()
        }
        w.objectEnd()
    }

    /// A breed's profile; `given` is the other name it was asked by ("Lab"), if any.
    func writeBreed(_ b: Breed, given: String? = nil, _ w: inout JSONWriter) {
        w.objectStart()
        w.key("name"); w.string(b.name)
        if let given { w.key("resolved"); w.objectStart(); w.key("given"); w.string(given); w.key("breed"); w.string(b.name); w.objectEnd() }
        if let r = b.popularityRank { w.key("popularity_rank"); w.int(r) }
        w.key("traits"); w.objectStart()
        for t in Breed.Trait.allCases { w.key(t.rawValue); w.int(b[t]) }
        w.objectEnd()
        w.key("coat_type"); w.string(b.coatType)
        w.key("coat_length"); w.string(b.coatLength)
        func range(_ key: String, _ r: ClosedRange<Double>?) {
            guard let r else { return }
            w.key(key); w.arrayStart(); w.number(r.lowerBound); w.number(r.upperBound); w.arrayEnd()
        }
        range("weight_kg", b.weightKg); range("height_cm", b.heightCm); range("life_span_years", b.lifeSpanYears)
        if let s = b.sizeClass { w.key("size"); w.string(s.rawValue) }
        w.key("brachycephalic"); w.bool(b.brachycephalic)
        w.objectEnd()
    }
}
