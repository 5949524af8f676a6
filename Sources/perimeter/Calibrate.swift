import ArgumentParser
import Calibration
import FileSystem
import Foundation
import Geofencing
import Report
import Runs
import ScenarioFormat
import TextEscaping

/// `perimeter calibrate SCENARIO --observed FILE`: fits a phone profile to a field log by simulation
/// (docs/CALIBRATE.md).
struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Fits a phone profile to a field log of what real phones reported, by simulation.",
        discussion: """
            SCENARIO holds the regions and each device's true track (and the GPS noise, if known). Each \
            --observed file is a field log, JSON Lines or CSV, with device, region, kind (enter, exit, dwell) \
            and time (ISO 8601 with a zone), optionally detectedAt, lat, lon, accuracy and free columns; \
            perimeter's own jsonl: and csv: output is accepted as it is. The observed events and the events \
            of candidate profiles (each over --runs Monte Carlo runs, run r with the seed S + r) are paired \
            with the true crossings (compare's one-to-one rule, within 10 min), and the fit minimises a stated \
            discrepancy between the detection rates, delays, true distances and delivery lags \
            (docs/CALIBRATE.md). Each parameter gets a 90 % bootstrap interval; --holdout keeps a share of the \
            crossings out of the fit and says how well the fitted profile predicts them.

            Parameters (--fit): \(CalibrationParameter.all.map { "\($0.name) (\($0.unit.rawValue == "1" ? "0-1" : $0.unit.rawValue), \(Self.bound($0.lower))..\(Self.bound($0.upper)) by \(Self.bound($0.resolution)))" }.joined(separator: ", ")).

            Default --fit: \(CalibrationParameter.defaultsDescription). When the log has detectedAt, \
            delivery.median and delivery.p90 are measured from its lags (time - detectedAt) rather than searched.

            Field logs as exports write them: --columns, --delimiter, --decimal, --time-unit and --input-timezone as \
            inspect and stream take them; kinds in any case. Every bad row is listed at once (--skip-invalid \
            skips them, counted); --ignore-regions and --skip-unknown-regions leave rows of other regions out. \
            The fit uses the devices the log has events of (--devices chooses).
            """
    )

    static func bound(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : String(value)
    }

    @Argument(help: "The scenario: regions and the devices' true tracks (YAML, or JSON).")
    var scenario: String

    @Option(
        help: ArgumentHelp(
            "A field log (JSON Lines or CSV; - for standard input); repeat for several.", valueName: "file"))
    var observed: [String] = []

    @Option(
        help: ArgumentHelp(
            "The base profile: a built-in name or a profile file (default: the scenario's).", valueName: "name-or-file"))
    var profile: String?

    @Option(help: ArgumentHelp("The parameters to fit, separated by commas (default: see above).", valueName: "names"))
    var fit: String?

    @Option(help: ArgumentHelp("Simulated runs per candidate profile.", valueName: "N"))
    var runs = 24

    @Option(help: ArgumentHelp("The seed of run 0; also the bootstrap's and the holdout's.", valueName: "S"))
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("The share of crossings kept out of the fit, from 0 to below 1.", valueName: "share"))
    var holdout = 0.25

    @Option(help: ArgumentHelp("Bootstrap replicates for the intervals.", valueName: "B"))
    var bootstrap = 200

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write the fitted profile to this file (NAME.profile.yaml).", valueName: "file"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Write a self-contained HTML page of the observed and fitted distributions (calibration.html).",
            valueName: "file"))
    var report: String?

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    @OptionGroup var threads: ThreadsOption

    @Option(
        help: ArgumentHelp(
            "The scenario's devices to fit, separated by commas (default: the devices the field log has events of).",
            valueName: "ids"))
    var devices: String?

    @Flag(help: "Skip the field log's rows that have a problem (counted, the first few named) instead of refusing it.")
    var skipInvalid = false

    @Option(
        help: ArgumentHelp(
            "Regions whose rows the field log may hold and the fit leaves out (counted), separated by commas.",
            valueName: "ids"))
    var ignoreRegions: String?

    @Flag(help: "Skip the field log's rows that name a region the scenario does not have (counted).")
    var skipUnknownRegions = false

    @OptionGroup(title: "Reading the field log (as inspect and stream read fix tables)")
    var logTable: TableOptions<FieldLogValues>

    /// A comma-separated list, without empty items or surrounding spaces.
    static func list(_ text: String?) -> [String]? {
        text.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }

    /// How the field logs are read (`--columns`, `--delimiter`, `--time-unit`, `--decimal`, `--input-timezone`,
    /// and what is done with bad rows).
    func readOptions() throws -> ObservedLog.ReadOptions {
        var options = ObservedLog.ReadOptions()
        options.columns = try logTable.readingColumns()
        options.skipInvalid = skipInvalid
        options.ignoredRegions = Set(Self.list(ignoreRegions) ?? [])
        options.skipUnknownRegions = skipUnknownRegions
        return options
    }

    func validate() throws {
        if observed.isEmpty { throw ValidationError("--observed: give at least one field log (JSON Lines or CSV).") }
        if observed.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("--observed: standard input (-) can be read once; give the other logs as files.")
        }
        _ = try parameters()
        try MonteCarloOptions.check(runs, of: "--runs", "runs")
        if !(0..<1).contains(holdout) {
            throw ValidationError("--holdout must be a share from 0 to below 1, not \(holdout).")
        }
        if bootstrap < 1 { throw ValidationError("--bootstrap must be 1 or more, not \(bootstrap).") }
        if let devices = Self.list(devices), devices.isEmpty {
            throw ValidationError("--devices: name at least one of the scenario's devices.")
        }
    }

    func parameters() throws -> [CalibrationParameter]? {
        guard let fit else { return nil }
        var list: [CalibrationParameter] = []
        for name in Self.list(fit) ?? [] {
            guard let parameter = CalibrationParameter.named(name) else {
                var message = "--fit: no parameter \"\(TerminalText.visible(name))\""
                if let guess = Suggestion.closest(to: name, in: CalibrationParameter.all.map(\.name)) {
                    message += "; did you mean \"\(guess)\"?"
                }
                throw ValidationError(
                    message + " The parameters are " + CalibrationParameter.all.map(\.name).joined(separator: ", ") + ".")
            }
            if !list.contains(parameter) { list.append(parameter) }
        }
        if list.isEmpty { throw ValidationError("--fit: name at least one parameter.") }
        return list
    }

    @OptionGroup var inputs: InputOptions

    func run() throws {
        let base: ScenarioRun
        do {
            base = try ScenarioRun(loading: scenario, inputs: inputs.confinement())
        } catch {
            throw error.reported
        }
        for warning in base.warnings { StandardError.warning(warning) }
        let baseProfile = try profile.map(resolvedProfile) ?? base.simulation.profile
        var options = Calibration.Options()
        options.runs = runs
        options.seed = seed
        options.holdout = holdout
        options.replicates = bootstrap
        options.threads = threads.count
        let calibration: Calibration
        do {
            let log = try ObservedLog.read(observed, options: try readOptions())
            calibration = try Calibration(
                run: base, log: log, base: baseProfile, parameters: try parameters(), options: options,
                devices: Self.list(devices))
        } catch let error as ObservedLogErrors {
            StandardError.error(error.description)
            throw ExitCode.badInput
        } catch let error as CalibrationFailure {
            StandardError.error(error.description)
            throw ExitCode.badInput
        }
        for warning in calibration.warnings { StandardError.warning(warning) }
        let progress = ProgressLine()
        let samplesPerRun = base.simulation.sampleCounts().reduce(0) { $0 &+ Int(clamping: $1) }
        let result = calibration.fit { evaluated in
            progress.update(
                "\(evaluated) candidates × \(runs) runs", samples: evaluated * runs * samplesPerRun, fraction: nil)
        }
        progress.finish()
        for warning in result.boundWarnings { StandardError.warning(warning) }
        // An output that cannot be written is exit 3, as every command's (docs/COMMANDS.md "Exit codes"), after the
        // fit is printed: minutes of fitting are not lost to a folder that was not there.
        var unwritten = false
        if let output {
            let name = ProfileFile.defaultName(output)
            let reference = baseProfile.file.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? baseProfile.name
            do {
                try AtomicFile.write(Array(result.profileFile(name: name, base: reference).utf8), to: output)
            } catch {
                StandardError.error("\(output): the profile cannot be written: \(error)")
                unwritten = true
            }
        }
        if let report {
            let page = CalibrationPage(result, commandLine: ["perimeter"] + CommandLine.arguments.dropFirst())
            do {
                try AtomicFile.write(Array(page.html().utf8), to: report)
            } catch {
                StandardError.error("\(report): the report cannot be written: \(error)")
                unwritten = true
            }
        }
        print(json ? result.json : TerminalText.message(result.readable), terminator: json ? "\n" : "")
        if unwritten { throw ExitCode.sinkFailed }
    }
}
