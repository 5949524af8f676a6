import EventSinks
import FixTables
import Geodesy
import Geofencing
import Time

/// How far a stream has come, after each device: for a progress line.
public struct StreamProgress: Sendable {
    public var devices: Int
    public var rows: Int
    public var samples: Int
    /// Bytes of the input read so far.
    public var bytes: Int
}

extension ScenarioRun {
    /// Runs the devices of `input` one at a time as their rows end (`perimeter stream`), on the clock that
    /// starts at the scenario's `start`, else at `start`: each device's events go to the sinks of `plan`,
    /// in the order of SEMANTICS §7, device after device. The scenario's own devices play no part.
    /// Memory: one device's fixes and samples, whatever the fleet's size.
    ///
    /// Sinks follow the policy of `run(into:options:)`. A bad row stops the stream with `.badInput`
    /// naming its line, after the sinks have been finished with the events of every device before it (a
    /// SQLite sink records the run as interrupted; a file is kept beside its target, as an interrupted
    /// run's, and the error names it). `isCancelled` stops a device between windows, and `input` while it
    /// waits for rows (when it was made with it): the summary is then `interrupted`. Dropped fixes go to
    /// `warn` (the first `FixTable.keptWarnings`, then a count); `progress` hears after each device, on the
    /// calling thread.
    public func stream(
        _ input: inout FixTableStream, start: Timestamp, into plan: SinkPlan,
        isCancelled: @escaping @Sendable () -> Bool = { false },
        progress: (StreamProgress) -> Void = { _ in },
        warn: (String) -> Void
    ) throws(RunFailure) -> RunSummary {
        // The sinks record the clock the devices run on (a SQLite sink's `clockStart`).
        var streamed = self
        streamed.simulation.start = clockStart(given: start)
        let runner = streamed.simulation.deviceRunner(start: streamed.simulation.clockStart)
        var badRow: FixTableError?
        let (summary, keptBeside) = try streamed.withSinks(of: plan) { sink in
            var summary: RunSummary
            do {
                while let device = try input.next() {
                    for warning in input.takeWarnings() { warn(warning.description) }
                    try runner.run(Device(streamed: device), into: sink, isCancelled: isCancelled)
                    progress(
                        StreamProgress(
                            devices: runner.summary.devices, rows: input.rowsRead,
                            samples: runner.summary.samples, bytes: input.bytesRead))
                    if runner.summary.interrupted { break }
                }
                summary = runner.summary
                if input.interrupted { summary.interrupted = true }
            } catch let error as FixTableError {
                badRow = error
                summary = runner.summary
                summary.interrupted = true
            }
            for warning in input.takeWarnings() { warn(warning.description) }
            summary.droppedFixes += input.dropped
            if input.dropped > FixTable.keptWarnings {
                warn("\(input.name): \(input.dropped - FixTable.keptWarnings) more fixes dropped")
            }
            try sink.finish()
            return summary
        }
        if let badRow {
            let n = summary.devices
            throw .badInput(
                [badRow.description]
                    + (n > 0 ? ["the sinks kept the events of the \(n) device\(n == 1 ? "" : "s") before it"] : [])
                    + keptBeside)
        }
        for note in keptBeside { plan.warn(note) }
        return summary
    }
}

extension ScenarioRun {
    /// The clock's start of a run whose devices arrive later (`perimeter stream`; SEMANTICS §1): the
    /// scenario's `start`, else `given` (the fleet's earliest fix, which every part of a fleet must be
    /// given alike); nil when neither is known. The one place a streamed clock is decided; a whole run's
    /// is `Simulation.clockStart`.
    public func clockStart(given: Timestamp?) -> Timestamp? { simulation.start ?? given }
}

extension Device {
    /// A device of a streamed fix table: its rows as one segment (SEMANTICS §1), each fix with its own
    /// accuracy when its row has one.
    init(streamed device: StreamedDevice) {
        let fixes = device.fixes.map {
            Fix(Coordinate(latitude: $0.latitude, longitude: $0.longitude), at: $0.time, accuracy: $0.accuracy)
        }
        self.init(id: device.id, track: .timed(fixes.isEmpty ? [] : [fixes]))
    }
}
