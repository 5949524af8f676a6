/// The exit codes (README "Exit codes").
enum Exit {
    static let checkFailed = ExitCodeValue(1)
    static let badInput = ExitCodeValue(2)
    static let sinkFailed = ExitCodeValue(3)
    /// SIGINT or SIGTERM stopped a run; its sinks kept what was produced.
    static let interrupted = ExitCodeValue(130)
}

typealias ExitCodeValue = Int32
