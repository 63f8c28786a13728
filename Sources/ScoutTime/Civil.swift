// Proleptic Gregorian calendar arithmetic on day counts (Howard Hinnant's
// `days_from_civil` / `civil_from_days`, http://howardhinnant.github.io/date_algorithms.html).
// Exact for every year whose day count fits in Int64; no tables, no Foundation.

/// Seconds in a civil day (no leap seconds: Scout's time scale is Unix time).
let secondsPerDay: Int64 = 86_400

/// `a / b` rounded toward negative infinity (`b > 0`).
@inline(__always)
func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && a < 0) ? q - 1 : q
}

/// `a mod b` in `0..<b` (`b > 0`).
@inline(__always)
func floorMod(_ a: Int64, _ b: Int64) -> Int64 {
    let r = a % b
    return r < 0 ? r + b : r
}

/// Days from 1970-01-01 to the proleptic Gregorian date `y-m-d` (month 1...12, day 1...31).
@inline(__always)
func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400                                  // [0, 399]
    let mp = (month + 9) % 12                                // March = 0 … February = 11
    let doy = (153 * mp + 2) / 5 + day - 1                   // [0, 365]
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy          // [0, 146096]
    return era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date `days` days after 1970-01-01.
@inline(__always)
func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097                                       // [0, 146096]
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365 // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)                 // [0, 365]
    let mp = (5 * doy + 2) / 153                                      // [0, 11]
    let day = doy - (153 * mp + 2) / 5 + 1                            // [1, 31]
    let month = mp < 10 ? mp + 3 : mp - 9                             // [1, 12]
    let year = yoe + era * 400
    return (month <= 2 ? year + 1 : year, month, day)
}

/// Whether `year` has a February 29 in the proleptic Gregorian calendar.
@inline(__always)
func isLeap(_ year: Int64) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days in `month` (1...12) of `year`.
@inline(__always)
func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
}

/// ISO weekday (1 = Monday … 7 = Sunday) of the day `days` after 1970-01-01 (a Thursday).
@inline(__always)
func isoWeekday(days: Int64) -> Int {
    Int(floorMod(days + 3, 7)) + 1
}
