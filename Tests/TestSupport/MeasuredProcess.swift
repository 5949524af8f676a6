import Foundation

/// Runs `perimeter` like `PerimeterProcess.run`, and measures it: its own peak resident memory and its
/// wall-clock time. A run that outlives its timeout is killed (SIGALRM) and reported as such, so that a
/// hang fails its test instead of stalling the suite.
///
/// The measuring parent is a few lines of Python (python3, which CI installs): the peak must be read
/// with wait4 by the process's parent, from a child made by fork, not by the test process. A child that
/// the test spawned directly would inherit the test process's own memory high-water mark through
/// vfork and exec, which Linux keeps in ru_maxrss.
public enum MeasuredProcess {
    public struct Measurement: Sendable {
        public var result: PerimeterProcess.Result
        /// The child's peak resident set size, in bytes.
        public var peakResidentBytes: Int
        /// Wall-clock time from fork to exit, in seconds.
        public var seconds: Double
        /// Whether the child was killed for outliving its timeout.
        public var timedOut: Bool
    }

    /// Forks, sets the alarm, changes folder and execs perimeter; waits with wait4; writes
    /// "MAXRSS_KB SECONDS TIMED_OUT" to the report file and exits with the child's code (128 + signal).
    private static let parent = """
        import os, signal, sys, time
        report, folder, timeout = sys.argv[1], sys.argv[2], int(sys.argv[3])
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            os.chdir(folder)
            signal.alarm(timeout)
            os.execv(sys.argv[4], sys.argv[4:])
        _, status, usage = os.wait4(pid, 0)
        seconds = time.monotonic() - start
        alarmed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM
        with open(report, "w") as out:
            out.write("%d %.3f %d" % (usage.ru_maxrss, seconds, alarmed))
        sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
        """

    /// Runs `perimeter ARGUMENTS` in `directory` (standard input from the file `standardInput` when
    /// given), killed after `timeout`.
    public static func run(
        _ arguments: [String], in directory: URL, timeout: Duration = .seconds(120),
        standardInput: String? = nil
    ) throws -> Measurement {
        let report = directory.appendingPathComponent(".measurement-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let result = try PerimeterProcess.run(
            arguments, in: directory, executable: "/usr/bin/env",
            prefix: [
                "python3", "-c", parent, report.path, directory.path, String(timeout.components.seconds),
                PerimeterProcess.executable.path,
            ], standardInput: standardInput)
        let fields = try String(contentsOf: report, encoding: .utf8).split(separator: " ")
        guard fields.count == 3, let kilobytes = Int(fields[0]), let seconds = Double(fields[1]) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: report.path])
        }
        return Measurement(
            result: result, peakResidentBytes: kilobytes * 1024, seconds: seconds,
            timedOut: fields[2] == "1")
    }
}
