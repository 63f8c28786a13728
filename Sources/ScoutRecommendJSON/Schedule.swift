import ScoutJSON
import ScoutSchedule

extension Schedule {
    /// Writes the `result` object of the `schedule` op:
    /// ```json
    /// {"timezone": "Europe/Dublin",
    ///  "reminders": [{"activity": "brushing", "frequency": "monthly", "start": "2026-01-31T08:00",
    ///                 "created": "2026-01-02T10:00:00Z",
    ///                 "next": [{"at": "2026-03-31T08:00:00+01:00", "scheduled": "2026-03-31T08:00:00+01:00",
    ///                           "moved": []}]}],
    ///  "replaced": [{"activity": "brushing", "frequency": "daily", "start": "2026-01-01T09:30"}]}
    /// ```
    /// `type` appears only when the reminder has one (`"type": "feeding"`); `start` is the
    /// wall time in the zone (`YYYY-MM-DDTHH:MM`, with `:SS` when the seconds
    /// are not zero); `created` appears only when the reminder has one, as it was given;
    /// `at` is when the reminder fires and `scheduled` when it would have fired without
    /// moves, both in the zone's offset at that instant; `moved` lists the moves' reasons in
    /// order (`"busy"`, `"quiet_hours"`).
    /// - Complexity: O(output size).
    package func write(into w: inout JSONWriter) {
        w.objectStart()
        w.key("timezone"); w.string(zone.identifier)
        w.key("reminders")
        w.arrayStart()
        for s in reminders {
            w.objectStart()
            Self.writeFields(of: s.reminder, into: &w)
            w.key("next")
            w.arrayStart()
            for fire in s.fires {
                w.objectStart()
                w.key("at"); w.string(fire.at.rfc3339)
                w.key("scheduled"); w.string(fire.nominal.rfc3339)
                w.key("moved")
                w.arrayStart()
                for reason in fire.movedFor { w.string(reason.rawValue) }
                w.arrayEnd()
                w.objectEnd()
            }
            w.arrayEnd()
            w.objectEnd()
        }
        w.arrayEnd()
        w.key("replaced")
        w.arrayStart()
        for r in replaced {
            w.objectStart()
            Self.writeFields(of: r, into: &w)
            w.objectEnd()
        }
        w.arrayEnd()
        w.objectEnd()
    }

    /// `activity`, `type` when given, `frequency`, `start` and, when known, `created`.
    static func writeFields(of r: Reminder, into w: inout JSONWriter) {
        w.key("activity"); w.string(r.activity)
        if let type = r.type { w.key("type"); w.string(type.word) }
        w.key("frequency"); w.string(r.frequency.rawValue)
        w.key("start"); w.string(wallText(r.start))
        if let created = r.created { w.key("created"); w.string(created.rfc3339) }
    }
}
