import ScoutCore
import ScoutJSON

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
}

/// A search: a kind, an area, and how to return the matches.
public struct SearchQuery: Sendable {
    /// The kind of points to search.
    public var kind: String
    /// Where to look.
    public var area: SearchArea
    /// Most results to return (1…``SearchQuery/maximumLimit``).
    public var limit: Int
    /// A point to measure `distance_m` from when the area has no centre.
    public var from: GeoPoint?
    /// Ordering; `nil` means distance when there is a reference point, else id.
    public var sort: SortOrder?

    /// Default number of results.
    public static let defaultLimit = 100
    /// Largest accepted limit.
    public static let maximumLimit = 100_000
    /// Largest accepted radius or k-nearest distance, in metres.
    public static let maximumRadius = 20_000_000.0

    /// Creates a query.
    public init(kind: String, area: SearchArea, limit: Int = SearchQuery.defaultLimit, from: GeoPoint? = nil, sort: SortOrder? = nil) {
        self.kind = kind
        self.area = area
        self.limit = limit
        self.from = from
        self.sort = sort
    }
}

/// A k-nearest query.
public struct NearestQuery: Sendable {
    /// The kind of points to search.
    public var kind: String
    /// Where distances are measured from.
    public var from: GeoPoint
    /// How many (1…``SearchQuery/maximumLimit``).
    public var k: Int
    /// Farthest distance considered, in metres.
    public var maxDistance: Double?

    /// Creates a query.
    public init(kind: String, from: GeoPoint, k: Int, maxDistance: Double? = nil) {
        self.kind = kind
        self.from = from
        self.k = k
        self.maxDistance = maxDistance
    }
}

/// One search result.
public struct SearchHit: Sendable {
    /// The record's id.
    public let id: String
    /// The record's kind.
    public let kind: String
    /// Its position.
    public let point: GeoPoint
    /// Geodesic distance from the reference point in metres, rounded to the millimetre;
    /// `nil` when the query has no reference point.
    public let distance: Double?
    /// The record's other fields.
    public let fields: [(String, JSONValue)]
}

/// Results of a search.
public struct SearchResult: Sendable {
    /// Number of matches before the limit.
    public let total: Int
    /// The returned matches, in order.
    public let hits: [SearchHit]
}
