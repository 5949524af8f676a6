import Runs
import Testing

@testable import Geofencing

/// The one exit decision (`ExitStatus.of`): what a command that sent events to sinks exits with, from how
/// it failed (or not) and whether SIGINT or SIGTERM came; read by `RunFailure.exitStatus(interrupted:)`
/// and `RunSummary.exitStatus`.
@Suite("Exit codes of a run")
struct ExitStatusTests {
    @Test(
        arguments: [
            ("done", nil, false, 0),
            ("done, interrupted", nil, true, 130),
            ("bad sink", RunFailure.badSink(["x"]), false, 2),
            ("bad sink, interrupted", .badSink(["x"]), true, 2),
            ("bad input", .badInput(["x"]), false, 2),
            ("bad input, interrupted", .badInput(["x"]), true, 2),
            ("sink failed", .sinkFailed(["x"]), false, 3),
            ("sink failed, interrupted", .sinkFailed(["x"]), true, 130),
        ] as [(String, RunFailure?, Bool, Int32)])
    func eachEndHasItsCode(id: String, failure: RunFailure?, interrupted: Bool, status: Int32) {
        #expect(ExitStatus.of(failure, interrupted: interrupted) == status, "\(id)")
        if let failure {
            #expect(failure.exitStatus(interrupted: interrupted) == status, "\(id)")
            #expect(failure.stoppedDelivery(interrupted: interrupted) == (status == 130), "\(id)")
        } else {
            var summary = RunSummary()
            summary.interrupted = interrupted
            #expect(summary.exitStatus == status, "\(id)")
        }
    }

    @Test func theCodesAreTheREADMEs() {
        #expect(
            [ExitStatus.checkFailed, ExitStatus.badInput, ExitStatus.sinkFailed, ExitStatus.interrupted] == [1, 2, 3, 130])
    }
}
