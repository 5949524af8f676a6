import ArgumentParser
import Geofencing

/// `--threads N`, which every command that runs scenarios takes alike: how many worker threads run the
/// devices (and the runs of a batch); `run` also reads and checks the scenario's tracks on them. The output
/// is byte-identical for any number (SEMANTICS §7).
struct ThreadsOption: ParsableArguments {
    @Option(
        name: .customLong("threads"),
        help: ArgumentHelp(
            "Worker threads (default: one per core). The output is the same for any number.", valueName: "threads"))
    var given: Int?

    /// The threads asked for, else one per core (`RunOptions.defaultThreads`).
    var count: Int { given ?? RunOptions.defaultThreads }

    /// `--threads 0` (or fewer) is a usage error, not one thread in disguise; so is more than a batch
    /// may have runs (`MonteCarloOptions.maximum`), which no run could keep busy.
    func validate() throws {
        if let given {
            try MonteCarloOptions.check(
                given, of: "--threads", "threads", advice: "; without it, one per core (\(RunOptions.defaultThreads) here)")
        }
    }
}
