import ScoutCore
import ScoutGeodesy

/// How a dog's location leaves Scout.
///
/// A dog's location is its owner's home. By default results carry the centre of the
/// dog's geohash cell at precision 6 (about 1.2 km × 0.6 km at the equator, 0.7 km × 0.6 km
/// in Ireland): the same cell on every query, so averaging answers reveals nothing more,
/// and a distance rounded to 100 m. Membership and order still use the exact location.
public enum LocationPrivacy: Sendable {
    /// Approximate points and distances for dogs (the default).
    case approximate
    /// Exact points for every kind (`scout serve --exact-dog-locations`).
    case exact

    /// Geohash precision of the approximate cell.
    public static let cellPrecision = 6
    /// Distances of approximate records are rounded to this many metres.
    public static let distanceStep = 100.0

    /// True when records of this kind are shown approximately.
    public func hides(kind: String) -> Bool { self == .approximate && kind == "dog" }

    /// The point to show for a record of a kind.
    public func shown(_ p: GeoPoint, kind: String) -> GeoPoint {
        guard hides(kind: kind), let cell = try? Geohash(p, precision: LocationPrivacy.cellPrecision) else { return p }
        return cell.center
    }

    /// The distance to show for a record of a kind (metres).
    public func shown(distance d: Double, kind: String) -> Double {
        hides(kind: kind) ? (d / LocationPrivacy.distanceStep).rounded() * LocationPrivacy.distanceStep : d
    }
}
