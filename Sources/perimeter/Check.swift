import ArgumentParser
import FileSystem
import Foundation
import Geofencing
import Regression
import TextEscaping

/// `perimeter check PATH...`: runs scenarios, compares each with its golden event log and evaluates its
/// expectations; a readable report on standard output, optionally JUnit XML.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Runs scenarios and checks their events against golden logs and expectations.",
        discussion: """
            Each scenario NAME.yaml is run with its own profile and compared, event by event, with its golden \
            log NAME.events.jsonl beside it (JSON Lines as 'perimeter run --sink jsonl:' writes them); its \
            'expect:' list is evaluated on the new events; an expectation with 'probability:' is evaluated on \
            each run of the Monte Carlo batch that the scenario's 'runs: N' declares, and the share of runs in \
            which it holds is printed and checked (the JUnit report gives it too). A folder is searched recursively for *.yaml and \
            *.yml scenarios, in sorted order; hidden files and folders (.git, .github) are not searched, a file \
            matching an --exclude pattern is left out, and a YAML file that is no scenario (a journey for \
            'track synth', with route:; any YAML with neither regions: nor devices: at its top level) is \
            skipped with a note on standard error. A file named on the command line is always checked. --update records or rewrites the golden logs (atomically), and \
            beside each what it was made from (NAME.events.inputs.json: the SHA-256 of the scenario and of each \
            file it reads, and the profile), and still evaluates the expectations. When the events differ, the \
            header says which of those inputs changed since the log was recorded. --expectations-only \
            checks the expectations alone, without a golden log: a golden log records one run, and for a \
            scenario whose run is a draw (noise, a stochastic profile) it guards only run 0.

            Standard output: one line per scenario, PASS, FAIL or ERROR (bad input) with its name and path, \
            the differences and failed expectations indented below it, then a count.

            Exit codes: 0 every scenario passed; 2 some input was bad (a scenario or golden log that cannot \
            be read, a golden log or inputs record that is a symbolic link or not a regular file, which is \
            never read nor written, a path that does not exist), whatever else happened; else 3 when a golden log or the \
            JUnit file could not be written; else 1 when any check failed.
            """
    )

    @Argument(help: ArgumentHelp("Scenario files or folders.", valueName: "path"))
    var paths: [String]

    @Option(
        help: ArgumentHelp(
            "Leave out the files found in a folder that match this shell wildcard (*, ?, […]; * matches / too), "
                + "tried against the path below the folder, the path as found and the file's name: "
                + "--exclude 'journeys/*' --exclude '*.draft.yaml'. Repeatable.",
            valueName: "glob"))
    var exclude: [String] = []

    @Flag(help: "Record or rewrite the golden logs instead of comparing with them.")
    var update = false

    @Flag(
        help:
            "With --update: record a golden log even when the run produced no events (refused otherwise: an empty log passes for ever)."
    )
    var allowEmpty = false

    @Option(help: ArgumentHelp("Also write the results as JUnit XML to this file.", valueName: "file"))
    var junit: String?

    @Option(
        help: ArgumentHelp(
            "Also write each Monte Carlo measurement (probability, delay, distance) as a line of JSON to this file.",
            valueName: "file"))
    var measurements: String?

    @Flag(
        help:
            "Check the expectations alone: no golden log is read or needed. For scenarios whose run is a draw (noise, a stochastic profile), which their expectations over 'runs: N' guard."
    )
    var expectationsOnly = false

    /// What standard output holds besides the readable report.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, github
    }

    @Option(
        help: ArgumentHelp(
            "text: the readable report; github: the same, and after each scenario GitHub Actions annotations (::error file=…,line=…::message) for each failure and warning.",
            valueName: "format"))
    var format: Format = .text

    @OptionGroup var warningOptions: WarningOptions

    @OptionGroup var inputs: InputOptions

    @OptionGroup var threads: ThreadsOption

    @OptionGroup var skipping: SkipInvalidOption

    func validate() throws {
        if expectationsOnly && update {
            throw ValidationError(
                "--expectations-only reads no golden log, so it cannot --update one; give one or the other.")
        }
    }

    func run() throws {
        let started = Date()
        let (files, missing, skipped) = RegressionCheck.scenarioFiles(in: paths, excluding: exclude)
        var checker = RegressionCheck(update: update, threads: threads.count)
        checker.allowsEmptyLog = allowEmpty
        checker.expectationsOnly = expectationsOnly
        checker.allWarnings = warningOptions.allWarnings
        checker.inputs = skipping.reading(inputs.confinement(givenFolders: paths))
        // A path that does not exist is bad input, not a scenario: it is said, and not counted.
        for path in missing { StandardError.error("\(path): no such file or folder") }
        if !skipped.isEmpty {
            let listed = skipped.prefix(10).map { "\($0.path) (\($0.why))" }.joined(separator: ", ")
            let more = skipped.count > 10 ? " and \(skipped.count - 10) more" : ""
            StandardError.note(
                "check: skipped \(skipped.count) YAML file\(skipped.count == 1 ? "" : "s") that "
                    + "\(skipped.count == 1 ? "is not a scenario" : "are not scenarios"): \(listed)\(more). Name a file to "
                    + "check it anyway, or leave it out without a note with --exclude GLOB.")
        }
        var results: [CheckResult] = []
        if files.isEmpty && missing.isEmpty {
            StandardError.error(
                "no scenarios (*.yaml, *.yml) found in \(paths.joined(separator: ", "))"
                    + (skipped.isEmpty
                        ? "." : " (\(skipped.count) YAML file\(skipped.count == 1 ? "" : "s") skipped above)."))
            throw ExitCode.badInput
        }
        for file in files {
            let result = checker.check(scenarioAt: file)
            report(result)
            results.append(result)
        }
        let summary = CheckSummary(results, missing: missing)
        print(summary.countLine)
        var code = ExitCode(summary.exitCode)
        /// Writes a report beside the check; one that cannot be written is exit 3, unless the input was bad.
        func write(_ text: String, to path: String, what: String) {
            do {
                try AtomicFile.write(text.utf8, to: path)
            } catch {
                StandardError.error("cannot write the \(what) \(path): \(error.cause)")
                if code != .badInput { code = .sinkFailed }
            }
        }
        if let junit { write(JUnitReport.xml(results, timestamp: started), to: junit, what: "JUnit report") }
        if let measurements {
            let lines = results.flatMap { result in result.measured.map { $0.jsonLine(scenario: result.path) + "\n" } }
            write(lines.joined(), to: measurements, what: "measurements")
        }
        if code != .success { throw code }
    }

    private func report(_ result: CheckResult) {
        for warning in result.warnings { StandardError.warning(warning) }
        let word: String
        switch result.status {
        case .passed: word = "PASS"
        case .failed: word = "FAIL"
        case .badInput, .writeFailed: word = "ERROR"
        }
        print(TerminalText.message("\(word) \(TerminalText.visible(result.name)) (\(TerminalText.visible(result.path)))"))
        // Each detail is one line: an id or name in it, escaped as a field, cannot start a line of its own.
        for line in result.details { print("    " + TerminalText.visible(line)) }
        if result.status == .passed {
            for line in result.measurements { print("    " + TerminalText.visible(line)) }
        }
        if format == .github {
            // Escaped as they were made (`GitHubAnnotations.data`): the only lines that start with `::`.
            for line in GitHubAnnotations.lines(result) { print(line) }
        }
    }
}
