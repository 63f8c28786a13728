import ScoutCore
import ScoutTime

/// What to schedule: reminders in one time zone, the current instant, and what fires
/// should avoid.
///
/// The JSON body of the worker's `schedule` op, read by ``read(_:)``:
/// ```json
/// {"op": "schedule", "timezone": "Europe/Dublin", "now": "2026-03-28T21:00:00Z",
///  "reminders": [{"activity": "brushing", "start": "2026-01-31T08:00", "frequency": "monthly",
///                 "created": "2026-01-02T10:00:00Z"},
///                {"type": "feeding", "start": "2026-01-01T07:30", "frequency": "daily"}],
///  "count": 3, "waking_hours": {"start": "07:00", "end": "22:00"}, "avoid_quiet_hours": true,
///  "busy": [{"start": "2026-03-29T07:30:00+01:00", "end": "2026-03-29T09:00:00+01:00"}],
///  "avoid_busy": true}
/// ```
/// - `timezone` (required): an IANA zone name; the reminders' wall times are read in it.
/// - `now` (required): an RFC 3339 date-time with `Z` or an offset.
/// - `reminders` (required, at most 1,000): each with
///   - `activity` (required unless `type` is given, then it defaults to the type's word): a
///     non-empty string of at most 100 bytes, the reminder's own name;
///   - `type` (optional): what the reminder is for, in the care-log vocabulary
///     (``LogTypeVocabulary``): `feeding`, `walk`, `vet_visit`, `grooming`, `medication`,
///     `other`, or an activity id of the catalogue the caller passes;
///   - `start` (required): a wall time `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS` in
///     `timezone`, or an RFC 3339 date-time with an offset, which is converted to the
///     zone's wall time at that instant;
///   - `frequency` (required): `once`, `daily`, `weekly` or `monthly`;
///   - `created` (optional): an RFC 3339 date-time, used to pick the newer of two
///     reminders for the same activity.
/// - `count` (optional, default 3): fires per reminder, 1...100.
/// - `waking_hours` (optional, default `{"start": "07:00", "end": "22:00"}`): `HH:MM`
///   times; `end` may be `24:00`, may be before `start` (wrapping midnight), and may not
///   equal `start`.
/// - `avoid_quiet_hours` (optional, default `false`): move fires out of quiet hours.
/// - `busy` (optional, at most 1,000): calendar intervals `[start, end)` as RFC 3339
///   date-times with offsets; `end` must be after `start`.
/// - `avoid_busy` (optional, default `false`): move fires out of busy intervals.
///
/// Other members (`op`, `id`) are ignored.
public struct ScheduleRequest: Sendable {
    /// The most reminders in one request.
    public static let maxReminders = 1_000
    /// The most busy intervals in one request.
    public static let maxBusy = 1_000
    /// The most fires per reminder.
    public static let maxCount = 100
    /// The longest activity name, in UTF-8 bytes.
    public static let maxActivityBytes = 100

    /// The zone of the reminders' wall times and of the written instants.
    public var zone: Zone
    /// The current instant: only fires strictly after it are listed.
    public var now: Instant
    /// The reminders, in the order given (the order breaks ties between reminders for the
    /// same activity).
    public var reminders: [Reminder]
    /// Fires per reminder, 1...``maxCount``.
    public var count: Int
    /// Waking hours; quiet hours are the rest of the day.
    public var wakingHours: WakingHours
    /// Whether fires in quiet hours move to the next start of waking hours.
    public var avoidQuietHours: Bool
    /// Calendar intervals, `[start, end)`.
    public var busy: [BusyInterval]
    /// Whether fires in busy intervals move to their end.
    public var avoidBusy: Bool

    /// A request with the given fields (`count` is clamped to 1...``maxCount``).
    public init(zone: Zone, now: Instant, reminders: [Reminder], count: Int = 3,
                wakingHours: WakingHours = .standard, avoidQuietHours: Bool = false,
                busy: [BusyInterval] = [], avoidBusy: Bool = false) {
        self.zone = zone
        self.now = now
        self.reminders = reminders
        self.count = min(max(count, 1), Self.maxCount)
        self.wakingHours = wakingHours
        self.avoidQuietHours = avoidQuietHours
        self.busy = busy
        self.avoidBusy = avoidBusy
    }

    /// A reminder's start: a wall time `YYYY-MM-DDTHH:MM[:SS]` in `zone`, or an RFC 3339
    /// date-time with an offset, converted to `zone`'s wall time.
    package static func readStart(_ text: String, zone: Zone, path: String) throws(ScoutError) -> LocalDateTime {
        let b = Array(text.utf8)
        guard b.count == 16 || b.count == 19 else {
            return zone.local(try Instant.parse(text, path: path))
        }
        func number(_ at: Int, _ width: Int) -> Int? {
            var v = 0
            for i in at..<(at + width) {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        let shapeOK = b[4] == 0x2D && b[7] == 0x2D && (b[10] == 0x54 || b[10] == 0x74) && b[13] == 0x3A
            && (b.count == 16 || b[16] == 0x3A)
        guard shapeOK, let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2),
              let h = number(11, 2), let mi = number(14, 2), let s = b.count == 19 ? number(17, 2) : 0,
              let wall = LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s) else {
            throw ScoutError(.invalidRequest,
                             "expected a wall time YYYY-MM-DDTHH:MM or YYYY-MM-DDTHH:MM:SS that exists, or an RFC 3339 date-time with an offset",
                             path: path)
        }
        return wall
    }

    /// `HH:MM` as minutes of the day; `24:00` (1440) only when `allowing24`.
    package static func readClock(_ text: String, allowing24: Bool, path: String) throws(ScoutError) -> Int {
        let b = Array(text.utf8)
        func digit(_ i: Int) -> Int? { b[i] >= 0x30 && b[i] <= 0x39 ? Int(b[i] - 0x30) : nil }
        guard b.count == 5, b[2] == 0x3A, let h1 = digit(0), let h2 = digit(1), let m1 = digit(3), let m2 = digit(4) else {
            throw ScoutError(.invalidRequest, "expected a time HH:MM", path: path)
        }
        let hour = h1 * 10 + h2, minute = m1 * 10 + m2
        guard minute <= 59, hour <= 23 || (allowing24 && hour == 24 && minute == 0) else {
            throw ScoutError(.invalidRequest, allowing24 ? "expected a time from 00:00 to 24:00" : "expected a time from 00:00 to 23:59",
                             path: path)
        }
        return hour * 60 + minute
    }
}
