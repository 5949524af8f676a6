import ArgumentParser
import ReadableText
import ScenarioFormat

/// `--runs N [--seed S]`, which `run`, `compare` and `report` take alike: a Monte Carlo batch whose run r
/// has the noise seed S + r. Its range check is also `outcomes`' and `calibrate`'s for their own `--runs`.
struct MonteCarloOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A Monte Carlo batch of this many runs, each with its own seed (run refuses a scenario without noise: that draws nothing else: its runs would be alike).",
            valueName: "N"))
    var runs: Int?

    @Option(help: ArgumentHelp("The noise seed of run 0 (default: the scenario's).", valueName: "S"))
    var seed: UInt64?

    func validate() throws {
        if let runs { try Self.check(runs, of: "--runs", "runs") }
        if seed != nil && runs == nil { throw ValidationError("--seed goes with --runs: it is the noise seed of run 0.") }
    }

    /// The most `--runs` (and `--threads`) a command takes: the scenario's own cap on `runs:`
    /// (`ScenarioLoader.maxRuns`, 100,000), so that no count near 2⁶³ reaches a batch's arithmetic.
    static let maximum = Int(ScenarioLoader.maxRuns)

    /// A usage error (exit 64) naming `option` and the range 1…`maximum` when `value` is outside it:
    /// `--runs must be a number of runs from 1 to 100,000, not 0.`
    static func check(_ value: Int, of option: String, _ what: String, advice: String = "") throws {
        guard !(1...maximum).contains(value) else { return }
        throw ValidationError(
            "\(option) must be a number of \(what) from 1 to \(Readable.grouped(Int64(maximum))), not \(value)\(advice).")
    }
}
