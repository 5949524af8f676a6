import FileSystem
import WireFormat

/// Whether an existing file holds what a sink of Perimeter wrote, judged by its first bytes: the test a
/// scenario's own sink must pass to replace a file (`Runs.ScenarioSinkPolicy`), so that a scenario from
/// someone else cannot overwrite a script, a source file or a document by naming it as a sink.
///
/// - JSON Lines (`jsonl:`, a spool): the first line is a JSON object with the wire fields every event
///   has (`time`, `device`, `kind`);
/// - CSV: the first line is the CSV sink's header (`CSVRecords.header`, with or without `run`);
/// - GeoJSON: the file starts with the GeoJSON sink's opening (`{"type":"FeatureCollection",…`);
/// - SQLite: the `SQLiteSink` kind asks its own schema.
///
/// An empty file holds nothing to lose and passes for every kind. Reads at most 64 KiB, opened with
/// O_NOFOLLOW and O_NONBLOCK (a link or a FIFO is never followed nor waited on: it does not pass).
public enum OutputRecognition {
    /// How much of a file's start is read.
    public static let headLimit = 65_536

    /// The first bytes of the regular file at `path` (at most `limit`), or nil when it is not one or
    /// cannot be read (`WholeFile.head`).
    public static func head(_ path: String, limit: Int = headLimit) -> [UInt8]? { WholeFile.head(path, limit: limit) }

    /// Whether the file at `path` is JSON Lines of events (or empty).
    public static func isEventLines(_ path: String) -> Bool {
        guard let head = head(path) else { return false }
        guard let line = EventLogFormat.firstLine(head) else { return true }
        return EventLogFormat.isEventLine(line)
    }

    /// Whether the file at `path` is the CSV sink's (or empty).
    public static func isEventCSV(_ path: String) -> Bool {
        guard let head = head(path) else { return false }
        guard let line = EventLogFormat.firstLine(head) else { return true }
        let header = Array(CSVRecords.header.utf8.dropLast(2))  // without CRLF
        return line.elementsEqual(header) || line.elementsEqual(header + Array(",run".utf8))
    }

    /// Whether the file at `path` starts with `opening` (or is empty).
    public static func starts(_ path: String, with opening: String) -> Bool {
        guard let head = head(path, limit: opening.utf8.count) else { return false }
        return head.isEmpty || head.elementsEqual(opening.utf8)
    }
}
