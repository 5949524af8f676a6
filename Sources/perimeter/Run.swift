import ArgumentParser
import FileSystem
import Geofencing
import Runs
import ScenarioFormat

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

    @Option(help: "Replaces the scenario's profile: ios, android, android-background or ideal.")
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
        let scenarioRun: ScenarioRun
        do {
            scenarioRun = try ScenarioRun(loading: scenario, profile: profile, maxSamples: maxSamples)
        } catch {
            for problem in error.errors { StandardError.error(problem.description) }
            throw ExitCode(Exit.badInput)
        }
        for warning in scenarioRun.warnings { StandardError.warning(warning) }
        let interruption = Interruption()
        let plan = SinkPlan(commandLine: sinks, registry: Perimeter.sinks,
                            programVersion: Perimeter.configuration.version)
        let summary: RunSummary
        do {
            summary = try scenarioRun.run(into: plan, options: RunOptions(
                threads: threads ?? RunOptions.defaultThreads, isCancelled: { interruption.happened }))
        } catch {
            for line in error.messages { StandardError.error(line) }
            if case .badSink = error { throw ExitCode(Exit.badInput) }
            throw ExitCode(Exit.sinkFailed)
        }
        if !quiet {
            StandardError.note(summary.line(for: scenarioRun, seconds: (ContinuousClock.now - clock).seconds))
        }
        if summary.interrupted { throw ExitCode(Exit.interrupted) }
    }
}
