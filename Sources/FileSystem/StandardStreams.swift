import SystemPackage
import TextEscaping

/// Messages for people, on standard error (standard output carries only results): `error: …`,
/// `warning: …`, or a plain line. Written with write(2), unbuffered, and write errors ignored: with
/// SIGPIPE ignored, a standard error whose reader has gone fails with EPIPE, which `FileHandle.write`
/// would turn into a crash. A message's control characters but its line ends and tabs are escaped
/// (`TerminalText.message`): text from an input in it (a key, a header, an id, a file's name) cannot
/// drive the terminal.
public enum StandardError {
    public static func error(_ message: String) { line("error: " + message) }
    public static func warning(_ message: String) { line("warning: " + message) }
    public static func note(_ message: String) { line(message) }

    /// Writes `text`, its controls escaped, and a line end.
    public static func line(_ text: String) { write(TerminalText.message(text) + "\n") }

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
