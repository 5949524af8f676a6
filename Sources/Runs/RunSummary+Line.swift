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
        var line =
            "perimeter: \(run.name) (\(run.simulation.profile.name)): "
            + [
                plural(devices, "device"), plural(samples, "sample"),
                plural(events, "event") + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))"),
                plural(run.warnings(all: true).count + droppedFixes + stayWarnings.count, "warning"),
                String(format: "%.2f s", seconds),
            ].joined(separator: ", ")
        if interrupted { line += "; INTERRUPTED before the end of the tracks" }
        return line
    }
}

extension RunSummary {
    /// Stays listed by name before the rest are counted.
    static let staysListed = 5

    /// What the events leave unsaid, as sentences for people: announced stays still open when their
    /// tracks ended (no exit, no visit was written), and stays whose region the nearest set stopped
    /// watching while the device was inside (the app never hears an exit).
    public var stayWarnings: [String] {
        func list(_ items: [String]) -> String {
            items.prefix(Self.staysListed).joined(separator: ", ") + (items.count > Self.staysListed ? ", ..." : "")
        }
        var warnings: [String] = []
        if !openStays.isEmpty {
            let n = openStays.count
            warnings.append(
                "\(n) stay\(n == 1 ? " was" : "s were") still open when \(n == 1 ? "its track" : "their tracks") ended "
                    + "(\(list(openStays))): no exit and no visit \(n == 1 ? "was" : "were") written for \(n == 1 ? "it" : "them")"
            )
        }
        if !stoppedStays.isEmpty {
            let n = stoppedStays.count
            warnings.append(
                "the monitored set moved on while a device was inside \(n == 1 ? "a region" : "\(n) regions") "
                    + "(\(list(stoppedStays))): monitor-stop, and the app never hears an exit or a visit for "
                    + "\(n == 1 ? "that stay" : "those stays") (SEMANTICS §4; a larger capacity or refreshDistance keeps them)"
            )
        }
        return warnings
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`: for timings shown to people.
    public var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
