import Foundation
import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutTestSupport
import Testing

/// The one kind table (`KindDefinition.table`) against what the records and the lookups
/// derived from it do: every sample record of every typed kind carries only the table's
/// fields, its searchable text has one string per weight, and the per-kind lookups answer
/// from the table.
@Suite struct KindTableTests {
    static let files: [RecordKind: String] = [.dog: "dogs", .gym: "gyms", .shelter: "shelters", .animal: "animals",
                                              .lover: "lovers", .program: "programs", .article: "articles"]

    @Test func namesAndCasesAreOneKind() {
        #expect(RecordKind("dog") == .dog && RecordKind.own("dog") == .dog && RecordKind.own("dog").hashValue == RecordKind.dog.hashValue)
        #expect(RecordKind.own("dog").isTyped && RecordKind.own("dog").definition.kind == .dog)
        let mine: RecordKind = "parking_spot"
        #expect(mine == .own("parking_spot") && !mine.isTyped && mine.name == "parking_spot")
        #expect(mine.definition.placement == .optional && mine.definition.filterFields == nil && mine.definition.recordFields == nil)
        #expect(RecordKind.typed.map(\.definition.kind) == RecordKind.typed, "the table is not in RecordKind.typed's order")
        // Every typed kind has sample records but the users' own (pets, care logs, lists).
        #expect(Set(RecordKind.typed.map(\.name)) == Catalog.typedKinds
                && Set(Self.files.keys).union([.pet, .care, .list]) == Set(RecordKind.typed))
        #expect(RecordKind.typed.filter { $0.definition.access != .everyone } == [.program, .pet, .care, .list])
    }

    @Test func lookupsAnswerFromTheTable() {
        for kind in RecordKind.typed + ["parking_spot"] {
            let d = kind.definition
            #expect(Catalog.placement(kind: kind.name) == d.placement)
            #expect(Catalog.textFieldWeights(kind: kind.name) == d.textFieldWeights)
            #expect(RecordFilter.fields(kind: kind.name) == d.filterFields)
            #expect(FilterRange.fields(kind: kind.name) == d.rangeFields)
            #expect(Reviews.criteria(kind: kind.name) == d.reviewCriteria)
            #expect(Reviews.takesVotes(kind: kind.name) == d.takesVotes)
            #expect(LocationPrivacy.approximate.hides(kind: kind.name) == d.hidesLocation)
            #expect(!LocationPrivacy.exact.hides(kind: kind.name))
            #expect(Engine.ratedKinds.contains(kind.name) == d.isRated)
        }
        #expect(Engine.ratedKinds == ["dog", "gym", "lover", "program", "article"])
    }

    /// Every sample record of a typed kind: its fields are the table's, its place is as the
    /// table says, and its searchable text has one string per weight of the table.
    @Test(arguments: KindTableTests.files.keys.sorted())
    func sampleRecordsAgreeWithTheTable(kind: RecordKind) throws {
        Repository.ensureSampleDogs()
        let d = kind.definition
        let known = Set(try #require(d.recordFields)).union(["id", "kind", "lat", "lon"])
        let text = try String(contentsOfFile: "\(Repository.data)/sample/\(Self.files[kind]!).jsonl", encoding: .utf8)
        var checked = 0
        for line in text.split(separator: "\n").prefix(2_000) {
            let v = try JSONReader.parse(Array(line.utf8))
            let members = try #require(v.members)
            let extra = Set(members.map(\.0)).subtracting(known)
            #expect(extra.isEmpty, "\(kind) \(v["id"]?.string ?? "?") carries \(extra.sorted()), not in the kind table")
            #expect((v["lat"] != nil) == (d.placement == .required), "\(kind): placement \(d.placement)")
            let fields = members.filter { !["id", "kind", "lat", "lon"].contains($0.0) }
            let record = try Sample.catalog.record(kind: kind, fields: fields, path: "")
            #expect(Sample.catalog.searchableText(record, fields: fields).count == d.textFieldWeights.count)
            checked += 1
        }
        #expect(checked > 0)
    }

    /// A kind's parent is a typed kind, named by one of the kind's own fields, and parents
    /// come before the records that name them in write order (a source's tables).
    @Test func parentsAreWrittenFirst() {
        for d in KindDefinition.table {
            guard let p = d.parent else { #expect(d.writeDepth == 0); continue }
            #expect(p.kind.isTyped && p.kind != d.kind, "\(d.kind.name)")
            #expect(d.recordFields?.contains(p.field) == true, "\(d.kind.name).\(p.field) is not a field of the kind")
            #expect(d.writeDepth == p.kind.definition.writeDepth + 1)
        }
        #expect(RecordKind.care.definition.parent?.kind == .pet && RecordKind.animal.definition.parent?.kind == .shelter)
    }
}
