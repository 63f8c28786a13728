import ScoutCore
import ScoutGeodesy

extension Geohash {
    /// Every cell at `precision` that may meet the region, in row-major order: cells the
    /// region's boundary grid shows to be outside (a verdict GEOS gave) are left out.
    /// Throws `limit_exceeded` when the region's envelope spans more than `limit` cells.
    public static func cells(covering region: Region, precision: Int, limit: Int = 1 << 20) throws(ScoutError) -> [Geohash] {
        guard let env = region.envelope else { return [] }
        return try cells(covering: env, precision: precision, limit: limit).filter { region.relation(to: $0.box) != .outside }
    }
}
