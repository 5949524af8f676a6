#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line of progress on standard error (`312 of 1000 runs`), only when standard error is a terminal:
/// long work shows that it moves, and pipes and logs stay clean. Redrawn at most ten times a second, and
/// only once the work has lasted half a second (a quick run shows nothing); `finish()` clears the line.
// Safety: drawn from one thread at a time (the run's calling thread).
public final class TerminalProgress: @unchecked Sendable {
    private let enabled: Bool
    private let began = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?
    private var drawn = false

    /// Shows progress when `enabled` (default: when standard error is a terminal).
    public init(enabled: Bool = isatty(STDERR_FILENO) == 1) { self.enabled = enabled }

    /// Redraws the line with `text` when it is time to.
    public func update(_ text: @autoclosure () -> String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - began >= .milliseconds(500) else { return }
        if let lastDrawn, now - lastDrawn < .milliseconds(100) { return }
        lastDrawn = now
        drawn = true
        StandardError.write("\r\u{1B}[K" + text())
    }

    /// Clears the line, if one was drawn.
    public func finish() {
        guard drawn else { return }
        drawn = false
        StandardError.write("\r\u{1B}[K")
    }
}
