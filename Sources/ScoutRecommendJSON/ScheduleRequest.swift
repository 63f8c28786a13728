import ScoutCatalogJSON
import ScoutCore
import ScoutJSON
import ScoutSchedule
import ScoutTime

extension ScheduleRequest {
    /// Reads the JSON body of the worker's `schedule` op (see the type's documentation).
    /// Reminders' `type`s are read with `types`: pass the activity catalogue's ids
    /// (`LogTypeVocabulary(activityIDs:)`) so that activities are accepted; the default
    /// knows the care types only.
    ///
    /// Errors name the field: `invalid_request` at `timezone` for an unknown zone, at
    /// `reminders[2].frequency` for a frequency that is not one of the four, at
    /// `reminders[0].type` for a type the vocabulary does not know (with the closest known
    /// types), at `busy[0].end` for an interval that does not end after it starts;
    /// `limit_exceeded` at `reminders` or `busy` for more than 1,000 items, at `count` above
    /// 100, and at `reminders[i].activity` for a name over 100 bytes. Messages never repeat
    /// values.
    /// - Complexity: O(r + b) for r reminders and b busy intervals.
    package static func read(_ body: JSONValue, types: LogTypeVocabulary = .careTypes) throws(ScoutError) -> ScheduleRequest {
        let f = try FieldReader(body, path: "")
        let zone = try Zone(identifier: try f.string("timezone"), path: f.at("timezone"))
        let now = try Instant.parse(try f.string("now"), path: f.at("now"))

        guard f["reminders"] != nil else { throw ScoutError(.invalidRequest, "reminders is required", path: f.at("reminders")) }
        var reminders: [Reminder] = []
        for (i, value) in try f.array("reminders", maxCount: maxReminders).enumerated() {
            reminders.append(try Reminder.read(value, zone: zone, types: types, path: "\(f.at("reminders"))[\(i)]"))
        }

        var count = 3
        if let d = try f.optionalNumber("count", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) {
            guard d == d.rounded() else { throw ScoutError(.invalidRequest, "count must be a whole number", path: f.at("count")) }
            guard d >= 1 else { throw ScoutError(.invalidRequest, "count must be at least 1", path: f.at("count")) }
            guard d <= Double(maxCount) else {
                throw ScoutError(.limitExceeded, "count may be at most \(maxCount)", path: f.at("count"))
            }
            count = Int(d)
        }

        return ScheduleRequest(
            zone: zone, now: now, reminders: reminders, count: count,
            wakingHours: try WakingHours.read(f, key: "waking_hours"),
            avoidQuietHours: try f.bool("avoid_quiet_hours", default: false),
            busy: try BusyInterval.readList(f, key: "busy"), avoidBusy: try f.bool("avoid_busy", default: false))
    }
}
