import EventSinks
import Geofencing

/// The sinks of one run or one Monte Carlo batch, from opening to finishing: the one place where the
/// policy every run's sinks share is written (`ScenarioRun.run(into:options:)`, `ScenarioRun.stream`,
/// `MonteCarlo.run(into:)`).
///
/// - Every sink is opened before anything runs, so that a bad path fails with nothing run
///   (`RunFailure.sinkFailed`, exit 3; `badSink`, exit 2, for a path that can never be a sink, such as
///   a FIFO no process reads).
/// - A journal of the run (`RunJournal`, in `plan.journalFolder`) records every event for the sinks that
///   fail (`FanOutSink`); in a batch each event with its run, as `jsonl:` writes it. It is kept only when
///   a sink that does not spool itself failed, and that sink's message names it.
/// - `finish(stoppedEarly:)`, `finish(after:stoppedEarly:)`: a run that stopped before its end (interrupted, a stream's bad row,
///   a failed sink) records the interruption (a SQLite sink's status) and keeps each file beside its
///   target (`NAME.interrupted.EXT`, `LifecycleSink.markStoppedEarly`); the sinks that did not fail are finished with
///   every event they received, and every failure is reported with where its events were kept.
///
/// ```swift
/// let session = try SinkSession(opening: specs, plan: plan, run: description)
/// var failure: (any Error)?
/// do { for event in events { try session.sink.send(event) } } catch { failure = error }
/// if let failure { throw session.finish(after: failure, stoppedEarly: true) }
/// let keptBeside = try session.finish(stoppedEarly: false)
/// ```
public final class SinkSession {
    /// Every sink and the journal, as one: where the run's events go.
    public let sink: any LifecycleSink
    /// Who hears what is not an error: a journal that cannot be written, a file kept beside its target.
    private let warn: @Sendable (String) -> Void

    /// Opens `specs` as one sink with the run's journal. Paths are relative to `directory` (nil: the
    /// working directory); `regions` name the regions for a sink for people (the console's labels).
    /// O(specs) files opened.
    public init(
        opening specs: [SinkSpec], plan: SinkPlan, directory: String? = nil, run: RunDescription,
        regions: [Region] = []
    ) throws(RunFailure) {
        var names: [String: String] = [:]
        if specs.contains(where: { $0.scheme == "console" }) {
            for region in regions { if let name = region.name { names[region.id] = name } }
        }
        let context = SinkContext(
            directory: directory, run: run, isCancelled: plan.isCancelled,
            displayZone: plan.displayZone, regionNames: names)
        do {
            sink = try plan.registry.makeSink(
                for: specs, context: context,
                journal: RunJournal(folder: plan.journalFolder, warn: plan.warn))
        } catch {
            let message = error.description + "; nothing was run."
            throw error.isBadInput ? .badSink([message]) : .sinkFailed([message])
        }
        warn = plan.warn
    }

    /// Tells the sinks (and the journal) that the events from now on are those of Monte Carlo run
    /// `number`, which `run` describes. Throws what a sink threw.
    public func beginRun(_ number: Int, _ run: RunDescription) throws {
        try sink.beginRun(number, run)
    }

    /// Finishes the sinks once the run is over. `stoppedEarly`: the run did not reach its end
    /// (interrupted, a stream's bad row): the sinks record the interruption and keep each file beside
    /// its target. Returns, for a run stopped early, a sentence for each file kept beside its target;
    /// throws every failed sink's message (those sentences then go to `plan.warn`).
    public func finish(stoppedEarly: Bool) throws(RunFailure) -> [String] {
        let (keptBeside, reported) = close(stoppedEarly: stoppedEarly, failure: nil)
        guard let reported else { return keptBeside }
        throw failed(reported, keptBeside: keptBeside)
    }

    /// Finishes the sinks after `failure`, what a sink threw during the run, and returns what to throw:
    /// every failed sink's message, each with where its events were kept. `stoppedEarly`: the sink
    /// failed while events were flowing (not only at its end), as `finish(stoppedEarly:)`.
    public func finish(after failure: any Error, stoppedEarly: Bool) -> RunFailure {
        let (keptBeside, reported) = close(stoppedEarly: stoppedEarly, failure: failure)
        return failed(reported ?? failure, keptBeside: keptBeside)
    }

    /// Marks a run stopped early, finishes every sink, and gives the files kept beside their targets and
    /// the error to report (the finish's, which names every failed sink, else `failure`).
    private func close(stoppedEarly: Bool, failure: (any Error)?) -> (keptBeside: [String], reported: (any Error)?) {
        if stoppedEarly {
            do { try sink.markInterrupted() } catch { warn("\(error)") }
            sink.markStoppedEarly()
        }
        var reported = failure
        do { try sink.finish() } catch { reported = error }
        return (sink.keptBesideNotes, reported)
    }

    private func failed(_ error: any Error, keptBeside: [String]) -> RunFailure {
        for note in keptBeside { warn(note) }
        return .sinkFailed("\(error)".split(separator: "\n").map(String.init))
    }
}
