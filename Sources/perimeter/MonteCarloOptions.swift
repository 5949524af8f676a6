import ArgumentParser

/// `--runs N [--seed S]`, which `run`, `compare` and `report` take alike: a Monte Carlo batch whose run r
/// has the noise seed S + r.
struct MonteCarloOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A Monte Carlo batch of this many runs, each with its own seed (run refuses a scenario without noise: that draws nothing else: its runs would be alike).",
            valueName: "N"))
    var runs: Int?

    @Option(help: ArgumentHelp("The noise seed of run 0 (default: the scenario's).", valueName: "S"))
    var seed: UInt64?

    func validate() throws {
        if let runs, runs < 1 { throw ValidationError("--runs must be a number of runs of 1 or more, not \(runs).") }
        if seed != nil && runs == nil { throw ValidationError("--seed goes with --runs: it is the noise seed of run 0.") }
    }
}
