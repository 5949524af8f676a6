import Geofencing
import TextEscaping
import Time

extension ObservedLog {
    /// How many skipped rows a warning names (file:line:column and the problem).
    static let namedSkips = 3

    /// The log checked against the scenario's ground truth: every event's device and region exist (the
    /// nearest name suggested when one is close), and its decision time (`detectedAt`, else `time`) lies
    /// within that device's true track. Rows naming an ignored region (`options.ignoredRegions`), or a
    /// region the scenario lacks when `options.skipUnknownRegions`, are dropped and counted in a warning.
    /// Every problem, the reading's and these, in the log's order, is thrown together; with
    /// `options.skipInvalid` the rows that have one are dropped instead, counted, the first few named.
    /// O(events + fixes).
    public func checked(against simulation: Simulation) throws(ObservedLogErrors) -> ObservedLog {
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
        var problems = self.problems, kept: [ObservedEvent] = []
        var ignored: [String: Int] = [:], unknown: [String: Int] = [:]
        for event in events {
            func fail(_ column: Int, _ message: String) {
                problems.append(ObservedLogError(file: event.file, line: event.line, column: column, message: message))
            }
            if options.ignoredRegions.contains(event.region) {
                ignored[event.region, default: 0] += 1
                continue
            }
            guard regionNames.contains(event.region) else {
                if options.skipUnknownRegions {
                    unknown[event.region, default: 0] += 1
                    continue
                }
                var message = "the region \(TerminalText.excerpt(event.region)) is not in the scenario"
                if let guess = Suggestion.closest(to: event.region, in: simulation.regions.map(\.id)) {
                    message += "; did you mean \"\(guess)\"?"
                }
                fail(
                    event.columns.region,
                    message
                        + " (the log's region ids must be the scenario's; --ignore-regions or --skip-unknown-regions leave such rows out)"
                )
                continue
            }
            guard let span = spans[event.device] else {
                var message = "the device \(TerminalText.excerpt(event.device)) is not in the scenario"
                if let guess = Suggestion.closest(to: event.device, in: deviceNames) {
                    message += "; did you mean \"\(guess)\"?"
                } else if deviceNames.contains(event.device) {
                    message = "the device \"\(TerminalText.visible(event.device))\" has no timed track in the scenario"
                }
                fail(event.columns.device, message + " (each device of the log needs its true track)")
                continue
            }
            guard span.contains(event.decidedAt) else {
                let which = event.detectedAt == nil ? "time" : "detectedAt"
                fail(
                    event.columns.decidedAt,
                    "the event's \(which) \(event.decidedAt) is outside the true track of \"\(TerminalText.visible(event.device))\", "
                        + "which runs from \(span.lowerBound) to \(span.upperBound); is the log of another walk, or its zone wrong?"
                )
                continue
            }
            kept.append(event)
        }
        let order = Dictionary(files.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        problems.sort { a, b in
            (order[a.file] ?? 0, a.line, a.column) < (order[b.file] ?? 0, b.line, b.column)
        }
        if !problems.isEmpty && !options.skipInvalid { throw ObservedLogErrors(problems) }
        var log = self
        log.events = kept
        log.problems = []
        func counted(_ counts: [String: Int]) -> String {
            counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\(TerminalText.excerpt($0.key)): \($0.value)" }
                .joined(separator: ", ")
        }
        let files = self.files.joined(separator: ", ")
        if !ignored.isEmpty {
            let n = ignored.values.reduce(0, +)
            log.warnings.append("\(files): \(n) row\(n == 1 ? "" : "s") of ignored regions left out (\(counted(ignored)))")
        }
        if !unknown.isEmpty {
            let n = unknown.values.reduce(0, +)
            log.warnings.append(
                "\(files): \(n) row\(n == 1 ? " names a region" : "s name regions") the scenario does not have, skipped "
                    + "(\(counted(unknown)))")
        }
        if !problems.isEmpty {
            let n = problems.count
            let named = problems.prefix(Self.namedSkips).map(\.description).joined(separator: "; ")
            log.warnings.append(
                "\(files): \(n) row\(n == 1 ? "" : "s") with a problem skipped (--skip-invalid); "
                    + "the first\(n == 1 ? "" : " \(min(n, Self.namedSkips))"): \(named)")
        }
        return log
    }
}
