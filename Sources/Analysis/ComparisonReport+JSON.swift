import Geodesy
import Geofencing
import TextEscaping

extension ComparisonReport {
    /// The comparison as one JSON object (`perimeter compare --json`), on one line:
    ///
    /// ```json
    /// {"against":"ideal","window":600.0,"profiles":[{"profile":"ios","kinds":{"enter":{"paired":1,"missed":0,
    /// "spurious":0,"delay":{"median":20.0,"p90":20.0,"max":20.0},"distance":{"median":-12.5,"p90":-3.1}},
    /// "exit":{…},"dwell":{…}},"pairs":[{"device":"phone","region":"cafe","kind":"enter","rule":null,
    /// "reference":"2016-01-10T12:01:37.000Z","profile":"2016-01-10T12:01:57.000Z","delay":20.0,"distance":-12.5}],
    /// "spurious":[{"device":…,"region":…,"kind":…,"rule":…,"profile":TIME,"distance":3.2}]}]}
    /// ```
    ///
    /// Times as in SEMANTICS §7, delays in seconds (profile − reference), `distance` the profile event's
    /// true signed distance from the boundary in metres to the tenth (negative inside; `TrueDistance`),
    /// percentiles by nearest rank (of the paired and spurious events' distances), `null` where there is none. `pairs` lists every reference event (a missed one with `profile` and
    /// `delay` null), `spurious` the profile events left unpaired. `"exactReference":true` follows
    /// `window` when the reference ran without noise, then `"truePaths":true` when recorded devices ran on their
    /// true paths (SEMANTICS §9). A Monte Carlo comparison adds `runs`
    /// and `seed` after `window`, and a `run` (0-based) to each pair and spurious event. A scenario with
    /// dwell rules adds `outcomes` last: one object per rule as `perimeter outcomes --json` writes it.
    public var json: String {
        var top: [(String, String)] = [
            ("against", JSONText.string(reference.name)),
            ("window", JSONText.seconds(window)),
        ]
        if exactReference { top.append(("exactReference", "true")) }
        if onTruePaths { top.append(("truePaths", "true")) }
        if let runs {
            top.append(("runs", String(runs.count)))
            top.append(("seed", String(runs.seed)))
        }
        top.append(("profiles", JSONText.array(profiles.map { profileJSON($0) })))
        if !outcomes.isEmpty { top.append(("outcomes", JSONText.array(outcomes.map(OutcomeReport.rowJSON)))) }
        return JSONText.object(top)
    }

    private func profileJSON(_ comparison: ProfileComparison) -> String {
        let kinds = EventMatching.kinds.map { kind -> (String, String) in
            let tally = comparison.tally(kind)
            return (
                kind.description,
                JSONText.object([
                    "paired": String(tally.paired), "missed": String(tally.missed), "spurious": String(tally.spurious),
                    "delay": JSONText.object([
                        "median": JSONText.seconds(tally.median), "p90": JSONText.seconds(tally.p90),
                        "max": JSONText.seconds(tally.max),
                    ]),
                    "distance": JSONText.object([
                        "median": Self.metres(tally.distanceMedian), "p90": Self.metres(tally.distanceP90),
                    ]),
                ])
            )
        }
        var pairs: [String] = []
        var spurious: [String] = []
        for (r, matching) in comparison.matchings.enumerated() {
            let run = runs == nil ? nil : r
            for pair in matching.pairs {
                pairs.append(
                    JSONText.object(
                        keyMembers(pair.key) + [
                            ("reference", JSONText.time(pair.reference)), ("profile", JSONText.time(pair.profile)),
                            ("delay", JSONText.seconds(pair.delay)), ("distance", Self.metres(pair.distance)),
                        ] + (run.map { [("run", String($0))] } ?? [])))
            }
            for event in matching.spurious {
                spurious.append(
                    JSONText.object(
                        keyMembers(event.key) + [
                            ("profile", JSONText.time(event.time)),
                            ("distance", Self.metres(event.distance)),
                        ]
                            + (run.map { [("run", String($0))] } ?? [])))
            }
        }
        return JSONText.object([
            ("profile", JSONText.string(comparison.profile.name)), ("kinds", JSONText.object(kinds)),
            ("pairs", JSONText.array(pairs)), ("spurious", JSONText.array(spurious)),
        ])
    }

    /// Metres to the tenth, as JSON; `null` for none.
    static func metres(_ value: Meters?) -> String { value.map { JSONText.number(($0 * 10).rounded() / 10) } ?? "null" }

    private func keyMembers(_ key: EventKey) -> [(String, String)] {
        [
            ("device", JSONText.string(key.device)), ("region", JSONText.string(key.region)),
            ("kind", JSONText.string(key.kind.description)), ("rule", JSONText.string(key.rule)),
        ]
    }
}
