import FileSystem

/// The formats of the event logs Perimeter writes that can be read back (SEMANTICS §7), told apart by a
/// file's first bytes: what `summarize` takes as an event log (a sink's output, a spool, a batch's log).
/// A scenario's sink asks more of a file before it replaces it: every line exactly the sink's own
/// (`EventSinks.OutputRecognition`). O(the first line).
public enum EventLogFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `jsonl:`: one JSON object a line, the wire fields as members (`JSONLines`).
    case jsonLines = "JSON Lines"
    /// `csv:`: `CSVRecords.header`, then one record an event (`CSVRecords`).
    case csv = "CSV"
    /// `sqlite:`: an SQLite database whose `events` table holds the wire fields (`EventSinksSQLite`).
    case sqlite = "SQLite"

    public var description: String { rawValue }

    /// The first 16 bytes of every SQLite database.
    public static let sqliteMagic = Array("SQLite format 3\0".utf8)

    /// The format whose first bytes `head` holds (a file's first bytes, at least its first line), or nil
    /// when it is none of them or empty: SQLite's header; a first line that is a flat JSON object with the
    /// members every event has (`time`, `device`, `kind`); or a first line that starts as the CSV header
    /// does (`time,device,region,kind`; the reader checks the rest). A byte order mark before a first
    /// line is skipped.
    public static func recognized(head: some Collection<UInt8>) -> EventLogFormat? {
        let head = Array(head)
        if head.starts(with: sqliteMagic) { return .sqlite }
        guard let line = firstLine(head), !line.isEmpty else { return nil }
        if isEventLine(line) { return .jsonLines }
        if line.starts(with: "time,device,region,kind".utf8) { return .csv }
        return nil
    }

    /// Whether `line` (without its line end) is a flat JSON object with the members every event has.
    public static func isEventLine(_ line: some Collection<UInt8>) -> Bool {
        guard let members = try? JSONLines.members(line: String(decoding: line, as: UTF8.self)) else {
            return false
        }
        let keys = Set(members.map(\.key))
        return ["time", "device", "kind"].allSatisfy(keys.contains)
    }

    /// The first line of `head` without its line end (and a leading byte order mark), or nil when `head`
    /// is empty.
    public static func firstLine(_ head: [UInt8]) -> ArraySlice<UInt8>? {
        guard !head.isEmpty else { return nil }
        var line = head[..<(head.firstIndex(of: UInt8(ascii: "\n")) ?? head.endIndex)]
        line = line.dropFirst(ByteOrderMark.length(at: line))
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return line
    }
}
