import ScoutCore
import ScoutJSON
import ScoutSchedule
import ScoutTime

extension WakingHours {
    /// Reads `{"start": "HH:MM", "end": "HH:MM"}` at `key` of a request (`24:00` allowed as
    /// the end); ``standard`` when absent. Other ops (`recommend_activities`) share this form.
    package static func read(_ body: FieldReader, key: String) throws(ScoutError) -> WakingHours {
        guard let w = try body.object(key) else { return .standard }
        try w.checkKnown(["start", "end"])
        let start = try ScheduleRequest.readClock(try w.string("start"), allowing24: false, path: w.at("start"))
        let end = try ScheduleRequest.readClock(try w.string("end"), allowing24: true, path: w.at("end"))
        guard let hours = WakingHours(startMinute: start, endMinute: end) else {
            throw ScoutError(.invalidRequest, "end must differ from start (00:00 to 24:00 is waking all day)", path: w.at("end"))
        }
        return hours
    }
}

extension BusyInterval {
    /// Reads `[{"start", "end"}]` (RFC 3339 instants, end after start) at `key` of a request;
    /// empty when absent; at most ``ScheduleRequest/maxBusy`` intervals.
    package static func readList(_ body: FieldReader, key: String) throws(ScoutError) -> [BusyInterval] {
        var busy: [BusyInterval] = []
        for (i, value) in try body.array(key, maxCount: ScheduleRequest.maxBusy).enumerated() {
            let b = try FieldReader(value, path: "\(body.at(key))[\(i)]")
            try b.checkKnown(["start", "end"])
            let start = try Instant.parse(try b.string("start"), path: b.at("start"))
            let end = try Instant.parse(try b.string("end"), path: b.at("end"))
            guard start < end else { throw ScoutError(.invalidRequest, "end must be after start", path: b.at("end")) }
            busy.append(BusyInterval(start: start, end: end))
        }
        return busy
    }
}
