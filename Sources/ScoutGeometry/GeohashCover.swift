import ScoutCore
import ScoutGeodesy

extension Geohash {
    /// Every cell at `precision` that meets the region (GEOS decides), in row-major order.
    /// Throws `limit_exceeded` when the region's envelope spans more than `limit` cells.
    public static func cells(covering region: Region, precision: Int, limit: Int = 1 << 20) throws(ScoutError) -> [Geohash] {
        guard let env = region.envelope else { return [] }
        return try cells(covering: env, precision: precision, limit: limit).filter { region.relation(to: $0.box) != .outside }
    }
}
