import EventSinks
import Geofencing

extension MonteCarlo {
    /// Runs the batch, handing each run's events to `observe` and to the sinks of `plan.commandLine` (a
    /// scenario's own `sinks:` are not used: N runs of console output help nobody). Each sink must keep
    /// runs apart (its kind's `tellsRunsApart`: JSON Lines, CSV, SQLite); another is refused before anything
    /// runs. The sinks and the journal are a `SinkSession`: every sink is opened first, so that a bad path fails with nothing run; when one fails
    /// during the batch, the others are finished with every event they received, and the failure is
    /// reported with where the run's journal kept that sink's events (each with its run). A batch
    /// stopped by `isCancelled` or by a failed sink keeps each file beside its target
    /// (`LifecycleSink.markStoppedEarly`), and `plan.warn` hears where. Returns how many runs were done (fewer when `isCancelled` stopped the batch).
    public func run(
        into plan: SinkPlan, threads: Int = RunOptions.defaultThreads,
        isCancelled: @escaping @Sendable () -> Bool = { false },
        observe: (Int, [GeofenceEvent]) -> Void
    ) throws(RunFailure) -> Int {
        let session = try openSinks(plan)
        var failure: (any Error)?
        var done = 0
        do {
            // A failed sink stops the batch at once: no later run is simulated or handed on.
            done = try forEachRun(threads: threads, isCancelled: isCancelled) { (r, events) throws(SinkStopped) in
                observe(r, events)
                guard let session else { return }
                do {
                    try session.beginRun(r, self.run(r).description(version: plan.programVersion))
                    for event in events { try session.sink.send(event) }
                } catch {
                    failure = error
                    throw SinkStopped()
                }
            }
        } catch {}  // `failure` holds why
        guard let session else { return done }
        // Stopped by a signal or by a failed sink: no file the batch did not complete replaces its target.
        if let failure { throw session.finish(after: failure, stoppedEarly: true) }
        for note in try session.finish(stoppedEarly: done < runs) { plan.warn(note) }
        return done
    }

    /// The command line's sinks as one, with the batch's journal (`SinkSession`), or nil when there are
    /// none. A sink whose kind cannot tell runs apart (`SinkKind.tellsRunsApart`) is refused before any
    /// is opened.
    private func openSinks(_ plan: SinkPlan) throws(RunFailure) -> SinkSession? {
        guard !plan.commandLine.isEmpty else { return nil }
        let specs = try plan.specs(parsing: plan.commandLine)
        if let refused = specs.first(where: { !plan.registry.tellsRunsApart($0) }) {
            throw .badSink([
                "\(refused.text): this sink cannot tell the runs of a Monte Carlo batch apart; "
                    + "with --runs, events go to \(plan.registry.formsTellingRunsApart) (each event with its run)"
            ])
        }
        return try SinkSession(opening: specs, plan: plan, run: run(0).description(version: plan.programVersion))
    }
}

/// Thrown out of a batch's run by a sink that failed (the failure itself is kept apart).
private struct SinkStopped: Error {}
