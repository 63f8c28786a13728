/// A longitude/latitude box `[west, south, east, north]` in degrees, edges inclusive.
///
/// When `west > east` the box crosses the antimeridian: it holds longitudes
/// `west…180` and `−180…east`. Boxes are planar in longitude/latitude, like PostGIS
/// `geometry` envelopes.
public struct GeoBox: Hashable, Sendable {
    /// Western edge, −180…180.
    public var west: Double
    /// Southern edge, −90…90.
    public var south: Double
    /// Eastern edge, −180…180; smaller than `west` when the box crosses 180°.
    public var east: Double
    /// Northern edge, −90…90, not below `south`.
    public var north: Double

    /// Creates a box without checking it; see ``validated(path:)``.
    @inlinable
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// True when the box wraps across the antimeridian.
    @inlinable
    public var crossesAntimeridian: Bool { west > east }

    /// The box as one or two boxes that do not cross the antimeridian.
    @inlinable
    public var unwrapped: [GeoBox] {
        if !crossesAntimeridian { return [self] }
        return [GeoBox(west: west, south: south, east: 180, north: north),
                GeoBox(west: -180, south: south, east: east, north: north)]
    }

    /// True when the point lies in the box or on its edges.
    @inlinable
    public func contains(_ p: GeoPoint) -> Bool {
        guard p.lat >= south, p.lat <= north else { return false }
        if crossesAntimeridian { return p.lon >= west || p.lon <= east }
        return p.lon >= west && p.lon <= east
    }

    /// The box itself, or an `invalid_request` error naming the bad edge.
    public func validated(path: String? = nil) throws(ScoutError) -> GeoBox {
        func at(_ i: Int) -> String { "\(path ?? "bbox")[\(i)]" }
        let edges = [west, south, east, north]
        for (i, v) in edges.enumerated() where !v.isFinite {
            throw ScoutError(.invalidRequest, "box edges must be finite numbers", path: at(i))
        }
        for i in [0, 2] where edges[i] < -180 || edges[i] > 180 {
            throw ScoutError(.invalidRequest, "box longitudes must be between -180 and 180", path: at(i))
        }
        for i in [1, 3] where edges[i] < -90 || edges[i] > 90 {
            throw ScoutError(.invalidRequest, "box latitudes must be between -90 and 90", path: at(i))
        }
        guard south <= north else {
            throw ScoutError(.invalidRequest, "box south edge must not be above its north edge", path: at(1))
        }
        return self
    }
}
