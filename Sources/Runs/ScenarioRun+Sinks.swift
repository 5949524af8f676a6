import EventSinks
import FileSystem
import Foundation
import Geodesy
import Geofencing

/// Why a run into sinks did not complete, with every sentence for people.
public enum RunFailure: Error, Sendable {
    /// A sink spec was bad (exit 2); nothing was run.
    case badSink([String])
    /// The input went bad part way (exit 2): the sinks kept every event of the devices before it.
    case badInput([String])
    /// A sink could not be opened (nothing was run) or failed during the run (exit 3); each message says
    /// where that sink's events were kept.
    case sinkFailed([String])

    /// The sentences, one per line.
    public var messages: [String] {
        switch self {
        case let .badSink(lines), let .badInput(lines), let .sinkFailed(lines): return lines
        }
    }
}

/// Where a run's events go and how it may be stopped.
public struct SinkPlan: Sendable {
    /// The sink specs from the command line; empty for the scenario's own `sinks:` (default `console`).
    public var commandLine: [String]
    /// What the scenario's own `sinks:` may do (files inside its folder; the network only when allowed).
    public var scenarioSinks: ScenarioSinkPolicy
    /// The kinds of sink this program knows.
    public var registry: SinkRegistry
    /// What the SQLite sink records of the program that ran it.
    public var programVersion: String?
    /// Where the run's journal goes, and who hears that it cannot be written (and, after a run stopped
    /// early, where each file was kept beside its target).
    public var journalFolder: String
    public var warn: @Sendable (String) -> Void
    /// The run's interruption (`Interruption.happened`), for the sinks that wait on something outside
    /// (an HTTP sink stops waiting on its server at once, and spools what it did not deliver).
    public var isCancelled: @Sendable () -> Bool
    /// Whose clocks the console shows times on (`--timezone`); nil for UTC.
    public var displayZone: LocalTimeZone?

    public init(commandLine: [String] = [], scenarioSinks: ScenarioSinkPolicy = ScenarioSinkPolicy(),
                registry: SinkRegistry = .core, programVersion: String? = nil,
                journalFolder: String = RunJournal.defaultFolder,
                warn: @escaping @Sendable (String) -> Void = { StandardError.warning($0) },
                isCancelled: @escaping @Sendable () -> Bool = { false }, displayZone: LocalTimeZone? = nil) {
        self.displayZone = displayZone
        self.commandLine = commandLine
        self.scenarioSinks = scenarioSinks
        self.registry = registry
        self.programVersion = programVersion
        self.journalFolder = journalFolder
        self.warn = warn
        self.isCancelled = isCancelled
    }
}

extension SinkPlan {
    /// Parses `texts` and opens them as one sink, with a journal of the run (in `journalFolder`) that
    /// keeps the events of any sink that fails (`FanOutSink`, `RunJournal`): what every run and batch
    /// opens. Every sink is opened before the run, so that a bad path fails with nothing run; paths are
    /// relative to `directory` (nil: the working directory).
    /// `regions` name the regions for a sink for people (the console's labels).
    func openSinks(_ specs: [SinkSpec], directory: String?, run: RunDescription,
                   regions: [Region] = []) throws(RunFailure) -> any CancellableEventSink {
        do {
            var names: [String: String] = [:]
            if specs.contains(where: { $0.scheme == "console" }) {
                for region in regions { if let name = region.name { names[region.id] = name } }
            }
            let context = SinkContext(directory: directory, run: run, isCancelled: isCancelled, displayZone: displayZone,
                                      regionNames: names)
            return try registry.makeSink(for: specs, context: context, journal: RunJournal(folder: journalFolder, warn: warn))
        } catch {
            throw .sinkFailed([error.description + "; nothing was run."])
        }
    }

    /// `texts` parsed by the registry; a bad one is bad input.
    func specs(parsing texts: [String]) throws(RunFailure) -> [SinkSpec] {
        do {
            return try texts.map { text throws(SinkError) in try registry.spec(parsing: text) }
        } catch {
            throw .badSink([error.description])
        }
    }
}

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
        let (summary, keptBeside) = try withSinks(of: plan) { sink in try simulation.run(into: sink, options: options) }
        for note in keptBeside { plan.warn(note) }
        return summary
    }

    /// Opens the sinks of `plan` with the policy of `run(into:options:)`; `body` sends the events and
    /// calls `finish()`, and the sinks are finished when it returns, once it is known whether the run
    /// stopped early (a summary marked interrupted): then each file is kept beside its target
    /// (`StoppedEarlySink`) and the sinks record the interruption. Returns the summary and, for a run
    /// stopped early, a sentence for each file kept beside its target.
    func withSinks(of plan: SinkPlan, _ body: (any EventSink) throws -> RunSummary)
        throws(RunFailure) -> (summary: RunSummary, keptBeside: [String]) {
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
        let run = RunDescription(scenario: scenario.name, scenarioFile: scenario.file, simulation: simulation,
                                 perimeterVersion: plan.programVersion)
        let sink = try plan.openSinks(specs, directory: directory, run: run, regions: simulation.regions)

        let tracked = FinishTracking(sink)
        let summary: RunSummary
        do {
            summary = try body(tracked)
        } catch {
            // A sink failed. If it failed while events were flowing, the run stopped early: a SQLite
            // sink records its run as interrupted, and each file is kept beside its target (its target
            // left as it was: a failed run leaves no half file looking complete). Finishing the sinks
            // now finishes those that did not fail, so that nothing they received is lost, and reports
            // every failed sink, each with where its events were kept (an HTTP sink's spool file, or
            // the run's journal).
            let stoppedEarly = !tracked.finishCalled || plan.isCancelled()
            if stoppedEarly {
                try? (sink as? any InterruptibleEventSink)?.markInterrupted()
                (sink as? any StoppedEarlySink)?.markStoppedEarly()
            }
            var reported: any Error = error
            do { try sink.finish() } catch { reported = error }
            for note in (sink as? any StoppedEarlySink)?.keptBesideNotes ?? [] { plan.warn(note) }
            throw .sinkFailed("\(reported)".split(separator: "\n").map(String.init))
        }
        if summary.interrupted { (sink as? any StoppedEarlySink)?.markStoppedEarly() }
        do {
            try sink.finish()
        } catch {
            throw .sinkFailed("\(error)".split(separator: "\n").map(String.init))
        }
        guard summary.interrupted else { return (summary, []) }
        do { try (sink as? any InterruptibleEventSink)?.markInterrupted() } catch { plan.warn("\(error)") }
        return (summary, (sink as? any StoppedEarlySink)?.keptBesideNotes ?? [])
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
