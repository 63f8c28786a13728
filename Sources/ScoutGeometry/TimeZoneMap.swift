import CGEOS
import ScoutCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The IANA time zone of any point on Earth, from the time-zone boundary polygons in
/// `data/timezones.bin` (timezone-boundary-builder, with its ocean zones; see
/// `docs/time-zones.md`).
///
/// The file (written by `python3 scripts/build_data.py --time-zones`) holds every zone
/// polygon cut into pieces of at most 256 vertices and 8° across, smallest source polygon
/// first. It is memory-mapped, not read: loading checks its tables and builds a 0.5° grid of
/// piece boxes. A lookup finds the pieces whose box holds the point in its grid cell and asks
/// GEOS whether each, in file order, *covers* the point (boundary included); the first that
/// does gives the zone. A piece's GEOS polygon is built and prepared the first time a point
/// falls in its box, by the thread asking, and kept for the next lookups.
///
/// Every point gets a zone: land zones (`Europe/Dublin`), and over the open sea the nautical
/// zones `Etc/GMT+N` / `Etc/GMT-N` of the source (15° bands; note the POSIX sign:
/// `Etc/GMT+2` is UTC−2). The source lets zones overlap on purpose in a few disputed or
/// dual-use areas (Xinjiang: `Asia/Urumqi` over `Asia/Shanghai`; the West Bank:
/// `Asia/Hebron` and `Asia/Jerusalem`; Abyei; some contested borders): there, and on the
/// border line of two zones, the zone of the smaller source polygon (the more specific
/// claim) wins; ``zoneIdentifiers(at:)`` lists every zone that covers a point.
///
/// ```swift
/// let zones = try TimeZoneMap.load(path: "data/timezones.bin")
/// zones.zoneIdentifier(at: GeoPoint(lat: 51.1522, lon: 14.9680))   // "Europe/Berlin" (Görlitz)
/// zones.zoneIdentifier(at: GeoPoint(lat: 51.1490, lon: 15.0110))   // "Europe/Warsaw" (Zgorzelec)
/// ```
///
/// Threading: safe to use from any number of threads at once. Each thread borrows a judge
/// (one GEOS context and the pieces it has prepared) from a small pool, so GEOS objects are
/// never shared between threads.
///
/// - Complexity: loading O(pieces), ~5–15 ms; a lookup ~0.3–0.6 µs once its pieces are
///   prepared, ~2–15 µs on average before. Memory: the mapped file (70 MB, file-backed, only
///   the pages touched resident), a ~2 MB grid, and at most ~20 MB of GEOS pieces per judge.
public final class TimeZoneMap: Sendable {
    /// The mapped file and the offsets of its tables.
    private let file: MappedFile
    private let boxesAt: Int, zonesAt: Int, ringAtAt: Int, vertexAtAt: Int, verticesAt: Int
    /// Zone names, index = zone number in the file.
    private let names: [String]
    /// Grid of 0.5° cells, row-major from (−180, −90): the pieces whose box meets cell `c`
    /// are `cellPieces[cellStart[c] ..< cellStart[c + 1]]`, in file order.
    private let cellStart: [UInt32]
    private let cellPieces: [UInt32]
    /// Judges not lent out.
    private let idle = Mutex<[Lent]>([])

    /// Every zone identifier the map can return, sorted (444 for timezone-boundary-builder
    /// 2026c: 418 land zones, `Etc/UTC` and the 25 ocean zones `Etc/GMT-12` … `Etc/GMT+12`).
    ///
    /// ```swift
    /// zones.zoneIdentifiers.contains("Africa/Ceuta")   // true
    /// ```
    /// - Complexity: O(1).
    public var zoneIdentifiers: [String] { names }

    /// What the data was built from (source, release, licence, package versions), as the file
    /// records it.
    ///
    /// ```swift
    /// print(zones.source)   // "timezone-boundary-builder 2026c (with oceans; …) via timezonefinder 9.0.0 …"
    /// ```
    /// - Complexity: O(1).
    public let source: String

    /// Grid cells per degree.
    private static let cellsPerDegree = 2
    private static let columns = 360 * cellsPerDegree, rows = 180 * cellsPerDegree
    /// The file's fixed-point scale: coordinates are integers of 1e-7 degree.
    private static let scale = 10_000_000.0
    private static let magic: [UInt8] = Array("SCOUTTZ\0".utf8)
    private static let version: UInt32 = 1
    private static let headerSize = 64
    /// Most vertices a judge keeps prepared (GEOS needs about 80 bytes a prepared vertex);
    /// a judge over it forgets its oldest pieces first.
    static let judgeVertexBudget = 250_000

    private init(file: MappedFile, path: String) throws(ScoutError) {
        func corrupt(_ why: String) -> ScoutError {
            ScoutError(.internal, "the time-zone file is damaged or of another version (\(why)); rebuild it with python3 scripts/build_data.py --time-zones", path: path)
        }
        let base = file.base, length = file.length
        guard length >= Self.headerSize else { throw corrupt("too short") }
        guard (0..<8).allSatisfy({ base.load(fromByteOffset: $0, as: UInt8.self) == Self.magic[$0] }) else { throw corrupt("bad magic") }
        func u32(_ i: Int) -> Int { Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 8 + 4 * i, as: UInt32.self))) }
        guard u32(0) == Self.version else { throw corrupt("version \(u32(0))") }
        guard u32(1) == Int(Self.scale) else { throw corrupt("scale") }
        let zoneCount = u32(2), pieces = u32(3), rings = u32(4), vertices = u32(5), namesBytes = u32(6), sourceBytes = u32(7)
        func padded(_ n: Int) -> Int { (n + 7) & ~7 }
        var at = Self.headerSize
        boxesAt = at; at += padded(16 * pieces)
        zonesAt = at; at += padded(2 * pieces)
        ringAtAt = at; at += padded(4 * (pieces + 1))
        vertexAtAt = at; at += padded(4 * (rings + 1))
        verticesAt = at; at += padded(8 * vertices)
        let namesAt = at; at += padded(namesBytes)
        let sourceAt = at; at += padded(sourceBytes)
        guard at == length else { throw corrupt("size \(length), tables say \(at)") }

        let nameText = String(decoding: UnsafeRawBufferPointer(start: base + namesAt, count: namesBytes), as: UTF8.self)
        names = nameText.split(separator: "\n").map(String.init)
        guard names.count == zoneCount, zoneCount > 0 else { throw corrupt("zone names") }
        source = String(decoding: UnsafeRawBufferPointer(start: base + sourceAt, count: sourceBytes), as: UTF8.self)
        self.file = file

        // Every index the lookups follow is checked once here, so they never read outside the file.
        let zones = (base + zonesAt).assumingMemoryBound(to: UInt16.self)
        let ringAt = (base + ringAtAt).assumingMemoryBound(to: UInt32.self)
        let vertexAt = (base + vertexAtAt).assumingMemoryBound(to: UInt32.self)
        guard ringAt[0] == 0, Int(ringAt[pieces]) == rings, vertexAt[0] == 0, Int(vertexAt[rings]) == vertices else { throw corrupt("table ends") }
        for p in 0..<pieces {
            guard Int(UInt16(littleEndian: zones[p])) < zoneCount, ringAt[p] < ringAt[p + 1] else { throw corrupt("piece \(p)") }
        }
        for r in 0..<rings where Int(vertexAt[r + 1]) < Int(vertexAt[r]) + 3 { throw corrupt("ring \(r)") }

        // The grid: count the pieces of each cell, then fill (pieces stay in file order).
        let boxes = (base + boxesAt).assumingMemoryBound(to: Int32.self)
        let cellCount = Self.columns * Self.rows
        var start = [UInt32](repeating: 0, count: cellCount + 1)
        func cells(_ p: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
            let b = boxes + 4 * p
            return (Self.column(Double(Int32(littleEndian: b[0])) / Self.scale), Self.row(Double(Int32(littleEndian: b[1])) / Self.scale),
                    Self.column(Double(Int32(littleEndian: b[2])) / Self.scale), Self.row(Double(Int32(littleEndian: b[3])) / Self.scale))
        }
        for p in 0..<pieces {
            let c = cells(p)
            guard c.x0 <= c.x1, c.y0 <= c.y1 else { throw corrupt("box of piece \(p)") }
            for y in c.y0...c.y1 {
                for x in c.x0...c.x1 { start[y * Self.columns + x + 1] &+= 1 }
            }
        }
        for c in 0..<cellCount { start[c + 1] &+= start[c] }
        var fill = start
        cellPieces = [UInt32](unsafeUninitializedCapacity: Int(start[cellCount])) { buf, count in
            for p in 0..<pieces {
                let c = cells(p)
                for y in c.y0...c.y1 {
                    for x in c.x0...c.x1 {
                        let cell = y * Self.columns + x
                        buf[Int(fill[cell])] = UInt32(p)
                        fill[cell] &+= 1
                    }
                }
            }
            count = Int(start[cellCount])
        }
        cellStart = start
    }

    /// Maps the time-zone file at `path` (normally `data/timezones.bin`, built by
    /// `python3 scripts/build_data.py --time-zones`) and indexes it.
    ///
    /// ```swift
    /// let zones = try TimeZoneMap.load(path: "data/timezones.bin")   // from the repository root
    /// ```
    /// - Throws: `not_found` when the file is missing or unreadable, `internal` when it is
    ///   damaged or of another format version.
    /// - Complexity: O(pieces + grid cells): about 5–15 ms (release build) for the 83,000 pieces of the
    ///   2026c data. The 70 MB file is mapped, not copied; the grid takes about 2 MB.
    public static func load(path: String) throws(ScoutError) -> TimeZoneMap {
        try TimeZoneMap(file: MappedFile(path: path), path: path)
    }

    /// The IANA identifier of the time zone at `point`, e.g. `"Europe/Dublin"`;
    /// `Etc/GMT±N` over the open sea. `nil` only when no zone polygon covers the point (the
    /// source leaves no such gap) or the point is not a valid latitude/longitude.
    ///
    /// ```swift
    /// zones.zoneIdentifier(at: GeoPoint(lat: 35.8894, lon: -5.3213))   // "Africa/Ceuta"
    /// zones.zoneIdentifier(at: GeoPoint(lat: 35.8497, lon: -5.3586))   // "Africa/Casablanca" (Fnideq)
    /// ```
    /// - Complexity: a grid-cell scan of a few to a few hundred boxes and one GEOS prepared
    ///   `covers` test per piece whose box holds the point (usually 1–3): ~0.3–0.6 µs once
    ///   those pieces are prepared; the first lookup in a piece builds and prepares its GEOS
    ///   polygon (at most 256 vertices), which makes a cold lookup ~2–15 µs on average
    ///   (release build; `docs/time-zones.md`).
    public func zoneIdentifier(at point: GeoPoint) -> String? {
        zoneIndex(at: point).map { names[$0] }
    }

    /// Every zone whose polygons cover `point`, the one ``zoneIdentifier(at:)`` gives first.
    /// More than one in the source's overlaps (disputed or dual-use areas) and on the border
    /// line between zones; empty for an invalid point.
    ///
    /// ```swift
    /// zones.zoneIdentifiers(at: GeoPoint(lat: 43.8, lon: 87.6))   // ["Asia/Urumqi", "Asia/Shanghai"]
    /// zones.zoneIdentifiers(at: GeoPoint(lat: 53.35, lon: -6.26)) // ["Europe/Dublin"]
    /// ```
    /// - Complexity: like ``zoneIdentifier(at:)``, but every piece whose box holds the point
    ///   is tested, not only those before the first that covers it.
    public func zoneIdentifiers(at point: GeoPoint) -> [String] {
        var found: [Int] = []
        _ = visitCoveringZones(at: point) { zone in
            if !found.contains(zone) { found.append(zone) }
            return true
        }
        return found.map { names[$0] }
    }

    /// The zone number (index in ``zoneIdentifiers``) at `point`.
    func zoneIndex(at point: GeoPoint) -> Int? {
        var found: Int?
        _ = visitCoveringZones(at: point) { zone in
            found = zone
            return false
        }
        return found
    }

    /// Calls `visit` with the zone of each piece that covers `point`, in precedence order,
    /// while it returns true; returns false when `visit` stopped it.
    private func visitCoveringZones(at point: GeoPoint, _ visit: (Int) -> Bool) -> Bool {
        guard point.isValid else { return true }
        let cell = Self.row(point.lat) * Self.columns + Self.column(point.lon)
        // Box test in fixed point, widened by one unit so rounding never drops a candidate.
        let x = point.lon * Self.scale, y = point.lat * Self.scale
        let boxes = (file.base + boxesAt).assumingMemoryBound(to: Int32.self)
        let judge = borrowJudge()
        defer { giveBack(judge) }
        return cellPieces.withUnsafeBufferPointer { list in
            for i in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                let p = Int(list[i])
                let b = boxes + 4 * p
                guard x >= Double(Int32(littleEndian: b[0])) - 1, y >= Double(Int32(littleEndian: b[1])) - 1,
                      x <= Double(Int32(littleEndian: b[2])) + 1, y <= Double(Int32(littleEndian: b[3])) + 1 else { continue }
                if judge.piece(p, of: self, covers: point),
                   !visit(Int(UInt16(littleEndian: (file.base + zonesAt).assumingMemoryBound(to: UInt16.self)[p]))) {
                    return false
                }
            }
            return true
        }
    }

    @inline(__always) private static func column(_ lon: Double) -> Int { min(max(Int(((lon + 180) * Double(cellsPerDegree)).rounded(.down)), 0), columns - 1) }
    @inline(__always) private static func row(_ lat: Double) -> Int { min(max(Int(((lat + 90) * Double(cellsPerDegree)).rounded(.down)), 0), rows - 1) }

    /// A GEOS polygon of piece `p`, made in `ctx` (the caller owns it).
    fileprivate func makeGeometry(_ p: Int, in ctx: GEOSContext) -> (geometry: OpaquePointer, vertices: Int)? {
        let h = ctx.handle
        let ringAt = (file.base + ringAtAt).assumingMemoryBound(to: UInt32.self)
        let vertexAt = (file.base + vertexAtAt).assumingMemoryBound(to: UInt32.self)
        let xy = (file.base + verticesAt).assumingMemoryBound(to: Int32.self)
        var rings: [OpaquePointer?] = []
        var total = 0
        var ok = true
        for r in Int(ringAt[p])..<Int(ringAt[p + 1]) {
            let first = Int(vertexAt[r]), end = Int(vertexAt[r + 1])
            // Rings are stored open; GEOS wants the first vertex repeated at the end.
            var ring = [SIMD2<Double>](repeating: .zero, count: end - first + 1)
            for (k, v) in (first..<end).enumerated() {
                ring[k] = SIMD2(Double(Int32(littleEndian: xy[2 * v])) / Self.scale, Double(Int32(littleEndian: xy[2 * v + 1])) / Self.scale)
            }
            ring[end - first] = ring[0]
            total += ring.count
            guard let seq = ctx.coordinateSequence(ring), let g = GEOSGeom_createLinearRing_r(h, seq) else { ok = false; break }
            rings.append(g)
        }
        guard ok, let shell = rings.first ?? nil else {
            for g in rings { GEOSGeom_destroy_r(h, g) }
            return nil
        }
        var holes = Array(rings.dropFirst())
        let polygon = holes.withUnsafeMutableBufferPointer { buf in
            GEOSGeom_createPolygon_r(h, shell, buf.baseAddress, UInt32(buf.count))
        }
        guard let polygon else {
            for g in rings { GEOSGeom_destroy_r(h, g) }
            return nil
        }
        return (polygon, total)
    }

    private func borrowJudge() -> Judge {
        if let lent = idle.withLock({ $0.popLast() }) { return lent.judge }
        return Judge()
    }

    private func giveBack(_ judge: Judge) {
        let lent = Lent(judge: judge)
        idle.withLock { $0.append(lent) }
    }
}

/// A judge handed between threads: only one thread holds it at a time (it is taken out of
/// the pool under the lock and used by the borrower alone), so its GEOS context and
/// geometries are never used by two threads at once.
private struct Lent: @unchecked Sendable {
    let judge: Judge
}

/// One thread's GEOS context and the pieces it has built and prepared, oldest first out
/// when they pass the vertex budget.
private final class Judge {
    struct Prepared {
        let geometry: OpaquePointer
        let prepared: OpaquePointer
        let vertices: Int
    }
    let ctx = GEOSContext()
    private var pieces: [Int: Prepared] = [:]
    /// Pieces in the order they were prepared; `order[head...]` are still kept.
    private var order: [Int] = []
    private var head = 0
    private var vertices = 0

    /// True when piece `p` of `map` covers `point` (boundary included). Builds and prepares
    /// the piece on first use; forgets the oldest pieces when over the vertex budget.
    func piece(_ p: Int, of map: TimeZoneMap, covers point: GeoPoint) -> Bool {
        let h = ctx.handle
        let prepared: OpaquePointer
        if let known = pieces[p] {
            prepared = known.prepared
        } else {
            guard let (geometry, n) = map.makeGeometry(p, in: ctx) else { return false }
            guard let made = GEOSPrepare_r(h, geometry) else {
                GEOSGeom_destroy_r(h, geometry)
                return false
            }
            while vertices + n > TimeZoneMap.judgeVertexBudget, head < order.count { forgetOldest() }
            pieces[p] = Prepared(geometry: geometry, prepared: made, vertices: n)
            order.append(p)
            vertices += n
            prepared = made
        }
        guard let pt = GEOSGeom_createPointFromXY_r(h, point.lon, point.lat) else { return false }
        defer { GEOSGeom_destroy_r(h, pt) }
        return GEOSPreparedCovers_r(h, prepared, pt) == 1
    }

    private func forgetOldest() {
        let p = order[head]
        head += 1
        if head > 4096 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        guard let piece = pieces.removeValue(forKey: p) else { return }
        GEOSPreparedGeom_destroy_r(ctx.handle, piece.prepared)
        GEOSGeom_destroy_r(ctx.handle, piece.geometry)
        vertices -= piece.vertices
    }

    deinit {
        for (_, piece) in pieces {
            GEOSPreparedGeom_destroy_r(ctx.handle, piece.prepared)
            GEOSGeom_destroy_r(ctx.handle, piece.geometry)
        }
    }
}

/// A read-only memory map of a whole file. The mapping never changes after `init` and is
/// unmapped only when the last owner goes, so reading it from any thread is safe.
private final class MappedFile: @unchecked Sendable {
    let base: UnsafeRawPointer
    let length: Int

    init(path: String) throws(ScoutError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ScoutError(.notFound, "the time-zone file cannot be opened (errno \(errno)); build it with python3 scripts/build_data.py --time-zones", path: path)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size > 0 else {
            throw ScoutError(.notFound, "the time-zone file cannot be read or is empty", path: path)
        }
        let length = Int(st.st_size)
        guard let p = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw ScoutError(.internal, "the time-zone file cannot be mapped (errno \(errno))", path: path)
        }
        base = UnsafeRawPointer(p)
        self.length = length
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), length) }
}
