import ArgumentParser
import Documents
import FileSystem
import Runs
import ScenarioFormat

/// The exit codes (README "Exit codes"), as `Runs.ExitStatus` lists them.
enum Exit {
    static let checkFailed = ExitStatus.checkFailed
    static let badInput = ExitStatus.badInput
    static let sinkFailed = ExitStatus.sinkFailed
    /// SIGINT or SIGTERM stopped a run; its sinks kept what was produced.
    static let interrupted = ExitStatus.interrupted
}

typealias ExitCodeValue = Int32

extension ScenarioErrors {
    /// Prints every problem (each with its file, line, column and key path) and gives exit code 2: what
    /// every command does with bad input it read (a scenario, a profile file, a journey).
    var reported: ExitCode {
        for problem in errors { StandardError.error(problem.description) }
        return ExitCode(Exit.badInput)
    }
}

extension RunFailure {
    /// Prints the failure's sentences and gives its exit code (`exitStatus(interrupted:)`); when SIGINT or
    /// SIGTERM stopped a sink's delivery, says that nothing was lost.
    func reported(interrupted: Bool) -> ExitCode {
        for line in messages { StandardError.error(line) }
        let status = exitStatus(interrupted: interrupted)
        if status == Exit.interrupted { Exit.noteInterruptedDelivery() }
        return ExitCode(status)
    }
}

extension Exit {
    /// Says that SIGINT or SIGTERM stopped a command before its sinks had delivered everything (exit 130).
    static func noteInterruptedDelivery() {
        StandardError.note(
            "perimeter: INTERRUPTED (Ctrl-C or SIGTERM) before everything was delivered; nothing was "
                + "lost: the message above says where the undelivered events are kept.")
    }
}
