/// A position on the WGS84 ellipsoid in degrees: geodetic latitude and longitude.
///
/// ```swift
/// let galway = try GeoPoint(lat: 53.2707, lon: -9.0568).validated()
/// ```
/// Longitudes −180 and 180 name the same meridian; both are accepted.
public struct GeoPoint: Hashable, Sendable {
    /// Geodetic latitude in degrees, −90…90.
    public var lat: Double
    /// Longitude in degrees, −180…180.
    public var lon: Double

    /// Creates a point without checking it; see ``validated(path:)``.
    @inlinable
    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    /// True when both coordinates are finite and in range.
    @inlinable
    public var isValid: Bool {
        lat.isFinite && lon.isFinite && lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180
    }

    /// The point itself, or an `invalid_request` error naming the bad coordinate under `path`
    /// (worked out only for an error, so a caller checking many points builds no paths).
    public func validated(path: @autoclosure () -> String? = nil) throws(ScoutError) -> GeoPoint {
        func at(_ field: String) -> String { path().map { "\($0).\(field)" } ?? field }
        guard lat.isFinite else { throw ScoutError(.invalidRequest, "latitude must be a finite number", path: at("lat")) }
        guard lon.isFinite else { throw ScoutError(.invalidRequest, "longitude must be a finite number", path: at("lon")) }
        guard lat >= -90, lat <= 90 else { throw ScoutError(.invalidRequest, "latitude must be between -90 and 90", path: at("lat")) }
        guard lon >= -180, lon <= 180 else { throw ScoutError(.invalidRequest, "longitude must be between -180 and 180", path: at("lon")) }
        return self
    }
}
