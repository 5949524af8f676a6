import Analysis
import Geofencing
import ReadableText
import ScenarioFormat

/// The `outcome:` expectations of a scenario, counted over its Monte Carlo runs (the batch that
/// `measureProbabilities` runs, under the scenario's profile): per run, how many devices got each outcome
/// (`OutcomeTally`, as `perimeter outcomes` counts them).
struct OutcomeExpectationTally {
    let expectations: [OutcomeExpectation]
    /// Each expectation's outcome: its index in the tally's keys (each outcome counted once).
    private let slots: [Int]
    private var tally: OutcomeTally

    init(_ scenario: Scenario) {
        expectations = scenario.outcomeExpectations
        var keys: [OutcomeKey] = []
        slots = expectations.map { expectation in
            if let k = keys.firstIndex(of: expectation.key) { return k }
            keys.append(expectation.key)
            return keys.count - 1
        }
        tally = OutcomeTally(
            keys: keys, devices: scenario.simulation.devices.map(\.id), profiles: [scenario.simulation.profile.name],
            truth: [])
    }

    /// Counts one run's events.
    mutating func add(_ events: [GeofenceEvent]) {
        guard !expectations.isEmpty else { return }
        tally.add(profile: 0, events: events)
    }

    /// Records one measurement per expectation (passed or not) and returns the failed ones as lines:
    /// `expect[4].outcome, line 30: at least 10 devices get rule "coupon" held in 83 of 100 runs (0.83;
    /// expected at least 0.9); devices over 100 runs: p5 8, median 11, p95 13, mean 10.9`.
    func finish(into result: inout CheckResult) -> [String] {
        var failures: [String] = []
        for (k, expectation) in expectations.enumerated() {
            let counts = tally.counts(profile: 0, outcome: slots[k])
            let held = counts.count(where: expectation.devices.contains)
            let spread = CountSpread(counts)
            let measurement = Measurement(
                place: expectation.placeDescription, statement: expectation.statement, runs: counts.count, held: held,
                probability: expectation.probability, quantities: [])
            var line = measurement.place.isEmpty ? "" : measurement.place + ": "
            line +=
                "\(expectation.statement) held in \(held) of \(counts.count) runs "
                + "(\(Readable.number(measurement.share, decimals: 4)); expected \(expectation.probability.phrase)); "
                + "devices over \(counts.count) runs: p5 \(spread.p5), median \(spread.median), p95 \(spread.p95), "
                + "mean \(Readable.number(spread.mean, decimals: 2))"
            result.measurements.append(line)
            result.measured.append(measurement)
            result.cases.append(
                CheckCase(
                    name: CheckCase.expectation(
                        keyPath: expectation.keyPath, id: expectation.id, statement: expectation.statement,
                        runs: counts.count),
                    line: expectation.line, failure: measurement.passed ? nil : line))
            if !measurement.passed { failures.append(line) }
        }
        return failures
    }
}
