import ScoutTime

/// How often a reminder repeats.
///
/// Every occurrence is computed from the reminder's start, never from the previous
/// occurrence, so nothing drifts:
/// - ``once``: only at the start.
/// - ``daily``: every day at the start's wall time.
/// - ``weekly``: every 7 days, so always on the start's weekday.
/// - ``monthly``: the start's day of the month, or the month's last day when the month is
///   shorter (a start on January 31 fires on February 28, or 29 in a leap year, then on
///   March 31 and April 30).
public enum Frequency: String, Sendable, CaseIterable {
    /// Fires once, at the start.
    case once
    /// Fires every day at the start's wall time.
    case daily
    /// Fires every week on the start's weekday at its wall time.
    case weekly
    /// Fires every month on the start's day of the month (clamped to the month's last day).
    case monthly
}

/// A reminder for one activity (`"walk"`, `"brushing"`): a wall-clock start in the pet's
/// time zone and how often it repeats, and optionally its type in the care-log vocabulary
/// (``LogType``: a care type such as `feeding`, or a catalogue activity).
///
/// ```swift
/// let r = Reminder(activity: "brushing",
///                  start: LocalDateTime(year: 2026, month: 1, day: 31, hour: 8, minute: 0)!,
///                  frequency: .monthly)
/// r.occurrenceDate(1)   // 2026-02-28
/// r.occurrenceDate(2)   // 2026-03-31
/// ```
///
/// The start is a wall time, not an instant: a daily 08:00 reminder fires at 08:00 on the
/// clocks of its zone in winter and in summer alike (see ``Schedule``).
public struct Reminder: Sendable, Equatable {
    /// The activity the reminder is for; at most one reminder per activity is scheduled.
    public var activity: String
    /// The wall time of the first occurrence, in the schedule's zone.
    public var start: LocalDateTime
    /// How often it repeats.
    public var frequency: Frequency
    /// When the reminder was created, if known; decides which of two reminders for the same
    /// activity is newer (see ``Schedule/compute(_:)``).
    public var created: Instant?
    /// What the reminder is for in the care-log vocabulary, when the caller said
    /// (`feeding`, `vet_visit`, `brisk_walk`); ``activity`` stays the reminder's own name.
    public var type: LogType?

    /// A reminder with the given fields.
    public init(activity: String, start: LocalDateTime, frequency: Frequency, created: Instant? = nil, type: LogType? = nil) {
        self.activity = activity
        self.start = start
        self.frequency = frequency
        self.created = created
        self.type = type
    }

    /// The calendar date of occurrence `k` (0 is the start), or `nil` when there is none
    /// (a ``Frequency/once`` reminder has only occurrence 0; negative `k` has none).
    ///
    /// Monthly occurrences are `start.date.adding(months: k)`: the start's day of the month,
    /// clamped to the last day of a shorter month, and anchored on the start so that the
    /// 31st comes back after February.
    /// - Complexity: O(1).
    public func occurrenceDate(_ k: Int) -> LocalDate? {
        guard k >= 0 else { return nil }
        switch frequency {
        case .once: return k == 0 ? start.date : nil
        case .daily: return start.date.adding(days: k)
        case .weekly: return start.date.adding(days: 7 * k)
        case .monthly: return start.date.adding(months: k)
        }
    }

    /// The wall time of occurrence `k`: ``occurrenceDate(_:)`` at the start's time of day.
    /// - Complexity: O(1).
    public func occurrence(_ k: Int) -> LocalDateTime? {
        guard let date = occurrenceDate(k) else { return nil }
        return LocalDateTime(date: date, hour: start.hour, minute: start.minute, second: start.second)
    }

    /// An occurrence index whose date is at least a day before `date` (0 when the start is
    /// that close or later), so that its instant is before any instant showing `date`;
    /// stepping forward from it reaches every occurrence on or after `date`.
    /// - Complexity: O(1).
    func occurrenceIndex(before date: LocalDate) -> Int {
        let days = date.daysSinceEpoch - start.date.daysSinceEpoch
        switch frequency {
        case .once: return 0
        case .daily: return Int(max(0, days - 2))
        case .weekly: return Int(max(0, days / 7 - 1))
        case .monthly:
            let months = (date.year - start.year) * 12 + (date.month - start.month)
            return max(0, months - 1)
        }
    }
}

/// Waking hours: the part of each day, in local wall-clock minutes, when reminders may
/// fire. Quiet hours are the rest of the day.
///
/// ```swift
/// let h = WakingHours.standard                 // 07:00–22:00
/// h.isQuiet(minuteOfDay: 6 * 60 + 59)          // true
/// h.isQuiet(minuteOfDay: 7 * 60)               // false
/// h.isQuiet(minuteOfDay: 22 * 60)              // true (the end is not waking)
/// let night = WakingHours(startMinute: 22 * 60, endMinute: 6 * 60)!   // wraps midnight
/// night.isQuiet(minuteOfDay: 23 * 60)          // false
/// ```
///
/// Waking hours are half-open, `[start, end)`. An end before the start wraps past
/// midnight (a night worker's 22:00–06:00). `00:00`–`24:00` is waking all day (no quiet
/// hours); an empty span (start equal to end) is not allowed.
public struct WakingHours: Sendable, Equatable {
    /// Minute of the day waking hours begin, 0...1439.
    public let startMinute: Int
    /// Minute of the day waking hours end (not included), 0...1440 and not equal to
    /// ``startMinute``; 1440 is midnight at the end of the day.
    public let endMinute: Int

    /// Waking hours from `startMinute` to `endMinute`, or `nil` when a minute is out of
    /// range (start 0...1439, end 0...1440) or the two are equal.
    public init?(startMinute: Int, endMinute: Int) {
        guard (0...1439).contains(startMinute), (0...1440).contains(endMinute), startMinute != endMinute else { return nil }
        self.startMinute = startMinute
        self.endMinute = endMinute
    }

    /// 07:00–22:00, so quiet hours are 22:00–07:00.
    public static let standard = WakingHours(startMinute: 7 * 60, endMinute: 22 * 60)!

    /// Whether `minuteOfDay` (0...1439) falls in quiet hours.
    /// - Complexity: O(1).
    public func isQuiet(minuteOfDay m: Int) -> Bool {
        startMinute < endMinute
            ? m < startMinute || m >= endMinute      // waking [start, end) within the day
            : m < startMinute && m >= endMinute      // waking [start, 24:00) and [00:00, end)
    }
}

/// A busy interval from a calendar: `[start, end)`, so a fire at `end` is free.
public struct BusyInterval: Sendable, Equatable {
    /// The first busy instant.
    public var start: Instant
    /// The first free instant after the interval; later than ``start``.
    public var end: Instant

    /// The interval `[start, end)`; `end` must be later than `start`.
    public init(start: Instant, end: Instant) {
        precondition(start < end, "a busy interval ends after it starts")
        self.start = start
        self.end = end
    }
}

/// Why a fire was moved away from its scheduled instant.
public enum MoveReason: String, Sendable, CaseIterable {
    /// It fell in quiet hours and moved to the next start of waking hours.
    case quietHours = "quiet_hours"
    /// It fell in a busy interval and moved to the interval's end.
    case busy
}

/// One firing of a reminder: when it fires, when it was scheduled, and why it moved.
public struct Fire: Sendable, Equatable {
    /// When the reminder fires, written with the zone's UTC offset at that instant.
    public var at: Instant
    /// The scheduled (nominal) instant before any move, written with the zone's offset.
    public var nominal: Instant
    /// The moves from ``nominal`` to ``at``, in the order they were made (empty when the
    /// fire was not moved).
    public var movedFor: [MoveReason]

    /// A fire with the given fields.
    public init(at: Instant, nominal: Instant, movedFor: [MoveReason] = []) {
        self.at = at
        self.nominal = nominal
        self.movedFor = movedFor
    }
}
