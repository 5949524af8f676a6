import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `perimeter stream` stopped by SIGINT or SIGTERM while it waits for input on a pipe that stays open (a
/// Spark executor stopping a stalled stage): it ends within seconds with exit 130, the sinks keeping the
/// events of the devices whose rows had ended.
@Suite("perimeter stream interrupted")
struct StreamInterruptTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var id: String
        var signal: Int32
        /// What is written to standard input before the signal; the pipe then stays open.
        var input: String
        var kept: Set<String> = []
        var testDescription: String { id }
    }

    static let wholeAndHalf =
        (["device,time,lat,lon"] + StreamCommandTests.vanRows(1) + StreamCommandTests.vanRows(2)
        + StreamCommandTests.vanRows(3, count: 1)).joined(separator: "\n") + "\nvan-03,2024-05-01T09:00:10Z,59.9"

    static let cases = [
        Case(id: "SIGINT before the first byte", signal: SIGINT, input: ""),
        Case(id: "SIGTERM after the header", signal: SIGTERM, input: "device,time,lat,lon\n"),
        Case(
            id: "SIGINT with two devices whole and a third half sent", signal: SIGINT, input: wholeAndHalf,
            kept: ["van-01", "van-02"]),
        Case(
            id: "SIGTERM with two devices whole and a third half sent", signal: SIGTERM, input: wholeAndHalf,
            kept: ["van-01", "van-02"]),
    ]

    @Test(
        "a signal while stream waits for input: exit 130 within seconds, the whole devices' events kept",
        arguments: cases)
    func interruptedWhileWaiting(_ c: Case) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let scenario = try StreamCommandTests.fleetScenario(in: folder, devices: false)
        let events = folder.appendingPathComponent("events.jsonl").path
        let input = Pipe()
        let launched = try LaunchedPerimeter(
            [
                "stream", scenario, "--start", StreamCommandTests.fleetStart,
                "--sink", "jsonl:" + events,
            ], in: folder,
            standardInput: input.fileHandleForReading)
        // Closing the pipe at the end lets a stream that ignored the signal end, so that the test fails
        // rather than hangs.
        defer { try? input.fileHandleForWriting.close() }
        try input.fileHandleForWriting.write(contentsOf: Data(c.input.utf8))
        try #require(launched.awaitWaitingForInput(on: input), "perimeter never waited for more input")
        let signalled = ContinuousClock.now
        kill(launched.process.processIdentifier, c.signal)
        let stopped = launched.awaitExit(within: .seconds(5))
        let waited = ContinuousClock.now - signalled
        try input.fileHandleForWriting.close()
        let result = launched.finish()
        #expect(stopped, "still running \(waited) after the signal, while its input stayed open")
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("INTERRUPTED"), "\(result.stderr)")
        // A stream stopped early leaves the target as it was (none here) and keeps what it wrote beside it.
        #expect(!FileManager.default.fileExists(atPath: events))
        let kept = folder.appendingPathComponent("events.interrupted.jsonl").path
        let written = (try? String(contentsOfFile: kept, encoding: .utf8)) ?? ""
        #expect(Set(StreamCommandTests.devices(ofLines: written.split(separator: "\n"))) == c.kept, "\(result.stderr)")
        if !c.kept.isEmpty {
            #expect(result.stderr.contains("\(c.kept.count) devices"), "\(result.stderr)")
        }
    }

    /// G7: standard input closed (`<&-`, a daemon) used to hang for ever: descriptor 0 went to libdispatch's
    /// epoll descriptor, which poll(2) waited on. What is not a file, a pipe, a socket or a terminal is
    /// refused at once.
    @Test(
        "stream with standard input closed, a folder or a device refuses it at once (exit 2)",
        arguments: [
            ("<&-", "standard input is closed"), ("< /", "standard input is a directory"),
            ("< /dev/null", "standard input is a device that is not a terminal"),
        ])
    func unreadableStandardInput(redirection: String, says: String) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let scenario = try StreamCommandTests.fleetScenario(in: folder, devices: false)
        let launched = try LaunchedPerimeter(
            ["stream", scenario, "--start", StreamCommandTests.fleetStart], in: folder, redirectingInput: redirection)
        let ended = launched.awaitExit(within: .seconds(60))  // a bound, not a timing: it hung for ever
        if !ended { kill(launched.process.processIdentifier, SIGKILL) }
        let result = launched.finish()
        #expect(ended, "still waiting a minute later")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderr
                == "error: \(says): stream reads the fix table from standard input; give it a file (perimeter stream "
                + "\(scenario) < fleet.csv) or a pipe (… | perimeter stream \(scenario)).\n")
    }
}
