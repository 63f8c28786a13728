// Walking the sun's elevation through a span of time in monotonic pieces, so that every
// threshold crossing (sunrise, dusk, a change of daylight level) is bracketed by exactly
// one sign change and can be found by bisection on whole seconds.
//
// The elevation has one maximum and one minimum per day (near solar noon and midnight),
// hours apart even at the clamped latitude 89.8° where the declination's drift shifts them
// most. So sampling every 10 minutes and locating each extremum the samples reveal (a turn
// in the sign of successive differences) splits the span into pieces on which the
// elevation is monotonic. A sun that grazes a threshold between two samples is not missed:
// the extremum is a piece boundary, so both crossings are seen.

/// Sampling step, seconds. Two extrema of the elevation are always more than two steps apart.
let scanStep: Int64 = 600

/// `a + b`, saturating at the ends of Int64 instead of trapping.
@inline(__always)
func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
    let (r, overflow) = a.addingReportingOverflow(b)
    if !overflow { return r }
    return b > 0 ? .max : .min
}

extension SolarSite {
    /// Calls `body(a, ea, b, eb)` for consecutive whole-second times
    /// `start = p₀ < p₁ < … < pₙ = end` and their geometric elevations, such that the
    /// elevation is monotonic on each `[pₖ, pₖ₊₁]` (to within a second at the extrema).
    /// Stops early when `body` returns true. Nothing is called when `end <= start`.
    /// - Complexity: O((end − start) / 600) elevation evaluations, no allocation.
    func forEachMonotonicPiece(from start: Int64, to end: Int64,
                               _ body: (Int64, Double, Int64, Double) -> Bool) {
        guard end > start else { return }
        var lastT = start
        var lastE = geometricElevation(at: start)
        var finished = false

        // Hands the piece [lastT, t] to body; clips at `end`. Ignores times not after lastT.
        func emit(_ t: Int64, _ e: Double) {
            guard !finished, t > lastT else { return }
            var t = t, e = e
            if t >= end {
                if t > end { e = geometricElevation(at: end) }
                t = end
                finished = true
            }
            if body(lastT, lastE, t, e) { finished = true }
            lastT = t
            lastE = e
        }

        var t0 = saturatingAdd(start, -scanStep), e0 = geometricElevation(at: t0)
        var t1 = start, e1 = lastE
        while !finished {
            let t2 = saturatingAdd(t1, scanStep)
            let e2 = geometricElevation(at: t2)
            let rise0 = e1 - e0, rise1 = e2 - e1
            if (rise0 > 0 && rise1 <= 0) || (rise0 < 0 && rise1 >= 0) {
                let tx = extremum(between: t0, and: t2, maximum: rise0 > 0)
                let ex = geometricElevation(at: tx)
                if tx < t1 {
                    emit(tx, ex)
                    emit(t1, e1)
                } else {
                    emit(t1, e1)
                    emit(tx, ex)
                }
            } else {
                emit(t1, e1)
            }
            if t2 == t1 { break }   // saturated at the end of time
            t0 = t1; e0 = e1
            t1 = t2; e1 = e2
        }
        emit(end, geometricElevation(at: end))
    }

    /// The whole second nearest the maximum (or minimum) of the elevation in `(lo, hi)`,
    /// given that there is exactly one: the first second after which the elevation stops
    /// rising (falling).
    func extremum(between lo: Int64, and hi: Int64, maximum: Bool) -> Int64 {
        var lo = lo, hi = hi - 1
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            let d = geometricElevation(at: mid + 1) - geometricElevation(at: mid)
            if maximum ? d > 0 : d < 0 { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// The first whole second in `(lo, hi]` at which `holds` is true, given that it is false
    /// at `lo`, true at `hi`, and changes once in between.
    @inline(__always)
    func firstSecond(after lo: Int64, by hi: Int64, where holds: (Double) -> Bool) -> Int64 {
        var lo = lo, hi = hi
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if holds(geometricElevation(at: mid)) { hi = mid } else { lo = mid }
        }
        return hi
    }
}
