import ScoutCore

/// A grid over a region's envelope that knows, for each cell, whether a ring of the region
/// passes through it and, if none does, whether the cell lies inside or outside.
/// ``Region/boundaryGrid`` builds it; queries ask it about each candidate point.
///
/// The grid only cuts candidates; GEOS stays the judge. A cell is marked *boundary* when the
/// bounding box of a ring segment (or of a piece of a long segment) meets it, with a margin
/// for rounding, so a cell left unmarked holds no point of any ring. Unmarked cells that
/// share edges form regions free of the boundary, each wholly inside or wholly outside the
/// region: GEOS judges one point of each. Points in boundary cells go to GEOS one by one.
///
/// A point belongs to the cell its computed cell coordinates `(x − west) · scaleX` (and
/// likewise for y) fall in. That map is monotone, so a segment's endpoints bound the cells
/// of every point on it, and the set of points a cell holds is a box.
///
/// Two grids are equal when they cover the same envelope with the same cells and verdicts.
public struct BoundaryGrid: Sendable, Equatable {
    /// The envelope the cells divide; `nil` for an empty region.
    let envelope: GeoBox?
    let west: Double, south: Double
    /// Cells per degree.
    let scaleX: Double, scaleY: Double
    let columns: Int, rows: Int
    /// Row-major cell states (`boundary`, `inside`, `outside`; `free` only while building).
    private let cells: [UInt8]

    fileprivate static let free: UInt8 = 0, boundary: UInt8 = 1, inside: UInt8 = 2, outside: UInt8 = 3

    /// Most cells a grid gets: 256 KiB of verdicts.
    static let maximumCells = 1 << 18

    /// A grid of about `2 · vertexCount` cells (at least 1,024) over `envelope`: 2 measured
    /// faster than 4 on the benchmark polygons at first sight (fewer cells to mark and
    /// label) and as fast on a region seen before.
    ///
    /// - Parameters:
    ///   - rings: every ring of the region as closed coordinate lists (`[x, y]`).
    ///   - judge: the exact test (GEOS `covers`) asked once per boundary-free area.
    init(rings: [[SIMD2<Double>]], envelope: GeoBox?, vertexCount: Int, judge: (Double, Double) -> Bool) {
        self.init(Marks(rings: rings, envelope: envelope, vertexCount: vertexCount), judge: judge)
    }

    /// The grid of `marks`, its free cells labelled by `judge` (GEOS `covers`, asked once
    /// per boundary-free area at the centre of its first cell).
    init(_ marks: Marks, judge: (Double, Double) -> Bool) {
        envelope = marks.envelope
        (west, south, scaleX, scaleY, columns, rows) = (marks.west, marks.south, marks.scaleX, marks.scaleY, marks.columns, marks.rows)
        var cells = marks.cells
        if cells.count > 1 {
            let (x0, y0, sx, sy, cols) = (west, south, scaleX, scaleY, columns)
            func judgeCell(_ cx: Int, _ cy: Int) -> Bool { judge(x0 + (Double(cx) + 0.5) / sx, y0 + (Double(cy) + 0.5) / sy) }
            cells.withUnsafeMutableBufferPointer { buf in
                if !marks.areas.isEmpty {
                    // The numbered areas: one verdict each, then every cell through a table
                    // (boundary and free cells map to themselves).
                    var table = [UInt8](0...255)
                    for (k, first) in marks.areas.enumerated() {
                        let cell = Int(first)
                        table[Int(Self.firstArea) + k] = judgeCell(cell % cols, cell / cols) ? Self.inside : Self.outside
                    }
                    table.withUnsafeBufferPointer { t in
                        for i in 0..<buf.count { buf[i] = t[Int(buf[i])] }
                    }
                }
                // Areas past the numbered ones (or all, when marked here), painted one by one.
                Self.paint(buf, columns: cols) { cx, cy in judgeCell(cx, cy) ? Self.inside : Self.outside }
            }
        }
        self.cells = cells
    }

    /// A grid's cells with the rings marked and the other cells not yet labelled: the part of
    /// the build that needs no GEOS, so that it can run on another thread (``SpareCore``)
    /// while GEOS builds its point-in-area index, which labelling asks.
    struct Marks: Sendable {
        let envelope: GeoBox?
        let west: Double, south: Double
        let scaleX: Double, scaleY: Double
        let columns: Int, rows: Int
        /// Row-major: `boundary`, the number of a boundary-free area (``BoundaryGrid/firstArea``
        /// and up, for the first ``BoundaryGrid/numberedAreas``), or `free` (an area past
        /// those); or one `boundary` cell when the grid decides nothing (see
        /// ``BoundaryGrid/decidesPoints``).
        let cells: [UInt8]
        /// The first cell (row-major) of each numbered area, whose centre the labels judge.
        let areas: [Int32]

        /// Marks the cells `rings` pass through, over `envelope`.
        init(rings: [[SIMD2<Double>]], envelope: GeoBox?, vertexCount: Int) {
            self.envelope = envelope
            let envelope = envelope ?? GeoBox(west: 0, south: 0, east: 0, north: 0)
            let width = envelope.east - envelope.west, height = envelope.north - envelope.south
            west = envelope.west
            south = envelope.south
            guard width > 0, height > 0 else {
                // No area: every point of the envelope is judged by GEOS.
                (scaleX, scaleY, columns, rows, cells, areas) = (0, 0, 1, 1, [BoundaryGrid.boundary], [])
                return
            }
            let target = min(max(2 * vertexCount, 1024), BoundaryGrid.maximumCells)
            let cols = BoundaryGrid.columns(of: target, width: width, height: height)
            let rows = max(target / cols, 1)
            let sx = Double(cols) / width, sy = Double(rows) / height
            // Margin, in cells, for the rounding of cell coordinates and of interpolated pieces.
            let magnitude = max(1, abs(envelope.west), abs(envelope.east), abs(envelope.south), abs(envelope.north))
            let margin = 1e-9 + 16 * magnitude * Double.ulpOfOne * max(sx, sy)
            guard sx.isFinite, sy.isFinite, margin < 0.5 else {
                // Cells narrower than the rounding of their own coordinates (an envelope 1e-300
                // wide at latitude 90: a margin of 1e287 cells, and cell numbers past Int.max):
                // the grid could decide nothing, so GEOS judges every point.
                (scaleX, scaleY, columns, self.rows, cells, areas) = (0, 0, 1, 1, [BoundaryGrid.boundary], [])
                return
            }
            let (x0, y0) = (envelope.west, envelope.south)
            // Marking work is bounded: a segment costs a piece per cell it spans, so many long
            // segments over a long, thin envelope (a 20,000-vertex comb across 358° of
            // longitude and 0.02° of latitude: 26,758 columns, 5e8 pieces, 20 s) would cost far
            // more than the cells are worth. Past the budget, every cell is a boundary cell:
            // GEOS judges each candidate, as for a region without area.
            let budget = BoundaryGrid.piecesPerCell * cols * rows + 4 * vertexCount
            var marked = true
            var areas: [Int32] = []
            let built = [UInt8](unsafeUninitializedCapacity: cols * rows) { buf, count in
                buf.initialize(repeating: BoundaryGrid.free)
                count = cols * rows
                var pieces = 0
                rings: for ring in rings where ring.count > 1 {
                    var a = SIMD2((ring[0].x - x0) * sx, (ring[0].y - y0) * sy)
                    for i in 1..<ring.count {
                        let b = SIMD2((ring[i].x - x0) * sx, (ring[i].y - y0) * sy)
                        pieces &+= BoundaryGrid.mark(from: a, to: b, margin: margin, in: buf, columns: cols, rows: rows)
                        if pieces > budget { marked = false; break rings }
                        a = b
                    }
                }
                // The boundary-free areas, numbered (so that labelling them is a GEOS test
                // each and a pass through a table).
                if marked {
                    BoundaryGrid.paint(buf, columns: cols) { cx, cy in
                        guard areas.count < BoundaryGrid.numberedAreas else { return nil }
                        areas.append(Int32(truncatingIfNeeded: cy * cols + cx))
                        return BoundaryGrid.firstArea + UInt8(areas.count - 1)
                    }
                }
            }
            guard marked else {
                (scaleX, scaleY, columns, self.rows, cells, self.areas) = (0, 0, 1, 1, [BoundaryGrid.boundary], [])
                return
            }
            (columns, self.rows, scaleX, scaleY, cells, self.areas) = (cols, rows, sx, sy, built, areas)
        }
    }

    /// Pieces of ring segments a grid marks per cell before it gives up (see
    /// ``init(rings:envelope:vertexCount:judge:)``). A segment shorter than a cell is one
    /// piece, and a grid has about 2 cells a vertex, so such rings mark about half a piece a
    /// cell.
    static let piecesPerCell = 16

    /// Whether the grid decides any point itself (`false` when it gave up on marking, or the
    /// region has no area: then GEOS judges every candidate).
    package var decidesPoints: Bool { cells.count > 1 }

    /// What the grid knows of the point `(lon, lat)` without asking GEOS: `.inside` or
    /// `.outside` when its cell meets no ring (the cell's verdict came from GEOS),
    /// `.boundary` when a ring passes through its cell and ``Region/covers(lon:lat:)`` must
    /// judge. Points outside the envelope (or not finite) are `.outside`.
    public func relation(lon: Double, lat: Double) -> Region.Relation {
        guard let env = envelope, lon >= env.west, lon <= env.east, lat >= env.south, lat <= env.north else { return .outside }
        return Self.relation(cells[row(lat) * columns + column(lon)])
    }

    /// The verdict shared by every cell a box of the envelope meets (`.inside` or
    /// `.outside`), else `.boundary`.
    func relation(west bw: Double, south bs: Double, east be: Double, north bn: Double) -> Region.Relation {
        let (x0, x1, y0, y1) = (column(bw), column(be), row(bs), row(bn))
        let first = cells[y0 * columns + x0]
        if first == Self.boundary { return .boundary }
        for cy in y0...y1 {
            for cx in x0...x1 where cells[cy * columns + cx] != first { return .boundary }
        }
        return Self.relation(first)
    }

    /// The column of a longitude of the envelope: monotone in `x`.
    @inline(__always) private func column(_ x: Double) -> Int { Self.cell((x - west) * scaleX, below: columns) }
    /// The row of a latitude of the envelope: monotone in `y`.
    @inline(__always) private func row(_ y: Double) -> Int { Self.cell((y - south) * scaleY, below: rows) }

    /// The cell number `v` falls in, clamped to `0 ..< count` (truncation is rounding down
    /// here: negatives clamp to 0 first). Clamped as a `Double`, so that no value converts
    /// past `Int`'s range, and NaN gives 0. (Also the simple-ring proof's bucket grid's.)
    @inline(__always) static func cell(_ v: Double, below count: Int) -> Int {
        v >= 0 ? (v < Double(count &- 1) ? Int(v) : count &- 1) : 0
    }

    /// Columns of a grid of about `target` cells over a `width` × `height` box (both
    /// positive), so that cells are about square: 1 to `target`. Clamped as a `Double`: the
    /// square root of a side ratio of 1e302 is past `Int`'s range. (Also the simple-ring
    /// proof's bucket grid's.)
    static func columns(of target: Int, width: Double, height: Double) -> Int {
        let square = (Double(target) * width / height).squareRoot().rounded()
        return square >= Double(target) ? target : max(Int(square), 1)
    }

    @inline(__always) private static func relation(_ state: UInt8) -> Region.Relation {
        state == inside ? .inside : state == outside ? .outside : .boundary
    }

    /// Marks the cells the segment `a`–`b` (in cell coordinates) may pass through. A segment
    /// spanning a cell or more is cut into pieces shorter than a cell each way, so a
    /// diagonal marks a band of cells, not its whole bounding box; a piece's box (with the
    /// margin) meets at most 2 × 2 cells but in rare rounding cases.
    /// Returns the number of pieces marked.
    fileprivate static func mark(from a: SIMD2<Double>, to b: SIMD2<Double>, margin: Double,
                             in cells: UnsafeMutableBufferPointer<UInt8>, columns: Int, rows: Int) -> Int {
        // A span the marking budget could never pay for (or not finite) is reported as
        // too many pieces, so the grid gives up, before it converts to `Int`.
        let span = max(abs(b.x - a.x), abs(b.y - a.y))
        guard span < Double(1 << 40) else { return Int.max >> 2 }
        let pieces = Int(span) &+ 1
        // Scalar arithmetic (the same operations as on `SIMD2`, element by element, which
        // the optimiser leaves as slower generic calls).
        let stepX = (b.x - a.x) / Double(pieces), stepY = (b.y - a.y) / Double(pieces)
        var (px, py) = (a.x, a.y)
        for k in 1...pieces {
            let (qx, qy) = k == pieces ? (b.x, b.y) : (a.x + stepX * Double(k), a.y + stepY * Double(k))
            let cx0 = cell(min(px, qx) - margin, below: columns), cx1 = cell(max(px, qx) + margin, below: columns)
            let cy0 = cell(min(py, qy) - margin, below: rows), cy1 = cell(max(py, qy) + margin, below: rows)
            if cx1 &- cx0 <= 1 && cy1 &- cy0 <= 1 {
                let r0 = cy0 &* columns, r1 = cy1 &* columns
                cells[r0 &+ cx0] = boundary
                cells[r0 &+ cx1] = boundary
                cells[r1 &+ cx0] = boundary
                cells[r1 &+ cx1] = boundary
            } else {
                for cy in cy0...cy1 {
                    for cx in cx0...cx1 { cells[cy &* columns &+ cx] = boundary }
                }
            }
            (px, py) = (qx, qy)
        }
        return pieces
    }

    /// The first number ``Marks`` gives a boundary-free area; `numberedAreas` get one (the
    /// rest of a cell's byte), areas past those are left free for the labels to paint.
    static let firstArea: UInt8 = 4, numberedAreas = 252

    /// Paints each edge-connected area of free cells, in row-major order of their first
    /// cells, with `value(column, row)` of its first cell; stops at the first `nil`. A
    /// scanline fill: each step paints a whole run of a row and queues the runs it touches
    /// in the rows above and below.
    fileprivate static func paint(_ cells: UnsafeMutableBufferPointer<UInt8>, columns: Int,
                                  value: (_ column: Int, _ row: Int) -> UInt8?) {
        let rows = cells.count / columns
        var stack: [(x: Int, y: Int)] = []
        for y in 0..<rows {
            for x in 0..<columns where cells[y &* columns &+ x] == free {
                guard let verdict = value(x, y) else { return }
                stack.append((x, y))
                while let (sx, sy) = stack.popLast() {
                    let row = sy &* columns
                    if cells[row &+ sx] != free { continue }
                    var left = sx, right = sx
                    while left > 0, cells[row &+ left &- 1] == free { left &-= 1 }
                    while right < columns &- 1, cells[row &+ right &+ 1] == free { right &+= 1 }
                    for i in left...right { cells[row &+ i] = verdict }
                    for ny in stride(from: sy &- 1, through: sy &+ 1, by: 2) where ny >= 0 && ny < rows {
                        let next = ny &* columns
                        var i = left
                        while i <= right {
                            if cells[next &+ i] == free {
                                stack.append((i, ny))
                                while i <= right, cells[next &+ i] == free { i &+= 1 }
                            }
                            i &+= 1
                        }
                    }
                }
            }
        }
    }
}
