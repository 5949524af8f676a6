import ArgumentParser
import Dispatch
import EventSinks
import Foundation
import Geofencing
import ScenarioFormat
import Synchronization

extension Profile: ExpressibleByArgument {}

/// `perimeter run SCENARIO`: runs a scenario and sends its events to sinks; a summary on standard error.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs a scenario and sends its events to sinks.",
        discussion: """
        Sinks: console, jsonl:PATH, csv:PATH, geojson:PATH, sqlite:PATH, http://… or https://…; '-' as \
        PATH is standard output. Each --sink adds one; together they replace the scenario's own 'sinks' \
        (default: console). A file is replaced only when the run completes; a SQLite database is \
        appended to, one row in its 'runs' table per run, with the run's status. An HTTP sink takes options \
        after the URL as ;key=value: batch=N (events per POST, 500), flush=SECONDS (1), timeout=SECONDS \
        (10), retries=N (5), backoff=SECONDS (0.2), auth-env=NAME (the Authorization header from that \
        environment variable), spool=PATH (where undelivered events go; send them later with \
        'perimeter deliver'). Ctrl-C stops the run cleanly: the sinks keep what was produced and the \
        summary says the run was interrupted. When a sink fails (a full disk, a file-size limit, a \
        folder that turned read-only, a closed pipe), the run stops with exit code 3: the other sinks \
        finish with every event produced, and the failed sink's events are kept in a journal, \
        perimeter-run-TIME-PID.jsonl in $TMPDIR (else /tmp), which its message names (JSON Lines, as \
        jsonl: writes them). A run whose sinks all succeed leaves no journal; a run with only HTTP sinks \
        keeps none (they spool what they did not deliver).
        """
    )

    @Argument(help: "The scenario file (YAML, or JSON).")
    var scenario: String

    @Option(name: .customLong("sink"), help: ArgumentHelp("Where events go (repeatable).", valueName: "spec"))
    var sinks: [String] = []

    @Option(help: "Replaces the scenario's profile: ios, android or ideal.")
    var profile: Profile?

    @Option(help: "Worker threads (default: one per core). The output is the same for any number.")
    var threads: Int?

    @Option(help: ArgumentHelp("The most samples the run may make in all (devices × ticks within their tracks); a scenario over it is refused before running.", valueName: "N"))
    var maxSamples: Int64 = ScenarioLoader.defaultMaxSamples

    @Flag(help: "Print no summary on standard error.")
    var quiet = false

    func validate() throws {
        guard maxSamples > 0 else {
            throw ValidationError("--max-samples must be a positive number of samples, not \(maxSamples).")
        }
    }

    func run() throws {
        let clock = ContinuousClock.now
        let loaded: Scenario
        do {
            loaded = try ScenarioLoader.load(path: scenario, maxSamples: maxSamples)
        } catch {
            for problem in error.errors { Diagnostics.error(problem.description) }
            throw ExitCode(Exit.badInput)
        }
        for warning in loaded.warnings { Diagnostics.warning(warning) }
        var simulation = loaded.simulation
        if let profile { simulation.profile = profile }

        // Sinks from the command line are relative to the working directory, the scenario's to its file.
        let fromCommandLine = !sinks.isEmpty
        let texts = fromCommandLine ? sinks : (loaded.sinks.isEmpty ? ["console"] : loaded.sinks)
        let specs: [SinkSpec]
        do {
            specs = try texts.map { text throws(SinkError) in try SinkSpec(parsing: text) }
        } catch {
            Diagnostics.error(error.description)
            throw ExitCode(Exit.badInput)
        }
        let sink: any CancellableEventSink
        do {
            let directory = fromCommandLine ? nil : URL(fileURLWithPath: loaded.file).deletingLastPathComponent().path
            let run = RunDescription(scenario: loaded.name, scenarioFile: loaded.file, simulation: simulation,
                                     perimeterVersion: Perimeter.configuration.version)
            let journal = RunJournal(warn: { Diagnostics.warning($0) })
            sink = try SinkSpec.makeSink(for: specs, relativeTo: directory, run: run, journal: journal)
        } catch {
            Diagnostics.error(error.description + "; nothing was run.")
            throw ExitCode(Exit.sinkFailed)
        }

        let interruption = Interruption()
        let tracked = FinishTracking(sink)
        let summary: RunSummary
        do {
            summary = try simulation.run(into: tracked, options: RunOptions(
                threads: threads ?? RunOptions.defaultThreads, isCancelled: { interruption.happened }))
        } catch {
            // A sink failed. If it failed while events were flowing, the run stopped early: a SQLite
            // sink records its run as interrupted. Finishing the sinks now finishes those that did not
            // fail, so that nothing they received is lost, and reports every failed sink, each with
            // where its events were kept (an HTTP sink's spool file, or the run's journal). A failure
            // in finish() is reported again by a second finish().
            if !tracked.finishCalled {
                try? (sink as? any InterruptibleEventSink)?.markInterrupted()
            }
            var reported = error
            do { try sink.finish() } catch { reported = error }
            for line in "\(reported)".split(separator: "\n") { Diagnostics.error(String(line)) }
            throw ExitCode(Exit.sinkFailed)
        }
        if summary.interrupted {
            do { try (sink as? any InterruptibleEventSink)?.markInterrupted() } catch { Diagnostics.warning("\(error)") }
        }
        if !quiet {
            Diagnostics.note(Self.summaryLine(loaded, simulation, summary, warnings: loaded.warnings.count,
                                              seconds: (ContinuousClock.now - clock).seconds))
        }
        if summary.interrupted { throw ExitCode(130) }
    }

    static func summaryLine(_ scenario: Scenario, _ simulation: Simulation, _ summary: RunSummary, warnings: Int,
                            seconds: Double) -> String {
        let kinds = GeofenceEvent.Kind.allCases.compactMap { kind in
            summary.eventsByKind[kind].map { "\(kind) \($0)" }
        }
        let plural = { (n: Int, word: String) in "\(n) \(word)\(n == 1 ? "" : "s")" }
        var line = "perimeter: \(scenario.name) (\(simulation.profile.rawValue)): " + [
            plural(summary.devices, "device"), plural(summary.samples, "sample"),
            plural(summary.events, "event") + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))"),
            plural(warnings + summary.droppedFixes, "warning"),
            String(format: "%.2f s", seconds),
        ].joined(separator: ", ")
        if summary.interrupted { line += "; INTERRUPTED before the end of the tracks" }
        return line
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

/// SIGINT and SIGTERM, caught so that a run can stop between windows and finish its sinks.
final class Interruption: @unchecked Sendable {
    // Safety: `sources` is written once in init and only kept alive afterwards; `flag` is atomic.
    private let flag = Atomic<Bool>(false)
    private let sources: [any DispatchSourceSignal]

    init() {
        var made: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            made.append(source)
        }
        sources = made
        for source in sources {
            source.setEventHandler { [weak self] in self?.flag.store(true, ordering: .relaxed) }
            source.resume()
        }
    }

    var happened: Bool { flag.load(ordering: .relaxed) }
}

extension Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
