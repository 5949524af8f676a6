import Foundation

/// Messages for people, on standard error; standard output carries only results.
enum Diagnostics {
    static func error(_ message: String) { write("error: " + message) }
    static func warning(_ message: String) { write("warning: " + message) }
    static func note(_ message: String) { write(message) }

    private static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// The exit codes of DESIGN.md.
enum Exit {
    static let checkFailed = ExitCodeValue(1)
    static let badInput = ExitCodeValue(2)
    static let sinkFailed = ExitCodeValue(3)
}

typealias ExitCodeValue = Int32
