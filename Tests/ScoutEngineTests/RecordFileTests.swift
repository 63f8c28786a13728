import Foundation
import ScoutCore
import ScoutEngine
import ScoutJSON
import Testing

@Suite struct RecordFileTests {
    func write(_ name: String, _ text: String) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scout-\(getpid())-\(name)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test func readsJSONLinesKeepingOtherFields() throws {
        let path = write("a.jsonl", #"{"id":"a","kind":"dog","lat":1.5,"lon":2,"name":"Łatka"}"# + "\r\n\n" + #"{"id":7,"lat":-1,"lon":-2}"# + "\n")
        let recs = try RecordFile.read(path: path, defaultKind: "gym")
        #expect(recs.map(\.id) == ["a", "7"])
        #expect(recs.map(\.kind) == ["dog", "gym"])
        #expect(recs[0].point == GeoPoint(lat: 1.5, lon: 2))
        #expect(recs[0].fields.first?.0 == "name")
        #expect(recs[0].fields.first?.1.string == "Łatka")
    }

    /// A load that would not fit in the engine's memory budget is refused before it is
    /// parsed, saying how much it would need and how much is left, and the engine keeps
    /// nothing of it; the same file loads under a budget it fits.
    @Test func aLoadThatWouldNotFitIsRefusedAndLeavesTheEngineAsItWas() throws {
        let lines = (0..<20_000).map { #"{"id":"p\#($0)","kind":"spot","lat":\#(Double($0 % 170) - 85),"lon":\#(Double($0 % 360) - 180)}"# }
        let path = write("budget.jsonl", lines.joined(separator: "\n") + "\n")
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let estimate = RecordFile.estimatedLoadBytes(fileBytes: size, lines: 20_000)
        #expect(estimate > 8 << 20)
        // Room between what the file's size alone asks (the check before reading) and what
        // its lines ask after it is read, halfway: other tests of this process allocate
        // meanwhile, and the resident size moves by a megabyte or two.
        let sizeAlone = RecordFile.estimatedLoadBytes(fileBytes: size, lines: 0)
        let tight = Engine(memory: MemoryBudget(limit: (MemoryBudget.residentBytes() ?? 0) + (sizeAlone + estimate - size) / 2))
        let error = #expect(throws: ScoutError.self) { try tight.load(path: path) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.path == "path")
        #expect(error?.message.contains("20000 lines") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("is left (the memory limit of") == true)
        #expect(tight.stats().isEmpty)
        let roomy = Engine(memory: MemoryBudget(limit: (MemoryBudget.residentBytes() ?? 0) + 4 * estimate))
        #expect(try roomy.load(path: path) == 20_000)
    }

    @Test func readsGeoJSONPoints() throws {
        let path = write("b.geojson", #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"s1","geometry":{"type":"Point","coordinates":[17.03,51.1]},"properties":{"kind":"shelter","name":"Schronisko"}}]}"#)
        let recs = try RecordFile.read(path: path, defaultKind: nil)
        #expect(recs.count == 1)
        #expect(recs[0].id == "s1" && recs[0].kind == "shelter")
        #expect(recs[0].point == GeoPoint(lat: 51.1, lon: 17.03))
    }

    @Test func readsCSVWithColumnsInAnyOrder() throws {
        let path = write("c.csv", "lat,lon,id,kind\n53.1,-9.2,x1,gym\n53.2,-9.3,x2,\n")
        let recs = try RecordFile.read(path: path, defaultKind: "dog")
        #expect(recs.map(\.kind) == ["gym", "dog"])
        #expect(recs[1].point == GeoPoint(lat: 53.2, lon: -9.3))
    }

    @Test func csvCellsLoseSurroundingSpacesAndTabsOnly() throws {
        let path = write("h.csv", " Id ,\tlat, lon \r\n  x 1\t, 53.1 ,-9.2\r\nx2,53.2,\t-9.3\n")
        let recs = try RecordFile.read(path: path, defaultKind: "dog")
        #expect(recs.map(\.id) == ["x 1", "x2"])
        #expect(recs.map(\.point) == [GeoPoint(lat: 53.1, lon: -9.2), GeoPoint(lat: 53.2, lon: -9.3)])
    }

    @Test(arguments: [
        ("d.jsonl", "{\"id\":\"a\",\"kind\":\"dog\",\"lat\":1,\"lon\":1}\n{\"id\":\"b\",\"kind\":\"dog\",\"lat\":91,\"lon\":1}\n", "line 2: lat"),
        ("e.jsonl", "{\"id\":\"a\",\"kind\":\"dog\",\"lat\":1,\"lon\":1}\n\n{oops\n", "line 3"),
        ("f.csv", "id,lat,lon\na,1,1\nb,x,1\n", "line 3: lat"),
        ("g.csv", "id,lat\na,1\n", "line 1"),
        ("h.jsonl", "{\"kind\":\"dog\",\"lat\":1,\"lon\":1}\n", "line 1: id"),
        ("i.geojson", "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[]}}]}", "features[0].geometry"),
    ])
    func badRecordsNameTheirLineAndField(name: String, text: String, path: String) {
        let file = write(name, text)
        do {
            _ = try RecordFile.read(path: file, defaultKind: "dog")
            Issue.record("expected an error")
        } catch {
            #expect(error.path == path)
            #expect(!error.message.contains("91"), "messages never echo coordinates")
        }
    }

    /// The CSV reader reads cells in place; the reference here is how a line reads as the
    /// JSON object it stands for (`PointRecord.from(json:)`, numbers by `Double(String)`):
    /// over random files of good and bad lines, the same records or the same error. A typed
    /// kind's record names its line (its fields may fail later); a caller's kind's does not.
    @Test func csvReadsEveryLineAsTheJSONObjectItStandsFor() throws {
        var rng = SplitMix64(state: 4242)
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        func number() -> String {
            let v = Double(Int64(bitPattern: rng.next()) % 200_000_000) / 1e6
            return pick([String(format: "%.6f", v), String(format: "%.2f", v / 2), "\(v / 3)", String(format: "%.3e", v),
                         " \(Int(v / 3)) ", "-0", "91", "-181", "abc", "", "+5", ".5", "nan", "1e400"])
        }
        typealias Read = (id: String, kind: String, lat: UInt64?, lon: UInt64?, source: String?)
        func reference(_ lines: [String], defaultKind: String?) -> Result<[Read], ScoutError> {
            func cells(_ line: String) -> [String] {
                line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) }
            }
            let head = cells(lines[0]).map { $0.lowercased() }
            var out: [Read] = []
            for (i, line) in lines.enumerated().dropFirst() {
                let n = i + 1, c = cells(line)
                if c == [""] { continue }
                func cell(_ name: String) -> String? { head.firstIndex(of: name).flatMap { $0 < c.count ? c[$0] : nil } }
                guard let id = cell("id"), !id.isEmpty else { return .failure(ScoutError(.invalidRequest, "line \(n): id is missing", path: "line \(n): id")) }
                guard let lat = cell("lat").flatMap(Double.init) else { return .failure(ScoutError(.invalidRequest, "line \(n): lat must be a number", path: "line \(n): lat")) }
                guard let lon = cell("lon").flatMap(Double.init) else { return .failure(ScoutError(.invalidRequest, "line \(n): lon must be a number", path: "line \(n): lon")) }
                var members: [(String, JSONValue)] = [("id", .string(id)), ("lat", .number("\(lat)")), ("lon", .number("\(lon)"))]
                if let kind = cell("kind").flatMap({ $0.isEmpty ? nil : $0 }) ?? defaultKind { members.append(("kind", .string(kind))) }
                do {
                    let r = try PointRecord.from(json: .object(members), defaultKind: nil, path: "")
                    out.append((r.id, r.kind.name, r.point?.lat.bitPattern, r.point?.lon.bitPattern, r.kind.isTyped ? "line \(n)" : nil))
                } catch {
                    return .failure(ScoutError(error.code, "line \(n): \(error.message)", path: "line \(n): \(error.path ?? "")"))
                }
            }
            return .success(out)
        }
        var outcomes = (records: 0, errors: 0)
        for trial in 0..<400 {
            let columns = pick([["id", "lat", "lon"], ["lat", "lon", "id", "kind"], ["Kind", " id", "extra", "lon ", "LAT"]])
            var lines = [columns.joined(separator: pick([",", ", "]))]
            for _ in 0..<(1 + Int(rng.next() % 12)) {
                if rng.next() % 15 == 0 { lines.append(pick(["", "  ", "\t"])); continue }
                let cells = columns.map { column -> String in
                    // Mostly good lines, so that files get past their first few.
                    let bad = rng.next() % 40 == 0
                    switch column.trimmingCharacters(in: .whitespaces).lowercased() {
                    case "id": return bad ? pick(["", String(repeating: "a", count: 257)]) : pick(["p\(rng.next() % 1000)", " x 1\t", "łódź-\(rng.next() % 9)"])
                    case "kind": return bad ? pick(["pet", "Bad Kind"]) : pick(["", "gym", "spot", "dog", "own_kind-2"])
                    case "extra": return pick(["", "anything"])
                    default: return bad ? number() : String(format: "%.6f", Double(Int64(bitPattern: rng.next()) % 80_000_000) / 1e6)
                    }
                }
                lines.append(cells.prefix(rng.next() % 60 == 0 ? 1 : cells.count).joined(separator: ","))
            }
            let defaultKind = pick([nil, "spot", "dog", "pet"])
            let got = Result { () throws(ScoutError) in try RecordFile.csv(Array((lines.joined(separator: "\n") + "\n").utf8), defaultKind: defaultKind) }
            switch (got, reference(lines, defaultKind: defaultKind)) {
            case (.success(let records), .success(let expected)):
                outcomes.records += records.count
                let read = records.map { r in (r.id, r.kind.name, r.point?.lat.bitPattern, r.point?.lon.bitPattern, r.source) }
                #expect(read.count == expected.count, "trial \(trial)")
                for (a, b) in zip(read, expected) {
                    #expect(a.0 == b.id && a.1 == b.kind && a.2 == b.lat && a.3 == b.lon && a.4 == b.source, "trial \(trial): \(a) against \(b)")
                }
            case (.failure(let error), .failure(let expected)):
                outcomes.errors += 1
                #expect(error.code == expected.code && error.path == expected.path && error.message == expected.message,
                        "trial \(trial): \(error) against \(expected)")
            case (let a, let b):
                Issue.record("trial \(trial): \(a) against \(b)\n\(lines.joined(separator: "\n"))")
            }
        }
        // Both sides of the comparison were exercised.
        #expect(outcomes.records > 300 && outcomes.errors > 100, "\(outcomes)")
    }

    @Test func aFailedLoadLeavesTheEngineUnchanged() throws {
        let engine = Engine()
        try engine.upsert([PointRecord(id: "keep", kind: "poi", point: GeoPoint(lat: 1, lon: 1))])
        let file = write("j.jsonl", "{\"id\":\"keep\",\"kind\":\"poi\",\"lat\":5,\"lon\":5}\n{\"id\":\"new\",\"kind\":\"poi\",\"lat\":5}\n")
        #expect(throws: ScoutError.self) { try engine.load(path: file) }
        let all = try engine.search(SearchQuery(kind: "poi", area: .box(GeoBox(west: -180, south: -90, east: 180, north: 90))))
        #expect(all.hits.map(\.id) == ["keep"])
        #expect(all.hits[0].point == GeoPoint(lat: 1, lon: 1))
    }
}
