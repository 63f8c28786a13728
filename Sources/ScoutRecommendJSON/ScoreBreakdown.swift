import ScoutJSON
import ScoutRecommend

extension ScoreBreakdown {
    /// Writes `"score": …, "breakdown": [{"term", "value", "weight", "contribution"}…]`
    /// into the object being written.
    package func write(into w: inout JSONWriter) {
        w.key("score"); w.number(score, decimals: 4)
        w.key("breakdown"); w.arrayStart()
        for t in terms {
            w.objectStart()
            w.key("term"); w.string(t.name)
            w.key("value"); w.number(t.value, decimals: 4)
            w.key("weight"); w.number(t.weight, decimals: 4)
            w.key("contribution"); w.number(t.contribution, decimals: 4)
            w.objectEnd()
        }
        w.arrayEnd()
    }
}
