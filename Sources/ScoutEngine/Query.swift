import ScoutCatalog
import ScoutCore
import ScoutJSON
import ScoutText

/// The area a search looks in.
public enum SearchArea: Sendable {
    /// Points within `meters` (WGS84 geodesic) of a centre.
    case radius(center: GeoPoint, meters: Double)
    /// Points in a longitude/latitude box, edges inclusive.
    case box(GeoBox)
    /// Points covered by a polygon (boundary included), planar in lon/lat.
    case polygon(PolygonShape, crs: String?)
    /// Points within `meters` of a route of `[lon, lat]` positions.
    case corridor(route: [GeoPoint], meters: Double)
}

/// A polygon as given by a caller.
public enum PolygonShape: Sendable {
    /// GeoJSON Polygon rings (`[x, y]` positions; shell first, then holes).
    case polygon([[SIMD2<Double>]])
    /// GeoJSON MultiPolygon: a list of polygons' rings.
    case multiPolygon([[[SIMD2<Double>]]])
    /// Well-known text.
    case wkt(String)
}

/// How results are ordered.
public enum SortOrder: String, Sendable {
    /// Nearest first (ties by id); needs a reference point.
    case distance
    /// By id (byte order).
    case id
    /// Best rated first (dogs: Bayesian temperament rating; gyms: Wilson lower bound of
    /// votes), then nearest, then id.
    case rating
    /// Most relevant to the query's `text` first (BM25), then nearest, then id.
    case relevance
    /// Newest first by the kind's time (``KindDefinition/timeField``: a care entry's start),
    /// then id.
    case newest
    /// By name (a record's name, an article's title; folded, so case and accents do not
    /// count), then id.
    case name
}

/// A search: a kind, an area, and how to return the matches.
public struct SearchQuery: Sendable {
    /// The kind of points to search.
    public var kind: RecordKind
    /// Where to look; `nil` lists the whole kind, records without a place included.
    public var area: SearchArea?
    /// Most results to return (1…``SearchQuery/maximumLimit``).
    public var limit: Int
    /// A point to measure `distance_m` from when the area has no centre.
    public var from: GeoPoint?
    /// Ordering; `nil` means relevance when there is text, else distance when there is a
    /// reference point, else name for typed kinds without an area, else id.
    public var sort: SortOrder?
    /// Conditions on typed fields, tested inside the traversal.
    public var filter: RecordFilter
    /// Free text the records must match (see ``TextIndex``); `nil` for none.
    public var text: String?
    /// How many of the text's words a record must match: any of the words that count, those
    /// with more and rarer of them first (``WordMatching/most``, the default), or every word
    /// as typed (``WordMatching/all``).
    public var words: WordMatching = .most
    /// The id of the last hit of the previous page: results continue after it in the same order.
    public var after: String?
    /// Which plan a filtered radius search may use (every plan gives the same answer).
    public var plan: PlanChoice = .automatic
    /// The caller's user id, from the trusted backend: records that belong to users (pets,
    /// their care logs, personal lists, users' copies of programs) are found only by their owners and those they are
    /// shared with; `nil` finds public records only. Scout does not check who the caller is.
    public var user: String?

    /// Default number of results.
    public static let defaultLimit = 100
    /// Largest accepted limit.
    public static let maximumLimit = 100_000
    /// Largest accepted radius or k-nearest distance, in metres.
    public static let maximumRadius = 20_000_000.0

    /// Longest accepted `text`, in bytes.
    public static let maximumTextBytes = 1000

    /// Creates a query.
    public init(kind: RecordKind, area: SearchArea?, limit: Int = SearchQuery.defaultLimit, from: GeoPoint? = nil, sort: SortOrder? = nil,
                filter: RecordFilter = .all, text: String? = nil, after: String? = nil) {
        self.kind = kind
        self.area = area
        self.limit = limit
        self.from = from
        self.sort = sort
        self.filter = filter
        self.text = text
        self.after = after
    }
}

/// A k-nearest query.
public struct NearestQuery: Sendable {
    /// The kind of points to search.
    public var kind: RecordKind
    /// Where distances are measured from.
    public var from: GeoPoint
    /// How many (1…``SearchQuery/maximumLimit``).
    public var k: Int
    /// Farthest distance considered, in metres.
    public var maxDistance: Double?
    /// Conditions on typed fields, tested inside the search: k matching points come back
    /// whenever k exist.
    public var filter: RecordFilter
    /// Free text the records must match; `nil` for none.
    public var text: String?
    /// How many of the text's words a record must match (``SearchQuery/words``).
    public var words: WordMatching = .most
    /// Which plan the search may use (every plan gives the same answer).
    public var plan: PlanChoice = .automatic

    /// Creates a query.
    public init(kind: RecordKind, from: GeoPoint, k: Int, maxDistance: Double? = nil, filter: RecordFilter = .all, text: String? = nil) {
        self.kind = kind
        self.from = from
        self.k = k
        self.maxDistance = maxDistance
        self.filter = filter
        self.text = text
    }
}

/// One search result.
public struct SearchHit: Sendable {
    /// The record's id.
    public let id: String
    /// The record's kind.
    public let kind: RecordKind
    /// Its position as shown: exact, or the centre of its privacy cell when
    /// ``isApproximate`` (see ``LocationPrivacy``); `nil` for a record without a place.
    public let point: GeoPoint?
    /// Geodesic distance from the reference point in metres, rounded to the millimetre
    /// (to 100 m when ``isApproximate``); `nil` when the query has no reference point.
    public let distance: Double?
    /// True when ``point`` and ``distance`` are approximate for privacy.
    public let isApproximate: Bool
    /// The record's other fields, as given.
    public let fields: [(String, JSONValue)]
    /// The typed record.
    public let record: CatalogRecord
    /// The rating used by `sort: rating` (dogs and gyms), when the kind has one.
    public let rating: Double?
    /// The text relevance score, when the query has text: BM25F times match quality, summed
    /// over the words the record matched.
    public let relevance: Double?
    /// The query's words (folded, after synonyms) that the record matched, in query order;
    /// empty without text.
    public var matchedWords: [String] = []
}

/// Results of a search.
public struct SearchResult: Sendable {
    /// Number of matches before the limit.
    public let total: Int
    /// The returned matches, in order.
    public let hits: [SearchHit]
    /// The id to pass as `after` for the next page; `nil` on the last page.
    public let nextAfter: String?
    /// How a spatial query found its matches (`nil` for listings).
    public var plan: PlanReport? = nil
    /// The query's words (folded, after synonyms) that no hit of this page matched, in query
    /// order, each once (``WordMatching/most``: the stop words, and the words none of the
    /// page's records has); empty without text and under ``WordMatching/all``.
    public var droppedWords: [String] = []
    /// A remark on the text for the caller, such as a query of stop words only; `nil` for none.
    public var note: String? = nil
}

extension TextMatches {
    /// Sets a result's dropped words (``WordMatching/most``: the query's words no hit
    /// matched) and its note (a query of stop words only).
    func annotate(_ result: inout SearchResult) {
        guard rule == .most else { return }
        if hasOnlyStopWords {
            result.note = "the text has only stop words (\(query.words.joined(separator: ", "))): nothing to match"
            return
        }
        var seen = Set(result.hits.flatMap(\.matchedWords))
        result.droppedWords = query.words.filter { seen.insert($0).inserted }
    }
}
