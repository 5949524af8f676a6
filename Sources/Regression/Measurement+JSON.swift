import Analysis
import ScenarioFormat
import TextEscaping

extension Measurement {
    /// One JSON object on one line, for `perimeter check --measurements FILE` (Scripts/fidelity-table.py
    /// builds docs/FIDELITY.md from them): the scenario, the expectation's place and statement, the runs,
    /// the share in which it held with its bounds, and each quantity's statistics with theirs.
    ///
    /// `{"scenario":"Fidelity/ios-exit.yaml","place":"expect[0], line 30","statement":"exit of store","runs":200,
    /// "held":196,"share":0.98,"probability":{"atLeast":0.9,"atMost":null},"quantities":[{"key":"distance",
    /// "unit":"m","runs":196,"statistics":{"median":{"value":64.2,"atLeast":55,"atMost":80}}}],"passed":true}`
    public func jsonLine(scenario: String) -> String {
        func bounds(_ b: Bounds<Double>?) -> String {
            guard let b else { return JSONText.null }
            return JSONText.object([
                "atLeast": JSONText.number(b.atLeast),
                "atMost": JSONText.number(b.atMost),
            ])
        }
        let quantities = quantities.map { q in
            JSONText.object([
                ("key", JSONText.string(q.key)), ("unit", JSONText.string(q.unit)), ("runs", JSONText.integer(q.runs)),
                (
                    "statistics",
                    JSONText.object(
                        q.values.map { v in
                            (
                                v.statistic.rawValue,
                                JSONText.object([
                                    "value": JSONText.number(v.value),
                                    "atLeast": JSONText.number(v.bounds.atLeast),
                                    "atMost": JSONText.number(v.bounds.atMost),
                                ])
                            )
                        })
                ),
            ])
        }
        return JSONText.object([
            ("scenario", JSONText.string(scenario)), ("place", JSONText.string(place)),
            ("statement", JSONText.string(statement)), ("runs", JSONText.integer(runs)), ("held", JSONText.integer(held)),
            ("share", JSONText.number(share)), ("probability", bounds(probability)),
            ("quantities", JSONText.array(quantities)), ("passed", JSONText.bool(passed)),
        ])
    }
}
