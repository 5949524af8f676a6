import Analysis
import ArgumentParser
import Documents
import FileSystem
import Foundation
import Geofencing
import ReadableText
import Runs
import ScenarioFormat
import TextEscaping
import Time

/// `perimeter compare SCENARIO`: the scenario under several profiles against a reference profile, event
/// by event: what each phone said, how late, what it missed, what it said that did not happen.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compares a scenario's events under several profiles with a reference run.",
        discussion: """
            The scenario runs under each profile and under the reference profile (--against, default ideal: \
            the crossings themselves); its own 'monitor:' overrides apply to every run. For enter, exit and \
            dwell events (dwell also by rule), per device and region, the reference events and the profile \
            events are paired one to one and in order (no two pairs cross in time): of all such pairings with \
            every pair at most --window apart, the one of least cost, the sum of |profile time - reference time| \
            over the pairs plus the window for every event left unpaired on either side; of equal costs, the \
            one whose paired profile events, reference event by reference event, come earliest (the \
            lexicographically smallest sequence of profile indices, an unpaired reference event counting as \
            after all). Unpaired reference events are missed, unpaired profile events spurious; the delay is \
            the profile's time minus the reference's. Each paired or spurious profile event also gets its true \
            distance: the exact track's signed distance from the region's boundary when the phone decided the \
            event (its detectedAt, else its time), in \
            metres, negative inside. Percentiles are by nearest rank.

            With --runs N, run r of every profile uses the noise seed S + r (S: --seed, else the scenario's \
            own) and is paired with the reference; the counts, delays and distances pool the runs.

            When the scenario has noise, the reference runs on the exact track (no noise), so that an ideal \
            monitor's flicker on noisy fixes is not counted as an event that happened. --noisy-reference gives \
            it the scenario's noise instead (what 'perimeter run --profile ideal' gives; with --runs, the \
            reference's run r has the seed S + r).
            """
    )

    @Argument(help: "The scenario file (YAML, or JSON).")
    var scenario: String

    @Option(
        help: ArgumentHelp(
            "The profiles to compare, separated by commas: built-in names or profile files.", valueName: "names"))
    var profiles = "ios,android,android-background"

    @Option(help: ArgumentHelp("The reference profile: a built-in name or a profile file.", valueName: "name-or-file"))
    var against = "ideal"

    @Option(
        help: ArgumentHelp(
            "How far apart two events may be and still be paired: seconds or \"90s\", \"10m\", \"1h\".",
            valueName: "duration"))
    var window = "10m"

    @Flag(help: "Give the reference run the scenario's noise too (default: the exact track, without noise).")
    var noisyReference = false

    /// The default since the exact reference became it; accepted so that scripts that ask for it still run.
    @Flag(help: .hidden)
    var exactReference = false

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    @OptionGroup var monteCarlo: MonteCarloOptions

    @OptionGroup var display: DisplayZoneOption

    @OptionGroup var warningOptions: WarningOptions

    @OptionGroup var inputs: InputOptions
    var runs: Int? { monteCarlo.runs }
    var seed: UInt64? { monteCarlo.seed }

    @OptionGroup var threads: ThreadsOption

    @OptionGroup var skipping: SkipInvalidOption

    func validate() throws {
        _ = try profileList()
        _ = try windowSpan()
        if noisyReference && exactReference {
            throw ValidationError("--noisy-reference and --exact-reference contradict each other: choose one.")
        }
    }

    func run() throws {
        let base: ScenarioRun
        let comparison: ScenarioComparison
        let list = try profileList(), span = try windowSpan(), reference = try resolvedProfile(against)
        do {
            base = try ScenarioRun(loading: scenario, inputs: skipping.reading(inputs.confinement()))
            comparison = try ScenarioComparison(
                base, profiles: list, against: reference, window: span,
                exactReference: !noisyReference)
        } catch {
            throw error.reported
        }
        for warning in base.warnings(under: comparison.profiles, all: warningOptions.allWarnings) {
            StandardError.warning(warning)
        }
        if reference == .ideal, let warning = base.unmarkedRecordingWarning { StandardError.warning(warning) }
        let threads = self.threads.count
        var result: ComparisonReport
        if let runs {
            if let note = base.recordedRunsNote { StandardError.note("note: " + note) }
            let progress = TerminalProgress()
            let total = runs * (comparison.profiles.count + (noisyReference ? 1 : 0))
            defer { progress.finish() }
            do {
                result = try comparison.compare(
                    runs: runs, seed: seed, threads: threads,
                    progress: { done in progress.update("\(done) of \(total) runs") })
                progress.finish()
            } catch {
                throw error.reported
            }
        } else {
            result = comparison.compare(threads: threads)
        }
        result.zone = display.zone(showing: base.scenario)
        print(json ? result.json : TerminalText.message(result.readable), terminator: json ? "\n" : "")
    }

    private func profileList() throws -> [Profile] { try perimeter.profiles(profiles) }

    private func windowSpan() throws -> TimeSpan {
        guard let span = ScenarioUnits.duration(window), span.microseconds >= 0 else {
            throw ValidationError(
                "--window: expected a duration of 0 or more, in seconds or as \"90s\", \"10m\", \"1h\", got \"\(window)\".")
        }
        return span
    }
}
