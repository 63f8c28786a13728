import PostgresNIO

/// Creates what the follower reads in a PostgreSQL database: the `scout` schema with the
/// mapping (`scout.tables`), the change table (`scout.changes`), the follower's shared
/// state (`scout.state`), and on each mapped table a trigger that records every insert,
/// update and delete and publishes it with `NOTIFY scout_changes`.
///
/// ```swift
/// try await SourceInstaller.install(url: url, mappings: [TableMapping(table: "dogs", kind: "dog")])
/// ```
/// Idempotent: running it again replaces the triggers and the stored mapping of the given
/// tables (other mapped tables stay) and makes running replicas reload.
public enum SourceInstaller {
    /// The NOTIFY channel the triggers publish on.
    public static let channel = "scout_changes"

    /// The schema objects, in order; each is one statement (the extended protocol takes one).
    static let schemaStatements: [String] = [
        "CREATE SCHEMA IF NOT EXISTS scout",
        """
        CREATE TABLE IF NOT EXISTS scout.tables (
          tbl text PRIMARY KEY, kind text NOT NULL, id_column text NOT NULL,
          place_column text, fields_column text)
        """,
        """
        CREATE TABLE IF NOT EXISTS scout.changes (
          seq bigserial PRIMARY KEY,
          xid bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
          at timestamptz NOT NULL DEFAULT now(),
          tbl text NOT NULL,
          id text NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS changes_xid_seq ON scout.changes (xid, seq)",
        """
        CREATE TABLE IF NOT EXISTS scout.state (
          one boolean PRIMARY KEY DEFAULT true CHECK (one),
          pruned_below bigint NOT NULL DEFAULT 0,
          mapping_version bigint NOT NULL DEFAULT 0)
        """,
        "INSERT INTO scout.state DEFAULT VALUES ON CONFLICT DO NOTHING",
        """
        CREATE OR REPLACE FUNCTION scout.record_change() RETURNS trigger LANGUAGE plpgsql AS $f$
        DECLARE
          new_id text;
          old_id text;
        BEGIN
          IF TG_OP <> 'DELETE' THEN EXECUTE format('SELECT ($1).%I::text', TG_ARGV[0]) INTO new_id USING NEW; END IF;
          IF TG_OP <> 'INSERT' THEN EXECUTE format('SELECT ($1).%I::text', TG_ARGV[0]) INTO old_id USING OLD; END IF;
          IF new_id IS NOT NULL THEN
            INSERT INTO scout.changes (tbl, id) VALUES (TG_ARGV[1], new_id);
          END IF;
          IF old_id IS NOT NULL AND old_id IS DISTINCT FROM new_id THEN
            INSERT INTO scout.changes (tbl, id) VALUES (TG_ARGV[1], old_id);
          END IF;
          PERFORM pg_notify('scout_changes', '');
          RETURN NULL;
        END
        $f$
        """,
        """
        CREATE OR REPLACE FUNCTION scout.record_truncate() RETURNS trigger LANGUAGE plpgsql AS $f$
        BEGIN
          UPDATE scout.state SET mapping_version = mapping_version + 1;
          PERFORM pg_notify('scout_changes', '');
          RETURN NULL;
        END
        $f$
        """,
    ]

    /// Checks every mapping against the database (table, columns and their types, PostGIS)
    /// and installs the schema and triggers in one transaction. Errors name the table or
    /// column; on any error nothing is changed.
    public static func install(url: SourceURL, mappings: [TableMapping]) async throws(SourceError) {
        guard !mappings.isEmpty else { throw SourceError(.badMapping, "give at least one --table TABLE:KIND") }
        try await SourceConnection.with(url) { connection in
          do {
            try await connection.run("BEGIN")
            var stored: [StoredMapping] = []
            for m in mappings {
                stored.append(try await check(m, on: connection))
            }
            for s in schemaStatements { try await connection.run(s) }
            for m in stored {
                try await connection.run("DROP TRIGGER IF EXISTS scout_change ON \(m.table)")
                try await connection.run("""
                    CREATE TRIGGER scout_change AFTER INSERT OR UPDATE OR DELETE ON \(m.table) FOR EACH ROW \
                    EXECUTE FUNCTION scout.record_change(\(SQL.literal(m.idColumn)), \(SQL.literal(m.table)))
                    """)
                try await connection.run("DROP TRIGGER IF EXISTS scout_truncate ON \(m.table)")
                try await connection.run("""
                    CREATE TRIGGER scout_truncate AFTER TRUNCATE ON \(m.table) FOR EACH STATEMENT \
                    EXECUTE FUNCTION scout.record_truncate()
                    """)
                try await connection.connection.query("""
                    INSERT INTO scout.tables (tbl, kind, id_column, place_column, fields_column)
                    VALUES (\(m.table), \(m.kind), \(m.idColumn), \(m.placeColumn), \(m.fieldsColumn))
                    ON CONFLICT (tbl) DO UPDATE SET kind = EXCLUDED.kind, id_column = EXCLUDED.id_column,
                      place_column = EXCLUDED.place_column, fields_column = EXCLUDED.fields_column
                    """, logger: connection.logger)
            }
            try await connection.run("UPDATE scout.state SET mapping_version = mapping_version + 1")
            try await connection.run("SELECT pg_notify('scout_changes', '')")
            try await connection.run("COMMIT")
          } catch {
            try? await connection.run("ROLLBACK")
            throw SourceError.wrap(error, doing: "install")
          }
        }
    }

    /// Checks one mapping; returns it with the table's qualified name and the id's type.
    static func check(_ m: TableMapping, on c: SourceConnection) async throws -> StoredMapping {
        var found: (String, String)?
        for try await row in try await c.connection.query("""
            SELECT format('%I.%I', n.nspname, k.relname), k.relkind::text
            FROM pg_class k JOIN pg_namespace n ON n.oid = k.relnamespace
            WHERE k.oid = to_regclass(\(m.table))
            """, logger: c.logger).decode((String, String).self) {
            found = row
        }
        guard let (qualified, relkind) = found else {
            throw SourceError(.missingTable, "table \(m.table) does not exist in database \(c.url.database)")
        }
        guard relkind == "r" || relkind == "p" else {
            throw SourceError(.missingTable, "\(m.table) is not a table (views cannot carry the change trigger)")
        }
        func type(of column: String) async throws -> String {
            var t: String?
            for try await (name,) in try await c.connection.query("""
                SELECT format_type(a.atttypid, NULL) FROM pg_attribute a
                WHERE a.attrelid = to_regclass(\(m.table)) AND a.attname = \(column) AND a.attnum > 0 AND NOT a.attisdropped
                """, logger: c.logger).decode((String,).self) {
                t = name
            }
            guard let t else { throw SourceError(.badColumn, "table \(m.table) has no column \(column)") }
            return t
        }
        let idType = try await type(of: m.idColumn)
        if let place = m.placeColumn {
            var postgis: String?
            for try await (v,) in try await c.connection.query(
                "SELECT extversion FROM pg_extension WHERE extname = 'postgis'", logger: c.logger).decode((String,).self) {
                postgis = v
            }
            guard postgis != nil else {
                throw SourceError(.missingPostGIS, "PostGIS is not installed in database \(c.url.database) (CREATE EXTENSION postgis), "
                                  + "but table \(m.table) maps a place column \(place)")
            }
            let t = try await type(of: place)
            guard t.hasPrefix("geography") || t.hasPrefix("geometry") else {
                throw SourceError(.badColumn, "column \(m.table).\(place) is \(t), not a PostGIS geography or geometry")
            }
        }
        if let fields = m.fieldsColumn {
            let t = try await type(of: fields)
            guard t == "jsonb" || t == "json" else {
                throw SourceError(.badColumn, "column \(m.table).\(fields) is \(t), not jsonb or json")
            }
        }
        return StoredMapping(table: qualified, kind: m.kind, idColumn: m.idColumn, idType: idType,
                             placeColumn: m.placeColumn, fieldsColumn: m.fieldsColumn)
    }

    /// Deletes changes older than `keepSeconds` and records how far it deleted, so a replica
    /// whose watermark is below that reloads in full instead of missing them. Returns the
    /// number of changes deleted.
    public static func prune(url: SourceURL, keepSeconds: Int) async throws(SourceError) -> Int {
        try await SourceConnection.with(url) { connection in
          do {
            try await connection.requireInstalled()
            var deleted = 0
            for try await (n,) in try await connection.connection.query("""
                WITH d AS (DELETE FROM scout.changes WHERE at < now() - make_interval(secs => \(Double(keepSeconds))) RETURNING xid),
                     u AS (UPDATE scout.state SET pruned_below = greatest(pruned_below, (SELECT max(xid) + 1 FROM d))
                           WHERE EXISTS (SELECT 1 FROM d) RETURNING 1)
                SELECT count(*) FROM d
                """, logger: connection.logger).decode((Int64,).self) {
                deleted = Int(n)
            }
            return deleted
          } catch {
            throw SourceError.wrap(error, doing: "prune")
          }
        }
    }
}

/// One postgres-nio connection with its logger (silenced: postgres-nio's default log
/// handler writes to stdout, which carries only protocol lines in `scout serve`).
final class SourceConnection: Sendable {
    let connection: PostgresConnection
    let logger: Logger
    let url: SourceURL

    private init(connection: PostgresConnection, logger: Logger, url: SourceURL) {
        self.connection = connection
        self.logger = logger
        self.url = url
    }

    /// A logger that drops everything below `.critical` (postgres-nio logs nothing there).
    static var quietLogger: Logger {
        var l = Logger(label: "scout.source")
        l.logLevel = .critical
        return l
    }

    /// Connects; the error says where to and why not.
    static func open(_ url: SourceURL) async throws(SourceError) -> SourceConnection {
        let logger = quietLogger
        do {
            let c = try await PostgresConnection.connect(configuration: url.configuration, id: 1, logger: logger)
            return SourceConnection(connection: c, logger: logger, url: url)
        } catch {
            throw SourceError(.connection, "cannot connect to \(url.shown): \(SourceError.describe(error))")
        }
    }

    /// Runs a statement without results.
    func run(_ sql: String) async throws {
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
    }

    /// Fails with `notInstalled` when `scout source install` has not run on this database.
    func requireInstalled() async throws {
        var present = false
        for try await (ok,) in try await connection.query(
            "SELECT to_regclass('scout.changes') IS NOT NULL AND to_regclass('scout.state') IS NOT NULL AND to_regclass('scout.tables') IS NOT NULL",
            logger: logger).decode((Bool,).self) {
            present = ok
        }
        guard present else {
            throw SourceError(.notInstalled, "database \(url.database) has no scout schema: run scout source install \(url.shown) --table TABLE:KIND first")
        }
    }

    /// Closes the connection and waits until it is closed (postgres-nio asserts that a
    /// connection is closed before it goes away).
    func close() async {
        try? await connection.close()
    }

    /// Runs `body` with a new connection and closes it afterwards, also on an error.
    static func with<T>(_ url: SourceURL, _ body: (SourceConnection) async throws -> T) async throws(SourceError) -> T {
        let c = try await open(url)
        do {
            let v = try await body(c)
            await c.close()
            return v
        } catch {
            await c.close()
            throw SourceError.wrap(error, doing: "\(url.shown)")
        }
    }
}
