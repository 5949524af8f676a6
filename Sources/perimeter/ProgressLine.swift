import FileSystem
import ReadableText

/// The progress line every long verb shows on a terminal (`run`, `stream`, Monte Carlo), as
/// `Readable.progress` words it, timed from the line's creation.
struct ProgressLine: Sendable {
    private let began = ContinuousClock.now
    let terminal: TerminalProgress

    init(terminal: TerminalProgress = TerminalProgress()) { self.terminal = terminal }

    /// Redraws the line (at most ten times a second). `fraction`: the share done, 0…1, when known.
    func update(_ done: @autoclosure () -> String, samples: @autoclosure () -> Int, fraction: @autoclosure () -> Double?) {
        terminal.update(text(done(), samples: samples(), fraction: fraction()))
    }

    func finish() { terminal.finish() }

    private func text(_ done: String, samples: Int, fraction: Double?) -> String {
        Readable.progress(done, samples: samples, seconds: (ContinuousClock.now - began).seconds, fraction: fraction)
    }
}
