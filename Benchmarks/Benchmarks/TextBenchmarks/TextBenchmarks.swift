import Benchmark
import Foundation
import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutText

// Sentence queries as owners and adopters type them (the labelled set's article and animal
// queries, Benchmarks/search-quality/queries.jsonl) over the sample articles (57) and animals
// (10,000), in process: most words (the default) beside strict AND (every word, as before
// most words existed), so the ratio is the cost of matching most words. And the text index of
// the 10,000 animals built from their texts with base forms and stop words (the catalogue's
// language) beside without (words as written), in the same run.

let dataDirectory = ProcessInfo.processInfo.environment["SCOUT_DATA"] ?? "../data"
let queryFile = ProcessInfo.processInfo.environment["SCOUT_QUERIES"] ?? "../Benchmarks/search-quality/queries.jsonl"

let catalog = try! Catalog.load(dataDirectory: dataDirectory)
let engine: Engine = {
    let e = Engine(catalog: catalog)
    // An animal names a stored shelter: the shelters first.
    for f in ["articles", "shelters", "animals"] { try! e.load(path: "\(dataDirectory)/sample/\(f).jsonl") }
    return e
}()

/// The labelled set's texts for a kind, in file order.
func sentences(_ kind: String) -> [String] {
    let text = try! String(contentsOfFile: queryFile, encoding: .utf8)
    return text.split(separator: "\n").compactMap { line in
        let q = try! JSONReader.parse(String(line))
        return q["kind"]?.string == kind ? q["text"]?.string : nil
    }
}

let articleSentences = sentences("article")
let animalSentences = sentences("animal")
nonisolated(unsafe) var cursor = 0
func next(_ texts: [String]) -> String {
    cursor &+= 1
    return texts[cursor % texts.count]
}

func query(_ kind: RecordKind, _ text: String, _ words: WordMatching) -> SearchQuery {
    var q = SearchQuery(kind: kind, area: nil, limit: 10, text: text)
    q.words = words
    return q
}

/// The animals' searchable texts, as the engine indexes them.
let animalTexts: [(id: Int32, fields: [String])] = {
    let lines = try! String(contentsOfFile: "\(dataDirectory)/sample/animals.jsonl", encoding: .utf8).split(separator: "\n")
    return lines.enumerated().map { i, line in
        let r = try! PointRecord.from(json: try! JSONReader.parse(String(line)), defaultKind: nil, path: "")
        let record = try! catalog.record(kind: .animal, fields: r.fields, path: "")
        return (Int32(i), catalog.searchableText(record, fields: r.fields))
    }
}()
let animalWeights = Catalog.textFieldWeights(kind: "animal")

let benchmarks: @Sendable () -> Void = {
    let micro = Benchmark.Configuration(metrics: [.wallClock, .throughput], timeUnits: .microseconds, warmupIterations: 50,
                                        scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 20_000)
    // Warm: the first query of a kind builds its index.
    for words in WordMatching.allCases {
        blackHole(try! engine.search(query(.article, "dog", words)))
        blackHole(try! engine.search(query(.animal, "pies", words)))
    }
    Benchmark("articles / sentence, most words", configuration: micro) { b in
        for _ in b.scaledIterations { blackHole(try! engine.search(query(.article, next(articleSentences), .most))) }
    }
    Benchmark("articles / sentence, strict AND (peer)", configuration: micro) { b in
        for _ in b.scaledIterations { blackHole(try! engine.search(query(.article, next(articleSentences), .all))) }
    }
    Benchmark("animals 10k / sentence, most words", configuration: micro) { b in
        for _ in b.scaledIterations { blackHole(try! engine.search(query(.animal, next(animalSentences), .most))) }
    }
    Benchmark("animals 10k / sentence, strict AND (peer)", configuration: micro) { b in
        for _ in b.scaledIterations { blackHole(try! engine.search(query(.animal, next(animalSentences), .all))) }
    }
    let build = Benchmark.Configuration(metrics: [.wallClock], timeUnits: .milliseconds, warmupIterations: 1,
                                        scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 30)
    Benchmark("index build 10k animals / with base forms and stop words", configuration: build) { b in
        for _ in b.scaledIterations { blackHole(TextIndex(fieldWeights: animalWeights, documents: animalTexts, language: catalog.language)) }
    }
    Benchmark("index build 10k animals / words as written (peer)", configuration: build) { b in
        for _ in b.scaledIterations { blackHole(TextIndex(fieldWeights: animalWeights, documents: animalTexts, language: .plain)) }
    }
}
