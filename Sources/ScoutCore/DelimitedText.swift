/// Lines and cells of delimited text: the one reader of the project's tables (`breeds.csv`,
/// `breed_aliases.csv`, `species.tsv`, `places.tsv`, `synonyms.tsv`) and of line-oriented
/// record files (JSON Lines, CSV). No quoting: a separator always separates.
///
/// Lines end at LF; a CR before it is dropped. Line numbers count every line from 1, blank
/// ones included, so `"breeds.csv line 12"` is the line an editor shows.
///
///     let table = DelimitedText.table(text, file: "species.tsv", separator: "\t")
///     for row in table.rows where row.cells.count != 3 {
///         throw ScoutError(.parseError, "expected 3 columns", path: row.location)
///     }
public enum DelimitedText {
    /// Where a line is, as errors name it: `"<file> line <n>"`.
    public static func location(file: String, line: Int) -> String { "\(file) line \(line)" }

    /// Calls `body` with each line's number (from 1) and the range of its bytes, without the
    /// LF and a CR before it; blank lines included. A last line without an LF is a line; an
    /// LF at the very end starts none.
    ///
    /// - Complexity: O(*n*) in the bytes, read in place.
    @inlinable
    public static func forEachLine<E: Error>(_ bytes: UnsafeBufferPointer<UInt8>,
                                             _ body: (_ line: Int, _ range: Range<Int>) throws(E) -> Void) throws(E) {
        var start = 0, line = 1
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var stop = end
            if stop > start && bytes[stop - 1] == 0x0D { stop -= 1 }
            try body(line, start..<stop)
            start = end + 1
            line += 1
        }
    }

    /// The ranges of a line's cells, split at every `separator` (an empty line is one empty
    /// cell), written into `cells` (emptied first, so one array serves a whole file).
    ///
    /// - Complexity: O(length of the line).
    @inlinable
    public static func cells(of line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, separator: UInt8,
                             into cells: inout [Range<Int>]) {
        cells.removeAll(keepingCapacity: true)
        var from = line.lowerBound
        for i in line where bytes[i] == separator {
            cells.append(from..<i)
            from = i + 1
        }
        cells.append(from..<line.upperBound)
    }

    /// Whether a line holds only spaces and tabs (or nothing).
    @inlinable
    public static func isBlank(_ line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { bytes[$0] == 0x20 || bytes[$0] == 0x09 }
    }

    /// A table read from text: its header and its rows, each with the line it came from.
    public struct Table: Sendable {
        /// The file's name, as errors name it (`"breeds.csv"`).
        public let file: String
        /// The header's cells (empty for a table read without one).
        public let header: [String]
        /// The line of the header (0 without one).
        public let headerLine: Int
        /// The rows after the header, blank (and, if asked, comment) lines left out.
        public let rows: [Row]

        /// The index of a header's column, or `parse_error` at the header's line naming it.
        public func column(_ name: String) throws(ScoutError) -> Int {
            guard let i = header.firstIndex(of: name) else {
                throw ScoutError(.parseError, "missing column \(name)", path: DelimitedText.location(file: file, line: max(1, headerLine)))
            }
            return i
        }
    }

    /// One row of a ``Table``.
    public struct Row: Sendable {
        /// The file's name.
        public let file: String
        /// The row's line number in the file (from 1).
        public let line: Int
        /// The row's cells, as written (not trimmed).
        public let cells: [String]
        /// Where the row is, for errors: `"<file> line <n>"`.
        public var location: String { DelimitedText.location(file: file, line: line) }
    }

    /// The rows of `text`: lines split at `separator`, blank lines left out (and lines whose
    /// first non-blank character is `#`, when `comments`); the first row kept is the header
    /// when `header`.
    ///
    /// - Complexity: O(*n*) in the text.
    public static func table(_ text: String, file: String, separator: UInt8, header: Bool = true, comments: Bool = false) -> Table {
        var head: [String] = [], headLine = 0
        var rows: [Row] = []
        var ranges: [Range<Int>] = []
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            forEachLine(bytes) { (n, line) in
                if isBlank(line, in: bytes) { return }
                if comments, let first = line.first(where: { bytes[$0] != 0x20 && bytes[$0] != 0x09 }), bytes[first] == UInt8(ascii: "#") {
                    return
                }
                cells(of: line, in: bytes, separator: separator, into: &ranges)
                let strings = ranges.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
                if header && headLine == 0 {
                    head = strings; headLine = n
                } else {
                    rows.append(Row(file: file, line: n, cells: strings))
                }
            }
        }
        return Table(file: file, header: head, headerLine: headLine, rows: rows)
    }
}
