import EventSinks
import Foundation
import Geofencing
import Runs
import ScenarioFormat
import Synchronization
import TestSupport
import Testing
import Time

/// A sink that takes `limit` events, then fails: a full disk, as a sink sees one.
private final class FailingSink: LifecycleSink {
    private var left: Int
    init(limit: Int) { left = limit }
    func send(_ event: GeofenceEvent) throws {
        guard left > 0 else { throw SinkError(spec: "fail:", reason: "no space left on the device") }
        left -= 1
    }
    func finish() throws {}
    func cancel() {}

    static let kind = SinkKind(schemes: ["fail"], target: .standardOutput, form: "fail") { _, _ throws(SinkError) in
        FailingSink(limit: 1)
    }
}

/// What `plan.warn` heard.
private final class Heard: Sendable {
    let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
}

@Suite("A run's sinks, from opening to finishing")
struct SinkSessionTests {
    private func plan(_ folder: String, _ heard: Heard) -> SinkPlan {
        SinkPlan(registry: SinkRegistry.core.adding(FailingSink.kind), journalFolder: folder, warn: { heard.add($0) })
    }

    @Test func aRunThatEndsReplacesItsFilesAndLeavesNoJournal() throws {
        let folder = try temporaryDirectory(), heard = Heard()
        let plan = plan(folder, heard)
        let session = try SinkSession(
            opening: [try plan.registry.spec(parsing: "jsonl:\(folder)/e.jsonl")], plan: plan,
            run: RunDescription())
        for sample in samples { try session.sink.send(sample.event) }
        #expect(try session.finish(stoppedEarly: false) == [])
        #expect(try contents(folder + "/e.jsonl").split(separator: "\n").count == samples.count)
        #expect(try files(in: folder) == ["e.jsonl"] && heard.lines.withLock { $0 } == [])
    }

    @Test func aRunStoppedEarlyKeepsItsFileBesideItsTarget() throws {
        let folder = try temporaryDirectory(), heard = Heard()
        let plan = plan(folder, heard)
        let session = try SinkSession(
            opening: [try plan.registry.spec(parsing: "jsonl:\(folder)/e.jsonl")], plan: plan,
            run: RunDescription())
        try session.sink.send(samples[0].event)
        let kept = try session.finish(stoppedEarly: true)
        #expect(kept.count == 1 && kept[0].contains("e.interrupted.jsonl"))
        #expect(try files(in: folder) == ["e.interrupted.jsonl"])
    }

    /// The sink that failed is named with the journal that kept its events; the other sink is finished
    /// with every event it received, kept beside its target since the run stopped early.
    @Test func aFailedSinkIsReportedWithItsJournal() throws {
        let folder = try temporaryDirectory(), heard = Heard()
        let plan = plan(folder, heard)
        let specs = try ["fail", "jsonl:\(folder)/e.jsonl"].map { try plan.registry.spec(parsing: $0) }
        let session = try SinkSession(opening: specs, plan: plan, run: RunDescription())
        var failure: (any Error)?
        do { for sample in samples { try session.sink.send(sample.event) } } catch { failure = error }
        let thrown = session.finish(after: try #require(failure), stoppedEarly: true)
        guard case let .sinkFailed(lines) = thrown else { Issue.record("not a sink failure: \(thrown)"); return }
        #expect(lines.count == 1 && lines[0].hasPrefix("sink fail:: no space left on the device; "))
        let own = try #require(try files(in: folder).first { $0.hasPrefix("perimeter-journal-") })  // G9
        let journal = try #require(try files(in: folder + "/" + own).first { $0.hasPrefix("perimeter-run-") })
        #expect(lines[0].contains(own + "/" + journal))
        #expect(try contents(folder + "/" + own + "/" + journal).split(separator: "\n").count == 2)  // every event sent
        #expect(try files(in: folder).contains("e.interrupted.jsonl"))
        #expect(heard.lines.withLock { $0 }.contains { $0.contains("e.interrupted.jsonl") })
    }

    @Test func aSinkThatCannotBeOpenedFailsWithNothingRun() throws {
        let folder = try temporaryDirectory(), heard = Heard()
        let plan = plan(folder, heard)
        let thrown = #expect(throws: RunFailure.self) {
            try SinkSession(
                opening: [try plan.registry.spec(parsing: "jsonl:\(folder)/missing/e.jsonl")], plan: plan,
                run: RunDescription())
        }
        guard case let .sinkFailed(lines) = thrown else { Issue.record("not a sink failure"); return }
        #expect(lines.count == 1 && lines[0].hasSuffix("; nothing was run."))
    }
}

@Suite("The clock's start of a stream")
struct StreamClockTests {
    /// SEMANTICS §1: the scenario's `start` wins over the one given (`--start`); without either, none.
    @Test(
        arguments: [
            ("the scenario's own", "2026-03-01T08:00:00Z", "2026-03-01T07:00:00Z", "2026-03-01T08:00:00Z"),
            ("the given one", nil, "2026-03-01T07:00:00Z", "2026-03-01T07:00:00Z"),
            ("the scenario's, none given", "2026-03-01T08:00:00Z", nil, "2026-03-01T08:00:00Z"),
            ("neither", nil, nil, nil),
        ] as [(String, String?, String?, String?)])
    func clockStart(id: String, own: String?, given: String?, expected: String?) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var run = try ScenarioRun(
            loading: root.appendingPathComponent("Scenarios/lorrenzillos.yaml").path,
            readsDevices: false)
        run.simulation.start = own.flatMap { Timestamp(iso8601: $0) }
        #expect(
            run.clockStart(given: given.flatMap { Timestamp(iso8601: $0) }) == expected.flatMap { Timestamp(iso8601: $0) },
            "\(id)")
    }
}
