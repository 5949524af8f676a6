import FileSystem
import ScenarioFormat
import TextEscaping

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

    /// Why the golden log `golden` or its inputs record cannot be used, or nil when each is a regular
    /// file or missing: a symbolic link (a pull request's `evil.events.jsonl -> ../.git/hooks/pre-commit`
    /// would have `check --update` write JSON into a hook) or a FIFO, device or folder (reading a FIFO
    /// waits for ever). Asked with lstat(2) and stat(2), never by opening. O(1).
    static func goldenFileRefusal(golden: String) -> String? {
        for (file, what) in [(golden, "the golden log"), (GoldenInputs.path(forGolden: golden), "the inputs record")] {
            if let target = FileCheck.linkDestination(of: file) {
                return "\(file) (\(what)) is a symbolic link (to \"\(TerminalText.visible(target))\"); golden logs and "
                    + "their inputs records are regular files beside their scenario, and Perimeter never reads or "
                    + "writes them through a link. Remove the link, then record the log again with "
                    + "`perimeter check --update`"
            }
            if let kind = FileCheck.notRegularFile(file) { return "\(kind) (\(what) must be a regular file)" }
        }
        return nil
    }

    /// Records what the golden log was made from beside it (atomically), unless the record there already
    /// says so; the line to report, or nil when nothing was written.
    static func recordInputs(golden: String, scenario: Scenario) throws -> String? {
        guard let now = GoldenInputs(of: scenario) else { return nil }
        let record = GoldenInputs.path(forGolden: golden)
        if let old = try? WholeFile.read(record, limit: 16 << 20), old.elementsEqual(now.json.utf8) { return nil }
        try AtomicFile.write(now.json.utf8, to: record, refusingLinks: true)
        return "recorded what it was made from in \(record)"
    }
}
