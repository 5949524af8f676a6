import Foundation
import Geofencing
import Regression
import Runs
import ScenarioFormat
import TestSupport
import Testing
import Time

@Suite("check: delay and distance measured over a scenario's runs")
struct MeasureTests {
    @Test(
        "Each run's first matching event in the window gives its delay and distance; statistics by nearest rank, and the mean"
    )
    func measures() throws {
        let folder = try RepositoryCopy.lorrenzillos()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("Scenarios/lorrenzillos.yaml")
        try RepositoryCopy.edit(
            scenario, "expect:\n",
            """
            noise: {sigma: 25m, seed: 5, correlation: 30s}
            runs: 21
            expect:
              - kind: enter
                region: lorrenzillos
                between: ["12:01:00", "12:03:00"]
                delay: {since: "12:01:37", p10: {atLeast: 0s}, median: {atMost: 1h}, mean: {atMost: 1h}, p90: {atMost: 1h}}
                distance: {median: {atMost: 0m}, p90: {atLeast: 1km}}

            """)
        // The same numbers computed here from the batch, apart from the check.
        let batch = try MonteCarlo(ScenarioRun(loading: scenario.path), runs: 21)
        let since = Timestamp.parse(iso8601: "2016-01-10T12:01:37Z", localZone: nil)!.0
        let window = TimeWindow(
            Timestamp.parse(iso8601: "2016-01-10T12:01:00Z", localZone: nil)!.0,
            Timestamp.parse(iso8601: "2016-01-10T12:03:00Z", localZone: nil)!.0)
        var delays: [Double] = [], distances: [Double] = []
        var held = 0
        batch.forEachRun { _, events in
            guard
                let first = events.first(where: {
                    $0.kind == .enter && $0.region == "lorrenzillos" && window.contains($0.time)
                })
            else { return }
            held += 1
            delays.append(Double((first.time - since).microseconds) / 1e6)
            distances.append(first.distance)
        }
        try #require(held > 2)
        delays.sort()
        distances.sort()
        let rank = { (p: Int, n: Int) in (p * n + 99) / 100 - 1 }
        let result = RegressionCheck(update: true).check(scenarioAt: scenario.path)
        let measurement = try #require(result.measured.first)
        #expect(measurement.held == held)
        #expect(measurement.runs == 21)
        let delay = try #require(measurement.quantities.first)
        #expect(delay.key == "delay" && delay.unit == "s" && delay.runs == held)
        #expect(
            delay.values.map(\.value) == [
                delays[rank(10, held)], delays[rank(50, held)],
                delays.reduce(0, +) / Double(held), delays[rank(90, held)],
            ])
        let distance = try #require(measurement.quantities.last)
        #expect(distance.values.map(\.value) == [distances[rank(50, held)], distances[rank(90, held)]])
        // Entered, so inside: the median distance is at most 0 m, and the p90 is not a kilometre out.
        #expect(delay.passed)
        #expect(!distance.passed)
        #expect(!measurement.passed)
        #expect(result.status == .failed)
        let line = try #require(result.measurements.first)
        #expect(line.contains("distance over \(held) runs: median "), "\(line)")
        // For machines: one JSON object, with the same figures.
        let json =
            try JSONSerialization.jsonObject(with: Data(measurement.jsonLine(scenario: "s.yaml").utf8)) as? [String: Any]
        #expect(json?["held"] as? Int == held)
        #expect(json?["passed"] as? Bool == false)
    }
}
