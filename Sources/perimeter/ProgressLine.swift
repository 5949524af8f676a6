import FileSystem
import Geodesy

/// The progress line every long verb shows on a terminal (`run`, `stream`, Monte Carlo): what is done,
/// samples per second, and, when the whole is known, the share done and an estimate of the time left:
/// `312 of 1,000 devices · 1.4 M samples/s · 31 % · about 2 min 10 s left`.
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
        let seconds = max((ContinuousClock.now - began).seconds, 1e-3)
        var parts = [done, Self.rate(Double(samples) / seconds) + " samples/s"]
        if let fraction, fraction > 0, fraction <= 1 {
            parts.append("\(Int(fraction * 100)) %")
            let left = seconds * (1 - fraction) / fraction
            parts.append("about " + TimeSpan.seconds(Int64(left.rounded())).readable + " left")
        }
        return parts.joined(separator: " · ")
    }

    /// `850`, `12.5 k`, `1.4 M`.
    static func rate(_ perSecond: Double) -> String {
        if perSecond >= 1e6 { return Readable.number(perSecond / 1e6, decimals: 1) + " M" }
        if perSecond >= 1e4 { return Readable.number(perSecond / 1e3, decimals: 1) + " k" }
        return Readable.grouped(Int64(perSecond.rounded()))
    }
}
