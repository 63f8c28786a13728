import ScoutCore
import ScoutTestSupport
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
}
