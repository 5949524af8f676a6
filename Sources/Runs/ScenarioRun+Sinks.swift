import EventSinks
import Foundation
import Geofencing

extension ScenarioRun {
    /// Runs into the sinks of `plan`, with the policy every verb shares:
    /// - specs from the command line are relative to the working directory, the scenario's own to its file,
    ///   checked by `plan.scenarioSinks` (a refused one is bad input, with its place: nothing is run);
    /// - every sink is opened before the run, so that a bad path fails with nothing run;
    /// - a journal of the run keeps the events of any sink that fails (`FanOutSink`, `RunJournal`);
    /// - when a sink fails, the others are finished with every event produced (a file kept beside its
    ///   target when the run stopped early), a SQLite sink records its run as interrupted, and every
    ///   failed sink is reported;
    /// - `options.isCancelled` (an `Interruption`) stops the run between windows; the sinks keep what was
    ///   produced and record the interruption, and the summary says so. A file is then kept beside its
    ///   target (`e.interrupted.jsonl`), the target left as it was, and `plan.warn` hears where.
    public func run(into plan: SinkPlan, options: RunOptions) throws(RunFailure) -> RunSummary {
        let (summary, keptBeside) = try withSinks(of: plan) { sink in
            guard isTruth else { return try simulation.run(into: sink, options: options) }
            // The truth (SEMANTICS §9) is settled after its runs: its events are sent once they are all known.
            let (events, summary) = simulation.truth(threads: options.threads)
            for event in events { try sink.send(event) }
            try sink.finish()
            return summary
        }
        for note in keptBeside { plan.warn(note) }
        return summary
    }

    /// Opens the sinks of `plan` with the policy of `run(into:options:)`; `body` sends the events and
    /// calls `finish()`, and the sinks are finished when it returns, once it is known whether the run
    /// stopped early (a summary marked interrupted): then each file is kept beside its target
    /// (`LifecycleSink.markStoppedEarly`) and the sinks record the interruption. Returns the summary and, for a run
    /// stopped early, a sentence for each file kept beside its target.
    func withSinks(
        of plan: SinkPlan, _ body: (any EventSink) throws -> RunSummary
    )
        throws(RunFailure) -> (summary: RunSummary, keptBeside: [String])
    {
        let fromCommandLine = !plan.commandLine.isEmpty
        let specs: [SinkSpec]
        if fromCommandLine || scenario.sinks.isEmpty {
            specs = try plan.specs(parsing: fromCommandLine ? plan.commandLine : ["console"])
        } else {
            let checked = plan.scenarioSinks.check(scenario, registry: plan.registry)
            guard checked.problems.isEmpty else { throw .badSink(checked.problems.map(\.description)) }
            specs = checked.specs
        }
        let directory = fromCommandLine ? nil : URL(fileURLWithPath: scenario.file).deletingLastPathComponent().path
        let session = try SinkSession(
            opening: specs, plan: plan, directory: directory,
            run: description(version: plan.programVersion), regions: simulation.regions)
        let tracked = FinishTracking(session.sink)
        let summary: RunSummary
        do {
            summary = try body(tracked)
        } catch {
            // A sink failed; if it failed while events were flowing, the run stopped early.
            throw session.finish(after: error, stoppedEarly: !tracked.finishCalled || plan.isCancelled())
        }
        return (summary, try session.finish(stoppedEarly: summary.interrupted))
    }

    /// What the sinks record of this run (the SQLite sink's `runs` row): its scenario, profile, clock's
    /// start and settings, begun now.
    func description(version: String?) -> RunDescription {
        RunDescription(scenario: name, scenarioFile: scenario.file, simulation: simulation, perimeterVersion: version)
    }
}

/// Passes events on, remembering whether the run reached `finish()` (a failure before it stopped the
/// run), and leaving the finishing itself to `withSinks`, which then knows whether the run stopped early.
final class FinishTracking: EventSink {
    let sink: any EventSink
    private(set) var finishCalled = false

    init(_ sink: any EventSink) { self.sink = sink }

    func send(_ event: GeofenceEvent) throws { try sink.send(event) }

    func finish() throws { finishCalled = true }
}
