import ArgumentParser
import FileSystem
import Runs

/// The exit codes (README "Exit codes").
enum Exit {
    static let checkFailed = ExitCodeValue(1)
    static let badInput = ExitCodeValue(2)
    static let sinkFailed = ExitCodeValue(3)
    /// SIGINT or SIGTERM stopped a run; its sinks kept what was produced.
    static let interrupted = ExitCodeValue(130)
}

typealias ExitCodeValue = Int32

extension RunFailure {
    /// Prints the failure's sentences and gives its exit code: 2 for a bad sink or bad input; 130 when
    /// SIGINT or SIGTERM came (`interrupted`: a sink that was waiting on its server stopped at once and
    /// kept what it had not delivered, as its sentence says); else 3.
    func reported(interrupted: Bool) -> ExitCode {
        for line in messages { StandardError.error(line) }
        switch self {
        case .badSink, .badInput:
            return ExitCode(Exit.badInput)
        case .sinkFailed where interrupted:
            Exit.noteInterruptedDelivery()
            return ExitCode(Exit.interrupted)
        case .sinkFailed:
            return ExitCode(Exit.sinkFailed)
        }
    }
}

extension Exit {
    /// Says that SIGINT or SIGTERM stopped a command before its sinks had delivered everything (exit 130).
    static func noteInterruptedDelivery() {
        StandardError.note("perimeter: INTERRUPTED (Ctrl-C or SIGTERM) before everything was delivered; nothing was "
            + "lost: the message above says where the undelivered events are kept.")
    }
}
