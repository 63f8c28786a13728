import ScoutCore
import ScoutGeodesy

/// How a dog's location leaves Scout.
///
/// A dog's location is its owner's home. By default the engine keeps only the centre of
/// the dog's geohash cell at precision 6 (about 1.2 km × 0.6 km at the equator, 0.7 km ×
/// 0.6 km in Ireland): the exact point is replaced on the way in and never indexed. So
/// every answer about a dog — membership in radius, box, polygon and corridor searches,
/// nearest order, distances, ranking scores, page cursors and totals — is a function of
/// that published cell centre alone, and a caller who probes with many centres and radii
/// learns the cell and nothing finer. Distances are measured from the cell centre and
/// shown rounded to 100 m.
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
    public func hides(kind: String) -> Bool { self == .approximate && LocationPrivacy.hidingKinds.contains(kind) }

    /// The kinds whose locations are hidden (``KindDefinition/hidesLocation``), read from the
    /// kind table once: ``hides(kind:)`` runs for every hit, and a copy of a definition per
    /// call would cost more than this comparison of a name or two.
    private static let hidingKinds = KindDefinition.table.filter(\.hidesLocation).map(\.kind.name)

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
