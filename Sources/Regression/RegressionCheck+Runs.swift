import Analysis
import Geofencing
import ReadableText
import Runs
import ScenarioFormat
import Time
import WireFormat

/// What one expectation measured over a scenario's Monte Carlo runs: the share of runs in which it held,
/// and the statistics of its `delay:` and `distance:` (`ExpectationMeasure`) over the runs that had a
/// matching event.
public struct Measurement: Sendable, Equatable {
    /// One quantity's statistics, in its unit (seconds or metres).
    public struct Quantity: Sendable, Equatable {
        public var key: String
        public var unit: String
        /// Runs that contributed a value.
        public var runs: Int
        /// One statistic written in the expectation: its value (nil when no run contributed) and bounds.
        public struct Value: Sendable, Equatable {
            public var statistic: ExpectationMeasure.Statistic
            public var value: Double?
            public var bounds: Bounds<Double>
        }

        /// Each statistic written in the expectation, in its order.
        public var values: [Value]
        public var passed: Bool { values.allSatisfy { v in v.value.map(v.bounds.contains) ?? false } }
    }

    /// `expect[3], line 20`.
    public var place: String
    /// What the expectation asks, for people.
    public var statement: String
    public var runs: Int
    /// Runs in which the condition held.
    public var held: Int
    public var probability: ProbabilityBounds?
    public var quantities: [Quantity]

    public var share: Double { runs == 0 ? 0 : Double(held) / Double(runs) }
    public var passed: Bool { (probability.map { $0.contains(share) } ?? true) && quantities.allSatisfy(\.passed) }
}

extension RegressionCheck {
    /// Runs the scenario's Monte Carlo batch (`runs:`) once and measures, for each expectation with a
    /// `probability:`, `delay:` or `distance:`, the share of runs in which its condition holds and its
    /// quantities' statistics, and for each `outcome:` expectation the share of runs in which its count
    /// of devices holds (`OutcomeExpectationTally`); records every measurement and returns the failed ones
    /// as lines.
    func measureProbabilities(_ scenario: Scenario, day: Timestamp, into result: inout CheckResult) -> [String] {
        let measured = scenario.expectations.filter { $0.probability != nil || !$0.measures.isEmpty }
        var outcomes = OutcomeExpectationTally(scenario)
        guard !measured.isEmpty || !outcomes.expectations.isEmpty, let runs = scenario.runs,
            let batch = try? MonteCarlo(ScenarioRun(scenario), runs: runs)
        else { return [] }
        var held = Array(repeating: 0, count: measured.count)
        // Runs with more than one matching event, and the most in one run: a run counts once however many
        // it has, and the line says so when it matters.
        var repeated = Array(repeating: 0, count: measured.count)
        var most = Array(repeating: 0, count: measured.count)
        // values[i][j]: expectation i's measure j, one value a run that held and had a matching event.
        var values = measured.map { Array(repeating: [Double](), count: $0.measures.count) }
        batch.forEachRun(threads: threads) { _, events in
            outcomes.add(events)
            let wire = events.map(WireEvent.init)
            for (i, expectation) in measured.enumerated() {
                let holds = expectation.failure(in: wire, clockStart: day) == nil
                if holds { held[i] += 1 }
                let matching = wire.count(where: expectation.matches)
                if matching > 1 { repeated[i] += 1 }
                most[i] = max(most[i], matching)
                guard holds, !expectation.measures.isEmpty,
                    let first = wire.first(where: {
                        expectation.matches($0) && (expectation.window?.contains($0.time) ?? true)
                    })
                else { continue }
                for (j, measure) in expectation.measures.enumerated() {
                    switch measure.quantity {
                    case let .delay(since): values[i][j].append(Double((first.time - since).microseconds) / 1e6)
                    case .distance: values[i][j].append(first.distance)
                    }
                }
            }
        }
        var failures: [String] = []
        for (i, expectation) in measured.enumerated() {
            let statement = expectation.statement(clockStart: day, zone: scenario.timeZone)
            let quantities = zip(expectation.measures, values[i]).map { measure, values in
                Measurement.Quantity(
                    key: measure.quantity.key, unit: measure.unit, runs: values.count,
                    values: measure.limits.map {
                        .init(
                            statistic: $0.statistic, value: Self.statistic($0.statistic, of: values),
                            bounds: $0.bounds)
                    })
            }
            let measurement = Measurement(
                place: expectation.placeDescription, statement: statement, runs: runs,
                held: held[i], probability: expectation.probability, quantities: quantities)
            var line = measurement.place.isEmpty ? "" : measurement.place + ": "
            line +=
                "\(statement) held in \(held[i]) of \(runs) runs (\(Readable.number(measurement.share, decimals: 4))"
                + (expectation.probability.map { "; expected \($0.phrase))" } ?? ")")
            if case .count = expectation.condition {
            } else if repeated[i] > 0 {
                line +=
                    "; each run counts once: \(repeated[i]) of them had 2 or more \(expectation.subject(plural: true)) "
                    + "(up to \(most[i]))"
            }
            for quantity in quantities { line += "; " + Self.phrase(quantity) }
            result.measurements.append(line)
            result.measured.append(measurement)
            result.cases.append(
                CheckCase(
                    name: CheckCase.expectation(
                        keyPath: expectation.keyPath, id: expectation.id, statement: statement, runs: runs),
                    line: expectation.line, failure: measurement.passed ? nil : line))
            if !measurement.passed { failures.append(line) }
        }
        return failures + outcomes.finish(into: &result)
    }

    /// A statistic of `values` (in any order): nearest-rank percentiles, or the mean; nil when empty.
    static func statistic(_ statistic: ExpectationMeasure.Statistic, of values: [Double]) -> Double? {
        let sorted = values.sorted()
        switch statistic {
        case .p10: return NearestRank.percentile(10, of: sorted)
        case .median: return NearestRank.percentile(50, of: sorted)
        case .p90: return NearestRank.percentile(90, of: sorted)
        case .mean: return sorted.isEmpty ? nil : sorted.reduce(0, +) / Double(sorted.count)
        }
    }

    /// `delay over 97 runs: median 12.0 s (at most 30.0), p90 31.0 s (at most 60.0)`.
    static func phrase(_ q: Measurement.Quantity) -> String {
        "\(q.key) over \(q.runs) run\(q.runs == 1 ? "" : "s"): "
            + q.values.map { v in
                let value = v.value.map { "\(Readable.number($0, decimals: 1)) \(q.unit)" } ?? "none"
                return "\(v.statistic.rawValue) \(value) (expected \(v.bounds.phrase))"
            }.joined(separator: ", ")
    }
}

extension EventExpectation {
    /// The window its condition counts events in (`between`), if any: measures take the first matching
    /// event in it.
    var window: TimeWindow? {
        switch condition {
        case let .between(window): return window
        case let .count(_, window), let .never(window): return window
        case .at, .after, .since: return nil
        }
    }
}
