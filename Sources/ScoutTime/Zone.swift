import Foundation
import Synchronization
import ScoutCore

/// A named IANA time zone (`Europe/Warsaw`), answering UTC offsets and converting between
/// instants and wall times.
///
/// ```swift
/// let warsaw = try Zone(identifier: "Europe/Warsaw", path: "tz")
/// let t = try Instant.parse("2026-03-29T01:30:00Z", path: "at")
/// warsaw.offset(at: t)          // 7200 (CEST began at 01:00 UTC)
/// warsaw.local(t)               // 2026-03-29T03:30:00
/// ```
///
/// Offsets come from Foundation's `TimeZone` (the system's ICU time zone data), which
/// also covers historical rules and local mean time before standard time.
public struct Zone: Sendable, Hashable, CustomStringConvertible {
    /// The identifier as given to ``init(identifier:path:)``.
    public let identifier: String
    let timeZone: TimeZone
    /// The zone's offsets 1900–2100 as a transition table (searched without locks); `nil`
    /// when the table could not be checked against Foundation (then Foundation answers).
    let table: OffsetTable?

    /// The zone named `identifier` (an IANA name such as `Europe/Dublin`, or one of the
    /// fixed names the system also knows, such as `UTC`). Names are case-sensitive.
    ///
    /// Throws `ScoutError(.invalidRequest, "unknown time zone", path: path)` for a name the
    /// system does not know.
    /// - Complexity: a lookup in the system's zone data (microseconds); make a zone once and
    ///   keep it rather than making one per query.
    public init(identifier: String, path: String) throws(ScoutError) {
        guard !identifier.isEmpty, identifier.utf8.count <= 64, Zone.isSafeForFoundation(identifier),
              let tz = TimeZone(identifier: identifier) else {
            throw ScoutError(.invalidRequest, "unknown time zone", path: path)
        }
        self.identifier = identifier
        self.timeZone = tz
        self.table = OffsetTable.shared(identifier, tz)
    }

    /// False for a `GMT±…` or `UTC±…` name that is not one of the offset forms `±H`, `±HH`,
    /// `±HHMM`, `±HH:MM` (digits only). Foundation parses such names itself, and some
    /// malformed ones trap inside it (`UTC-12:a5`) or read a letter or a colon as a digit
    /// (`UTC-00::0` gave `GMT-0140`); every digit form was checked not to trap.
    static func isSafeForFoundation(_ identifier: String) -> Bool {
        let u = Array(identifier.utf8)
        guard u.count > 3, u[0..<3].elementsEqual("GMT".utf8) || u[0..<3].elementsEqual("UTC".utf8),
              u[3] == UInt8(ascii: "+") || u[3] == UInt8(ascii: "-") else { return true }
        func digits(_ r: ArraySlice<UInt8>) -> Bool { r.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
        let rest = u[4...]
        switch rest.count {
        case 1, 2, 4: return digits(rest)
        case 5: return digits(rest.prefix(2)) && rest[rest.startIndex + 2] == UInt8(ascii: ":") && digits(rest.suffix(2))
        default: return false
        }
    }

    /// Coordinated Universal Time (offset 0 at every instant).
    public static let utc = Zone(known: "UTC")

    private init(known identifier: String) {
        self.identifier = identifier
        self.timeZone = TimeZone(identifier: identifier)!
        self.table = OffsetTable.shared(identifier, timeZone)
    }

    /// Zones are equal when their identifiers are.
    public static func == (a: Zone, b: Zone) -> Bool { a.identifier == b.identifier }
    /// Hashes the identifier, consistently with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    /// The identifier.
    public var description: String { identifier }

    /// The zone's offset from UTC at `instant`, in seconds east of UTC (Warsaw in summer: 7200).
    /// - Complexity: O(1); one Foundation lookup (about 0.1 µs).
    public func offset(at instant: Instant) -> Int32 {
        Int32(truncatingIfNeeded: unixOffset(instant.seconds))
    }

    /// The offset in seconds at `seconds` after the Unix epoch.
    @inline(__always)
    func unixOffset(_ seconds: Int64) -> Int64 {
        if let o = table?.offset(seconds) { return o }
        return Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
    }

    /// The wall-clock time in this zone at `instant` (the instant's own written offset is
    /// ignored).
    /// - Complexity: O(1); one offset lookup.
    public func local(_ instant: Instant) -> LocalDateTime {
        LocalDateTime(wallSeconds: instant.seconds + unixOffset(instant.seconds))
    }

    /// The instant at which this zone's clocks show `local`, written with the zone's offset
    /// at that instant.
    ///
    /// Most wall times name exactly one instant. Around a transition some name none or two,
    /// and `resolving` decides (by default: shift forward in a gap, earlier in an overlap):
    /// - **Gap** (clocks jump forward; 02:30 on 2026-03-29 does not exist in Europe/Warsaw):
    ///   `.shiftForward` moves the wall time forward by the length of the gap, giving the
    ///   instant that shows 03:30 (01:30Z), as `java.time` and Foundation's `Calendar` do;
    ///   `.transition` gives the first instant after the gap, which shows 03:00 (01:00Z).
    /// - **Overlap** (clocks fall back; 02:30 on 2026-10-25 occurs twice in Warsaw, first at
    ///   +02:00 then at +01:00): `.earlier` gives 00:30Z, `.later` gives 01:30Z.
    ///
    /// Transitions are looked for within a day either side of the wall time, which covers
    /// every transition in the tz database except a second one less than two days away.
    /// - Complexity: O(1): up to six offset lookups, plus about 17 for `.transition` in a gap.
    public func instant(of local: LocalDateTime, resolving: WallTimeResolution = .standard) -> Instant {
        let wall = local.wallSeconds
        // Offsets in effect a day before and a day after: around one transition, the
        // offsets before and after it.
        let before = unixOffset(wall - secondsPerDay)
        let after = unixOffset(wall + secondsPerDay)
        // Every offset o with offset(wall - o) == o gives an instant showing `wall`; the
        // offsets to try are those either side and those in effect at the two candidates.
        var earliest = Int64.max, latest = Int64.min
        func consider(_ o: Int64) {
            guard unixOffset(wall - o) == o else { return }
            earliest = min(earliest, wall - o)
            latest = max(latest, wall - o)
        }
        consider(before)
        if after != before { consider(after) }
        let atBefore = unixOffset(wall - before), atAfter = unixOffset(wall - after)
        if atBefore != before && atBefore != after { consider(atBefore) }
        if atAfter != before && atAfter != after && atAfter != atBefore { consider(atAfter) }
        if earliest <= latest {
            let t = resolving.overlap == .earlier ? earliest : latest
            return Instant(seconds: t, utcOffsetSeconds: Int32(truncatingIfNeeded: unixOffset(t)))
        }
        // A gap: no offset maps to `wall`. With T the first instant after the jump, the
        // missing wall times are [T + before, T + after), so T lies in (wall - after,
        // wall - before]; `wall - before` shows `wall` plus the gap's length.
        let shifted = wall - before
        var t = shifted
        if resolving.gap == .transition && after > before {
            var lo = wall - after               // before the jump (offset `before`)
            var hi = shifted                    // at or after the jump
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2
                if unixOffset(mid) == before { lo = mid } else { hi = mid }
            }
            t = hi
        }
        return Instant(seconds: t, utcOffsetSeconds: Int32(truncatingIfNeeded: unixOffset(t)))
    }
}

/// How ``Zone/instant(of:resolving:)`` picks an instant for a wall time that a transition
/// skips (a gap) or repeats (an overlap).
extension Instant {
    /// The calendar date of this instant on the clock of `zone`, or at its written offset
    /// when `zone` is `nil`.
    public func localDate(in zone: Zone?) -> LocalDate { zone.map { $0.local(self).date } ?? localDate }
}

public struct WallTimeResolution: Sendable, Hashable {
    /// What to do with a wall time that does not exist.
    public enum Gap: Sendable, Hashable {
        /// Move the wall time forward by the length of the gap (02:30 → 03:30).
        case shiftForward
        /// Take the first instant after the gap (02:30 → 03:00).
        case transition
    }
    /// Which of two instants to take for a wall time that occurs twice.
    public enum Overlap: Sendable, Hashable {
        /// The first occurrence (before the clocks fall back).
        case earlier
        /// The second occurrence (after the clocks fall back).
        case later
    }
    /// The gap rule.
    public var gap: Gap
    /// The overlap rule.
    public var overlap: Overlap

    /// A resolution with the given rules.
    public init(gap: Gap, overlap: Overlap) {
        self.gap = gap
        self.overlap = overlap
    }

    /// Shift forward in a gap, earlier in an overlap (what Foundation's `Calendar` and
    /// `java.time` do).
    public static let standard = WallTimeResolution(gap: .shiftForward, overlap: .earlier)
}

/// A zone's UTC offsets between 1900 and 2100 as a sorted table of transitions, so that an
/// offset is a binary search instead of a call into Foundation's `TimeZone` (which on Linux
/// takes a lock around ICU: parallel recommendations queued on it). Built once per zone
/// name per process from Foundation's own transitions, then checked against Foundation at
/// every transition and at 2,200 instants spread over the two centuries; a table that
/// disagrees anywhere is dropped and Foundation answers for that zone.
final class OffsetTable: Sendable {
    /// 1900-01-01T00:00Z and 2100-01-01T00:00Z: the span the table covers.
    static let first: Int64 = -2_208_988_800, last: Int64 = 4_102_444_800
    /// `offsets[i]` holds from `starts[i]` until `starts[i + 1]`.
    let starts: [Int64]
    let offsets: [Int64]

    private init(starts: [Int64], offsets: [Int64]) {
        self.starts = starts
        self.offsets = offsets
    }

    /// The offset at `seconds`, or `nil` outside the table's span.
    /// - Complexity: O(log transitions).
    @inline(__always)
    func offset(_ seconds: Int64) -> Int64? {
        guard seconds >= OffsetTable.first, seconds < OffsetTable.last else { return nil }
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) >> 1
            if starts[mid] <= seconds { lo = mid } else { hi = mid - 1 }
        }
        return offsets[lo]
    }

    private static let cache = Mutex<[String: OffsetTable?]>([:])

    /// The table of a zone, built on first use of its name.
    static func shared(_ identifier: String, _ tz: TimeZone) -> OffsetTable? {
        if let known = cache.withLock({ $0[identifier] }) { return known }
        let table = build(tz)
        cache.withLock { $0[identifier] = .some(table) }
        return table
    }

    static func build(_ tz: TimeZone) -> OffsetTable? {
        func foundation(_ s: Int64) -> Int64 { Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(s)))) }
        var starts = [first], offsets = [foundation(first)]
        var d = Date(timeIntervalSince1970: Double(first))
        while let next = tz.nextDaylightSavingTimeTransition(after: d), next > d, next.timeIntervalSince1970 < Double(last) {
            let s = Int64(next.timeIntervalSince1970.rounded(.up))
            let o = foundation(s)
            if o != offsets[offsets.count - 1] { starts.append(s); offsets.append(o) }
            guard starts.count < 10_000 else { return nil }
            d = next
        }
        let table = OffsetTable(starts: starts, offsets: offsets)
        for s in starts.dropFirst() {
            guard table.offset(s) == foundation(s), table.offset(s - 1) == foundation(s - 1) else { return nil }
        }
        let step = (last - first) / 2200
        var s = first + 4_321
        while s < last {
            guard table.offset(s) == foundation(s) else { return nil }
            s += step
        }
        return table
    }
}
