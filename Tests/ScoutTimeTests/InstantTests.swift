import Foundation
import PropertyBased
import ScoutCore
import ScoutTestSupport
import Testing
@testable import ScoutTime

@Suite struct InstantTests {
    // Expected Unix seconds computed independently with Python's
    // `datetime.fromisoformat(…).timestamp()`; several texts are RFC 3339's own examples.
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", Int64(0), Int32(0)),
        ("1985-04-12T23:20:50.52Z", 482_196_050, 0),
        ("1996-12-19T16:39:57-08:00", 851_042_397, -28_800),
        ("1937-01-01T12:00:27.87+00:20", -1_041_337_173, 1_200),
        ("2026-03-29T01:30:00Z", 1_774_747_800, 0),
        ("2026-03-29T03:30:00+02:00", 1_774_747_800, 7_200),
        ("2026-03-29t01:30:00z", 1_774_747_800, 0),
        ("2000-02-29T00:00:00Z", 951_782_400, 0),
        ("2024-02-29T12:00:00Z", 1_709_208_000, 0),
        ("2026-01-01T00:00:00+23:59", 1_767_139_260, 86_340),
        ("2026-01-01T00:00:00-23:59", 1_767_311_940, -86_340),
        ("2026-03-29T01:30:00-00:00", 1_774_747_800, 0),
        ("9999-12-31T23:59:59Z", 253_402_300_799, 0),
        ("0000-01-01T00:00:00Z", -62_167_219_200, 0),
        // Fractions are dropped, which truncates toward -inf also before the epoch.
        ("1969-12-31T23:59:59.999999999Z", -1, 0),
        ("1970-01-01T00:00:00.5Z", 0, 0),
        // Leap seconds (RFC 3339 §5.8 examples) read as second 59 of the same minute.
        ("1990-12-31T23:59:60Z", 662_687_999, 0),
        ("1990-12-31T15:59:60-08:00", 662_687_999, -28_800),
    ])
    func validForms(text: String, seconds: Int64, offset: Int32) throws {
        let t = try Instant.parse(text, path: "at")
        #expect(t.seconds == seconds)
        #expect(t.utcOffsetSeconds == offset)
    }

    @Test(arguments: [
        ("", "at character 1"),
        ("2026-02-29T00:00:00Z", "day does not exist"),
        ("1900-02-29T00:00:00Z", "day does not exist"),
        ("2026-04-31T00:00:00Z", "day does not exist"),
        ("2026-01-00T00:00:00Z", "day does not exist"),
        ("2026-13-01T00:00:00Z", "month must be 01-12"),
        ("2026-00-01T00:00:00Z", "month must be 01-12"),
        ("2026-03-29T24:00:00Z", "hour must be 00-23"),
        ("2026-03-29T12:60:00Z", "minute must be 00-59"),
        ("2026-03-29T12:00:60Z", "second must be 00-59"),
        ("2016-12-31T23:59:60+01:00", "second must be 00-59"),   // 22:59:60 UTC is no leap second
        ("2026-03-29T12:00:61Z", "second must be 00-59"),
        ("2026-03-29T12:00:00+24:00", "UTC offset"),
        ("2026-03-29T12:00:00+01:60", "UTC offset"),
        ("2026-03-29 12:00:00Z", "at character 11: expected 'T'"),
        ("2026-03-2912:00:00Z", "at character 11: expected 'T'"),
        ("2026-03-29T12:00:00", "at character 20: expected Z or ±HH:MM"),
        ("2026-03-29T12:00:00+0100", "at character 23: expected ':' in the offset"),
        ("2026-03-29T12:00:00+01", "at character 23: expected ':' in the offset"),
        ("2026-03-29T12:00:00Z ", "at character 21: expected the end of the text"),
        ("2026-03-29T12:00:00Zjunk", "at character 21: expected the end of the text"),
        ("2026-03-29T12:00:00+01:00\n", "at character 26: expected the end of the text"),
        (" 2026-03-29T12:00:00Z", "at character 1"),
        ("2026-3-29T12:00:00Z", "at character 7"),
        ("12026-03-29T12:00:00Z", "at character 5: expected '-'"),
        ("+2026-03-29T12:00:00Z", "at character 1: expected a four-digit year"),
        ("2026-03-29T12:00Z", "at character 17: expected ':'"),
        ("2026-03-29T12:00:00.Z", "at character 21: expected fraction digits"),
        ("2026-03-29T12:00:00,5Z", "at character 20: expected Z or ±HH:MM"),
        ("２０２６-03-29T12:00:00Z", "at character 1"),
    ])
    func invalidForms(text: String, fragment: String) {
        #expect {
            _ = try Instant.parse(text, path: "query.at")
        } throws: { error in
            guard let e = error as? ScoutError else { return false }
            return e.code == .invalidRequest && e.path == "query.at" && e.message.contains(fragment)
                && e.message.contains("RFC 3339") && !e.message.contains("2026") && !e.message.contains("1900")
        }
    }

    /// Writing then reading gives back the instant and its offset, and the text is what
    /// Foundation's Date.ISO8601FormatStyle writes for the same moment and offset.
    @Test func formatParseRoundTripAgainstFoundation() async {
        await propertyCheck(count: 100, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            for _ in 0..<20 {
                // 1583-01-01 … 9998-12-31: Foundation's Gregorian calendar is Julian before 1582.
                let seconds = rng.int64(-12_212_553_600...253_370_764_800)
                let offsetMinutes = rng.chance(0.2) ? 0 : rng.int(-1439...1439)
                let t = Instant(seconds: seconds, utcOffsetSeconds: Int32(offsetMinutes * 60))
                let text = t.rfc3339
                guard let back = try? Instant.parse(text, path: "t") else {
                    log.check(false, "\(seconds) \(offsetMinutes): \(text) does not parse"); continue
                }
                log.check(back.seconds == seconds && back.utcOffsetSeconds == t.utcOffsetSeconds,
                          "\(text) reads back as \(back.seconds) \(back.utcOffsetSeconds)")
                // Foundation's fixed-offset zones stop short of ±18 hours.
                if abs(offsetMinutes) < 18 * 60, let tz = TimeZone(secondsFromGMT: offsetMinutes * 60) {
                    let style = Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: tz)
                    let expected = Date(timeIntervalSince1970: Double(seconds)).formatted(style)
                    log.check(text == expected, "\(seconds) at \(offsetMinutes) min: \(text), Foundation \(expected)")
                    log.check((try? style.parse(text))?.timeIntervalSince1970 == Double(seconds), "Foundation reads \(text) differently")
                }
                // A fraction and lowercase letters change nothing.
                let digits = String(repeating: "9", count: rng.int(1...12))
                var fractional = text    // YYYY-MM-DDTHH:MM:SS is 19 characters
                fractional.insert(contentsOf: "." + digits, at: fractional.index(fractional.startIndex, offsetBy: 19))
                log.check((try? Instant.parse(fractional.lowercased(), path: "t"))?.seconds == seconds, "\(fractional) is not truncated to \(seconds)")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func leapSecondIsTheLastSecondOfTheUTCDay() throws {
        let leap = try Instant.parse("2016-12-31T23:59:60Z", path: "t")
        #expect(leap == (try Instant.parse("2016-12-31T23:59:59Z", path: "t")))
        #expect(leap < (try Instant.parse("2017-01-01T00:00:00Z", path: "t")))
        #expect(try Instant.parse("2017-01-01T00:59:60+01:00", path: "t") == leap)
        #expect(throws: ScoutError.self) { try Instant.parse("2017-01-01T00:59:60Z", path: "t") }
    }

    @Test func equalityAndOrderIgnoreTheWrittenOffset() throws {
        let a = try Instant.parse("2026-06-01T12:00:00Z", path: "t")
        let b = try Instant.parse("2026-06-01T14:00:00+02:00", path: "t")
        let c = try Instant.parse("2026-06-01T13:59:59+02:00", path: "t")
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(c < a && !(a < b) && !(b < a))
        #expect(a.rfc3339 == "2026-06-01T12:00:00Z")
        #expect(b.rfc3339 == "2026-06-01T14:00:00+02:00")
        #expect(b.writtenWith(utcOffsetSeconds: -3600).rfc3339 == "2026-06-01T11:00:00-01:00")
    }

    @Test func offsetsThatAreNotWholeMinutesStillNameTheSameInstant() throws {
        // Dublin local mean time was -00:25:21; RFC 3339 has no seconds in offsets.
        let t = Instant(seconds: 0, utcOffsetSeconds: -1521)
        #expect(t.rfc3339 == "1969-12-31T23:35:00-00:25")
        #expect(try Instant.parse(t.rfc3339, path: "t") == t)
        #expect(Instant(seconds: 0, utcOffsetSeconds: 200_000).rfc3339 == "1970-01-01T23:59:00+23:59")
    }

    @Test func yearsOutsideRFC3339UseTheExpandedForm() {
        #expect(Instant(seconds: -62_167_219_201).rfc3339 == "-0001-12-31T23:59:59Z")
        #expect(Instant(seconds: 253_402_300_800).rfc3339 == "+10000-01-01T00:00:00Z")
        #expect(Instant(seconds: -62_167_219_200).rfc3339 == "0000-01-01T00:00:00Z")
    }
}
