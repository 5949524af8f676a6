import Geofencing

/// The exit codes of every command (docs/COMMANDS.md "Exit codes"): the one table, which `perimeter` (as
/// `ExitCode` members) and `CheckSummary` read.
public enum ExitStatus {
    /// Everything asked was done.
    public static let success: Int32 = 0
    /// A check found a difference or a failed expectation.
    public static let checkFailed: Int32 = 1
    /// Bad input (a scenario, a sink spec, a row), each problem named with its file and place.
    public static let badInput: Int32 = 2
    /// A sink or an output file could not be written.
    public static let sinkFailed: Int32 = 3
    /// SIGINT or SIGTERM stopped a run; its sinks kept what was produced.
    public static let interrupted: Int32 = 130

    /// The exit code of a command that sent events to sinks and ended with `failure` (nil: it did not
    /// fail), `interrupted` saying whether SIGINT or SIGTERM came: the one place exit 130 is decided.
    /// Bad input or a bad sink is 2 whatever else happened; an interruption is 130, also when it made a
    /// sink that was waiting on its server stop at once (the sink kept what it had not delivered, as its
    /// sentence says); a sink's failure without one is 3; else 0.
    public static func of(_ failure: RunFailure?, interrupted: Bool) -> Int32 {
        switch failure {
        case .badSink?, .badInput?: return badInput
        case .sinkFailed?, nil:
            if interrupted { return Self.interrupted }
            return failure == nil ? success : sinkFailed
        }
    }
}

extension RunFailure {
    /// The exit code of a run that failed so (`ExitStatus.of`): 2, 130 or 3.
    public func exitStatus(interrupted: Bool) -> Int32 { ExitStatus.of(self, interrupted: interrupted) }

    /// Whether SIGINT or SIGTERM stopped a sink's delivery (a sink failed, and the interruption decided
    /// the exit code): the sink kept what it had not delivered, and its sentence says where.
    public func stoppedDelivery(interrupted: Bool) -> Bool {
        exitStatus(interrupted: interrupted) != exitStatus(interrupted: false)
    }
}

extension RunSummary {
    /// The exit code of a run that ended so (`ExitStatus.of`): 130 when SIGINT or SIGTERM stopped it
    /// (its sinks kept what was produced), else 0.
    public var exitStatus: Int32 { ExitStatus.of(nil, interrupted: interrupted) }
}
