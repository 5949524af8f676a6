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

    /// `--threads 0` (or fewer) is a usage error, not one thread in disguise.
    func validate() throws {
        if let given, given < 1 {
            throw ValidationError(
                "--threads must be a number of threads of 1 or more, not \(given); "
                    + "without it, one per core (\(RunOptions.defaultThreads) here).")
        }
    }
}
