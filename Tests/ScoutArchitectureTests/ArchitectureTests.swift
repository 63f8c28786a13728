import Foundation
import Scout
import ScoutTestSupport
import Testing

/// `Package.swift`, the sources' imports and `docs/architecture.md` tell one story: every
/// target's declared dependencies are exactly the package modules its sources import, and
/// the architecture's module table lists every module of `Sources/` once, with those
/// dependencies, in an order where each module depends only on modules above it.
@Suite struct ArchitectureTests {
    static let manifest = Result { try PackageManifest(path: Repository.root + "/Package.swift") }

    static func package() throws -> PackageManifest { try manifest.get() }

    /// The targets whose sources ship: everything but test targets, test support (`Tests/`)
    /// and the fuzz targets' properties (`Fuzz/`).
    static func shippedTargets() throws -> [PackageManifest.Target] {
        try package().targets.filter { $0.kind != "testTarget" && !$0.path.hasPrefix("Tests/") && !$0.path.hasPrefix("Fuzz/") }
    }

    @Test func manifestParses() throws {
        let p = try Self.package()
        // A parse that finds nothing would make every other check vacuous.
        #expect(p.targets.count >= 20)
        let engine = try #require(p.targets.first { $0.name == "ScoutEngine" })
        #expect(engine.kind == "target" && engine.path == "Sources/ScoutEngine")
        #expect(engine.dependencies.contains("ScoutIndex"))
        let cli = try #require(p.targets.first { $0.name == "scout" })
        #expect(cli.dependencies.contains("ArgumentParser"), "products count by product name")
        let support = try #require(p.targets.first { $0.name == "ScoutTestSupport" })
        #expect(support.path == "Tests/ScoutTestSupport")
        #expect(p.targets.first { $0.name == "CGEOS" }?.kind == "systemLibrary")
    }

    /// For every target of `Sources/`: declared dependencies == package modules imported by
    /// its sources. (Test targets and test support are not held to this.)
    @Test func declaredDependenciesEqualImports() throws {
        let modules = Set(try Self.package().moduleNames)
        for target in try Self.shippedTargets() {
            let imported = try SourceImports.modules(under: Repository.root + "/" + target.path)
                .intersection(modules)
            let declared = Set(target.dependencies)
            #expect(imported.subtracting(declared).isEmpty,
                    "\(target.name) imports \(imported.subtracting(declared).sorted()) but does not declare them in Package.swift")
            #expect(declared.subtracting(imported).isEmpty,
                    "\(target.name) declares \(declared.subtracting(imported).sorted()) in Package.swift but no file under \(target.path) imports them")
        }
    }

    /// Wire JSON is read and written at the edge: the catalogue, the scheduler and
    /// the recommender speak Swift, their JSON forms live in ScoutCatalogJSON and
    /// ScoutRecommendJSON, and the engine does not sit above the recommender's JSON.
    @Test func jsonStaysAtTheEdge() throws {
        for module in ["ScoutCatalog", "ScoutSchedule", "ScoutRecommend"] {
            let imported = try SourceImports.modules(under: Repository.root + "/Sources/" + module)
            #expect(!imported.contains("ScoutJSON"), "\(module) imports ScoutJSON")
            #expect(!imported.isEmpty, "\(module): no imports found, so the check proves nothing")
        }
        let engine = try SourceImports.modules(under: Repository.root + "/Sources/ScoutEngine")
        #expect(!engine.contains("ScoutRecommendJSON"), "ScoutEngine imports ScoutRecommendJSON")
        #expect(engine.contains("ScoutCatalogJSON"), "the engine reads records through ScoutCatalogJSON")
    }

    /// `docs/architecture.md`'s module table: every module of `Sources/` exactly once, each
    /// row's backticked names in "depends on" equal to its declared dependencies.
    @Test func moduleTableMatchesManifest() throws {
        let p = try Self.package()
        let table = try ModuleTable(markdown: String(contentsOfFile: Repository.root + "/docs/architecture.md", encoding: .utf8))
        let shipped = try Self.shippedTargets()
        let listed = table.rows.map(\.module)
        #expect(Set(listed).count == listed.count, "a module is listed twice: \(listed)")
        #expect(Set(listed) == Set(shipped.map(\.name)),
                "table lists \(Set(listed).subtracting(shipped.map(\.name)).sorted()) not in Package.swift; misses \(Set(shipped.map(\.name)).subtracting(listed).sorted())")
        for row in table.rows {
            let unknown = row.dependencies.filter { !p.moduleNames.contains($0) }
            #expect(unknown.isEmpty, "\(row.module): `\(unknown)` in the depends-on column is not a module of Package.swift")
            guard let target = shipped.first(where: { $0.name == row.module }) else { continue }
            #expect(Set(row.dependencies) == Set(target.dependencies),
                    "\(row.module): table says \(row.dependencies.sorted()), Package.swift says \(target.dependencies.sorted())")
        }
        // Each module depends only on modules listed above it (products of other packages aside).
        for (i, row) in table.rows.enumerated() {
            let above = Set(table.rows[..<i].map(\.module))
            let later = row.dependencies.filter { listed.contains($0) && !above.contains($0) }
            #expect(later.isEmpty, "\(row.module) depends on \(later), listed below it")
        }
    }

    /// The parsers themselves, on small inputs, so that a change in the format they read
    /// fails here rather than turning the checks above into no-ops.
    @Test func parsersReadTheFormats() throws {
        let manifest = try PackageManifest(text: #"""
            // "targets: [" in a comment, and a URL: https://example.com
            let package = Package(
                name: "X",
                products: [.library(name: "A", targets: ["A"])],
                dependencies: [.package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.0.0")],
                targets: [
                    .systemLibrary(name: "CZ", pkgConfig: "z"),
                    .target(name: "A", dependencies: ["B", .target(name: "CZ"), .product(name: "ArgumentParser", package: "swift-argument-parser")],
                            swiftSettings: [.define("D", .when(configuration: .debug))]),
                    .target(name: "B"),   // trailing comment
                    .target(name: "S", dependencies: ["A"], path: "Tests/S"),
                    .testTarget(name: "T", dependencies: ["A", "S"]),
                ]
            )
            """#)
        #expect(manifest.targets.map(\.name) == ["CZ", "A", "B", "S", "T"])
        #expect(manifest.targets[1].dependencies == ["B", "CZ", "ArgumentParser"])
        #expect(manifest.targets[2].dependencies == [])
        #expect(manifest.targets[3].path == "Tests/S")
        #expect(manifest.targets[4].path == "Tests/T")
        #expect(manifest.moduleNames == ["CZ", "A", "B", "S", "T", "ArgumentParser"])

        #expect(SourceImports.modules(in: """
            import Foundation
            @testable import A
            @_exported import B
            public import struct C.Thing
            #if canImport(D)
              import D
            #endif
            // import E
            let importer = "import F"
            """) == ["Foundation", "A", "B", "C", "D"])

        let table = try ModuleTable(markdown: """
            text
            | module | job | depends on |
            | --- | --- | --- |
            | `A` | does `B` things | — |
            | `C` | x | `A`, `B` (a note) |

            after
            """)
        #expect(table.rows.map(\.module) == ["A", "C"])
        #expect(table.rows.map(\.dependencies) == [[], ["A", "B"]])
    }

    /// `import Scout` alone is enough for the example in `Sources/Scout/Scout.swift` and
    /// `docs/architecture.md`.
    @Test func umbrellaExampleCompilesAndRuns() throws {
        let engine = Engine(catalog: try Catalog.load(dataDirectory: Repository.data))
        let loaded = try engine.load(path: Repository.data + "/sample/gyms.jsonl")
        #expect(loaded > 0)
        let dublin = try engine.catalog.places.resolve("Dublin", country: "IE").place.point
        let result = try engine.nearest(NearestQuery(kind: "gym", from: dublin, k: 3))
        #expect(result.hits.count == 3)
        #expect(result.hits.allSatisfy { $0.distance != nil })
        // Types of the other re-exported modules are in scope too.
        let _: Instant.Type = Instant.self           // ScoutTime
        let _: ScoutError.Type = ScoutError.self     // ScoutCore
        let _: Reminder.Type = Reminder.self         // ScoutSchedule
        let _: Recommender.Type = Recommender.self   // ScoutRecommend
    }

    /// The README's library section is the library tour's code (`Examples/ScoutService`, a
    /// separate package that imports only `Scout`; `scripts/examples_test.sh` builds and runs
    /// it), and the tour imports nothing but `Scout`.
    @Test func theReadmeShowsTheLibraryTour() throws {
        let tour = try String(contentsOfFile: Repository.root + "/Examples/ScoutService/Sources/LibraryTour/main.swift", encoding: .utf8)
        let imports = tour.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("@_exported import ") }
        #expect(imports == ["import Scout"], "the library tour imports \(imports)")
        let begin = try #require(tour.range(of: "// library-tour: begin\n")), end = try #require(tour.range(of: "// library-tour: end\n"))
        let body = tour[begin.upperBound..<end.lowerBound]
        #expect(body.contains("Recommender.load(") && body.contains("rankGyms(") && body.contains("StateDirectory.open("),
                "the tour no longer shows a recommendation, gym ranking and a durable engine")
        let readme = try String(contentsOfFile: Repository.root + "/README.md", encoding: .utf8)
        #expect(readme.contains("```swift\nimport Scout\n\n" + body + "```\n"), "README.md's library section is not the library tour's code")
    }
}

// MARK: - Package.swift

/// The targets of a `Package.swift`, read from its text: the `targets:` argument of
/// `Package(…)`, each `.kind(name: "…", dependencies: […], path: "…", …)` in it.
/// Dependencies are target names (`"X"`, `.target(name: "X")`, `.byName(name: "X")`) and
/// product names (`.product(name: "X", package: …)`).
struct PackageManifest {
    struct Target {
        let kind: String
        let name: String
        let dependencies: [String]
        let path: String
    }

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    let targets: [Target]

    /// Every target name, then every product name used as a dependency (modules a source
    /// may import that this package knows of).
    var moduleNames: [String] {
        var names = targets.map(\.name)
        for t in targets { for d in t.dependencies where !names.contains(d) { names.append(d) } }
        return names
    }

    init(path: String) throws {
        try self.init(text: String(contentsOfFile: path, encoding: .utf8))
    }

    init(text: String) throws {
        let code = Swiftish.strippingComments(Array(text))
        guard let open = Swiftish.find(Array("Package("), in: code) else {
            throw ParseError(description: "no Package( in the manifest")
        }
        let call = Swiftish.balanced(code, from: open + "Package".count)
        guard let targetsArg = Swiftish.arguments(call).first(where: { $0.label == "targets" }) else {
            throw ParseError(description: "Package( has no targets: argument")
        }
        var targets: [Target] = []
        for element in Swiftish.elements(ofArray: targetsArg.value) {
            guard let (kind, args) = Swiftish.call(element) else {
                throw ParseError(description: "not a target declaration: \(String(element))")
            }
            guard let name = args.first(where: { $0.label == "name" }).flatMap({ Swiftish.stringLiteral($0.value) }) else {
                throw ParseError(description: "a .\(kind) without a name")
            }
            var dependencies: [String] = []
            if let deps = args.first(where: { $0.label == "dependencies" }) {
                for d in Swiftish.elements(ofArray: deps.value) {
                    if let s = Swiftish.stringLiteral(d) {
                        dependencies.append(s)
                    } else if let (_, dArgs) = Swiftish.call(d),
                              let n = dArgs.first(where: { $0.label == "name" }).flatMap({ Swiftish.stringLiteral($0.value) }) {
                        dependencies.append(n)
                    } else {
                        throw ParseError(description: "\(name): cannot read dependency \(String(d))")
                    }
                }
            }
            let explicitPath = args.first(where: { $0.label == "path" }).flatMap { Swiftish.stringLiteral($0.value) }
            let path = explicitPath ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name
            targets.append(Target(kind: kind, name: name, dependencies: dependencies, path: path))
        }
        self.targets = targets
    }
}

/// Just enough of Swift's surface syntax for a manifest: comments, string literals, and
/// brackets that nest.
enum Swiftish {
    /// The text with `//` and `/* */` comments blanked out (string literals kept).
    static func strippingComments(_ s: [Character]) -> [Character] {
        var out: [Character] = []
        var i = 0
        var inString = false
        while i < s.count {
            let c = s[i]
            if inString {
                out.append(c)
                if c == "\\", i + 1 < s.count { out.append(s[i + 1]); i += 2; continue }
                if c == "\"" { inString = false }
                i += 1
            } else if c == "\"" {
                inString = true; out.append(c); i += 1
            } else if c == "/", i + 1 < s.count, s[i + 1] == "/" {
                while i < s.count, s[i] != "\n" { i += 1 }
            } else if c == "/", i + 1 < s.count, s[i + 1] == "*" {
                i += 2
                while i + 1 < s.count, !(s[i] == "*" && s[i + 1] == "/") { i += 1 }
                i += 2
            } else {
                out.append(c); i += 1
            }
        }
        return out
    }

    static func find(_ needle: [Character], in s: [Character]) -> Int? {
        guard needle.count <= s.count else { return nil }
        for i in 0...(s.count - needle.count) where Array(s[i..<(i + needle.count)]) == needle { return i }
        return nil
    }

    /// The text inside the bracket at `open` (exclusive), up to its match.
    static func balanced(_ s: [Character], from open: Int) -> ArraySlice<Character> {
        var depth = 0
        var inString = false
        var i = open
        while i < s.count {
            let c = s[i]
            if inString {
                if c == "\\" { i += 2; continue }
                if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if "([{".contains(c) {
                depth += 1
            } else if ")]}".contains(c) {
                depth -= 1
                if depth == 0 { return s[(open + 1)..<i] }
            }
            i += 1
        }
        return s[(open + 1)...]
    }

    /// Splits at commas outside brackets and strings; trims; drops empty pieces.
    static func split(_ s: ArraySlice<Character>) -> [ArraySlice<Character>] {
        var pieces: [ArraySlice<Character>] = []
        var depth = 0
        var inString = false
        var start = s.startIndex
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if inString {
                if c == "\\" { i += 2; continue }
                if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if "([{".contains(c) {
                depth += 1
            } else if ")]}".contains(c) {
                depth -= 1
            } else if c == ",", depth == 0 {
                pieces.append(s[start..<i]); start = i + 1
            }
            i += 1
        }
        pieces.append(s[start..<s.endIndex])
        return pieces.map(trim).filter { !$0.isEmpty }
    }

    static func trim(_ s: ArraySlice<Character>) -> ArraySlice<Character> {
        var lo = s.startIndex, hi = s.endIndex
        while lo < hi, s[lo].isWhitespace { lo += 1 }
        while hi > lo, s[hi - 1].isWhitespace { hi -= 1 }
        return s[lo..<hi]
    }

    /// `[a, b, c]` → its elements.
    static func elements(ofArray s: ArraySlice<Character>) -> [ArraySlice<Character>] {
        let t = trim(s)
        guard t.first == "[" else { return [] }
        return split(balanced(Array(t), from: 0)[...])
    }

    /// `label: value` pieces of an argument list; `label` is empty for unlabelled ones.
    static func arguments(_ s: ArraySlice<Character>) -> [(label: String, value: ArraySlice<Character>)] {
        split(s).map { piece in
            var i = piece.startIndex
            while i < piece.endIndex, piece[i].isLetter || piece[i].isNumber || piece[i] == "_" { i += 1 }
            if i > piece.startIndex, i < piece.endIndex, piece[i] == ":" {
                return (String(piece[piece.startIndex..<i]), trim(piece[(i + 1)...]))
            }
            return ("", piece)
        }
    }

    /// `.kind(args)` → kind and its arguments.
    static func call(_ s: ArraySlice<Character>) -> (String, [(label: String, value: ArraySlice<Character>)])? {
        let t = Array(trim(s))
        guard t.first == ".", let paren = t.firstIndex(of: "(") else { return nil }
        let kind = String(t[1..<paren])
        guard !kind.isEmpty, kind.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return (kind, arguments(balanced(t, from: paren)))
    }

    /// `"text"` → text (no escapes in names and paths).
    static func stringLiteral(_ s: ArraySlice<Character>) -> String? {
        let t = trim(s)
        guard t.count >= 2, t.first == "\"", t.last == "\"" else { return nil }
        let inner = t.dropFirst().dropLast()
        guard !inner.contains("\"") else { return nil }
        return String(inner)
    }
}

// MARK: - Imports

/// The modules named by `import` declarations in Swift sources.
enum SourceImports {
    /// Every module imported by a `.swift` file under `directory` (recursively).
    static func modules(under directory: String) throws -> Set<String> {
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: directory) else {
            throw PackageManifest.ParseError(description: "no directory \(directory)")
        }
        var found: Set<String> = []
        while let file = walker.nextObject() as? String {
            guard file.hasSuffix(".swift") else { continue }
            let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            found.formUnion(modules(in: text))
        }
        return found
    }

    /// The modules imported in one file, in order of appearance: lines of the form
    /// `[@attribute…] [access] import [kind] Module[.Sub…]`, inside `#if` or not.
    static func modules(in text: String) -> [String] {
        let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var"]
        let modifiers: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
        var found: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
            while let w = words.first, w.hasPrefix("@") || modifiers.contains(w) { words = words.dropFirst() }
            guard words.first == "import" else { continue }
            words = words.dropFirst()
            if let w = words.first, kinds.contains(w) { words = words.dropFirst() }
            guard let path = words.first, let module = path.split(separator: ".").first,
                  module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
            if !found.contains(String(module)) { found.append(String(module)) }
        }
        return found
    }
}

// MARK: - docs/architecture.md

/// The module table of `docs/architecture.md`: the table whose header is
/// `| module | job | depends on |`. A row's module is the backticked name in its first
/// cell; its dependencies are the backticked names in its last cell (other text there is
/// commentary).
struct ModuleTable {
    struct Row {
        let module: String
        let dependencies: [String]
    }

    let rows: [Row]

    init(markdown: String) throws {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.firstIndex(where: { Self.cells($0) == ["module", "job", "depends on"] }) else {
            throw PackageManifest.ParseError(description: "no | module | job | depends on | table")
        }
        var rows: [Row] = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("|") else { break }
            let cells = Self.cells(line)
            let modules = Self.backticked(cells.first ?? "")
            guard modules.count == 1, let module = modules.first else {
                throw PackageManifest.ParseError(description: "a row must name one module in backticks: \(line)")
            }
            rows.append(Row(module: module, dependencies: Self.backticked(cells.last ?? "")))
        }
        self.rows = rows
    }

    static func cells(_ line: Substring) -> [String] {
        var t = line.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("|") else { return [] }
        t.removeFirst()
        if t.hasSuffix("|") { t.removeLast() }
        return t.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func backticked(_ cell: String) -> [String] {
        let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }
    }
}
