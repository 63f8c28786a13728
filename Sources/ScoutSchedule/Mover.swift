import ScoutTime

/// Moves a fire out of quiet hours and busy intervals: to the first instant at or after it
/// that is neither, one move at a time so that each move can be explained.
///
/// A move in a busy interval goes to the end of the interval (of the longest one when
/// several overlap there); a move in quiet hours goes to the first instant at which the
/// clocks show waking hours again: the next start of waking hours, or, in the rare case
/// that clocks fall back into waking hours before then, the moment they do. Busy intervals
/// are checked first. Every move ends exactly where the thing it avoided ends, so the
/// final instant is the first instant at or after the fire that is free of both, and it
/// does not depend on the order of the checks (only the list of reasons does).
///
/// Moves always settle: each busy move passes at least one more interval (by start), and
/// a quiet move lands on a waking instant, which only a busy interval can make unusable
/// again; so at most `2n + 1` moves for `n` busy intervals. ``maxMoves`` adds a small
/// margin for waking hours shorter than a DST gap.
struct Mover {
    let zone: Zone
    /// Waking hours when quiet hours are avoided.
    let waking: WakingHours?
    /// Busy interval starts (Unix seconds), sorted, when busy intervals are avoided.
    let starts: [Int64]
    /// `reach[i]`: the latest end among the intervals `0...i` in `starts` order.
    let reach: [Int64]
    /// A bound on moves per fire (see the type's documentation).
    let maxMoves: Int

    init(zone: Zone, waking: WakingHours?, busy: [BusyInterval]) {
        self.zone = zone
        self.waking = waking
        let sorted = busy.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        starts = sorted.map(\.start.seconds)
        var reach: [Int64] = []
        reach.reserveCapacity(sorted.count)
        var latest = Int64.min
        for b in sorted {
            latest = max(latest, b.end.seconds)
            reach.append(latest)
        }
        self.reach = reach
        maxMoves = 2 * sorted.count + 8
    }

    /// Whether nothing is ever moved.
    var movesNothing: Bool { waking == nil && starts.isEmpty }

    /// The end of a busy interval containing `t` (the latest such end), or `nil` when `t`
    /// is free.
    /// - Complexity: O(log n), no allocation.
    func busyEnd(covering t: Int64) -> Int64? {
        // The number of intervals starting at or before t.
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if starts[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0, reach[lo - 1] > t else { return nil }
        return reach[lo - 1]
    }

    /// Whether `t` is in quiet hours (never when quiet hours are not avoided).
    func isQuiet(_ t: Int64) -> Bool {
        guard let waking else { return false }
        return waking.isQuiet(minuteOfDay: zone.local(Instant(seconds: t)).minuteOfDay)
    }

    /// The first instant after `t` at which the zone's clocks reach the start of waking
    /// hours: that wall time on `t`'s day, or the next day's when it has passed. When
    /// clocks skip the start (a DST gap), the instant they jump past it; when they repeat it,
    /// the first occurrence after `t`.
    func nextWakingStart(after t: Int64, _ waking: WakingHours) -> Int64 {
        let local = zone.local(Instant(seconds: t))
        var date = local.minuteOfDay < waking.startMinute ? local.date : local.date.adding(days: 1)
        for _ in 0..<3 {
            let wall = LocalDateTime(date: date, hour: waking.startMinute / 60, minute: waking.startMinute % 60)!
            let first = zone.instant(of: wall, resolving: WallTimeResolution(gap: .transition, overlap: .earlier))
            if first.seconds > t { return first.seconds }
            let second = zone.instant(of: wall, resolving: WallTimeResolution(gap: .transition, overlap: .later))
            if second.seconds > t { return second.seconds }
            date = date.adding(days: 1)
        }
        return t + 86_400   // not reached: a wall time two days ahead is after t
    }

    /// The first instant after the quiet instant `t` at which the clocks show waking hours:
    /// ``nextWakingStart(after:_:)``, unless the clocks fall back before then to a waking
    /// time (waking hours ending at 01:30, clocks going back from 02:00 to 01:00), in which
    /// case the moment they fall back. Assumes at most one change of offset in the day
    /// between, as in every zone's rules.
    func endOfQuiet(after t: Int64, _ waking: WakingHours) -> Int64 {
        let start = nextWakingStart(after: t, waking)
        let before = zone.offset(at: Instant(seconds: t))
        guard zone.offset(at: Instant(seconds: start)) < before else { return start }
        // Until the clocks reach the start of waking hours they only leave quiet hours by
        // going back; find when they do (the first instant with another offset).
        var lo = t, hi = start
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if zone.offset(at: Instant(seconds: mid)) == before { lo = mid } else { hi = mid }
        }
        return isQuiet(hi) ? start : hi
    }

    /// `t` moved out of busy intervals and quiet hours, with the reasons of the moves in
    /// order; `t` itself and no reasons when it is free.
    /// - Complexity: O(m log n) for m moves and n busy intervals.
    func settle(_ t: Instant) -> (at: Instant, reasons: [MoveReason]) {
        if movesNothing { return (t, []) }
        var s = t.seconds
        var reasons: [MoveReason] = []
        for _ in 0..<maxMoves {
            if let end = busyEnd(covering: s) {
                s = end
                reasons.append(.busy)
            } else if let waking, isQuiet(s) {
                s = endOfQuiet(after: s, waking)
                reasons.append(.quietHours)
            } else {
                break
            }
        }
        if reasons.isEmpty { return (t, []) }
        let at = Instant(seconds: s)
        return (at.writtenWith(utcOffsetSeconds: zone.offset(at: at)), reasons)
    }
}
