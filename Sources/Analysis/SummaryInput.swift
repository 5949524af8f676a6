import FileSystem
import ScenarioFormat
import WireFormat

/// What `perimeter summarize` was given: an event log Perimeter wrote (JSON Lines, CSV or SQLite) or a
/// scenario to run first, told by the file's first bytes and its name. O(the first 64 KiB).
public enum SummaryInput: Sendable, Hashable {
    case eventLog(EventLogFormat)
    case scenario

    /// How much of a file's start is read to tell what it is.
    static let headLimit = 65_536

    /// What the file at `path` is, in this order: a `.yaml` or `.yml` file is a scenario; a file that
    /// starts as an event log does (`EventLogFormat.recognized(head:)`: SQLite's header, a first line that
    /// is an event's JSON object, or the CSV header) is one; an empty file is an empty JSON Lines log,
    /// unless it is named `.json`; a `.json` file is a scenario; a first line that starts with `{` is JSON
    /// Lines (whose reader says which line is not an event). Anything else, a missing file or one that
    /// is not a regular file, is an error naming the file.
    public static func of(_ path: String) throws(EventLogFile.ReadError) -> SummaryInput {
        if FileCheck.unreachable(path) != nil || FileCheck.notRegularFile(path) != nil {
            throw EventLogFile.ReadError(path: path, reason: EventLogFile.unreadable(path))
        }
        let fileExtension = FileDiscovery.fileExtension(of: path)
        if fileExtension == "yaml" || fileExtension == "yml" { return .scenario }
        guard let head = WholeFile.head(path, limit: headLimit) else {
            throw EventLogFile.ReadError(path: path, reason: EventLogFile.unreadable(path))
        }
        if let format = EventLogFormat.recognized(head: head) { return .eventLog(format) }
        if fileExtension == "json" { return .scenario }
        if head.isEmpty { return .eventLog(.jsonLines) }
        if let line = EventLogFormat.firstLine(head), line.first == UInt8(ascii: "{") { return .eventLog(.jsonLines) }
        throw EventLogFile.ReadError(
            path: path,
            reason: "not an event log Perimeter wrote (JSON Lines, CSV with its header, or an SQLite database) "
                + "nor a scenario (.yaml, .yml or .json)")
    }
}
