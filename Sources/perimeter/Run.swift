import Analysis
import ArgumentParser
import FileSystem
import Foundation
import Geofencing
import ReadableText
import Runs
import ScenarioFormat
import TextEscaping

/// `perimeter run SCENARIO`: runs a scenario and sends its events to sinks; a summary on standard error.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs a scenario and sends its events to sinks.",
        discussion: """
            Sinks: \(Perimeter.sinks.forms); '-' as \
            PATH is standard output. Any sink takes ';kinds=KIND,KIND,...' after its spec to receive only those \
            kinds of event (csv:visits.csv;kinds=visit); any other option after a ';' is an error. Each --sink adds one; together they replace the scenario's own 'sinks' \
            (default: console). A scenario file is data, often someone else's: its own sinks may print on \
            standard output and write files inside its folder (no absolute path, no '..' or symbolic link \
            leading out); an http:// or https:// sink in it is refused unless you pass \
            --allow-scenario-network-sinks, and its auth-env= is never honoured (give such a sink with --sink \
            instead). 'perimeter validate' says what a scenario's sinks would do. A file is replaced only when \
            the run completes: an interrupted run leaves it as it was and keeps what it wrote beside it, as \
            NAME.interrupted.EXT, which a warning names; a SQLite database is \
            appended to, one row in its 'runs' table per run, with the run's status. An HTTP sink takes options \
            after the URL as ;key=value: batch=N (events per POST, 500), flush=SECONDS (1), timeout=SECONDS \
            (10), retries=N (5), backoff=SECONDS (0.2), auth-env=NAME (the Authorization header from that \
            environment variable), spool=PATH (where undelivered events go, appended to the file; send them later with \
            'perimeter deliver'). Ctrl-C stops the run cleanly: the sinks keep what was produced and the \
            summary says the run was interrupted; an HTTP sink stops waiting on its server at once and \
            spools what it did not deliver (exit 130). When a sink fails (a full disk, a file-size limit, a \
            folder that turned read-only, a closed pipe), the run stops with exit code 3: the other sinks \
            finish with every event produced, and the failed sink's events are kept in a journal, \
            perimeter-run-TIME-PID.jsonl in a private folder (perimeter-journal-PID-XXXXXX, mode 0700) of \
            $TMPDIR (else /tmp), which its message names (JSON Lines, as \
            jsonl: writes them; with --runs, each event with its run). A run whose sinks all succeed leaves no \
            journal; a run with only HTTP sinks keeps none (they spool what they did not deliver).

            Monte Carlo: with --runs N, run r (0-based) is the scenario with its noise seed replaced by S + r \
            (S: --seed, else the scenario's own, else 0; a scenario without noise: that draws nothing else, no random \
            phase, misses, delivery or outliers, is refused). Runs go in parallel, \
            one thread each, and the output is the same for any number of threads. Standard output gets a \
            summary, not N logs, by crossing: the scenario also runs once under ideal on the exact track (no \
            noise), and each run's enter, exit and dwell events are paired with those crossings as compare \
            pairs them (window 10 min). For the n-th crossing of each device, region, kind and rule: the share \
            of runs that detected it, the p5, p50 and p95 of the event's time, the median and p90 of its delay; \
            per key, one row of the spurious events (those no crossing took); other kinds by their occurrence \
            within a run (nearest rank throughout); --json prints it as one JSON object. --sink receives every run's events, each with \
            its run: jsonl and csv add a 'run' field, sqlite makes each run a row of 'runs' (monteCarloRun); \
            the scenario's own sinks are not used. When a sink writes to standard output, the summary goes to \
            standard error.
            """
    )

    @Argument(help: "The scenario file (YAML, or JSON).")
    var scenario: String

    @Option(name: .customLong("sink"), help: ArgumentHelp("Where events go (repeatable).", valueName: "spec"))
    var sinks: [String] = []

    @Option(help: profileOptionHelp)
    var profile: String?

    @OptionGroup var threads: ThreadsOption

    @Option(
        help: ArgumentHelp(
            "The most samples the run may make in all (devices × ticks within their tracks); a scenario over it is refused before running.",
            valueName: "N"))
    var maxSamples: Int64 = ScenarioLoader.defaultMaxSamples

    @Flag(
        help:
            "Let the scenario's own http:// and https:// sinks send its events (never with auth-env=); --sink URL is the safer way."
    )
    var allowScenarioNetworkSinks = false

    @Flag(help: "Print nothing on standard error but errors: no warnings, notes or summary.")
    var quiet = false

    @OptionGroup var warningOptions: WarningOptions

    @OptionGroup var monteCarlo: MonteCarloOptions

    @OptionGroup var display: DisplayZoneOption

    @OptionGroup var inputs: InputOptions

    @OptionGroup var skipping: SkipInvalidOption
    var runs: Int? { monteCarlo.runs }
    var seed: UInt64? { monteCarlo.seed }

    @Flag(
        help:
            "Write the truth instead of a profile's events: ideal on the exact tracks without noise, a recorded device (recorded: true) on the true path estimated from its fixes, with settled crossings (SEMANTICS §9). What compare, report and --runs measure the phones against."
    )
    var truth = false

    @Flag(help: "With --runs: print the summary as one JSON object.")
    var json = false

    func validate() throws {
        if truth && (runs != nil || profile != nil) {
            throw ValidationError("--truth is one run under ideal: it goes with neither --runs nor --profile.")
        }
        if json && runs == nil {
            throw ValidationError(
                "--json goes with --runs (a Monte Carlo summary); for one run's events as JSON, use --sink jsonl:-.")
        }
        guard maxSamples > 0 else {
            throw ValidationError("--max-samples must be a positive number of samples, not \(maxSamples).")
        }
    }

    func run() throws {
        let clock = ContinuousClock.now
        var scenarioRun: ScenarioRun, chosen = try profile.map(resolvedProfile)
        do {
            scenarioRun = try ScenarioRun(
                loading: scenario, profile: chosen, maxSamples: maxSamples, inputs: skipping.reading(inputs.confinement()),
                threads: threads.count)
        } catch {
            throw error.reported
        }
        if truth {
            // The truth is ideal's run: monitor:'s phase is refused under it as compare, outcomes and
            // --profile ideal refuse it (issue 50 item 9), never silently taken as 0.
            do {
                _ = try scenarioRun.under(.ideal)
            } catch {
                throw error.reported
            }
            scenarioRun = scenarioRun.exact()
        }
        if !quiet {
            for warning in scenarioRun.warnings(all: warningOptions.allWarnings) { StandardError.warning(warning) }
        }
        if let runs { return try monteCarlo(scenarioRun, runs: runs, clock: clock) }
        let interruption = Interruption()
        let plan = SinkPlan(
            commandLine: sinks, scenarioSinks: ScenarioSinkPolicy(allowsNetwork: allowScenarioNetworkSinks),
            registry: Perimeter.sinks, programVersion: Perimeter.configuration.version,
            isCancelled: { interruption.happened }, displayZone: display.zone(showing: scenarioRun.scenario))
        let summary: RunSummary
        let progress = ProgressLine()
        defer { progress.finish() }
        do {
            summary = try scenarioRun.run(
                into: plan,
                options: RunOptions(
                    threads: threads.count, isCancelled: { interruption.happened },
                    progress: { done in
                        progress.update(
                            "\(done.devicesDone) of \(done.devices) devices done", samples: done.samples,
                            fraction: done.fraction)
                    }))
        } catch {
            progress.finish()
            throw error.reported(interrupted: interruption.happened)
        }
        progress.finish()
        if !quiet {
            for warning in summary.stayWarnings { StandardError.warning(warning) }
            for note in summary.missNotes(seed: scenarioRun.simulation.noise?.seed ?? 0) { StandardError.note(note) }
            StandardError.note(summary.line(for: scenarioRun, seconds: (ContinuousClock.now - clock).seconds))
        }
        try ExitStatus.exit(with: summary.exitStatus)
    }
}

extension Run {
    /// `--runs N`: the batch's spread on standard output, every run's events to the `--sink`s.
    private func monteCarlo(_ scenarioRun: ScenarioRun, runs: Int, clock: ContinuousClock.Instant) throws {
        let batch: MonteCarlo
        do {
            // the reference (ideal on the exact track) takes monitor:'s phase as compare's does: refused alike
            _ = try scenarioRun.under(.ideal)
            batch = try MonteCarlo(scenarioRun, runs: runs, seed: seed)
        } catch {
            throw error.reported
        }
        let interruption = Interruption()
        let plan = SinkPlan(
            commandLine: sinks, registry: Perimeter.sinks, programVersion: Perimeter.configuration.version,
            isCancelled: { interruption.happened }, displayZone: display.zone(showing: scenarioRun.scenario))
        if !quiet, let warning = scenarioRun.unmarkedRecordingWarning { StandardError.warning(warning) }
        if let note = scenarioRun.recordedRunsNote { StandardError.note("note: " + note) }
        // Events are grouped by the crossing of the exact track that each pairs with, as compare pairs them.
        var spread = EventSpread(
            reference: scenarioRun.exact().events(
                threads: threads.count, isCancelled: { interruption.happened }
            ).events)
        var events = 0
        let done: Int
        let progress = ProgressLine()
        defer { progress.finish() }
        let samplesPerRun = scenarioRun.simulation.sampleCounts().reduce(0) { $0 &+ Int(clamping: $1) }
        do {
            done = try batch.run(
                into: plan, threads: threads.count,
                isCancelled: { interruption.happened }
            ) { r, runEvents in
                spread.add(run: runEvents)
                events += runEvents.count
                progress.update(
                    "\(r + 1) of \(runs) runs", samples: (r + 1) &* samplesPerRun,
                    fraction: Double(r + 1) / Double(runs))
            }
        } catch {
            progress.finish()
            throw error.reported(interrupted: interruption.happened)
        }
        progress.finish()
        let day = scenarioRun.simulation.clockStart
        let text =
            json
            ? spread.json(seed: batch.seed) + "\n"
            : TerminalText.message(
                spread.readable(
                    scenario: scenarioRun.name, seed: batch.seed, day: day, zone: display.zone(showing: scenarioRun.scenario)
                ))
        // A sink on standard output (jsonl:-) keeps it to itself: the spread goes to standard error then.
        if plan.commandLineWritesToStandardOutput {
            if !quiet { StandardError.write(text) }
        } else {
            print(text, terminator: "")
        }
        if !quiet {
            let seconds = (ContinuousClock.now - clock).seconds
            var line =
                "perimeter: \(scenarioRun.name) (\(scenarioRun.simulation.profile.name)): \(done) of \(runs) runs, "
                + "\(events) events in all, \(String(format: "%.2f s", seconds))"
            if done < runs { line += "; INTERRUPTED after run \(done - 1 < 0 ? "none" : String(done - 1))" }
            StandardError.note(line)
        }
        try ExitStatus.exit(with: ExitStatus.of(nil, interrupted: done < runs))
    }
}
