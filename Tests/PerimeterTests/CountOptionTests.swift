import Foundation
import TestSupport
import Testing

/// Issue 49 H11: `--runs` or `--threads` near 2⁶³ crashed `outcomes`, `run`, `compare`, `report` and
/// `calibrate` (arithmetic on the count overflowed). Each is a usage error (exit 64) naming the option and
/// its range, 1 to 100,000: the cap of a scenario's own `runs:`.
@Suite("--runs and --threads, capped")
struct CountOptionTests {
    /// Each command that takes `--runs`, with the arguments it needs besides.
    static let runsCommands: [[String]] = [
        ["outcomes", "Scenarios/restaurant-welcome.yaml"],
        ["run", "Scenarios/restaurant-welcome.yaml", "--sink", "jsonl:-"],
        ["compare", "Scenarios/restaurant-welcome.yaml"],
        ["report", "Scenarios/restaurant-welcome.yaml", "--output", "/dev/null"],
        ["calibrate", "Scenarios/restaurant-welcome.yaml", "--observed", "field.csv"],
    ]

    /// Each command that takes `--threads` (`ThreadsOption`).
    static let threadsCommands = runsCommands + [["check", "Scenarios/restaurant-welcome.yaml"]]

    static let huge = "9223372036854775807"

    static let cases: [CommandRefusal] =
        runsCommands.map {
            CommandRefusal(
                arguments: $0 + ["--runs", huge], status: 64,
                message: "--runs must be a number of runs from 1 to 100,000, not \(huge).")
        }
        + threadsCommands.map {
            CommandRefusal(
                arguments: $0 + ["--threads", huge], status: 64,
                message: "--threads must be a number of threads from 1 to 100,000, not \(huge); without it, one per core")
        }
        + [
            CommandRefusal(
                arguments: ["outcomes", "Scenarios/restaurant-welcome.yaml", "--runs", "100001"], status: 64,
                message: "--runs must be a number of runs from 1 to 100,000, not 100001."),
            CommandRefusal(
                arguments: ["calibrate", "Scenarios/restaurant-welcome.yaml", "--observed", "field.csv", "--runs", "0"],
                status: 64, message: "--runs must be a number of runs from 1 to 100,000, not 0."),
        ]

    @Test("a count near 2^63 is a usage error naming its range", arguments: cases)
    func refused(_ c: CommandRefusal) throws {
        let result = try PerimeterProcess.run(c.arguments)
        #expect(result.status == c.status, "\(result.stderr)")
        #expect(result.stderr.contains(c.message), "\(result.stderr)")
        #expect(!result.stderr.contains("crashed"), "\(result.stderr)")
    }
}
