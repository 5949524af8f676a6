import EventSinks
import FileSystem
import Foundation
import Geofencing
import Time

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

    public init(
        commandLine: [String] = [], scenarioSinks: ScenarioSinkPolicy = ScenarioSinkPolicy(),
        registry: SinkRegistry = .core, programVersion: String? = nil,
        journalFolder: String = RunJournal.defaultFolder,
        warn: @escaping @Sendable (String) -> Void = { StandardError.warning($0) },
        isCancelled: @escaping @Sendable () -> Bool = { false }, displayZone: LocalTimeZone? = nil
    ) {
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
    /// Whether a sink given on the command line writes to standard output (`jsonl:-`, `console`): the
    /// command then keeps its own report off it (a Monte Carlo batch's summary goes to standard error).
    /// A spec that does not parse counts as not (opening the sinks refuses it). O(sinks).
    public var commandLineWritesToStandardOutput: Bool {
        commandLine.contains { text in (try? registry.spec(parsing: text))?.writesToStandardOutput == true }
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
