import ScoutCore
import ScoutJSON
import ScoutRecommendJSON
import Testing
@testable import ScoutSchedule
import ScoutTime

/// The `schedule` op's body and result, end to end through JSON text.
@Suite struct ScheduleJSONTests {
    static func body(_ text: String) -> JSONValue { try! JSONReader.parse(text) }

    static func output(_ schedule: Schedule) -> String {
        var w = JSONWriter()
        schedule.write(into: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    @Test func readsAndWritesTheDocumentedExample() throws {
        let request = try ScheduleRequest.read(Self.body("""
            {"op": "schedule", "id": 7, "timezone": "Europe/Dublin", "now": "2026-03-28T21:00:00Z",
             "reminders": [
               {"activity": "brushing", "start": "2026-01-31T08:00", "frequency": "monthly", "created": "2026-01-02T10:00:00Z"},
               {"activity": "walk", "start": "2026-03-01T07:00", "frequency": "daily"},
               {"activity": "brushing", "start": "2026-01-01T09:30", "frequency": "daily", "created": "2026-01-01T10:00:00Z"},
               {"activity": "walk", "start": "2026-03-01T08:00", "frequency": "daily"}],
             "count": 3, "waking_hours": {"start": "07:00", "end": "22:00"}, "avoid_quiet_hours": true,
             "busy": [{"start": "2026-03-29T07:30:00+01:00", "end": "2026-03-29T09:00:00+01:00"}], "avoid_busy": true}
            """))
        #expect(request.zone.identifier == "Europe/Dublin")
        #expect(request.now == T.instant("2026-03-28T21:00:00Z"))
        #expect(request.reminders.count == 4)
        #expect(request.reminders[0] == Reminder(activity: "brushing", start: T.wall(2026, 1, 31, 8, 0), frequency: .monthly,
                                                 created: T.instant("2026-01-02T10:00:00Z")))
        #expect(request.count == 3 && request.wakingHours == .standard && request.avoidQuietHours && request.avoidBusy)
        #expect(request.busy == [BusyInterval(start: T.instant("2026-03-29T06:30:00Z"), end: T.instant("2026-03-29T08:00:00Z"))])

        // walk (daily 08:00) on 03-29 is in the 07:30–09:00 meeting and moves to 09:00; brushing
        // keeps the 31st. The 07:00 walk and the older brushing are replaced.
        #expect(Self.output(Schedule.compute(request)) == """
            {"timezone":"Europe/Dublin","reminders":[\
            {"activity":"walk","frequency":"daily","start":"2026-03-01T08:00","next":[\
            {"at":"2026-03-29T09:00:00+01:00","scheduled":"2026-03-29T08:00:00+01:00","moved":["busy"]},\
            {"at":"2026-03-30T08:00:00+01:00","scheduled":"2026-03-30T08:00:00+01:00","moved":[]},\
            {"at":"2026-03-31T08:00:00+01:00","scheduled":"2026-03-31T08:00:00+01:00","moved":[]}]},\
            {"activity":"brushing","frequency":"monthly","start":"2026-01-31T08:00","created":"2026-01-02T10:00:00Z","next":[\
            {"at":"2026-03-31T08:00:00+01:00","scheduled":"2026-03-31T08:00:00+01:00","moved":[]},\
            {"at":"2026-04-30T08:00:00+01:00","scheduled":"2026-04-30T08:00:00+01:00","moved":[]},\
            {"at":"2026-05-31T08:00:00+01:00","scheduled":"2026-05-31T08:00:00+01:00","moved":[]}]}],\
            "replaced":[\
            {"activity":"walk","frequency":"daily","start":"2026-03-01T07:00"},\
            {"activity":"brushing","frequency":"daily","start":"2026-01-01T09:30","created":"2026-01-01T10:00:00Z"}]}
            """)
    }

    @Test func defaultsAndOtherStartForms() throws {
        let request = try ScheduleRequest.read(Self.body("""
            {"timezone": "Europe/Dublin", "now": "2026-06-01T00:00:00+02:00",
             "reminders": [{"activity": "walk", "start": "2026-06-01T09:00:00+02:00", "frequency": "once"},
                           {"activity": "feed", "start": "2026-06-01t07:05:30", "frequency": "weekly"}]}
            """))
        #expect(request.count == 3 && request.wakingHours == .standard && !request.avoidQuietHours && !request.avoidBusy)
        #expect(request.busy.isEmpty)
        // 09:00 at +02:00 is 08:00 on Dublin's clocks in June.
        #expect(request.reminders[0].start == T.wall(2026, 6, 1, 8, 0))
        #expect(request.reminders[1].start == T.wall(2026, 6, 1, 7, 5, 30))
        #expect(request.reminders[1].created == nil)
        let out = Self.output(Schedule.compute(request))
        #expect(out.hasPrefix(#"{"timezone":"Europe/Dublin","reminders":[{"activity":"feed","frequency":"weekly","start":"2026-06-01T07:05:30","next":[{"at":"2026-06-01T07:05:30+01:00""#))
        #expect(out.hasSuffix(#"{"activity":"walk","frequency":"once","start":"2026-06-01T08:00","next":[{"at":"2026-06-01T08:00:00+01:00","scheduled":"2026-06-01T08:00:00+01:00","moved":[]}]}],"replaced":[]}"#))
    }

    @Test func wakingHoursForms() throws {
        func hours(_ json: String) throws -> WakingHours {
            try ScheduleRequest.read(Self.body(#"{"timezone":"UTC","now":"2026-01-01T00:00:00Z","reminders":[],"waking_hours":"#
                                               + json + "}")).wakingHours
        }
        #expect(try hours(#"{"start":"06:30","end":"21:15"}"#) == WakingHours(startMinute: 390, endMinute: 1275))
        #expect(try hours(#"{"start":"22:00","end":"06:00"}"#) == WakingHours(startMinute: 1320, endMinute: 360))
        #expect(try hours(#"{"start":"00:00","end":"24:00"}"#) == WakingHours(startMinute: 0, endMinute: 1440))
    }

    static func reminders(_ n: Int) -> String {
        "[" + Array(repeating: #"{"activity":"a","start":"2026-01-01T08:00","frequency":"daily"}"#, count: n)
            .joined(separator: ",") + "]"
    }

    static func busy(_ n: Int) -> String {
        "[" + Array(repeating: #"{"start":"2026-01-01T08:00:00Z","end":"2026-01-01T09:00:00Z"}"#, count: n)
            .joined(separator: ",") + "]"
    }

    static let ok = #""timezone":"UTC","now":"2026-01-01T00:00:00Z""#
    static let one = #"{"activity":"a","start":"2026-01-01T08:00","frequency":"daily"}"#

    /// Each validation error, with its code and path (messages never echo the values).
    @Test(arguments: [
        (#"{"now":"2026-01-01T00:00:00Z","reminders":[]}"#, ScoutError.Code.invalidRequest, "timezone"),
        (#"{"timezone":"Mars/Olympus_Mons","now":"2026-01-01T00:00:00Z","reminders":[]}"#, .invalidRequest, "timezone"),
        (#"{"timezone":7,"now":"2026-01-01T00:00:00Z","reminders":[]}"#, .invalidRequest, "timezone"),
        (#"{"timezone":"UTC","reminders":[]}"#, .invalidRequest, "now"),
        (#"{"timezone":"UTC","now":"2026-01-01 00:00:00","reminders":[]}"#, .invalidRequest, "now"),
        ("{\(ok)}", .invalidRequest, "reminders"),
        ("{\(ok),\"reminders\":{}}", .invalidRequest, "reminders"),
        ("{\(ok),\"reminders\":\(reminders(1_001))}", .limitExceeded, "reminders"),
        ("{\(ok),\"reminders\":[\(one),\(one),{\"activity\":\"a\",\"start\":\"2026-01-01T08:00\",\"frequency\":\"hourly\"}]}",
         .invalidRequest, "reminders[2].frequency"),
        ("{\(ok),\"reminders\":[{\"activity\":\"a\",\"start\":\"2026-01-01T08:00\"}]}", .invalidRequest, "reminders[0].frequency"),
        ("{\(ok),\"reminders\":[7]}", .invalidRequest, "reminders[0]"),
        ("{\(ok),\"reminders\":[{\"start\":\"2026-01-01T08:00\",\"frequency\":\"daily\"}]}", .invalidRequest, "reminders[0].activity"),
        ("{\(ok),\"reminders\":[{\"activity\":\"\",\"start\":\"2026-01-01T08:00\",\"frequency\":\"daily\"}]}",
         .invalidRequest, "reminders[0].activity"),
        ("{\(ok),\"reminders\":[{\"activity\":3,\"start\":\"2026-01-01T08:00\",\"frequency\":\"daily\"}]}",
         .invalidRequest, "reminders[0].activity"),
        ("{\(ok),\"reminders\":[{\"activity\":\"\(String(repeating: "é", count: 51))\",\"start\":\"2026-01-01T08:00\",\"frequency\":\"daily\"}]}",
         .limitExceeded, "reminders[0].activity"),
        ("{\(ok),\"reminders\":[{\"activity\":\"a\",\"frequency\":\"daily\"}]}", .invalidRequest, "reminders[0].start"),
        ("{\(ok),\"reminders\":[{\"activity\":\"a\",\"start\":\"2026-02-30T08:00\",\"frequency\":\"daily\"}]}",
         .invalidRequest, "reminders[0].start"),
        ("{\(ok),\"reminders\":[{\"activity\":\"a\",\"start\":\"2026-01-01T24:00\",\"frequency\":\"daily\"}]}",
         .invalidRequest, "reminders[0].start"),
        ("{\(ok),\"reminders\":[{\"activity\":\"a\",\"start\":\"2026-01-01T8:00\",\"frequency\":\"daily\"}]}",
         .invalidRequest, "reminders[0].start"),
        ("{\(ok),\"reminders\":[{\"activity\":\"a\",\"start\":\"2026-01-01 08:00\",\"frequency\":\"daily\"}]}",
         .invalidRequest, "reminders[0].start"),
        ("{\(ok),\"reminders\":[{\"activity\":\"a\",\"start\":\"2026-01-01T08:00Z\",\"frequency\":\"daily\"}]}",
         .invalidRequest, "reminders[0].start"),
        ("{\(ok),\"reminders\":[\(one),{\"activity\":\"a\",\"start\":\"2026-01-01T08:00\",\"frequency\":\"daily\",\"created\":\"yesterday\"}]}",
         .invalidRequest, "reminders[1].created"),
        ("{\(ok),\"reminders\":[],\"count\":0}", .invalidRequest, "count"),
        ("{\(ok),\"reminders\":[],\"count\":2.5}", .invalidRequest, "count"),
        ("{\(ok),\"reminders\":[],\"count\":\"3\"}", .invalidRequest, "count"),
        ("{\(ok),\"reminders\":[],\"count\":101}", .limitExceeded, "count"),
        ("{\(ok),\"reminders\":[],\"waking_hours\":\"07-22\"}", .invalidRequest, "waking_hours"),
        ("{\(ok),\"reminders\":[],\"waking_hours\":{\"end\":\"22:00\"}}", .invalidRequest, "waking_hours.start"),
        ("{\(ok),\"reminders\":[],\"waking_hours\":{\"start\":\"24:00\",\"end\":\"22:00\"}}", .invalidRequest, "waking_hours.start"),
        ("{\(ok),\"reminders\":[],\"waking_hours\":{\"start\":\"07:00\",\"end\":\"7:00\"}}", .invalidRequest, "waking_hours.end"),
        ("{\(ok),\"reminders\":[],\"waking_hours\":{\"start\":\"07:00\",\"end\":\"24:01\"}}", .invalidRequest, "waking_hours.end"),
        ("{\(ok),\"reminders\":[],\"waking_hours\":{\"start\":\"07:00\",\"end\":\"07:00\"}}", .invalidRequest, "waking_hours.end"),
        ("{\(ok),\"reminders\":[],\"avoid_quiet_hours\":1}", .invalidRequest, "avoid_quiet_hours"),
        ("{\(ok),\"reminders\":[],\"avoid_busy\":\"yes\"}", .invalidRequest, "avoid_busy"),
        ("{\(ok),\"reminders\":[],\"busy\":\(busy(1_001))}", .limitExceeded, "busy"),
        ("{\(ok),\"reminders\":[],\"busy\":{}}", .invalidRequest, "busy"),
        ("{\(ok),\"reminders\":[],\"busy\":[{\"end\":\"2026-01-01T09:00:00Z\"}]}", .invalidRequest, "busy[0].start"),
        ("{\(ok),\"reminders\":[],\"busy\":[{\"start\":\"2026-01-01T08:00\",\"end\":\"2026-01-01T09:00:00Z\"}]}",
         .invalidRequest, "busy[0].start"),
        ("{\(ok),\"reminders\":[],\"busy\":[{\"start\":\"2026-01-01T08:00:00Z\",\"end\":\"2026-01-01T09:00:00Z\"},{\"start\":\"2026-01-01T08:00:00Z\",\"end\":\"2026-01-01T07:00:00Z\"}]}",
         .invalidRequest, "busy[1].end"),
        ("{\(ok),\"reminders\":[],\"busy\":[{\"start\":\"2026-01-01T08:00:00Z\",\"end\":\"2026-01-01T09:00:00+01:00\"}]}",
         .invalidRequest, "busy[0].end"),
    ])
    func validationErrors(json: String, code: ScoutError.Code, path: String) {
        do {
            _ = try ScheduleRequest.read(Self.body(json))
            Issue.record("accepted: expected \(code) at \(path)")
        } catch {
            #expect(error.code == code && error.path == path, "\(error)")
            #expect(!error.message.contains("Mars") && !error.message.contains("yesterday") && !error.message.contains("hourly"))
        }
    }

    @Test func limitsAreInclusive() throws {
        let r = try ScheduleRequest.read(Self.body(
            "{\(Self.ok),\"reminders\":\(Self.reminders(1_000)),\"busy\":\(Self.busy(1_000)),\"count\":100}"))
        #expect(r.reminders.count == 1_000 && r.busy.count == 1_000 && r.count == 100)
        let name = String(repeating: "é", count: 50)         // 100 bytes
        let named = try ScheduleRequest.read(Self.body(
            "{\(Self.ok),\"reminders\":[{\"activity\":\"\(name)\",\"start\":\"2026-01-01T08:00\",\"frequency\":\"daily\"}]}"))
        #expect(named.reminders[0].activity == name)
    }
}
