import Synchronization
import Testing

@testable import Geofencing

/// A window's events are sent while the next window is simulated (`DeviceLanes.advance(…meanwhile:)`). A run
/// stopped early must still have sent exactly what a run on one thread sends: a prefix of the whole run's
/// events, every event of the windows simulated when it was cancelled, and nothing after a sink's failure.
@Suite("Runs stopped early")
struct StoppedEarlyTests {
    /// Keeps events, and throws at the `failAt`-th.
    final class FailingLog: EventSink {
        struct Refused: Error {}
        let failAt: Int
        private(set) var events: [GeofenceEvent] = []
        init(failAt: Int) { self.failAt = failAt }
        func send(_ event: GeofenceEvent) throws {
            if events.count + 1 == failAt { throw Refused() }
            events.append(event)
        }
        func finish() throws {}
    }

    static func cancelled(after windows: Int, threads: Int, _ simulation: Simulation) throws -> (RunSummary, [GeofenceEvent])
    {
        let polls = Atomic<Int>(0)
        let log = EventLog()
        let summary = try simulation.run(
            into: log,
            options: RunOptions(
                threads: threads, windowTicks: 13, isCancelled: { polls.add(1, ordering: .relaxed).newValue > windows }))
        return (summary, log.events)
    }

    @Test("a sink that throws: the run rethrows, and what it had taken is a prefix of the whole run", arguments: [2, 4])
    func sinkThrows(threads: Int) throws {
        var tried = 0
        try withEverySeed(1...40) { seed in
            let simulation = RandomScenario.make(seed: seed)
            let whole = EventLog()
            try simulation.run(into: whole, options: RunOptions(threads: 1, windowTicks: 13))
            guard whole.events.count >= 4 else { return }
            tried += 1
            let failing = FailingLog(failAt: whole.events.count * 2 / 3)
            #expect(throws: FailingLog.Refused.self, "seed \(seed)") {
                try simulation.run(into: failing, options: RunOptions(threads: threads, windowTicks: 13))
            }
            #expect(failing.events == Array(whole.events.prefix(failing.failAt - 1)), "seed \(seed)")
        }
        #expect(tried >= 20)
    }

    /// What the sink has when each window's progress is told: the events of the windows before it (a
    /// window's own are sent while the next one is simulated).
    final class SentAtProgress: @unchecked Sendable {
        // Safety: progress is told on the calling thread only.
        let log = EventLog()
        var counts: [Int] = []
    }

    @Test(
        "cancelled after some windows: every simulated window's events are sent, the same on 1 and 2 threads",
        arguments: [1, 3, 8])
    func cancelled(windows: Int) throws {
        var stoppedShort = 0
        try withEverySeed(1...40) { seed in
            let simulation = RandomScenario.make(seed: seed)
            let whole = SentAtProgress()
            var options = RunOptions(threads: 1, windowTicks: 13)
            options.progress = { [whole] _ in whole.counts.append(whole.log.events.count) }
            try simulation.run(into: whole.log, options: options)
            // Windows 1…k simulated: their events, which the sink had by the progress of window k + 1.
            let expected = windows < whole.counts.count ? whole.counts[windows] : whole.log.events.count
            for threads in [1, 2] {
                let (summary, sent) = try Self.cancelled(after: windows, threads: threads, simulation)
                #expect(
                    sent == Array(whole.log.events.prefix(expected)),
                    "seed \(seed), \(threads) threads: \(sent.count) events sent, \(expected) expected")
                #expect(summary.interrupted == (windows < whole.counts.count), "seed \(seed)")
                if threads == 1, summary.interrupted, expected < whole.log.events.count { stoppedShort += 1 }
            }
        }
        #expect(stoppedShort >= 20)
    }
}
