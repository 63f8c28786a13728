import ScoutCore
import ScoutIndex

/// A polygon as the index searches it: candidates from its envelope, the boundary grid's
/// verdict per point (each cell no ring passes through was judged once by GEOS), and GEOS's
/// own verdict for the points in cells a ring passes through.
extension Region: IndexArea {
    /// The envelope (`nil` for an empty region).
    public var extent: AreaReach? { envelope.map { .box($0) } }

    /// The boundary grid's verdict.
    public func verdict(lon: Double, lat: Double) -> AreaVerdict {
        switch gridRelation(lon: lon, lat: lat) {
        case .inside: .inside
        case .outside: .outside
        case .boundary: .boundary
        }
    }

    /// GEOS's verdict (boundary included).
    public func contains(lon: Double, lat: Double) -> Bool { covers(lon: lon, lat: lat) }
}

/// A route corridor as the index searches it: candidates within its reach of its centre,
/// each judged exactly (see ``Corridor`` for its accuracy contract).
extension Corridor: IndexArea {
    /// The disc around the route's centre that holds every point of the corridor.
    public var extent: AreaReach? { .disc(center: center, radius: reach) }

    /// Always unsure: every candidate is judged exactly.
    public func verdict(lon: Double, lat: Double) -> AreaVerdict { .boundary }
}

extension PointSet.Snapshot {
    /// Every live point the region covers (boundary included), judged by GEOS (see
    /// ``PointSet/Snapshot/entries(in:where:)``).
    public func entries(coveredBy region: Region, where filter: ((EntryRef) -> Bool)? = nil) -> [EntryRef] {
        entries(in: region, where: filter)
    }

    /// Every live point in the corridor (see ``Corridor`` for its accuracy contract).
    public func entries(along corridor: Corridor, where filter: ((EntryRef) -> Bool)? = nil) -> [EntryRef] {
        entries(in: corridor, where: filter)
    }
}
