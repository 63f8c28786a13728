import Foundation
import ScoutCore
import ScoutTestSupport
import Testing
@testable import ScoutCatalog

@Suite struct BreedTableTests {
    static let table = try! BreedTable.load(path: Repository.data + "/breeds.csv")

    @Test func readsEveryRowOfTheCommittedTable() throws {
        let lines = try String(contentsOfFile: Repository.data + "/breeds.csv", encoding: .utf8)
            .split(separator: "\n").count
        #expect(Self.table.breeds.count == lines - 1)
        #expect(Self.table.breeds.first?.name == "Labrador Retriever")
        #expect(Self.table.breeds.first?.popularityRank == 1)
    }

    @Test(arguments: ["labrador retriever", "LABRADOR RETRIEVER", "Labrador  Retriever", "labrador-retriever"])
    func looksUpNamesIgnoringCaseAndPunctuation(_ name: String) {
        #expect(Self.table.breed(named: name)?.name == "Labrador Retriever")
    }

    @Test func unknownNamesAreNilAndTheMixedProfileIsTheFilesRow() {
        #expect(Self.table.breed(named: "Wolfdog of Atlantis") == nil)
        #expect(Self.table.mixed.name == "Mixed")
        #expect(Self.table.mixed.isMixed)
        #expect(Self.table.mixed[.energy] == 3)
        #expect(!Self.table.breeds.contains { $0.name != "Mixed" && $0.isMixed })
    }

    @Test func traitsAndSizesMatchTheCSVCells() throws {
        // French Bulldogs: a brachycephalic breed with one weight (12.7 kg) in the sources.
        let f = try #require(Self.table.breed(named: "French Bulldog"))
        #expect(f.brachycephalic)
        #expect(f.weightKg == 12.7...12.7)
        #expect(f.sizeClass == .medium)
        #expect(f[.energy] == 3 && f[.goodWithDogs] == 4)
        #expect(SizeClass(weightKg: (f.weightKg!.lowerBound + f.weightKg!.upperBound) / 2) == f.sizeClass)
    }

    @Test func sizeClassBoundariesAreHalfOpen() {
        #expect(SizeClass(weightKg: 4.99) == .toy)
        #expect(SizeClass(weightKg: 5) == .small)
        #expect(SizeClass(weightKg: 10) == .medium)
        #expect(SizeClass(weightKg: 25) == .large)
        #expect(SizeClass(weightKg: 45) == .giant)
    }

    @Test func aBrokenFileIsAnErrorNamingTheLine() throws {
        let path = "/tmp/scout-breeds-\(getpid()).csv"
        try "breed,energy,size_class\nA,9,small\n".write(toFile: path, atomically: true, encoding: .utf8)
        let e = #expect(throws: ScoutError.self) { try BreedTable.load(path: path) }
        #expect(e?.path == "breeds.csv line 2")
        // Blank lines are counted: the broken row is the file's line 4, as an editor shows it.
        try "breed,energy,size_class\r\n\n  \nA,9,small\n".write(toFile: path, atomically: true, encoding: .utf8)
        let later = #expect(throws: ScoutError.self) { try BreedTable.load(path: path) }
        #expect(later?.path == "breeds.csv line 4")
        let aliases = #expect(throws: ScoutError.self) {
            try BreedTable.load(dataDirectory: Repository.data).adding(aliasesCSV: "alias,breed,language\n\n\nLabby,No Such Breed,en\n")
        }
        #expect(aliases?.path == "breed_aliases.csv line 4")
    }
}
