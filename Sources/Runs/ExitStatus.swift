/// The exit codes of every command (README "Exit codes"): the one table, which `perimeter` and
/// `CheckSummary` read.
public enum ExitStatus {
    /// A check found a difference or a failed expectation.
    public static let checkFailed: Int32 = 1
    /// Bad input (a scenario, a sink spec, a row), each problem named with its file and place.
    public static let badInput: Int32 = 2
    /// A sink or an output file could not be written.
    public static let sinkFailed: Int32 = 3
    /// SIGINT or SIGTERM stopped a run; its sinks kept what was produced.
    public static let interrupted: Int32 = 130
}

extension RunFailure {
    /// The exit code of a run that failed so: 2 for a bad sink or bad input; 130 when SIGINT or SIGTERM
    /// came (`interrupted`: a sink that was waiting on its server stopped at once and kept what it had
    /// not delivered, as its sentence says); else 3.
    public func exitStatus(interrupted: Bool) -> Int32 {
        switch self {
        case .badSink, .badInput: return ExitStatus.badInput
        case .sinkFailed: return interrupted ? ExitStatus.interrupted : ExitStatus.sinkFailed
        }
    }
}
