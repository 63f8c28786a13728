import ScoutCore
import ScoutJSON
import ScoutRecommend

extension Weather {
    /// Reads `{"temperature_c", "precipitation_mm_h"?, "condition"?, "wind_kmh"?}`.
    package static func read(_ f: FieldReader) throws(ScoutError) -> Weather {
        guard let c = WeatherCondition(rawValue: try f.oneOf("condition", WeatherCondition.allCases.map(\.rawValue), default: "clear")) else {
            throw ScoutError(.invalidRequest, "unknown condition", path: f.at("condition"))
        }
        return Weather(temperatureC: try f.number("temperature_c", in: -90...60),
                       precipitationMmH: try f.optionalNumber("precipitation_mm_h", in: 0...500) ?? 0,
                       condition: c, windKmh: try f.optionalNumber("wind_kmh", in: 0...500) ?? 0)
    }
}
