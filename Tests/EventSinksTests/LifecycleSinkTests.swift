import Geofencing
import TestSupport
import Testing

@testable import EventSinks

/// `LifecycleSink`: one protocol for every step of a sink's life, each with a default that does nothing,
/// so a sink writes only the steps it cares about, and a fan-out or a kind filter passes every step on.
@Suite("A sink's life")
struct LifecycleSinkTests {
    /// Writes every step down.
    final class Recorder: LifecycleSink {
        var steps: [String] = []
        func send(_ event: GeofenceEvent) throws { steps.append("send") }
        func finish() throws { steps.append("finish") }
        func beginRun(_ number: Int, _ run: RunDescription) throws { steps.append("beginRun \(number)") }
        func markInterrupted() throws { steps.append("markInterrupted") }
        func markStoppedEarly() { steps.append("markStoppedEarly") }
        var keptBesideNotes: [String] { ["kept"] }
        func cancel() { steps.append("cancel") }
    }

    /// Only what the protocol requires: events and the end.
    final class Minimal: LifecycleSink {
        var events = 0
        func send(_ event: GeofenceEvent) throws { events += 1 }
        func finish() throws {}
    }

    @Test("Every step reaches a sink through a kind filter and a fan-out; a minimal sink takes them all")
    func everyStepIsPassedOn() throws {
        let recorder = Recorder(), minimal = Minimal()
        let filtered = KindFilterSink(recorder, kinds: [.enter])
        let fan = FanOutSink([filtered, minimal])
        try fan.beginRun(2, RunDescription())
        for sample in samples { try fan.send(sample.event) }
        try fan.markInterrupted()
        fan.markStoppedEarly()
        try fan.finish()
        let enters = samples.count { $0.event.kind == .enter }
        #expect(enters > 0 && enters < samples.count, "the filter keeps some events, not all")
        #expect(
            recorder.steps
                == ["beginRun 2"] + Array(repeating: "send", count: enters) + [
                    "markInterrupted", "markStoppedEarly", "finish",
                ])
        #expect(minimal.events == samples.count)
        #expect(fan.keptBesideNotes == ["kept"])
        #expect(!minimal.takesJSONLines && !minimal.spoolsItself && minimal.keptBesideNotes.isEmpty)
        fan.cancel()
        #expect(recorder.steps.last == "cancel")
    }
}
