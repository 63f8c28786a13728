import Foundation
import ScoutCore
import ScoutTestSupport
import ScoutText
import Testing
@testable import ScoutCatalog

@Suite struct GazetteerTests {
    static let places = try! Gazetteer.load(path: Repository.data + "/places.tsv")

    @Test(arguments: [
        ("wroclaw", nil, "Wrocław", "PL"), ("WROCŁAW", nil, "Wrocław", "PL"), ("Baile Átha Cliath", nil, "Dublin", "IE"),
        ("baile atha cliath", "IE", "Dublin", "IE"), ("lodz", nil, "Łódź", "PL"), ("Łódź", "pl", "Łódź", "PL"),
        ("gdansk", nil, "Gdańsk", "PL"), ("krakow", nil, "Kraków", "PL"), ("Galway", "IE", "Galway", "IE"),
        ("Dublin", "US", "Dublin", "US"), ("dun laoghaire", nil, "Dún Laoghaire", "IE"),
    ] as [(String, String?, String, String)])
    func resolvesTrickyNames(_ query: String, _ country: String?, _ name: String, _ cc: String) throws {
        let r = try Self.places.resolve(query, country: country)
        #expect(r.place.name == name)
        #expect(r.place.country == cc)
    }

    @Test func ambiguousNamesPickTheMostPopulousAndListOthers() throws {
        let r = try Self.places.resolve("Dublin")
        #expect(r.place.country == "IE")
        #expect(r.alternatives.count <= 5)
        #expect(r.alternatives.contains { $0.country == "US" })
        let populations = [r.place.population] + r.alternatives.map(\.population)
        #expect(populations == populations.sorted(by: >))
        // Every alternative really carries the name.
        for a in r.alternatives {
            #expect(([a.name, a.asciiName] + a.alternateNames).contains { $0.lowercased() == "dublin" })
        }
    }

    @Test func unknownNamesSuggestCloseOnes() {
        let e = #expect(throws: ScoutError.self) { try Self.places.resolve("Galwya") }
        #expect(e?.code == .notFound)
        #expect(e?.message.contains("Galway (IE)") == true)
        let typo = Self.places.suggestions(for: "wroclwa")
        #expect(typo.first?.name == "Wrocław")
    }

    @Test func aNameInAnotherCountrySaysWhere() {
        let e = #expect(throws: ScoutError.self) { try Self.places.resolve("Galway", country: "PL") }
        #expect(e?.code == .notFound)
        #expect(e?.message.contains("IE") == true)
    }

    @Test(arguments: [("", nil, ScoutError.Code.invalidRequest), ("  ", nil, .invalidRequest), ("Cork", "IRL", .invalidRequest),
                      (String(repeating: "a", count: 201), nil, .limitExceeded)] as [(String, String?, ScoutError.Code)])
    func badInputIsAClearError(_ name: String, _ country: String?, _ code: ScoutError.Code) {
        let e = #expect(throws: ScoutError.self) { try Self.places.resolve(name, country: country) }
        #expect(e?.code == code)
    }

    @Test func coversEveryIrishUKAndPolishTownOfAThousand() {
        // The build script's promise, checked on the committed table.
        let small = Self.places.places.filter { ["IE", "GB", "PL"].contains($0.country) && $0.population < 1000 }
        #expect(small.isEmpty)
        #expect(Self.places.places.filter { $0.country == "PL" }.count > 500)
        #expect(!Self.places.places.contains { $0.population < 15_000 && !["IE", "GB", "PL"].contains($0.country) })
    }

    /// Every name of a sample of places resolves to what a scan of all places gives (the
    /// places carrying that folded name, most populous first, then by GeoNames id), whether
    /// the name index was built on the spare core or, with the helper's queue held, by the
    /// first lookup itself.
    @Test func lookupsEqualAScanWhoeverBuiltTheIndex() throws {
        let all = Self.places.places
        let builtByLookup = SpareCore.withQueueHeld { Gazetteer(all) }
        let folded = all.map { p in Set(([p.name, p.asciiName] + p.alternateNames).map(TextFolding.fold)) }
        var checked = 0
        for i in stride(from: 0, to: all.count, by: 211) {
            for name in [all[i].name, all[i].asciiName] + all[i].alternateNames.prefix(1) {
                let key = TextFolding.fold(name)
                guard !key.isEmpty, name.utf8.count <= Gazetteer.maximumNameBytes else { continue }
                let expected = all.indices.filter { folded[$0].contains(key) }
                    .sorted { (all[$0].population, all[$1].geonameID) > (all[$1].population, all[$0].geonameID) }
                    .prefix(6).map { all[$0].geonameID }
                for g in [Self.places, builtByLookup] {
                    let r = try g.resolve(name)
                    #expect([r.place.geonameID] + r.alternatives.map(\.geonameID) == Array(expected), "\(name)")
                }
                checked += 1
            }
        }
        #expect(checked > 300)
    }

    /// A malformed line is named by its line in the file (blank lines counted), and blank
    /// lines are otherwise skipped.
    @Test func aMalformedLineIsNamedByItsLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scout-places-\(getpid()).tsv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let header = "geonameid\tname\tasciiname\talternatenames\tcountry\tadmin1\tlat\tlon\tpopulation\ttimezone\n"
        let good = "1\tŁódź\tLodz\tLodsch|Lodz\tPL\t74\t51.75\t19.46\t700000\tEurope/Warsaw\n"
        try (header + good + "\n" + good.replacingOccurrences(of: "1\t", with: "2\t")).write(toFile: path, atomically: true, encoding: .utf8)
        let g = try Gazetteer.load(path: path)
        #expect(g.places.map(\.geonameID) == [1, 2])
        #expect(g.places[0].alternateNames == ["Lodsch", "Lodz"])
        #expect(try g.resolve("lodsch").alternatives.map(\.geonameID) == [2])
        for (bad, where_) in [(good.replacingOccurrences(of: "51.75", with: "north"), "places.tsv line 4"), ("3\tX\tX\n", "places.tsv line 4"),
                              (good.replacingOccurrences(of: "51.75", with: "95"), "places.tsv line 4.lat")] {
            try (header + good + "\n" + bad).write(toFile: path, atomically: true, encoding: .utf8)
            let e = #expect(throws: ScoutError.self) { try Gazetteer.load(path: path) }
            #expect(e?.path == where_, "\(bad)")
        }
    }
}
