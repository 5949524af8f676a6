import ArgumentParser
import FileSystem
import FixTables
import Geofencing
import ReadableText
import Runs
import ScenarioFormat
import Time

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension FixTableFormat: ExpressibleByArgument {}

/// `perimeter stream SCENARIO --start TIME`: a fix table on standard input, device after device, through
/// the scenario's regions and rules; each device's events as soon as its rows end.
struct Stream: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Runs a fix table from standard input, device by device, as a stage of a pipeline.",
        discussion: """
            Standard input is a fix table (README "Fleets in a table"): CSV with a header row, or JSON Lines, with \
            the columns device, time, lat, lon and optionally accuracy (--columns, --time-unit, --delimiter, \
            --decimal and --input-timezone read an export written otherwise). Each device's rows must follow each \
            other, in time order (sort by device, then time); a device that comes back after another's rows, \
            or a time that goes back, stops the stream with exit code 2 naming both lines; so does a bad row, \
            unless --skip-invalid skips it (counted in a warning at the end). Each device runs \
            as soon as its rows end, so memory holds one device, not the fleet.

            The scenario gives regions, rules, profile, monitor and noise; its devices are not read (they may \
            be absent). The clock (SEMANTICS §1) starts at the scenario's start, else at --start: give every \
            part of a fleet the same --start (the fleet's earliest fix) and each device emits exactly the \
            events 'perimeter run' gives it in the whole fleet.

            Events go to the --sinks (default jsonl:-, standard output), device after device, each device's \
            in the order of SEMANTICS §7. When a row is bad (or cut short by the end of the input), the sinks \
            keep the events of the devices before it: a file is then not replaced, and what the stream wrote is \
            kept beside it as NAME.interrupted.EXT, which the error names. A device of more than \
            --max-rows-per-device rows stops the stream with exit code 2. Ctrl-C or SIGTERM stops it at once, \
            even while it waits for input: exit code 130, the sinks keeping the events of the devices whose rows \
            had ended. Standard input must be a file, a pipe, a socket or a terminal: closed (<&-) or a device \
            such as /dev/null, it is refused with exit code 2. A summary goes to standard error (--quiet: none); \
            on a terminal, a progress line.
            """
    )

    @Argument(help: "The scenario file (YAML, or JSON).")
    var scenario: String

    @Option(
        help: ArgumentHelp(
            "The clock's start, ISO 8601 (the fleet's earliest fix); the scenario's own start wins.", valueName: "time"))
    var start: String?

    @Option(help: "The fix table's format on standard input: csv or jsonl.")
    var format: FixTableFormat = .csv

    @Option(
        name: .customLong("sink"),
        help: ArgumentHelp("Where events go (repeatable; default jsonl:-). As for 'perimeter run'.", valueName: "spec"))
    var sinks: [String] = []

    @Option(help: profileOptionHelp)
    var profile: String?

    @Option(
        help: ArgumentHelp(
            "The most rows one device may have (its fixes are held in memory until its rows end, about \(FixTableStream.bytesPerDeviceRow) bytes a row).",
            valueName: "N"))
    var maxRowsPerDevice: Int = FixTableStream.defaultMaximumDeviceRows

    @Flag(help: "Print nothing on standard error but errors: no warnings or summary.")
    var quiet = false

    @OptionGroup var warningOptions: WarningOptions

    @OptionGroup var table: FixTableOptions

    @OptionGroup var display: DisplayZoneOption

    @OptionGroup var inputs: InputOptions

    @OptionGroup var skipping: SkipInvalidOption

    func validate() throws {
        _ = try table.readingColumns(legacyZone: display.name)
        if let start, Timestamp(iso8601: start) == nil {
            throw ValidationError("--start is \"\(start)\", which is not an ISO 8601 time such as 2026-03-01T08:00:00Z.")
        }
        guard maxRowsPerDevice > 0 else {
            throw ValidationError(
                "--max-rows-per-device is \(maxRowsPerDevice); a device has at least one row: give a positive number such as \(FixTableStream.defaultMaximumDeviceRows)."
            )
        }
    }

    func run() throws {
        if let problem = StandardInput.problemAtLaunch {
            StandardError.error(
                "\(problem): stream reads the fix table from standard input; give it a file (perimeter stream "
                    + "\(scenario) < fleet.csv) or a pipe (… | perimeter stream \(scenario)).")
            throw ExitCode.badInput
        }
        let clock = ContinuousClock.now
        let scenarioRun: ScenarioRun, chosen = try profile.map(resolvedProfile)
        do {
            scenarioRun = try ScenarioRun(
                loading: scenario, profile: chosen, readsDevices: false, inputs: inputs.confinement())
        } catch {
            throw error.reported
        }
        if !quiet {
            for warning in scenarioRun.warnings(all: warningOptions.allWarnings) { StandardError.warning(warning) }
        }
        let given = start.flatMap { Timestamp(iso8601: $0) }
        let own = scenarioRun.simulation.start
        guard let clockStart = scenarioRun.clockStart(given: given) else {
            StandardError.error(
                "\(scenario) has no start: give --start, the earliest fix of the whole fleet, so that every part of it ticks alike (SEMANTICS §1)."
            )
            throw ExitCode.badInput
        }
        if !quiet, let own, let given, own != given {
            StandardError.warning("\(scenario) starts at \(own.iso8601); --start \(given.iso8601) is not used.")
        }

        let interruption = Interruption()
        let reading = skipping.reading(try table.readingColumns(legacyZone: display.name))
        if let warning = table.legacyZoneWarning(display.name) { StandardError.warning(warning) }
        var input = FixTableStream(
            standardInputAs: format, columns: reading, maximumDeviceRows: maxRowsPerDevice,
            isCancelled: { interruption.happened })
        let total = Self.standardInputSize()
        let progress = ProgressLine()
        defer { progress.finish() }
        let plan = SinkPlan(
            commandLine: sinks.isEmpty ? ["jsonl:-"] : sinks, registry: Perimeter.sinks,
            programVersion: Perimeter.configuration.version, isCancelled: { interruption.happened },
            displayZone: display.zone(showing: scenarioRun.scenario))
        let summary: RunSummary
        do {
            summary = try scenarioRun.stream(
                &input, start: clockStart, into: plan,
                isCancelled: { interruption.happened },
                progress: { done in
                    progress.update(
                        "\(Readable.grouped(Int64(done.devices))) devices",
                        samples: done.samples,
                        fraction: total.map { Double(done.bytes) / Double($0) })
                },
                warn: { [quiet] in if !quiet { StandardError.warning($0) } })
        } catch {
            progress.finish()
            if !quiet { for warning in input.tableWarnings { StandardError.warning(warning) } }
            throw error.reported(interrupted: interruption.happened)
        }
        progress.finish()
        if !quiet {
            for warning in input.tableWarnings { StandardError.warning(warning) }
            for warning in summary.stayWarnings { StandardError.warning(warning) }
            StandardError.note(summary.line(for: scenarioRun, seconds: (ContinuousClock.now - clock).seconds))
        }
        try ExitStatus.exit(with: summary.exitStatus)
    }

    /// The size of standard input when it is a regular file (`< fleet.csv`), for the share read.
    private static func standardInputSize() -> Int? {
        var status = stat()
        guard fstat(STDIN_FILENO, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else { return nil }
        return Int(status.st_size)
    }
}
