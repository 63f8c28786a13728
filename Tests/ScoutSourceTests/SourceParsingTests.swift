import ScoutSource
import Testing

/// URL and mapping parsing: every bad input is a specific error naming what was wrong.
/// (The follower itself is tested end to end against a real PostgreSQL + PostGIS by
/// scripts/source_test.py.)
@Suite struct SourceURLTests {
    @Test func unixSocketDirectoryAsParameter() throws {
        let u = try SourceURL.parse("postgresql://scout@/places?host=/run/pg&port=5433")
        #expect(u.database == "places")
        #expect(u.shown == "postgresql://scout@/places (socket /run/pg/.s.PGSQL.5433)")
    }

    @Test func unixSocketDirectoryPercentEncodedInTheAuthority() throws {
        let u = try SourceURL.parse("postgres://scout@%2Fvar%2Frun%2Fpostgresql/db")
        #expect(u.shown == "postgresql://scout@/db (socket /var/run/postgresql/.s.PGSQL.5432)")
    }

    @Test func loopbackWithPasswordHidden() throws {
        let u = try SourceURL.parse("postgresql://scout:s%40cret@127.0.0.1:6543/places?sslmode=disable")
        #expect(u.shown == "postgresql://scout:***@127.0.0.1:6543/places")
        #expect(!u.shown.contains("cret"))
    }

    @Test func databaseDefaultsToTheUser() throws {
        #expect(try SourceURL.parse("postgresql://scout@localhost").database == "scout")
        #expect(try SourceURL.parse("postgresql://scout@[::1]:5432/x").shown == "postgresql://scout@::1:5432/x")
    }

    @Test(arguments: [
        ("mysql://x/y", "must start with postgresql://"),
        ("postgresql://u@db.example.com/x", "not a Unix socket directory or a loopback"),
        ("postgresql://u@127.0.0.1:99999/x", "port must be a number from 1 to 65535"),
        ("postgresql://u@127.0.0.1:abc/x", "port must be a number"),
        ("postgresql://u@/x?sslmode=require", "TLS is not supported yet"),
        ("postgresql://u@/x?colour=blue", "unknown parameter colour"),
        ("postgresql://u@/x?host", "has no value"),
        ("postgresql://u@[::1/x", "closing ]"),
        ("postgresql://u@/x?connect_timeout=0", "connect_timeout"),
    ])
    func refusesWithTheReason(url: String, reason: String) {
        #expect {
            try SourceURL.parse(url)
        } throws: { error in
            guard let e = error as? SourceError else { return false }
            return e.code == .badURL && e.message.contains(reason)
        }
    }

    @Test func socketPathTooLongForSunPath() {
        let dir = "/" + String(repeating: "d", count: 120)
        #expect(throws: SourceError.self) { try SourceURL.parse("postgresql://u@/x?host=\(dir)") }
    }
}

@Suite struct TableMappingTests {
    @Test func defaults() throws {
        let m = try TableMapping.parse("dogs:dog")
        #expect(m == TableMapping(table: "dogs", kind: "dog", idColumn: "id", placeColumn: "place", fieldsColumn: "fields"))
    }

    @Test func options() throws {
        let m = try TableMapping.parse("public.gyms:gym:id=gym_id,place=location,fields=props")
        #expect(m == TableMapping(table: "public.gyms", kind: "gym", idColumn: "gym_id", placeColumn: "location", fieldsColumn: "props"))
        let p = try TableMapping.parse("lovers:lover:place=none,fields=none")
        #expect(p.placeColumn == nil && p.fieldsColumn == nil)
    }

    @Test(arguments: [
        ("dogs", "a table and a kind are required"),
        (":dog", "a table and a kind are required"),
        ("dogs:Dog", "kind must be 1-64 characters"),
        ("dogs:dog:colour=red", "unknown option colour"),
        ("dogs:dog:id=", "needs a value"),
    ])
    func refusesWithTheReason(spec: String, reason: String) {
        #expect {
            try TableMapping.parse(spec)
        } throws: { error in
            guard let e = error as? SourceError else { return false }
            return e.code == .badMapping && e.message.contains(reason)
        }
    }
}
