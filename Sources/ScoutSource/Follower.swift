import Logging
import Metrics
import PostgresNIO
import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutJSON
import ServiceLifecycle

/// Keeps an ``Engine`` equal to the mapped tables of a PostgreSQL database: loads every row
/// once, then applies each committed insert, update and delete as a live write.
///
/// ```swift
/// let follower = SourceFollower(url: try SourceURL.parse("postgresql:///places?host=/run/pg"), engine: engine)
/// let summary = try await follower.loadInitial()   // before serving
/// Task.detached { await follower.follow() }        // until cancelled
/// ```
/// **Changes.** The triggers of `scout source install` append `(table, id)` to `scout.changes`
/// with the writing transaction's id (`xid`) and a `seq`, and `NOTIFY scout_changes`. The
/// follower LISTENs; on each notification, and every `pollInterval` as a safety net, it reads
/// the changes of transactions that have all finished (`xid` below the server's oldest running
/// transaction, `pg_snapshot_xmin(pg_current_snapshot())`) past its watermark, in `(xid, seq)`
/// order, and for each changed id re-reads the row: present and valid, it is upserted; absent
/// (deleted) or invalid, it is removed. A transaction that took its sequence number before
/// another but committed after it is therefore never skipped, and applying a change twice
/// gives the same state.
///
/// **Watermark.** The initial load reads the rows and the server's oldest running transaction
/// in one REPEATABLE READ transaction; the watermark starts there. After a lost connection the
/// follower reconnects with backoff (0.05 s doubling to 0.25 s) and catches up from the watermark.
/// When `scout source install` changed the mapping, a table was truncated, or
/// `scout source prune` deleted changes the follower has not read, it reloads in full (rows
/// gone from the table are removed from the engine).
///
/// **Bad rows** (a NULL id, a place that is not a point or out of range, fields that are not a
/// JSON object, typed fields the kind refuses) are logged with table and id and left out;
/// the worker goes on.
public actor SourceFollower {
    /// What a full load did.
    public struct LoadSummary: Sendable {
        /// Rows loaded, by kind.
        public var loaded: [String: Int] = [:]
        /// Rows left out as bad (each logged).
        public var skipped = 0
        /// Records removed because their rows are gone (a reload only).
        public var removed = 0
        /// Mapped tables.
        public var tables = 0
    }

    /// A position in the change table: every change of a transaction below `xid`, and of
    /// transaction `xid` up to `seq`, has been applied.
    struct Watermark: Comparable {
        var xid: Int64
        var seq: Int64
        static func < (a: Watermark, b: Watermark) -> Bool { (a.xid, a.seq) < (b.xid, b.seq) }
    }

    private let url: SourceURL
    private let engine: Engine
    private let pollInterval: Duration
    private let logger: Logger
    /// `scout_source_changes_total`, `scout_source_reconnects_total`, and
    /// `scout_source_lag_seconds` (from a change's commit to its application, the newest of
    /// each batch): swift-metrics, free without a backend.
    private let changesCounter = Counter(label: "scout_source_changes_total")
    private let reconnects = Counter(label: "scout_source_reconnects_total")
    private let lag = Metrics.Timer(label: "scout_source_lag_seconds", preferredDisplayUnit: .seconds)
    private var connection: SourceConnection?
    private var mappings: [String: StoredMapping] = [:]
    private var known: [String: Set<String>] = [:]
    private var watermark = Watermark(xid: 0, seq: 0)
    private var mappingVersion: Int64 = -1
    private var backoff = SourceFollower.firstBackoff
    private var failures = 0
    private var changesApplied = 0

    /// Changes read per query while catching up.
    static let batchSize = 5000
    /// Seconds before the first reconnect; each failure doubles it up to ``maximumBackoff``.
    static let firstBackoff = 0.05
    /// Longest wait between reconnects, in seconds: short, so that a restarted server is
    /// followed again well within a second (a refused connect to a local server costs
    /// little). At 0.5 s, a change committed right after a restart was seen 1.0 s later or
    /// more in one run of the source test out of three on a busy two-core machine.
    static let maximumBackoff = 0.25

    /// Creates a follower; nothing connects until ``loadInitial()``.
    /// - Parameters:
    ///   - pollInterval: how often to look for changes without a notification.
    ///   - logger: receives one line per event worth an operator's attention (stderr in
    ///     `scout`); silent by default.
    public init(url: SourceURL, engine: Engine, pollInterval: Duration = .milliseconds(500),
                logger: Logger = Logger(label: "scout.source", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.url = url
        self.engine = engine
        self.pollInterval = pollInterval
        self.logger = logger
    }

    /// Connects, checks the schema, and loads every mapped table into the engine.
    /// Errors: ``SourceError/Code/connection``, ``SourceError/Code/notInstalled``,
    /// ``SourceError/Code/missingTable``, ``SourceError/Code/missingPostGIS``.
    public func loadInitial() async throws(SourceError) -> LoadSummary {
        let c = try await SourceConnection.open(url)
        do {
            try await c.requireInstalled()
            let summary = try await reload(c, strict: true)
            connection = c
            return summary
        } catch {
            await c.close()
            throw SourceError.wrap(error, doing: "loading from \(url.shown)")
        }
    }

    /// Follows changes until the task is cancelled; reconnects after any failure.
    public func follow() async {
        while !Task.isCancelled {
            do {
                let c: SourceConnection
                if let existing = connection { c = existing } else {
                    c = try await SourceConnection.open(url)
                    connection = c
                    reconnects.increment()
                    logger.notice("source: reconnected to \(url.shown) after \(failures) failed attempt(s); catching up from the watermark")
                    failures = 0
                }
                try await listen(on: c)
            } catch {
                await connection?.close()
                connection = nil
                if Task.isCancelled { return }
                failures += 1
                // The first failure and then one in 100 (about half a minute apart at the longest backoff).
                if failures == 1 || failures % 100 == 0 {
                    let why = SourceError.wrap(error, doing: "following").message
                    logger.warning("source: \(why); reconnecting (attempt \(failures), backoff up to \(Self.maximumBackoff) s)")
                }
                try? await Task.sleep(for: .milliseconds(Int(backoff * 1000)))
                backoff = min(backoff * 2, Self.maximumBackoff)
            }
        }
    }

    /// Changes applied since the start (each changed id counts once per catch-up).
    public var appliedChanges: Int { changesApplied }

    /// LISTENs and catches up on every notification and poll tick; returns only by throwing.
    private func listen(on c: SourceConnection) async throws {
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let poll = pollInterval
        try await c.connection.listen(on: SourceInstaller.channel) { notifications in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { wake.finish() }
                    for try await _ in notifications { wake.yield() }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: poll)
                        wake.yield()
                    }
                }
                defer { group.cancelAll() }
                wake.yield()   // changes committed while nobody listened
                for await _ in wakes {
                    try await self.catchUp(c)
                }
                throw SourceError(.connection, "the notification stream of \(c.url.shown) ended")
            }
        }
    }

    /// Applies every finished change past the watermark, or reloads when the mapping
    /// changed or changes past the watermark were pruned.
    private func catchUp(_ c: SourceConnection) async throws {
        var xmin: Int64 = 0, prunedBelow: Int64 = 0, version: Int64 = 0
        for try await (x, p, v) in try await c.connection.query(
            "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint, pruned_below, mapping_version FROM scout.state",
            logger: c.logger).decode((Int64, Int64, Int64).self) {
            (xmin, prunedBelow, version) = (x, p, v)
        }
        if version != mappingVersion || prunedBelow > watermark.xid {
            logger.notice(version != mappingVersion
                ? "source: the mapping changed or a table was truncated; reloading"
                : "source: changes past this replica's watermark were pruned; reloading")
            let s = try await reload(c, strict: false)
            logger.notice("source: reloaded \(describe(s))")
            backoff = Self.firstBackoff
            return
        }
        while true {
            var batch: [(table: String, id: String)] = []
            var last = watermark
            var newest = Double.infinity
            for try await (seq, xid, table, id, age) in try await c.connection.query("""
                SELECT seq, xid, tbl, id, EXTRACT(EPOCH FROM clock_timestamp() - at)::float8 FROM scout.changes
                WHERE (xid, seq) > (\(watermark.xid), \(watermark.seq)) AND xid < \(xmin)
                ORDER BY xid, seq LIMIT \(Self.batchSize)
                """, logger: c.logger).decode((Int64, Int64, String, String, Double).self) {
                batch.append((table, id))
                last = Watermark(xid: xid, seq: seq)
                newest = min(newest, age)
            }
            if !batch.isEmpty {
                try await apply(batch, on: c)
                changesCounter.increment(by: batch.count)
                lag.recordSeconds(max(0, newest))
            }
            watermark = last
            if batch.count < Self.batchSize { break }
        }
        watermark = max(watermark, Watermark(xid: xmin, seq: 0))
        backoff = Self.firstBackoff
    }

    /// Re-reads the changed rows of each table and writes them to the engine.
    private func apply(_ changes: [(table: String, id: String)], on c: SourceConnection) async throws {
        var byTable: [String: [String]] = [:]
        var seen = Set<String>()
        for ch in changes where seen.insert(ch.table + "\u{0}" + ch.id).inserted {
            byTable[ch.table, default: []].append(ch.id)
        }
        // Parents first (a shelter before the animals that name it), then by table name.
        for (table, ids) in byTable.sorted(by: { Self.writesBefore(($0.key, mappings[$0.key]?.kind), ($1.key, mappings[$1.key]?.kind)) }) {
            guard let m = mappings[table] else { continue }   // unmapped since: the reload handles it
            var bindings = PostgresBindings()
            bindings.append(ids)
            var records: [PointRecord] = []
            do {
                for try await row in try await c.connection.query(PostgresQuery(unsafeSQL: m.select(idsBound: true), binds: bindings),
                                                                  logger: c.logger).decode(Row.self) {
                    if let r = record(from: row, mapping: m) { records.append(r) }
                }
            } catch where !SourceError.isConnectionLoss(error) {
                // The table was dropped or altered under its mapping: the other tables go on;
                // `scout source install` again brings the mapping back in line (and reloads).
                logger.warning("source: could not re-read \(ids.count) changed row(s) of \(table), left as they were: \(SourceError.describe(error))")
                continue
            }
            let written = upsert(records, table: table)
            let gone = ids.filter { !written.contains($0) }
            if !gone.isEmpty { _ = try? engine.remove(kind: RecordKind(m.kind), ids: gone) }
            known[table, default: []].formUnion(written)
            known[table]?.subtract(gone)
            changesApplied += ids.count
        }
    }

    /// `(id, geometry type, lon, lat, fields)` as the mapping's SELECT returns them.
    typealias Row = (String?, String?, Double?, Double?, String?)

    /// Reads the mapping and every row in one REPEATABLE READ transaction and makes the
    /// engine equal to it; the watermark becomes the transaction's oldest running xid.
    /// `strict` (the first load) turns a missing table or PostGIS into an error; later a
    /// reload logs it and leaves that table out.
    private func reload(_ c: SourceConnection, strict: Bool) async throws -> LoadSummary {
        var summary = LoadSummary()
        try await c.run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            var xmin: Int64 = 0, version: Int64 = 0
            for try await (x, v) in try await c.connection.query(
                "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint, mapping_version FROM scout.state",
                logger: c.logger).decode((Int64, Int64).self) {
                (xmin, version) = (x, v)
            }
            var stored: [StoredMapping] = []
            for try await (table, kind, idColumn, place, fields, idType) in try await c.connection.query("""
                SELECT t.tbl, t.kind, t.id_column, t.place_column, t.fields_column,
                       (SELECT format_type(a.atttypid, NULL) FROM pg_attribute a
                        WHERE a.attrelid = to_regclass(t.tbl) AND a.attname = t.id_column AND a.attnum > 0 AND NOT a.attisdropped)
                FROM scout.tables t ORDER BY t.tbl
                """, logger: c.logger).decode((String, String, String, String?, String?, String?).self) {
                guard let idType else {
                    let e = SourceError(.missingTable, "mapped table \(table) or its id column \(idColumn) no longer exists")
                    if strict { throw e }
                    logger.warning("source: \(e.message); left out")
                    continue
                }
                stored.append(StoredMapping(table: table, kind: kind, idColumn: idColumn, idType: idType,
                                            placeColumn: place, fieldsColumn: fields))
            }
            if stored.contains(where: { $0.placeColumn != nil }) {
                var postgis = false
                for try await (ok,) in try await c.connection.query(
                    "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'postgis')", logger: c.logger).decode((Bool,).self) {
                    postgis = ok
                }
                guard postgis else {
                    throw SourceError(.missingPostGIS, "PostGIS is not installed in database \(c.url.database), but mapped tables have place columns")
                }
            }
            var seenByTable: [String: Set<String>] = [:]
            // Parents first (pets before their care logs), so every reference finds its record.
            for m in stored.sorted(by: { Self.writesBefore(($0.table, $0.kind), ($1.table, $1.kind)) }) {
                var seen = Set<String>()
                var records: [PointRecord] = []
                records.reserveCapacity(10_000)
                for try await row in try await c.connection.query(PostgresQuery(unsafeSQL: m.select(idsBound: false)),
                                                                  logger: c.logger).decode(Row.self) {
                    guard let r = record(from: row, mapping: m) else { summary.skipped += 1; continue }
                    records.append(r)
                    if records.count == 10_000 {
                        let w = upsert(records, table: m.table)
                        summary.skipped += records.count - w.count
                        seen.formUnion(w)
                        records.removeAll(keepingCapacity: true)
                    }
                }
                let w = upsert(records, table: m.table)
                summary.skipped += records.count - w.count
                seen.formUnion(w)
                summary.loaded[m.kind, default: 0] += seen.count
                seenByTable[m.table] = seen
            }
            try await c.run("COMMIT")
            // Rows gone since the last load (or now bad), and tables no longer mapped.
            for (table, ids) in known {
                let kind = mappings[table]?.kind
                let gone = ids.subtracting(seenByTable[table] ?? [])
                if let kind, !gone.isEmpty {
                    summary.removed += (try? engine.remove(kind: RecordKind(kind), ids: Array(gone))) ?? 0
                }
            }
            mappings = Dictionary(uniqueKeysWithValues: stored.map { ($0.table, $0) })
            known = seenByTable
            watermark = Watermark(xid: xmin, seq: 0)
            mappingVersion = version
            summary.tables = stored.count
            for kind in Set(stored.map(\.kind)) { engine.pointSet(kind: kind)?.pack() }
            return summary
        } catch {
            try? await c.run("ROLLBACK")
            throw error
        }
    }

    /// The order tables are written in: by their kind's ``KindDefinition/writeDepth`` (a
    /// record's parent before it), then by name.
    static func writesBefore(_ a: (table: String, kind: String?), _ b: (table: String, kind: String?)) -> Bool {
        let da = a.kind.map { RecordKind($0).definition.writeDepth } ?? 0, db = b.kind.map { RecordKind($0).definition.writeDepth } ?? 0
        return da != db ? da < db : a.table < b.table
    }

    /// Upserts records; when the batch is refused, record by record, logging and leaving out
    /// each bad one. Returns the ids written.
    private func upsert(_ records: [PointRecord], table: String) -> Set<String> {
        guard !records.isEmpty else { return [] }
        // The last row of an id wins, as in the table (an id column without a unique key).
        var index: [String: Int] = [:]
        var unique: [PointRecord] = []
        for r in records {
            if let i = index[r.id] { unique[i] = r } else { index[r.id] = unique.count; unique.append(r) }
        }
        do {
            try engine.upsert(unique)
            return Set(unique.map(\.id))
        } catch {
            var written = Set<String>()
            for r in unique {
                do {
                    try engine.upsert([r])
                    written.insert(r.id)
                } catch {
                    logger.warning("source: skipped row \(r.id) of \(table): \(error)")
                }
            }
            return written
        }
    }

    /// A record from a row, or `nil` (logged) when the row cannot be one.
    private func record(from row: Row, mapping m: StoredMapping) -> PointRecord? {
        let (id, geometryType, lon, lat, fieldsText) = row
        guard let id, !id.isEmpty else {
            logger.warning("source: skipped a row of \(m.table) with a NULL or empty id")
            return nil
        }
        func skip(_ why: String) -> PointRecord? {
            logger.warning("source: skipped row \(id) of \(m.table): \(why)")
            return nil
        }
        guard id.utf8.count <= PointRecord.maximumIdLength else { return skip("id longer than \(PointRecord.maximumIdLength) bytes") }
        var point: GeoPoint?
        if let geometryType {
            guard geometryType == "POINT" else { return skip("\(m.placeColumn ?? "place") is a \(geometryType), not a point") }
            guard let lon, let lat else { return skip("\(m.placeColumn ?? "place") is an empty point") }
            point = GeoPoint(lat: lat, lon: lon)
        }
        var fields: [(String, JSONValue)] = []
        if let fieldsText {
            let value: JSONValue
            do { value = try JSONReader.parse(fieldsText) } catch { return skip("\(m.fieldsColumn ?? "fields") is not JSON Scout reads: \(error)") }
            if case .null = value {} else {
                guard let members = value.members else { return skip("\(m.fieldsColumn ?? "fields") is not a JSON object") }
                // The row's own columns say id, kind and place.
                fields = members.filter { !["id", "kind", "lat", "lon"].contains($0.0) }
            }
        }
        return PointRecord(id: id, kind: RecordKind(m.kind), point: point, fields: fields, source: "\(m.table) id \(id)")
    }

    private func describe(_ s: LoadSummary) -> String {
        let kinds = s.loaded.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return "\(kinds.isEmpty ? "no rows" : kinds) from \(s.tables) table(s); \(s.skipped) bad row(s) left out, \(s.removed) removed"
    }

    /// The summary as one log line.
    public nonisolated func summaryLine(_ s: LoadSummary) -> String {
        let kinds = s.loaded.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return "\(kinds.isEmpty ? "no rows" : kinds) from \(s.tables) table(s) of \(url.shown); \(s.skipped) bad row(s) left out"
    }
}

/// The follower as a swift-service-lifecycle `Service`: after ``SourceFollower/loadInitial()``,
/// put it in the service's `ServiceGroup`; it follows changes until a graceful shutdown (or
/// cancellation), then closes its connection.
///
///     let follower = SourceFollower(url: url, engine: engine, logger: logger)
///     _ = try await follower.loadInitial()
///     let group = ServiceGroup(services: [follower, app], gracefulShutdownSignals: [.sigterm], logger: logger)
///     try await group.run()
extension SourceFollower: Service {
    /// Follows changes (``follow()``) until a graceful shutdown or cancellation, then closes
    /// the connection.
    public func run() async throws {
        await cancelWhenGracefulShutdown { await self.follow() }
        await closeConnection()
    }

    /// Closes the connection, if one is open (``follow()`` opens another when called again).
    public func closeConnection() async {
        await connection?.close()
        connection = nil
    }
}
