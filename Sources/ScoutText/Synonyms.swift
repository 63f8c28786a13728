import ScoutCore

/// Groups of words and phrases that mean the same ("threw up", "vomiting", "being sick";
/// "pies", "dog"), applied when a document is indexed: a document that contains any
/// phrase of a group is also found by every other phrase of it, in either language, with
/// the index's usual typo tolerance and prefix matching.
///
/// ```swift
/// let synonyms = SynonymTable(groups: [["vomiting", "threw up", "being sick"]])
/// synonyms.expansion(of: "My dog threw up twice")   // "vomiting threw up being sick"
/// ```
/// Expanding documents rather than queries keeps a query an AND of its words: "threw up
/// grass" finds the article about vomiting that mentions grass.
public struct SynonymTable: Sendable {
    /// Each group's phrases, folded (``TextFolding/fold(_:)``), in file order.
    public let groups: [[String]]
    /// Phrases by their first folded word: (the phrase's words, its group).
    private let byFirstWord: [String: [(words: [String], group: Int)]]
    /// The phrases of one word, sorted, as a vocabulary (for typos of them), and each one's group.
    private let oneWord: Vocabulary
    private let oneWordGroups: [Int]

    /// Builds a table from groups of phrases (folded on the way in; empty phrases dropped).
    public init(groups: [[String]]) {
        var folded: [[String]] = []
        var index: [String: [(words: [String], group: Int)]] = [:]
        for g in groups {
            let phrases = g.map(TextFolding.fold).filter { !$0.isEmpty }
            guard !phrases.isEmpty else { continue }
            for p in phrases {
                let words = p.split(separator: " ").map(String.init)
                index[words[0], default: []].append((words, folded.count))
            }
            folded.append(phrases)
        }
        self.groups = folded
        byFirstWord = index
        let single = index.flatMap { first, list in list.filter { $0.words.count == 1 }.map { (first, $0.group) } }
            .sorted { $0.0.unicodeScalars.lexicographicallyPrecedes($1.0.unicodeScalars) { $0.value < $1.value } }
        var scalars: [UInt32] = [], starts: [Int32] = [0]
        var owners: [Int] = []
        var previous: String?
        for (word, group) in single where word != previous {
            previous = word
            scalars += word.unicodeScalars.map(\.value)
            starts.append(Int32(scalars.count))
            owners.append(group)
        }
        oneWord = Vocabulary(sortedScalars: scalars, starts: starts)
        oneWordGroups = owners
    }

    /// No synonyms.
    public static let empty = SynonymTable(groups: [])

    /// The groups whose phrases occur in `text` (as whole words, in order), by index.
    ///
    /// - Complexity: O(*w* · *p*) for *w* words of text and *p* phrases sharing a first word.
    public func groups(in text: String) -> [Int] {
        let words = TextFolding.words(text)
        var found = Set<Int>()
        for i in words.indices { for m in phrases(at: i, in: words) { found.insert(m.group) } }
        return found.sorted()
    }

    /// The phrases that start at word `i` of `words`: their length in words and their group.
    private func phrases(at i: Int, in words: [String]) -> [(length: Int, group: Int)] {
        (byFirstWord[words[i]] ?? []).compactMap { c in
            i + c.words.count <= words.count && zip(c.words, words[i...]).allSatisfy({ $0 == $1 }) ? (c.words.count, c.group) : nil
        }
    }

    /// Every phrase of every group that occurs in `text`, space-separated: the text to
    /// index beside the document so its synonyms find it ("" when none occur).
    public func expansion(of text: String) -> String {
        groups(in: text).map { groups[$0].joined(separator: " ") }.joined(separator: " ")
    }

    /// A query with every phrase of a group replaced by the group's first phrase ("my dog
    /// threw up" → "my dog vomiting"), longest phrase first, so a query ranks the documents
    /// that use the canonical word in their own fields; words outside every group stay.
    public func canonical(_ query: String) -> String {
        canonicalWords(query).map(\.word).joined(separator: " ")
    }

    /// The words of ``canonical(_:)``, each marked when it comes from a group's first phrase
    /// put in for a phrase of the query.
    public func canonicalWords(_ query: String) -> [(word: String, fromGroup: Bool)] {
        let words = TextFolding.words(query)
        var out: [(word: String, fromGroup: Bool)] = []
        var i = 0
        while i < words.count {
            if let best = phrases(at: i, in: words).max(by: { $0.length < $1.length }) {
                for w in groups[best.group][0].split(separator: " ") { out.append((String(w), true)) }
                i += best.length
            } else {
                out.append((words[i], false))
                i += 1
            }
        }
        return out
    }

    /// The first phrase of the one group with a phrase of one word within the index's typo
    /// distance of `word` (``EditDistance/allowedEdits(forLength:)``; none below 5 letters), the
    /// closest; `nil` when there is none or two groups are equally close.
    ///
    /// - Complexity: a pruned walk of the trie of the one-word phrases.
    public func canonical(nearWord word: String) -> String? {
        let w = word.unicodeScalars.map(\.value)
        let allowed = EditDistance.allowedEdits(forLength: w.count)
        guard allowed > 0 else { return nil }
        var best: (edits: Int, group: Int)?
        var tie = false
        w.withUnsafeBufferPointer { wp in
            oneWord.trie.forEachTerm(within: allowed, of: wp) { t, d in
                let g = oneWordGroups[t]
                if best == nil || d < best!.edits { best = (d, g); tie = false }
                else if d == best!.edits && g != best!.group { tie = true }
            }
        }
        guard let best, !tie else { return nil }
        return groups[best.group][0]
    }

    /// The first phrase of the group that has `word` (folded) as a phrase of one word, or
    /// `nil` when no group has it.
    public func canonical(ofWord word: String) -> String? {
        guard let g = byFirstWord[word]?.first(where: { $0.words.count == 1 })?.group else { return nil }
        return groups[g][0]
    }

    /// Reads a synonym file: one group per line, phrases separated by tabs; blank lines and
    /// lines starting with `#` are skipped. A phrase in two groups (after folding: "won't"
    /// and "wont" are one phrase) is an error naming the line.
    public static func parse(_ text: String, file: String = "synonyms.tsv") throws(SynonymFileError) -> SynonymTable {
        var groups: [[String]] = []
        var seen: [String: Int] = [:]
        for row in DelimitedText.table(text, file: file, separator: UInt8(ascii: "\t"), header: false, comments: true).rows {
            let phrases = row.cells.map(\.trimmingSpaces).filter { !$0.isEmpty }
            for p in phrases {
                let f = TextFolding.fold(p)
                if let first = seen[f], first != row.line {
                    throw SynonymFileError(message: "\(row.location): the phrase \"\(p.prefix(64))\" is already in the group of line \(first)")
                }
                seen[f] = row.line
            }
            groups.append(phrases)
        }
        return SynonymTable(groups: groups)
    }
}

/// A synonym file that could not be read, with the line.
public struct SynonymFileError: Error, Sendable {
    /// What is wrong and where.
    public let message: String
}

extension Substring {
    /// The text without leading and trailing spaces, tabs and carriage returns.
    fileprivate var trimmingSpaces: String {
        var s = self[...]
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s = s.dropLast() }
        return String(s)
    }
}

extension String {
    fileprivate var trimmingSpaces: String { self[...].trimmingSpaces }
}
