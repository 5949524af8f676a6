import FileSystem
import ScenarioFormat

extension RegressionCheck {
    /// What the diff's header adds about the inputs, from the record beside the golden log
    /// (`GoldenInputs`): `since it was recorded: the scenario changed, track walk.gpx changed`, or
    /// `since it was recorded: no input changed (the engine did)`; nil when the log has no record (one
    /// recorded before records were kept) or an input cannot be read now.
    static func inputChanges(golden: String, scenario: Scenario) -> String? {
        let record = GoldenInputs.path(forGolden: golden)
        guard FileCheck.unreachable(record) == nil else { return nil }
        guard let text = try? String(decoding: WholeFile.read(record, limit: 16 << 20), as: UTF8.self),
            let recorded = GoldenInputs(json: text)
        else {
            return "what it was made from is unknown (\(record) cannot be read; `perimeter check --update` records it again)"
        }
        guard let now = GoldenInputs(of: scenario) else { return nil }
        let changes = now.changes(since: recorded)
        return "since it was recorded: "
            + (changes.isEmpty ? "no input changed (the engine did)" : changes.joined(separator: ", "))
    }

    /// Records what the golden log was made from beside it (atomically), unless the record there already
    /// says so; the line to report, or nil when nothing was written.
    static func recordInputs(golden: String, scenario: Scenario) throws -> String? {
        guard let now = GoldenInputs(of: scenario) else { return nil }
        let record = GoldenInputs.path(forGolden: golden)
        if let old = try? WholeFile.read(record, limit: 16 << 20), old.elementsEqual(now.json.utf8) { return nil }
        try AtomicFile.write(now.json.utf8, to: record)
        return "recorded what it was made from in \(record)"
    }
}
