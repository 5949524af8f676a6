import Analysis
import ArgumentParser
import FileSystem
import Foundation
import Geodesy
import Geofencing
import Runs
import ScenarioFormat
import TextEscaping

/// `perimeter compare SCENARIO`: the scenario under several profiles against a reference profile, event
/// by event: what each phone said, how late, what it missed, what it said that did not happen.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compares a scenario's events under several profiles with a reference run.",
        discussion: """
        The scenario runs under each profile and under the reference profile (--against, default ideal: \
        the crossings themselves); its own 'monitor:' overrides apply to every run. For enter, exit and \
        dwell events (dwell also by rule), per device and region, the reference events are taken in time \
        order and each is paired with the earliest profile event of the same key not yet paired within \
        --window of it, before or after. Unpaired reference events are missed, unpaired profile events \
        spurious; the delay is the profile's time minus the reference's. Percentiles are by nearest rank.

        With --runs N, run r of every profile (and of the reference) uses the noise seed S + r (S: --seed, \
        else the scenario's own), is paired with the reference's run r, and the counts and delays pool the \
        runs.

        The reference gets the scenario's noise too: it is what 'perimeter run --profile ideal' gives. \
        --exact-reference runs it on the true track instead, so that an ideal monitor's flicker on noisy \
        fixes is not counted as an event that happened (and missed by the profiles).
        """
    )

    @Argument(help: "The scenario file (YAML, or JSON).")
    var scenario: String

    @Option(help: ArgumentHelp("The profiles to compare, separated by commas: built-in names or profile files.", valueName: "names"))
    var profiles = "ios,android,android-background"

    @Option(help: ArgumentHelp("The reference profile: a built-in name or a profile file.", valueName: "name-or-file"))
    var against = "ideal"

    @Option(help: ArgumentHelp("How far apart two events may be and still be paired: seconds or \"90s\", \"10m\", \"1h\".", valueName: "duration"))
    var window = "10m"

    @Flag(help: "Run the reference without the scenario's noise: the crossings of the true track.")
    var exactReference = false

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    @OptionGroup var monteCarlo: MonteCarloOptions

    @OptionGroup var display: DisplayZoneOption
    var runs: Int? { monteCarlo.runs }
    var seed: UInt64? { monteCarlo.seed }

    @Option(help: "Worker threads (default: one per core). The output is the same for any number.")
    var threads: Int?

    func validate() throws {
        _ = try profileList()
        _ = try windowSpan()
    }

    func run() throws {
        let base: ScenarioRun
        let comparison: ScenarioComparison
        let list = try profileList(), span = try windowSpan(), reference = try resolvedProfile(against)
        do {
            base = try ScenarioRun(loading: scenario)
            comparison = try ScenarioComparison(base, profiles: list, against: reference, window: span,
                                                exactReference: exactReference)
        } catch {
            for problem in error.errors { StandardError.error(problem.description) }
            throw ExitCode(Exit.badInput)
        }
        for warning in base.warnings(under: comparison.profiles) { StandardError.warning(warning) }
        let threads = threads ?? RunOptions.defaultThreads
        var result: ComparisonReport
        if let runs {
            let progress = TerminalProgress()
            let total = runs * (comparison.profiles.count + (exactReference ? 0 : 1))
            defer { progress.finish() }
            do {
                result = try comparison.compare(runs: runs, seed: seed, threads: threads) { done in
                    progress.update("\(done) of \(total) runs")
                }
                progress.finish()
            } catch {
                for problem in error.errors { StandardError.error(problem.description) }
                throw ExitCode(Exit.badInput)
            }
        } else {
            result = comparison.compare(threads: threads)
        }
        result.zone = display.zone
        print(json ? result.json : TerminalText.message(result.readable), terminator: json ? "\n" : "")
    }

    private func profileList() throws -> [Profile] { try perimeter.profiles(profiles) }

    private func windowSpan() throws -> TimeSpan {
        guard let span = ScenarioUnits.duration(window), span.microseconds >= 0 else {
            throw ValidationError("--window: expected a duration of 0 or more, in seconds or as \"90s\", \"10m\", \"1h\", got \"\(window)\".")
        }
        return span
    }
}
