import Foundation
import ScoutCore
import ScoutEngine
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
        let estimate = RecordFile.estimatedLoadBytes(fileBytes: try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int), lines: 20_000)
        #expect(estimate > 8 << 20)
        let tight = Engine(memory: MemoryBudget(limit: (MemoryBudget.residentBytes() ?? 0) + estimate / 2))
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
