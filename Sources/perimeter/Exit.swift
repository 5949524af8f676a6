import ArgumentParser
import Documents
import FileSystem
import Geofencing
import Runs
import ScenarioFormat

/// The exit codes a command throws itself (docs/COMMANDS.md "Exit codes", as `Runs.ExitStatus` lists them), beside
/// argument-parser's `success`, `failure` and `validationFailure`. Exit 130 is never thrown by name: it
/// comes from `ExitStatus.of` (`RunSummary.exitStatus`, `RunFailure.exitStatus(interrupted:)`).
extension ExitCode {
    /// 1: a check found a difference or a failed expectation.
    static let checkFailed = ExitCode(ExitStatus.checkFailed)
    /// 2: bad input, each problem named with its file and place.
    static let badInput = ExitCode(ExitStatus.badInput)
    /// 3: a sink or an output file could not be written.
    static let sinkFailed = ExitCode(ExitStatus.sinkFailed)
}

extension ScenarioErrors {
    /// Prints every problem (each with its file, line, column and key path) and gives exit code 2: what
    /// every command does with bad input it read (a scenario, a profile file, a journey).
    var reported: ExitCode {
        for problem in errors { StandardError.error(problem.description) }
        return .badInput
    }
}

extension RunFailure {
    /// Prints the failure's sentences and gives its exit code (`exitStatus(interrupted:)`); when SIGINT or
    /// SIGTERM stopped a sink's delivery, says that nothing was lost.
    func reported(interrupted: Bool) -> ExitCode {
        for line in messages { StandardError.error(line) }
        if stoppedDelivery(interrupted: interrupted) {
            StandardError.note(
                "perimeter: INTERRUPTED (Ctrl-C or SIGTERM) before everything was delivered; nothing was "
                    + "lost: the message above says where the undelivered events are kept.")
        }
        return ExitCode(exitStatus(interrupted: interrupted))
    }
}

extension ExitStatus {
    /// Throws `status` as an `ExitCode` unless it is success: how a command that did its work ends with
    /// the status a run decided (`RunSummary.exitStatus`: 130 after SIGINT or SIGTERM).
    static func exit(with status: Int32) throws {
        if status != success { throw ExitCode(status) }
    }
}
