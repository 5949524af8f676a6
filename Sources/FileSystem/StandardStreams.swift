import SystemPackage
import TextEscaping

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Messages for people, on standard error (standard output carries only results): `error: …`,
/// `warning: …`, or a plain line. Written with write(2), unbuffered, and write errors ignored: with
/// SIGPIPE ignored, a standard error whose reader has gone fails with EPIPE, which `FileHandle.write`
/// would turn into a crash. Each message is one line, every control character in it escaped, line ends
/// too (`TerminalText.visible`, which also escapes `##[` and a leading `::`): text from an input in it (a
/// key, a header, an id, a file's name) can neither drive the terminal nor forge a line of a CI log.
public enum StandardError {
    public static func error(_ message: String) { line("error: " + message) }
    public static func warning(_ message: String) { line("warning: " + message) }
    public static func note(_ message: String) { line(message) }

    /// Writes `text` as one line, its controls and line ends escaped, and a line end.
    public static func line(_ text: String) { write(TerminalText.visible(text) + "\n") }

    /// Writes `text` as it is: the program's own drawing (a progress line redraws itself with `\r` and
    /// CSI K), or text already escaped.
    public static func write(_ text: String) {
        _ = try? FileDescriptor.standardError.writeAll(text.utf8)
    }
}

/// Results on standard output, unbuffered: for writers that stream a file or standard output alike.
public enum StandardOutput {
    /// Writes all of `bytes`, retrying on EINTR.
    public static func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        do {
            _ = try FileDescriptor.standardOutput.writeAll(bytes)
        } catch {
            throw FileError((error as? Errno) ?? .ioError, path: "-", action: "write")
        }
    }
}

/// What standard input was when the program started, for a command that reads it (`stream`).
///
/// With standard input closed (`<&-`, some daemons), descriptor 0 is free, and the first file the
/// program opens takes it: libdispatch's epoll descriptor, or the scenario file. Reading that as the
/// input waited forever on the epoll descriptor (G7 of issue 37). So descriptor 0 is looked at before
/// anything is opened (`recordAtLaunch()`, first in `main`), and only a regular file, a pipe or FIFO, a
/// socket or a terminal is read.
public enum StandardInput {
    /// Why descriptor 0 cannot be read as input, or nil. Set by `recordAtLaunch()`.
    nonisolated(unsafe) public private(set) static var problemAtLaunch: String?

    /// Looks at descriptor 0 with fstat(2): the first thing the program does.
    public static func recordAtLaunch() { problemAtLaunch = problem(descriptor: 0) }

    /// Why `descriptor` cannot be read as input (closed, a device that is not a terminal, a folder, an
    /// epoll or other anonymous descriptor), in a sentence; nil for a regular file, a pipe or FIFO, a
    /// socket or a terminal.
    public static func problem(descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            return "standard input is closed"
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFIFO, S_IFSOCK: return nil
        case S_IFCHR where isatty(descriptor) == 1: return nil
        case S_IFCHR: return "standard input is a device that is not a terminal"
        case S_IFDIR: return "standard input is a directory"
        default: return "standard input is not a file, a pipe, a socket or a terminal"
        }
    }
}
