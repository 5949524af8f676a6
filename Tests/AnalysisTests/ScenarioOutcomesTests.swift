import Analysis
import Foundation
import Geofencing
import Runs
import TestSupport
import Testing

@Suite("ScenarioOutcomes: one batch, each (profile, run) simulated once")
struct ScenarioOutcomesTests {
    private static func scenario(_ name: String) throws -> ScenarioRun {
        try ScenarioRun(loading: PerimeterProcess.root.appendingPathComponent(name).path)
    }

    @Test func eachProfileRunSimulatesOnce() throws {
        let outcomes = try ScenarioOutcomes(
            try Self.scenario("Scenarios/restaurant-welcome.yaml"), profiles: [.iosDocumented, .androidDocumented],
            runs: 5, seed: 3)
        let counter = SimulationCounter()
        let report = ProfileBatch.$counter.withValue(counter) { outcomes.count(threads: 2) }
        #expect(counter.value == 2 * 5)
        #expect(report.runs == 5 && report.seed == 3)
        // The welcome rule, then the restaurant's enter and visit; every profile ran 5 times.
        #expect(report.outcomes.map(\.key.description) == ["rule \"welcome\"", "enter lorrenzillos", "visit lorrenzillos"])
        #expect(report.outcomes.allSatisfy { $0.profiles.map(\.runs) == [5, 5] })
    }

    @Test("A scenario whose runs are alike is counted, not refused: its spread is one value")
    func alikeRunsAreOneValue() throws {
        let base = try Self.scenario("Scenarios/lorrenzillos.yaml")
        let outcomes = try ScenarioOutcomes(base, profiles: [.ideal], runs: 4)
        let counter = SimulationCounter()
        let report = ProfileBatch.$counter.withValue(counter) { outcomes.count(threads: 1) }
        #expect(counter.value == 1)
        // ideal without noise is the truth itself: every count equals the truth, no false positive or negative.
        for row in report.outcomes {
            let ideal = try #require(row.profiles.first)
            #expect(ideal.devices == CountSpread(p5: row.truth, median: row.truth, p95: row.truth, mean: Double(row.truth)))
            #expect(ideal.falsePositives.mean == 0 && ideal.falseNegatives.mean == 0)
        }
        #expect(report.outcomes.map(\.truth) == [1, 1, 1])
    }

    @Test("The truth is the exact reference: the scenario under ideal without its noise")
    func truthIsTheExactReference() throws {
        let base = try Self.scenario("Scenarios/restaurant-welcome.yaml")
        let truth = ScenarioOutcomes.truth(of: base, threads: 1)
        #expect(truth == base.exact(under: .ideal).events(threads: 2).events)
        var noisy = base
        noisy.simulation.profile = .ideal
        #expect(truth != noisy.events(threads: 1).events, "the scenario's noise moves ideal's events")
    }
}
