import Foundation
import ScoutCore
import ScoutJSON
import ScoutRecommend
import ScoutRecommendJSON
import ScoutTestSupport
import Testing

/// `data/weights.json` is read into checked values: a missing, unknown or out-of-range entry
/// fails the load with its path, so a typo never becomes a limit of 0 °C.
@Suite struct WeightsValidationTests {
    static let text = try! String(contentsOfFile: Repository.data + "/weights.json", encoding: .utf8)

    static func load(_ edited: String) -> ScoutError? {
        do {
            _ = try RecommenderWeights.parse(try JSONReader.parse(edited))
            return nil
        } catch let e as ScoutError { return e } catch { return ScoutError(.internal, "\(error)") }
    }

    @Test func theShippedWeightsLoad() throws {
        let w = try RecommenderWeights.parse(try JSONReader.parse(Self.text))
        // Every typed name is in the file, in its range, and the file holds nothing else.
        for l in RuleLimit.allCases { #expect(l.range.contains(w.rules[l]), "\(l)") }
        for a in GoalAdjustment.allCases { #expect(a.range.contains(w[a]), "\(a)") }
        for p in FitParameter.allCases { #expect(p.range.contains(w[p]), "\(p)") }
        #expect(Set(w.rules.values.keys) == Set(RuleLimit.allCases.map(\.rawValue)))
        #expect(Set(w.goalAdjustments.keys) == Set(GoalAdjustment.allCases.map(\.rawValue)))
        #expect(Set(w.individualFit.keys) == Set(FitParameter.allCases.map(\.rawValue)))
    }

    @Test(arguments: [
        // (replace, with, path of the error, words)
        ("\"brachycephalic_max_c\": -6", "\"brachycephalic_max_C\": -6", "rules.brachycephalic_max_C", "did you mean \"brachycephalic_max_c\""),
        ("\"puppy_min_c\": 3,", "", "rules.puppy_min_c", "required"),
        ("\"storm_wind_kmh\": 75", "\"storm_wind_kmh\": 7500", "rules.storm_wind_kmh", "between"),
        ("\"senior_max_intensity\": 4", "\"senior_max_intensity\": 0", "rules.senior_max_intensity", "between"),
        ("\"novelty\": 0.1,\n    \"context\"", "\"novelty\": 0.1,\n    \"contxt\"", "activity_terms.contxt", "did you mean \"context\""),
        ("\"open_now\": 0.15", "\"open_nwo\": 0.15", "places.gyms.open_nwo", "did you mean \"open_now\""),
        ("\"heart_condition\": -4", "\"heart_condtion\": -4", "rules.condition_max_c.heart_condtion", "did you mean \"heart_condition\""),
        ("\"half_life_days\": 120", "\"half_life_days\": 120, \"halflife\": 3", "enjoyment.halflife", "known:"),
    ])
    func aBadEntryFailsTheLoadWithItsPath(_ find: String, _ replacement: String, _ path: String, _ words: String) throws {
        #expect(Self.text.contains(find), "fixture text not found: \(find)")
        let e = try #require(Self.load(Self.text.replacingOccurrences(of: find, with: replacement)))
        #expect(e.path == path, "\(e)")
        #expect(e.message.contains(words), "\(e)")
    }
}
