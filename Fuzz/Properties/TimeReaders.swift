import ScoutCore
import ScoutTime

extension FuzzProperties {
    /// The input's text through every ScoutTime reader.
    ///
    /// - `OpeningHours(parsing:)`: a schedule that parses answers `isOpen` exactly as its own
    ///   `weeklyIntervals` say (sorted, disjoint, within the week).
    /// - `Instant.parse` (RFC 3339): what parses writes back (`rfc3339`) as text that parses to
    ///   the same instant and offset, and writing that again gives the same text.
    /// - `LocalDate.parse`: the same round trip through `description`.
    /// - `Zone(identifier:)` for short names: wall time and back for the parsed instant.
    public static func timeReaders(_ input: [UInt8]) throws(PropertyViolation) {
        let text = String(decoding: input, as: UTF8.self)
        let hours = try? OpeningHours(parsing: text, path: "opening_hours")
        if let hours { try checkHours(hours) }

        var instant: Instant?
        if let t = try? Instant.parse(text, path: "now") {
            instant = t
            let written = t.rfc3339
            guard let again = try? Instant.parse(written, path: "now") else { throw PropertyViolation("rfc3339 wrote what Instant.parse refuses") }
            guard again == t, again.utcOffsetSeconds == t.utcOffsetSeconds else { throw PropertyViolation("RFC 3339 round trip changed the instant") }
            guard again.rfc3339 == written else { throw PropertyViolation("writing the re-parsed instant gave other text") }
            _ = t.localDate
        }
        if let d = try? LocalDate.parse(text, path: "date") {
            guard let again = try? LocalDate.parse(d.description, path: "date"), again == d else {
                throw PropertyViolation("LocalDate round trip changed the date")
            }
            _ = d.weekday
            _ = d.adding(days: 400).adding(months: -13)
        }
        // Zone names: a line `zone <name>` anywhere in the input, or the whole input if short.
        var zoneName: Substring?
        if input.count <= 64, !text.contains("\n") { zoneName = Substring(text) }
        if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("zone ") }) { zoneName = line.dropFirst(5) }
        if let zoneName, zoneName.utf8.count <= 64, let zone = try? Zone(identifier: String(zoneName), path: "timezone") {
            let moments = [instant ?? Instant(seconds: 1_774_747_800), Instant(seconds: 0), Instant(seconds: 253_402_300_799)]
            for t in moments {
                let local = zone.local(t)
                let back = zone.instant(of: local)
                _ = zone.offset(at: back)
                if let hours { _ = hours.isOpen(at: t, in: zone) }
            }
        }
    }

    static func checkHours(_ hours: OpeningHours) throws(PropertyViolation) {
        let week = 10_080
        let intervals = hours.weeklyIntervals
        var last = -1
        for r in intervals {
            guard r.lowerBound > last || (last == -1 && r.lowerBound >= 0), r.lowerBound < r.upperBound, r.upperBound <= week else {
                throw PropertyViolation("weeklyIntervals are not sorted, disjoint and within the week: \(intervals)")
            }
            last = r.upperBound
        }
        func expected(_ m: Int) -> Bool { intervals.contains { $0.contains(m) } }
        var minutes: [Int] = Array(stride(from: 0, to: week, by: 97))
        for r in intervals { minutes += [r.lowerBound - 1, r.lowerBound, r.upperBound - 1, r.upperBound] }
        for m in minutes where m >= 0 && m < week {
            if hours.isOpen(weekday: m / 1440 + 1, minuteOfDay: m % 1440) != expected(m) {
                throw PropertyViolation("isOpen disagrees with weeklyIntervals at minute \(m) of the week")
            }
        }
        if hours.isAlwaysOpen != (intervals == [0..<week]) { throw PropertyViolation("isAlwaysOpen disagrees with weeklyIntervals") }
    }
}
