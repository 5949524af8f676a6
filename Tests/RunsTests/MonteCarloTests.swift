import Documents
import EventSinks
import Foundation
import Geofencing
import Runs
import ScenarioFormat
import Testing

private func repository(_ path: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(path).path
}

@Suite("Monte Carlo batches")
struct MonteCarloTests {
    @Test(arguments: [0, 1, 7])
    func runRIsThePlainRunWithSeedSPlusR(r: Int) throws {
        let base = try ScenarioRun(loading: repository("Scenarios/restaurant-welcome.yaml"))
        let batch = try MonteCarlo(base, runs: 8, seed: 100)
        var batchEvents: [[GeofenceEvent]] = []
        batch.forEachRun(threads: 2) { _, events in batchEvents.append(events) }
        var plain = base
        plain.simulation.noise?.seed = 100 + UInt64(r)
        #expect(batchEvents[r] == plain.events(threads: 1).events)
    }

    @Test func theScenarioSeedIsRunZeroByDefault() throws {
        let base = try ScenarioRun(loading: repository("Scenarios/restaurant-welcome.yaml"))
        let batch = try MonteCarlo(base, runs: 3)
        #expect(batch.seed == 1)
        #expect(batch.run(0).events(threads: 1).events == base.events(threads: 1).events)
        #expect(batch.run(2).simulation.noise?.seed == 3)
    }

    @Test func runsComeInOrderForAnyThreadCount() throws {
        let batch = try MonteCarlo(try ScenarioRun(loading: repository("Scenarios/courier-background.yaml")), runs: 19)
        func collect(_ threads: Int) -> (order: [Int], events: [[GeofenceEvent]]) {
            var order: [Int] = [], events: [[GeofenceEvent]] = []
            batch.forEachRun(threads: threads) { r, e in
                order.append(r)
                events.append(e)
            }
            return (order, events)
        }
        let one = collect(1), two = collect(2), five = collect(5)
        #expect(one.order == Array(0..<19))
        #expect(two.order == one.order && five.order == one.order)
        #expect(two.events == one.events && five.events == one.events)
    }

    @Test func seedsWrapAround() throws {
        let batch = try MonteCarlo(
            try ScenarioRun(loading: repository("Scenarios/restaurant-welcome.yaml")), runs: 2,
            seed: UInt64.max)
        #expect(batch.run(1).simulation.noise?.seed == 0)
    }

    @Test func aScenarioWithoutNoiseIsRefused() throws {
        let base = try ScenarioRun(loading: repository("Scenarios/lorrenzillos.yaml"))
        let error = #expect(throws: ScenarioErrors.self) { try MonteCarlo(base, runs: 10) }
        #expect(error?.errors.first?.keyPath == "noise")
    }

    @Test func cancellingStopsBetweenGroupsOfRuns() throws {
        let batch = try MonteCarlo(try ScenarioRun(loading: repository("Scenarios/restaurant-welcome.yaml")), runs: 50)
        let seen = RunCount()
        let done = batch.forEachRun(threads: 1, isCancelled: { seen.value >= 3 }) { _, _ in seen.value += 1 }
        #expect(done == 3 && seen.value == 3)
    }

    @Test func sinksGetEveryRunAndAConsoleIsRefusedBeforeAnythingRuns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("MonteCarlo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let batch = try MonteCarlo(try ScenarioRun(loading: repository("Scenarios/restaurant-welcome.yaml")), runs: 4)
        var observed = 0
        let done = try batch.run(
            into: SinkPlan(commandLine: ["jsonl:\(folder)/e.jsonl"], journalFolder: folder),
            threads: 2
        ) { _, events in observed += events.count }
        #expect(done == 4)
        let lines = try String(contentsOfFile: folder + "/e.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == observed)
        #expect(lines.last?.hasSuffix(",\"run\":3}") == true)

        let refused = #expect(throws: RunFailure.self) {
            try batch.run(into: SinkPlan(commandLine: ["jsonl:\(folder)/f.jsonl", "console"], journalFolder: folder)) {
                _, _ in
                Issue.record("a run ran")
            }
        }
        guard case let .badSink(messages) = refused else {
            Issue.record("not a bad sink: \(String(describing: refused))"); return
        }
        #expect(
            messages == [
                // The kinds named are the registry's (core here: no SQLite).
                "console: this sink cannot tell the runs of a Monte Carlo batch apart; with --runs, events go to jsonl:PATH or csv:PATH (each event with its run)"
            ])
        #expect(!FileManager.default.fileExists(atPath: folder + "/f.jsonl"))
    }
}

/// The runs a test's body has seen, read by the batch's `isCancelled` (polled on the test's thread: one
/// thread, so no two accesses overlap).
final class RunCount: @unchecked Sendable {
    var value = 0
}
