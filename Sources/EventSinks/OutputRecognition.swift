import FileSystem
import Geofencing
import WireFormat

/// Whether an existing file holds what a sink of Perimeter wrote, judged by every whole line of its
/// first 64 KiB: the test a scenario's own sink must pass to replace a file (`Runs.ScenarioSinkPolicy`),
/// so that a scenario from someone else cannot overwrite a script, a source file, a document, or events
/// kept for later, by naming it as a sink. Each test asks for what only that sink writes:
///
/// - `jsonl:`: every line an event's object with exactly the keys SEMANTICS §7 gives its kind, in the
///   sink's order (`WireField.keys(of:)`), then `run` in a Monte Carlo batch, and nothing else. An HTTP
///   spool (each line ends with `idempotencyKey`) and a field log (`platform`, `model`, … beside an
///   event's keys) are not: they hold events no one else has;
/// - an HTTP sink's spool (`isSpool`): the same lines, each with its batch's `idempotencyKey` last;
/// - CSV: the CSV sink's header (`CSVRecords.header`, with or without `run`), then records of as many
///   fields, read as RFC 4180 (`CSVRecords.forEachRecord`);
/// - GeoJSON: the file starts with the GeoJSON sink's opening (`{"type":"FeatureCollection",…`);
/// - SQLite: the `SQLiteSink` kind asks its own schema.
///
/// An empty file passes for no kind (issue 49 H4): nothing tells whose it is, and a script's name may be
/// waiting for its text. Text after the last line end fails too, unless the 64 KiB cut it. Reads at most
/// 64 KiB, opened with O_NOFOLLOW and O_NONBLOCK (a link or a FIFO is never followed nor waited on: it
/// does not pass). O(bytes read).
public enum OutputRecognition {
    /// How much of a file's start is read.
    public static let headLimit = 65_536

    /// The first bytes of the regular file at `path` (at most `limit`), or nil when it is not one or
    /// cannot be read (`WholeFile.head`).
    public static func head(_ path: String, limit: Int = headLimit) -> [UInt8]? { WholeFile.head(path, limit: limit) }

    /// Whether the file at `path` is JSON Lines of events as the `jsonl:` sink writes them.
    public static func isEventLines(_ path: String) -> Bool {
        guard let lines = wholeLines(path) else { return false }
        return lines.allSatisfy { isEventLine($0, endingWith: nil) }
    }

    /// Whether the file at `path` is an HTTP sink's spool: events as `jsonl:` writes them, each with its
    /// batch's key last (`SpoolLines.keyMember`).
    public static func isSpool(_ path: String) -> Bool {
        guard let lines = wholeLines(path) else { return false }
        return lines.allSatisfy { isEventLine($0, endingWith: SpoolLines.keyMember) }
    }

    /// Whether the file at `path` is the CSV sink's: its header, then records of as many fields.
    public static func isEventCSV(_ path: String) -> Bool {
        guard let text = wholeText(path) else { return false }
        var width: Int?
        do {
            try CSVRecords.forEachRecord(in: Array(text)) { fields throws(WireFormatError) in
                if let width {
                    guard fields.count == width else { throw WireFormatError(reason: "not the CSV sink's record") }
                    return
                }
                let names = fields.map(\.text)
                guard names == CSVRecords.columns || names == CSVRecords.columns + ["run"] else {
                    throw WireFormatError(reason: "not the CSV sink's header")
                }
                width = names.count
            }
        } catch {
            return false
        }
        return width != nil
    }

    /// Whether the file at `path` starts with `opening`.
    public static func starts(_ path: String, with opening: String) -> Bool {
        guard let head = head(path, limit: opening.utf8.count) else { return false }
        return !head.isEmpty && head.elementsEqual(opening.utf8)
    }

    /// Whether a file named `name` is, by its name, events kept for later, which no sink of a scenario
    /// replaces: what a spool could not take (`AtomicFile.keptPath`: `spool.jsonl.unappended-4242`), the
    /// output of a run stopped early (`FileNames.marked`: `e.interrupted.jsonl`, `e.interrupted-2.jsonl`),
    /// or a run journal (`perimeter-run-….jsonl`). O(name).
    public static func isKeptEvents(named name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).dropFirst()
        let unappended = AtomicFile.keptMark.dropFirst()  // "unappended-"
        let mark = OutputFile.stoppedEarlyMark
        if let last = parts.last, last.hasPrefix(unappended), Int(last.dropFirst(unappended.count)) != nil {
            return true
        }
        if parts.contains(where: { $0 == mark || ($0.hasPrefix(mark + "-") && Int($0.dropFirst(mark.count + 1)) != nil) }) {
            return true
        }
        return name.hasPrefix(RunJournal.stem + "-")
    }

    /// Whether `line` is an event's object with exactly the keys of its kind (SEMANTICS §7), in
    /// `WireField.keyOrder` (`detectedAt` only for an event delivered late), then `run` (a Monte Carlo
    /// batch's) and `last` when given, and no other key. O(bytes).
    static func isEventLine(_ line: ArraySlice<UInt8>, endingWith last: String?) -> Bool {
        guard let members = try? JSONLines.members(line: String(decoding: line, as: UTF8.self)) else { return false }
        var keys = members.map(\.key)
        if let last {
            guard keys.last == last else { return false }
            keys.removeLast()
        }
        if keys.last == "run" { keys.removeLast() }
        guard case let .string(name)? = members.first(where: { $0.key == WireField.kind.name })?.value,
            let kind = GeofenceEvent.Kind(name: name)
        else { return false }
        return keys == WireField.keys(of: kind).map(\.name)
            || keys == WireField.keys(of: kind, includingOptional: false).map(\.name)
    }

    /// The whole lines of the file at `path`'s first `headLimit` bytes, without their LF (`wholeText`).
    static func wholeLines(_ path: String) -> [ArraySlice<UInt8>]? {
        wholeText(path)?.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    }

    /// The file at `path`'s first `headLimit` bytes up to its last LF, included: nil when it is not a
    /// regular file, holds no LF, or has text after its last LF that the limit did not cut.
    static func wholeText(_ path: String) -> ArraySlice<UInt8>? {
        guard let head = head(path), let end = head.lastIndex(of: UInt8(ascii: "\n")) else { return nil }
        guard end == head.count - 1 || head.count == headLimit else { return nil }
        return head[...end]
    }
}
