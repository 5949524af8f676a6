#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Messages for people, on standard error; standard output carries only results.
enum Diagnostics {
    static func error(_ message: String) { write("error: " + message) }
    static func warning(_ message: String) { write("warning: " + message) }
    static func note(_ message: String) { write(message) }

    /// With write(2), and errors ignored: SIGPIPE is ignored (main.swift), so a standard error whose
    /// reader has gone fails with EPIPE, which FileHandle.write would turn into a crash.
    private static func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { systemWrite(STDERR_FILENO, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}

private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}

/// The exit codes of DESIGN.md.
enum Exit {
    static let checkFailed = ExitCodeValue(1)
    static let badInput = ExitCodeValue(2)
    static let sinkFailed = ExitCodeValue(3)
}

typealias ExitCodeValue = Int32
