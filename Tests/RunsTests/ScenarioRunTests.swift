import Documents
import EventSinks
import Foundation
import Geofencing
import Runs
import ScenarioFormat
import Synchronization
import TestSupport
import Testing

/// The repository's restaurant scenario, copied into a fresh folder with its track, so that the
/// scenario's own relative sinks land there.
private func restaurant(sinks: [String] = []) throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let folder = try TemporaryFolders.make("runs")
    for sub in ["Scenarios", "Tracks"] {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    try FileManager.default.copyItem(
        at: root.appendingPathComponent("Tracks/lorrenzillos-visit.gpx"),
        to: folder.appendingPathComponent("Tracks/lorrenzillos-visit.gpx"))
    var text = try String(contentsOf: root.appendingPathComponent("Scenarios/lorrenzillos.yaml"), encoding: .utf8)
    if !sinks.isEmpty { text += "sinks: [\(sinks.joined(separator: ", "))]\n" }
    let path = folder.appendingPathComponent("Scenarios/lorrenzillos.yaml").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite("Running a scenario")
struct ScenarioRunTests {
    @Test func theProfileIsTheScenarioOwnUnlessOneIsAskedFor() throws {
        let path = try restaurant()
        #expect(try ScenarioRun(loading: path).simulation.profile == .iosDocumented)
        let ideal = try ScenarioRun(loading: path, profile: .ideal)
        #expect(ideal.simulation.profile == .ideal)
        #expect(ideal.scenario.simulation.profile == .iosDocumented)  // the scenario as loaded is kept
    }

    @Test func aProfileWhoseIntervalTheTickDoesNotDivideIsRefused() throws {
        let path = try restaurant()
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: "profile: ios-documented", with: "profile: ios-documented\ntick: 7")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ScenarioRun(loading: path).simulation.tick == .seconds(7))
        let error = #expect(throws: ScenarioErrors.self) { try ScenarioRun(loading: path, profile: .androidBackground) }
        #expect(error?.errors.map(\.keyPath) == ["tick"])
        #expect(
            error?.description.contains(
                "the profile android-background observes every 2 min, which is not a multiple of the tick (7 s); choose a tick that divides it"
            ) == true)
    }

    @Test func eventsAreTheEngineOwnForAnyThreadCount() throws {
        let run = try ScenarioRun(loading: try restaurant())
        let log = EventLog()
        _ = try run.simulation.run(into: log, options: RunOptions(threads: 1))
        let (events, summary) = run.events(threads: 2)
        #expect(events == log.events)
        #expect(events.map(\.kind) == [.monitorStart, .enter, .dwell, .exit, .visit])
        #expect(summary.samples == 361)
        #expect(
            summary.line(for: run, seconds: 0.014)
                == "perimeter: Lunch at Lorrenzillo's (ios-documented): 1 device, 361 samples, 5 events (monitor-start 1, exit 1, visit 1, enter 1, dwell 1), 0 warnings, 0.01 s"
        )
    }

    @Test func aBadFileGivesEveryProblem() throws {
        let path = try restaurant()
        try "name: x\nprofil: ios\nregions: []\ndevices: []\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: ScenarioErrors.self) { try ScenarioRun(loading: path) }
        #expect(error?.errors.map(\.keyPath) == ["profil"])
    }

    @Test func theScenarioOwnSinksAreRelativeToItsFile() throws {
        let path = try restaurant(sinks: ["\"jsonl:out.jsonl\""])
        let run = try ScenarioRun(loading: path)
        let summary = try run.run(into: SinkPlan(), options: RunOptions(threads: 1))
        let written = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("out.jsonl").path
        let lines = try String(contentsOfFile: written, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == summary.events)
        #expect(!summary.interrupted)
    }

    @Test func aBadSpecIsBadInputAndAnUnopenableSinkRunsNothing() throws {
        let run = try ScenarioRun(loading: try restaurant())
        #expect(throws: RunFailure.self) { try run.run(into: SinkPlan(commandLine: ["stdout"]), options: RunOptions()) }
        do {
            _ = try run.run(into: SinkPlan(commandLine: ["jsonl:/nonexistent-folder/e.jsonl"]), options: RunOptions())
            Issue.record("the run should have failed")
        } catch let .sinkFailed(messages) {
            #expect(
                messages == [
                    #"sink jsonl:/nonexistent-folder/e.jsonl: cannot create "/nonexistent-folder/e.jsonl": the directory "/nonexistent-folder" does not exist; nothing was run."#
                ])
        } catch {
            Issue.record("expected a sink failure, got \(error)")
        }
        do {
            _ = try run.run(into: SinkPlan(commandLine: ["stdout"]), options: RunOptions())
        } catch let .badSink(messages) {
            #expect(messages.count == 1 && messages[0].hasPrefix(#"sink stdout: unknown sink "stdout""#))
        } catch {
            Issue.record("expected a bad sink, got \(error)")
        }
    }

    @Test func aCancelledRunSaysSoAndKeepsWhatWasProduced() throws {
        let path = try restaurant()
        let out = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("cut.jsonl").path
        let run = try ScenarioRun(loading: path)
        let polls = Atomic<Int>(0)
        let summary = try run.run(
            into: SinkPlan(commandLine: ["jsonl:" + out]),
            options: RunOptions(
                threads: 1, windowTicks: 60, isCancelled: { polls.add(1, ordering: .relaxed).newValue > 3 }))
        #expect(summary.interrupted)
        #expect(summary.events > 0 && summary.events < 5)
        // A file is replaced only by a run that completes: what this one wrote is beside it (F4).
        #expect(!FileManager.default.fileExists(atPath: out))
        let besideOut = String(out.dropLast(".jsonl".count)) + ".interrupted.jsonl"
        let kept = try #require(try FileHandle(forReadingAtPath: besideOut)?.readToEnd()).split(
            separator: UInt8(ascii: "\n"))
        #expect(kept.count == summary.events)
        #expect(summary.line(for: run, seconds: 0).hasSuffix("; INTERRUPTED before the end of the tracks"))
    }
}
