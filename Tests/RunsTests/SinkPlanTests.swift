import EventSinks
import Runs
import Testing

/// `SinkPlan.commandLineWritesToStandardOutput`: whether a command keeps its own report off standard
/// output (a Monte Carlo batch's summary goes to standard error when a sink writes there).
@Suite("What a sink plan writes to standard output")
struct SinkPlanTests {
    @Test(
        arguments: [
            ("no sink", [], false),
            ("jsonl:-", ["jsonl:-"], true),
            ("console", ["console"], true),
            ("a file", ["csv:out.csv"], false),
            ("a file and csv:-", ["jsonl:e.jsonl", "csv:-;kinds=enter"], true),
            ("a kind the registry lacks", ["sqlite:-"], false),
            ("a spec that does not parse", ["jsonl:"], false),
        ] as [(String, [String], Bool)])
    func standardOutput(id: String, sinks: [String], writes: Bool) {
        #expect(SinkPlan(commandLine: sinks, registry: .core).commandLineWritesToStandardOutput == writes, "\(id)")
    }
}
