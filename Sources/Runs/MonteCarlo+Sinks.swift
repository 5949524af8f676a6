import EventSinks
import Geofencing

extension MonteCarlo {
    /// Runs the batch, handing each run's events to `observe` and to the sinks of `plan.commandLine` (a
    /// scenario's own `sinks:` are not used: N runs of console output help nobody). Each sink must keep
    /// runs apart (`RunNumberingSink`: JSON Lines, CSV, SQLite); another is refused before anything
    /// runs. Every sink is opened first, so that a bad path fails with nothing run; when one fails
    /// during the batch, the others are finished with every event they received, and the failure is
    /// reported with where the run's journal kept that sink's events (each with its run). A batch
    /// stopped by `isCancelled` or by a failed sink keeps each file beside its target
    /// (`StoppedEarlySink`), and `plan.warn` hears where. Returns how many runs were done (fewer when `isCancelled` stopped the batch).
    public func run(into plan: SinkPlan, threads: Int = RunOptions.defaultThreads,
                    isCancelled: @escaping @Sendable () -> Bool = { false },
                    observe: (Int, [GeofenceEvent]) -> Void) throws(RunFailure) -> Int {
        let sink = try openSinks(plan)
        var failure: (any Error)?
        let done = forEachRun(threads: threads, isCancelled: { failure != nil || isCancelled() }) { r, events in
            observe(r, events)
            guard let sink, failure == nil else { return }
            do {
                try sink.beginRun(r, description(of: r, plan: plan))
                for event in events { try sink.send(event) }
            } catch {
                failure = error
            }
        }
        guard let sink else { return done }
        if done < runs, failure == nil { try? (sink as? any InterruptibleEventSink)?.markInterrupted() }
        // Stopped by a signal or by a failed sink: no file the batch did not complete replaces its target.
        if done < runs || failure != nil { (sink as? any StoppedEarlySink)?.markStoppedEarly() }
        var reported = failure
        do { try sink.finish() } catch { reported = error }
        for note in (sink as? any StoppedEarlySink)?.keptBesideNotes ?? [] { plan.warn(note) }
        if let reported {
            throw .sinkFailed("\(reported)".split(separator: "\n").map(String.init))
        }
        return done
    }

    private func description(of r: Int, plan: SinkPlan) -> RunDescription {
        let run = self.run(r)
        return RunDescription(scenario: run.name, scenarioFile: run.scenario.file, simulation: run.simulation,
                              perimeterVersion: plan.programVersion)
    }

    /// The command line's sinks as one, with the run's journal (`SinkPlan.openSinks`, as a single run's),
    /// or nil when there are none.
    private func openSinks(_ plan: SinkPlan) throws(RunFailure) -> (any CancellableEventSink & RunNumberingSink)? {
        guard !plan.commandLine.isEmpty else { return nil }
        let sink = try plan.openSinks(plan.specs(parsing: plan.commandLine), directory: nil, run: description(of: 0, plan: plan))
        let parts = ((sink as? FanOutSink)?.sinks ?? [sink]).map { ($0 as? KindFilterSink)?.base ?? $0 }
        if let index = parts.firstIndex(where: { !($0 is any RunNumberingSink) }) {
            sink.cancel()
            throw .badSink(["\(plan.commandLine[index]): this sink cannot tell the runs of a Monte Carlo batch apart; "
                + "with --runs, events go to jsonl:PATH, csv:PATH or sqlite:PATH (each event with its run)"])
        }
        return sink as? any CancellableEventSink & RunNumberingSink
    }
}
