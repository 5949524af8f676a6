import EventSinks
import FileSystem
import Foundation
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
    /// Where the run's journal goes, and who hears that it cannot be written.
    public var journalFolder: String
    public var warn: @Sendable (String) -> Void
    /// The run's interruption (`Interruption.happened`), for the sinks that wait on something outside
    /// (an HTTP sink stops waiting on its server at once, and spools what it did not deliver).
    public var isCancelled: @Sendable () -> Bool

    public init(commandLine: [String] = [], scenarioSinks: ScenarioSinkPolicy = ScenarioSinkPolicy(),
                registry: SinkRegistry = .core, programVersion: String? = nil,
                journalFolder: String = RunJournal.defaultFolder,
                warn: @escaping @Sendable (String) -> Void = { StandardError.warning($0) },
                isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.commandLine = commandLine
        self.scenarioSinks = scenarioSinks
        self.registry = registry
        self.programVersion = programVersion
        self.journalFolder = journalFolder
        self.warn = warn
        self.isCancelled = isCancelled
    }
}

extension ScenarioRun {
    /// Runs into the sinks of `plan`, with the policy every verb shares:
    /// - specs from the command line are relative to the working directory, the scenario's own to its file,
    ///   checked by `plan.scenarioSinks` (a refused one is bad input, with its place: nothing is run);
    /// - every sink is opened before the run, so that a bad path fails with nothing run;
    /// - a journal of the run keeps the events of any sink that fails (`FanOutSink`, `RunJournal`);
    /// - when a sink fails, the others are finished with every event produced, a SQLite sink records its
    ///   run as interrupted, and every failed sink is reported;
    /// - `options.isCancelled` (an `Interruption`) stops the run between windows; the sinks keep what was
    ///   produced and record the interruption, and the summary says so.
    public func run(into plan: SinkPlan, options: RunOptions) throws(RunFailure) -> RunSummary {
        try withSinks(of: plan) { sink in try simulation.run(into: sink, options: options) }
    }

    /// Opens the sinks of `plan` with the policy of `run(into:options:)`; `body` sends the events and
    /// finishes the sink it is given (a summary marked interrupted is recorded so by the sinks).
    func withSinks(of plan: SinkPlan, _ body: (any EventSink) throws -> RunSummary) throws(RunFailure) -> RunSummary {
        let fromCommandLine = !plan.commandLine.isEmpty
        let specs: [SinkSpec]
        if fromCommandLine || scenario.sinks.isEmpty {
            do {
                specs = try (fromCommandLine ? plan.commandLine : ["console"]).map { text throws(SinkError) in
                    try plan.registry.spec(parsing: text)
                }
            } catch {
                throw .badSink([error.description])
            }
        } else {
            let checked = plan.scenarioSinks.check(scenario, registry: plan.registry)
            guard checked.problems.isEmpty else { throw .badSink(checked.problems.map(\.description)) }
            specs = checked.specs
        }
        let sink: any CancellableEventSink
        do {
            let directory = fromCommandLine ? nil : URL(fileURLWithPath: scenario.file).deletingLastPathComponent().path
            let run = RunDescription(scenario: scenario.name, scenarioFile: scenario.file, simulation: simulation,
                                     perimeterVersion: plan.programVersion)
            let journal = RunJournal(folder: plan.journalFolder, warn: plan.warn)
            let context = SinkContext(directory: directory, run: run, isCancelled: plan.isCancelled)
            sink = try plan.registry.makeSink(for: specs, context: context, journal: journal)
        } catch {
            throw .sinkFailed([error.description + "; nothing was run."])
        }

        let tracked = FinishTracking(sink)
        let summary: RunSummary
        do {
            summary = try body(tracked)
        } catch {
            // A sink failed. If it failed while events were flowing, the run stopped early: a SQLite
            // sink records its run as interrupted. Finishing the sinks now finishes those that did not
            // fail, so that nothing they received is lost, and reports every failed sink, each with
            // where its events were kept (an HTTP sink's spool file, or the run's journal). A failure
            // in finish() is reported again by a second finish().
            if !tracked.finishCalled || plan.isCancelled() {
                try? (sink as? any InterruptibleEventSink)?.markInterrupted()
            }
            var reported: any Error = error
            do { try sink.finish() } catch { reported = error }
            throw .sinkFailed("\(reported)".split(separator: "\n").map(String.init))
        }
        if summary.interrupted {
            do { try (sink as? any InterruptibleEventSink)?.markInterrupted() } catch { plan.warn("\(error)") }
        }
        return summary
    }
}

/// Passes events on, remembering whether the run reached `finish()`: a failure before it stopped the run.
final class FinishTracking: EventSink {
    let sink: any EventSink
    private(set) var finishCalled = false

    init(_ sink: any EventSink) { self.sink = sink }

    func send(_ event: GeofenceEvent) throws { try sink.send(event) }

    func finish() throws {
        finishCalled = true
        try sink.finish()
    }
}
