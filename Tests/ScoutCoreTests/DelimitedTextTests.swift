import ScoutCore
import Testing

/// The one reader of delimited text: line numbers as an editor shows them, CRLF, blank and
/// comment lines, cells split at every separator.
@Suite struct DelimitedTextTests {
    @Test func everyLineIsNumberedAsAnEditorShowsIt() {
        let text = "h1,h2\r\n\n  \na,b\r\n# note\n,c,\nlast"
        let t = DelimitedText.table(text, file: "t.csv", separator: UInt8(ascii: ","))
        #expect(t.header == ["h1", "h2"] && t.headerLine == 1)
        #expect(t.rows.map(\.line) == [4, 5, 6, 7])
        #expect(t.rows.map(\.cells) == [["a", "b"], ["# note"], ["", "c", ""], ["last"]])
        #expect(t.rows[0].location == "t.csv line 4")
        let withComments = DelimitedText.table(text, file: "t.csv", separator: UInt8(ascii: ","), comments: true)
        #expect(withComments.rows.map(\.line) == [4, 6, 7])
        let headless = DelimitedText.table(text, file: "t.csv", separator: UInt8(ascii: ","), header: false)
        #expect(headless.header.isEmpty && headless.rows.first?.line == 1)
    }

    @Test func aMissingColumnNamesTheHeaderLine() {
        let t = DelimitedText.table("\n\nid\tname\n1\tx\n", file: "t.tsv", separator: UInt8(ascii: "\t"))
        #expect((try? t.column("name")) == 1)
        let e = #expect(throws: ScoutError.self) { try t.column("lat") }
        #expect(e?.path == "t.tsv line 3")
        #expect(e?.message.contains("lat") == true)
    }

    /// Lines and cells by bytes agree with a split of the text, for random texts dense in
    /// separators, CRs and LFs.
    @Test(arguments: 0..<200)
    func linesAndCellsEqualASplit(seed: Int) {
        var rng = SplitMix64(state: UInt64(seed))
        let alphabet: [UInt8] = Array("a,\t\r\n ".utf8)
        let bytes = (0..<rng.below(40)).map { _ in alphabet[rng.below(alphabet.count)] }
        var lines: [(Int, [UInt8])] = []
        var cellsOfLines: [[[UInt8]]] = []
        bytes.withUnsafeBufferPointer { b in
            var ranges: [Range<Int>] = []
            DelimitedText.forEachLine(b) { (n, r) in
                lines.append((n, Array(b[r])))
                DelimitedText.cells(of: r, in: b, separator: UInt8(ascii: ","), into: &ranges)
                cellsOfLines.append(ranges.map { Array(b[$0]) })
            }
        }
        var expected = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line -> [UInt8] in
            var l = Array(line)
            if l.last == 0x0D { l.removeLast() }
            return l
        }
        if bytes.last == 0x0A || bytes.isEmpty { expected.removeLast() }
        #expect(lines.map(\.0) == expected.indices.map { $0 + 1 })
        #expect(lines.map(\.1) == expected)
        #expect(cellsOfLines == expected.map { $0.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map(Array.init) })
    }
}

/// The one seeded generator.
@Suite struct SplitMix64Tests {
    /// The reference sequence of SplitMix64 from state 0 (Vigna's `splitmix64.c`).
    @Test func matchesTheReferenceSequence() {
        var rng = SplitMix64(state: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(rng.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func drawsStayInTheirRanges() {
        var rng = SplitMix64(state: 7)
        for _ in 0..<10_000 {
            let u = rng.unit(), x = rng.uniform(-2, 3), k = rng.below(7)
            #expect(u >= 0 && u < 1)
            #expect(x >= -2 && x < 3)
            #expect((0..<7).contains(k))
        }
    }
}
