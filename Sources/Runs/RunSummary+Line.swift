import Foundation
import Geofencing

extension RunSummary {
    /// The summary line on standard error: `perimeter: NAME (PROFILE): 1 device, 361 samples, 5 events
    /// (monitor-start 1, enter 1, …), 0 warnings, 0.01 s`, and `; INTERRUPTED …` when it was.
    public func line(for run: ScenarioRun, seconds: Double) -> String {
        let kinds = GeofenceEvent.Kind.allCases.compactMap { kind in
            eventsByKind[kind].map { "\(kind) \($0)" }
        }
        let plural = { (n: Int, word: String) in "\(n) \(word)\(n == 1 ? "" : "s")" }
        var line = "perimeter: \(run.name) (\(run.simulation.profile.rawValue)): " + [
            plural(devices, "device"), plural(samples, "sample"),
            plural(events, "event") + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))"),
            plural(run.warnings.count + droppedFixes, "warning"),
            String(format: "%.2f s", seconds),
        ].joined(separator: ", ")
        if interrupted { line += "; INTERRUPTED before the end of the tracks" }
        return line
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`: for timings shown to people.
    public var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
