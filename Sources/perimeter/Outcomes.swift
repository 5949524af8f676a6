import Analysis
import ArgumentParser
import FileSystem
import Geofencing
import Runs
import ScenarioFormat
import TextEscaping

/// `perimeter outcomes SCENARIO`: how many devices get each dwell rule, and each region's enter and
/// visit, in the truth and under each profile over a Monte Carlo batch.
struct Outcomes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outcomes",
        abstract: "Counts the devices that get each dwell rule, enter and visit: the truth and each profile's spread.",
        discussion: """
            For each dwell rule (by name), and for each region's enter and visit: how many devices got it in the \
            truth (ideal on the exact tracks, without noise: the reference of compare and report), and under \
            each profile, over --runs Monte Carlo runs (run r with the noise seed S + r), the p5, median, p95 \
            and mean of the devices that got it, and the median and mean of the false positives (got it under \
            the profile, not in the truth) and false negatives (got it in the truth, not under the profile). A \
            device got it in a run when the run has at least one such event of it. Percentiles are by nearest \
            rank. --json adds each device's share of runs.
            """
    )

    @Argument(help: "The scenario file (YAML, or JSON).")
    var scenario: String

    @Option(
        help: ArgumentHelp(
            "The profiles to count, separated by commas: built-in names or profile files.", valueName: "names"))
    var profiles = "ios,android"

    @Option(
        help: ArgumentHelp(
            "Monte Carlo runs of each profile (default: the scenario's runs:, else 100).", valueName: "N"))
    var runs: Int?

    @Option(help: ArgumentHelp("The noise seed of run 0 (default: the scenario's).", valueName: "S"))
    var seed: UInt64?

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    @OptionGroup var display: DisplayZoneOption

    @OptionGroup var threads: ThreadsOption

    @OptionGroup var skipping: SkipInvalidOption

    func validate() throws {
        _ = try perimeter.profiles(profiles)
        if let runs { try MonteCarloOptions.check(runs, of: "--runs", "runs") }
    }

    func run() throws {
        let list = try perimeter.profiles(profiles)
        let base: ScenarioRun
        let outcomes: ScenarioOutcomes
        do {
            base = try ScenarioRun(loading: scenario, inputs: skipping.reading(.anywhere))
            outcomes = try ScenarioOutcomes(base, profiles: list, runs: runs ?? base.scenario.runs ?? 100, seed: seed)
        } catch {
            throw error.reported
        }
        for warning in base.warnings(under: list) { StandardError.warning(warning) }
        // The truth is ideal on the tracks as exact paths, as compare's reference: warned alike.
        if let warning = base.unmarkedRecordingWarning { StandardError.warning(warning) }
        let progress = TerminalProgress()
        let total = outcomes.runs * list.count
        var report = outcomes.count(
            threads: threads.count,
            progress: { done in progress.update("\(done) of \(total) runs") })
        progress.finish()
        report.zone = display.zone(showing: base.scenario)
        print(json ? report.json : TerminalText.message(report.readable), terminator: json ? "\n" : "")
    }
}
