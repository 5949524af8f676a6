import Foundation

/// `perimeter` started in the background, for tests that act on a run while it goes (close the pipe it
/// writes to, take away a folder's write permission) or run it under conditions `PerimeterProcess.run`
/// does not set: extra environment variables, a file-size limit, an unprivileged user.
///
/// Standard error is read from the start (it is small); standard output only when asked, so that a
/// run writing more than a pipe holds waits for the test.
public final class LaunchedPerimeter: @unchecked Sendable {
    // Safety: `errorData` is written by the reading thread before `errorsRead` is signalled, and read
    // only after waiting for it.
    public let process = Process()
    private let output = Pipe(), errors = Pipe()
    private var errorData = Data()
    private let errorsRead = DispatchGroup()
    private var outputClosed = false

    /// Starts `perimeter` with `arguments` in `directory`. `environment` is added to the test's own;
    /// `fileSizeLimit` runs it under `/bin/sh -c 'ulimit -f N; exec …'` (N in the shell's blocks: 512
    /// bytes for dash, the usual /bin/sh, 1,024 for bash); `asNobody` runs a world-readable copy of the
    /// executable as the user nobody (when the tests run as root, which ignores permissions);
    /// `standardInput` is its standard input (else the test's own); `redirectingInput` a shell redirection
    /// of it made by `/bin/sh` before the exec (`<&-` closes it, `< /dev/null`).
    public init(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:],
        fileSizeLimit: Int? = nil, asNobody: Bool = false, standardInput: FileHandle? = nil,
        redirectingInput redirection: String? = nil
    ) throws {
        var command =
            [
                asNobody && geteuid() == 0
                    ? try PerimeterProcess.worldReadableExecutable().path : PerimeterProcess.executable.path
            ]
            + arguments
        if asNobody && geteuid() == 0 {
            command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        }
        if let fileSizeLimit {
            command = ["/bin/sh", "-c", "ulimit -f \(fileSizeLimit) && exec \"$0\" \"$@\""] + command
        }
        if let redirection {
            command = ["/bin/sh", "-c", "exec \"$0\" \"$@\" \(redirection)"] + command
        }
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = errors
        if let standardInput { process.standardInput = standardInput }
        try process.run()
        errorsRead.enter()
        DispatchQueue.global().async { [self] in
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            errorsRead.leave()
        }
    }

    /// Reads standard output up to and including the first line end (or to its end).
    public func readLine() -> String {
        var line = Data()
        let handle = output.fileHandleForReading
        while true {
            let byte = handle.readData(ofLength: 1)
            line.append(byte)
            if byte.isEmpty || byte.first == UInt8(ascii: "\n") { break }
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Closes the test's end of standard output, as `head -1` does after its line: the run's next
    /// write to standard output fails (EPIPE).
    public func closeOutput() {
        try? output.fileHandleForReading.close()
        outputClosed = true
    }

    /// Reads the rest of standard output (unless closed) and waits for the process: its exit status,
    /// the standard output read here, and all of standard error.
    public func finish() -> PerimeterProcess.Result {
        let rest = outputClosed ? Data() : output.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        process.waitUntilExit()
        return PerimeterProcess.Result(
            status: process.terminationStatus, stdout: String(decoding: rest, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// Whether the process ended by a signal rather than by exiting.
    public var wasKilledBySignal: Bool { process.terminationReason == .uncaughtSignal }
}
