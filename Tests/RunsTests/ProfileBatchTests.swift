import Documents
import Foundation
import Geofencing
import Runs
import ScenarioFormat
import Testing

private func repository(_ path: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(path).path
}

/// Every run a batch hands on, in the order it hands them, with how many simulations it started.
private func collect(
    _ batch: ProfileBatch, threads: Int
) -> (runs: [ProfileBatch.Run], events: [[GeofenceEvent]], simulated: Int) {
    let counter = SimulationCounter()
    var runs: [ProfileBatch.Run] = [], events: [[GeofenceEvent]] = []
    ProfileBatch.$counter.withValue(counter) {
        batch.forEachRun(threads: threads) { run, e in
            runs.append(run)
            events.append(e)
        }
    }
    return (runs, events, counter.value)
}

@Suite("Profile batches")
struct ProfileBatchTests {
    /// Run r of profile p is, byte for byte, the plain run of the scenario under p with the noise seed
    /// S + r; the runs come profile by profile, run by run, for any thread count.
    @Test(arguments: [1, 2, 5])
    func eachProfileRunIsThePlainRunWithItsSeedInOrder(threads: Int) throws {
        let base = try ScenarioRun(loading: repository("Scenarios/restaurant-welcome.yaml"))
        let profiles: [Profile] = [.iosGPS, .androidDocumented, .ideal]
        let batch = try ProfileBatch(base, profiles: profiles, runs: 6, seed: 40)
        let got = collect(batch, threads: threads)
        #expect(got.runs.map(\.profileIndex) == [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2])
        #expect(got.runs.map(\.number) == Array(repeating: Array(0..<6), count: 3).flatMap { $0 })
        #expect(got.simulated == 18)
        for (run, events) in zip(got.runs, got.events) {
            var plain = ScenarioRun(base.scenario, profile: run.profile)
            plain.simulation.noise?.seed = 40 + UInt64(run.number)
            #expect(events == plain.events(threads: 1).events, "\(run.profile.name) run \(run.number)")
        }
    }

    /// Without runs, each profile's one plain run (the scenario's own seed).
    @Test func withoutRunsEachProfileRunsOnce() throws {
        let base = try ScenarioRun(loading: repository("Scenarios/restaurant-welcome.yaml"))
        let got = collect(try ProfileBatch(base, profiles: [.iosDocumented, .ideal]), threads: 2)
        #expect(got.runs.map(\.number) == [0, 0] && got.simulated == 2)
        #expect(
            got.events == [
                ScenarioRun(base.scenario, profile: .iosDocumented).events(threads: 1).events,
                ScenarioRun(base.scenario, profile: .ideal).events(threads: 1).events,
            ])
    }

    /// Lorrenzillo's has no noise: ios (fitted) draws at random and varies its runs, ios-documented does
    /// not, so it is simulated once and its events handed on for each of the 4 runs: 4 + 1 simulations.
    @Test func aProfileWhoseRunsAreAlikeIsSimulatedOnce() throws {
        let base = try ScenarioRun(loading: repository("Scenarios/lorrenzillos.yaml"))
        #expect(base.simulation.noise == nil)
        let got = collect(try ProfileBatch(base, profiles: [.iosGPS, .iosDocumented], runs: 4), threads: 2)
        #expect(got.runs.map(\.profileIndex) == [0, 0, 0, 0, 1, 1, 1, 1])
        #expect(got.simulated == 5)
        let once = ScenarioRun(base.scenario, profile: .iosDocumented).events(threads: 1).events
        #expect(got.events[4...].allSatisfy { $0 == once })
    }

    @Test func aBatchInWhichNothingVariesIsRefusedAtNoise() throws {
        let base = try ScenarioRun(loading: repository("Scenarios/lorrenzillos.yaml"))
        let error = #expect(throws: ScenarioErrors.self) {
            try ProfileBatch(base, profiles: [.iosDocumented, .ideal], runs: 3)
        }
        #expect(error?.errors.first?.keyPath == "noise")
        _ = try ProfileBatch(base, profiles: [.iosDocumented, .ideal])  // one plain run each varies nothing, and needs not
        // A calibration's candidate may vary nothing: simulated once, handed on for each run.
        let alike = collect(
            try ProfileBatch(base, profiles: [.iosDocumented], runs: 3, refusingAlikeRuns: false), threads: 2)
        #expect(alike.runs.map(\.number) == [0, 1, 2] && alike.simulated == 1)
        let few = #expect(throws: ScenarioErrors.self) {
            try ProfileBatch(base, profiles: [.iosGPS], runs: 0, refusingAlikeRuns: false)
        }
        #expect(few?.errors.first?.keyPath == "runs")
    }

    @Test func cancellingStopsBetweenGroupsOfRuns() throws {
        let base = try ScenarioRun(loading: repository("Scenarios/restaurant-welcome.yaml"))
        let batch = try ProfileBatch(base, profiles: [.iosGPS, .android], runs: 10)
        let seen = RunCount()
        let done = batch.forEachRun(threads: 1, isCancelled: { seen.value >= 13 }) { _, _ in seen.value += 1 }
        #expect(done == 13 && seen.value == 13)
    }
}
