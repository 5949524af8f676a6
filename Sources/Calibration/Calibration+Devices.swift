import Geofencing
import TextEscaping

extension Calibration {
    /// The devices a fit uses (issue 42, item 1): those `chosen` (`--devices`), else the log's. A scenario
    /// device the log never mentions would count every one of its crossings as missed, so it is left out
    /// and said; a chosen device the log has no event of, and the log's events of devices not chosen, are
    /// said too. Returns the devices' ids in the scenario's order, the log's events of them, and the
    /// sentences for standard error. A chosen id the scenario lacks is refused. O(devices + events).
    static func selectDevices(
        _ chosen: [String]?, of simulation: Simulation, log: ObservedLog
    ) throws(CalibrationFailure) -> (devices: Set<String>, events: [ObservedEvent], notes: [String]) {
        let scenario = simulation.devices.map(\.id)
        var inLog: [String] = []
        var seen: Set<String> = []
        for event in log.events where seen.insert(event.device).inserted { inLog.append(event.device) }
        func listed(_ ids: [String]) -> String {
            let shown = ids.prefix(8).map { TerminalText.quoted($0) }.joined(separator: ", ")
            return ids.count > 8 ? shown + " and \(ids.count - 8) more" : shown
        }
        let files = log.files.joined(separator: ", ")
        var notes: [String] = []
        if let chosen {
            for id in chosen where !scenario.contains(id) {
                var message = "--devices: the scenario has no device \(TerminalText.quoted(id))"
                if let guess = Suggestion.closest(to: id, in: scenario) { message += "; did you mean \"\(guess)\"?" }
                throw .calibration(CalibrationError(message + " (its devices: \(listed(scenario)))"))
            }
            let wanted = Set(chosen)
            let absent = scenario.filter { wanted.contains($0) && !seen.contains($0) }
            if !absent.isEmpty {
                notes.append(
                    "\(files): the log has no event of \(listed(absent)), named by --devices: every crossing of "
                        + "\(absent.count == 1 ? "it" : "them") counts as missed")
            }
            let dropped = log.events.filter { !wanted.contains($0.device) }
            if !dropped.isEmpty {
                let others = inLog.filter { !wanted.contains($0) }
                notes.append(
                    "\(files): \(dropped.count) event\(dropped.count == 1 ? "" : "s") of \(listed(others)), not named by "
                        + "--devices, left out of the fit")
            }
            return (wanted, log.events.filter { wanted.contains($0.device) }, notes)
        }
        let absent = scenario.filter { !seen.contains($0) }
        guard !absent.isEmpty, !inLog.isEmpty else { return (Set(scenario), log.events, notes) }
        notes.append(
            "\(files): the fit uses the \(inLog.count) device\(inLog.count == 1 ? "" : "s") the log has events of; the "
                + "scenario's \(listed(absent)) (\(absent.count) of \(Set(scenario).count)) \(absent.count == 1 ? "has" : "have") none "
                + "and \(absent.count == 1 ? "is" : "are") left out, so that \(absent.count == 1 ? "its" : "their") crossings "
                + "do not count as missed (--devices chooses)")
        return (Set(inLog), log.events, notes)
    }
}

extension ObservedLog {
    /// Words that name a phone's platform, for telling a free column that splits the log by platform.
    static let platformWords: [(platform: String, words: [String])] = [
        ("ios", ["ios", "iphone", "ipad", "apple"]),
        ("android", ["android", "pixel", "samsung", "galaxy", "xiaomi", "oneplus", "huawei"]),
    ]

    /// Column names that say a platform or operating system.
    static let platformColumns: Set<String> = ["platform", "os", "osname", "os_name", "system", "operatingsystem"]

    /// A sentence for each free column that splits the log into phones of different platforms (issue 42,
    /// item 1): a column named `platform` (or `os`, …) with two or more values, or any column whose values
    /// name both iOS and Android phones. One profile fitted to both describes neither. O(events).
    public var platformSplits: [String] {
        var columns: [String: [String: Int]] = [:]
        for event in events {
            for (key, value) in event.extra { columns[key, default: [:]][value.lowercased(), default: 0] += 1 }
        }
        var warnings: [String] = []
        for (column, counts) in columns.sorted(by: { $0.key < $1.key }) where counts.count >= 2 {
            let platforms = Set(
                counts.keys.compactMap { value in
                    Self.platformWords.first { $0.words.contains { value.contains($0) } }?.platform
                })
            guard platforms.count >= 2 || Self.platformColumns.contains(column.lowercased()) else { continue }
            // An os column of versions alone ("17.4", "18.0") is not a platform split.
            if platforms.isEmpty && column.lowercased() != "platform" { continue }
            let values = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(6).map {
                "\(TerminalText.excerpt($0.key)): \($0.value)"
            }
            warnings.append(
                "\(files.joined(separator: ", ")): the column \(TerminalText.quoted(column)) splits the log into \(counts.count) "
                    + "values (\(values.joined(separator: ", "))): phones of different platforms behave differently, and "
                    + "one profile fitted to all describes none of them; fit each apart (filter the log, or --devices with each's devices)"
            )
        }
        return warnings
    }
}
