import Geodesy
import Geofencing
import TextEscaping

extension ObservedLog {
    /// Checks every event against the scenario's ground truth: its device and region exist (the nearest
    /// name suggested when one is close), and its decision time (`detectedAt`, else `time`) lies within
    /// that device's true track. The first problem, in the log's order, is thrown. O(events + fixes).
    public func check(against simulation: Simulation) throws(ObservedLogError) {
        let start = simulation.clockStart
        var spans: [String: ClosedRange<Timestamp>] = [:]
        for device in simulation.devices {
            let segments = device.track.fixes(start: start)
            guard let first = segments.lazy.compactMap(\.first).first?.time,
                let last = segments.last(where: { !$0.isEmpty })?.last?.time
            else { continue }
            let span = spans[device.id].map { min($0.lowerBound, first)...max($0.upperBound, last) } ?? first...last
            spans[device.id] = span
        }
        let deviceNames = simulation.devices.map(\.id), regionNames = Set(simulation.regions.map(\.id))
        for event in events {
            func fail(_ column: Int, _ message: String) -> ObservedLogError {
                ObservedLogError(file: event.file, line: event.line, column: column, message: message)
            }
            guard regionNames.contains(event.region) else {
                var message = "the region \"\(TerminalText.visible(event.region))\" is not in the scenario"
                if let guess = Suggestion.closest(to: event.region, in: simulation.regions.map(\.id)) {
                    message += "; did you mean \"\(guess)\"?"
                }
                throw fail(event.columns.region, message + " (the log's region ids must be the scenario's)")
            }
            guard let span = spans[event.device] else {
                var message = "the device \"\(TerminalText.visible(event.device))\" is not in the scenario"
                if let guess = Suggestion.closest(to: event.device, in: deviceNames) {
                    message += "; did you mean \"\(guess)\"?"
                } else if deviceNames.contains(event.device) {
                    message = "the device \"\(TerminalText.visible(event.device))\" has no timed track in the scenario"
                }
                throw fail(event.columns.device, message + " (each device of the log needs its true track)")
            }
            guard span.contains(event.decidedAt) else {
                let which = event.detectedAt == nil ? "time" : "detectedAt"
                throw fail(
                    event.columns.decidedAt,
                    "the event's \(which) \(event.decidedAt) is outside the true track of \"\(TerminalText.visible(event.device))\", "
                        + "which runs from \(span.lowerBound) to \(span.upperBound); is the log of another walk, or its zone wrong?"
                )
            }
        }
    }
}
