import FileSystem
import GRDB
import WireFormat

/// The events of a database the SQLite sink wrote, read back (`perimeter summarize`): every run's
/// events, in the order of `(run, seq)`, each row checked as a JSON Lines line is (`WireEvent(members:)`).
/// The reading lives beside the sink, which owns the schema (`SQLiteSink.eventColumns`) and GRDB: a reader
/// of JSON Lines or CSV links neither (ARCHITECTURE, "Readers of event logs do not import writers"); only
/// the `perimeter` executable links this target. Opened read-only: nothing is migrated or written.
/// O(rows).
public enum SQLiteEventLog {
    /// Reads every event of every run in the database at `path`; an error names the file (and the row).
    public static func read(_ path: String) throws(EventLogFile.ReadError) -> [WireEvent] {
        if FileCheck.unreachable(path) != nil || FileCheck.notRegularFile(path) != nil {
            throw EventLogFile.ReadError(path: path, reason: EventLogFile.unreadable(path))
        }
        guard SQLiteSink.isPerimeterDatabase(path) else {
            throw EventLogFile.ReadError(
                path: path, reason: "an SQLite database, but not one the sqlite: sink wrote (no runs and events)")
        }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read(events(in:))
        } catch let error as EventLogFile.ReadError {
            throw EventLogFile.ReadError(path: path, reason: error.reason)
        } catch {
            throw EventLogFile.ReadError(path: path, reason: "cannot be read as an event database: \(error)")
        }
    }

    /// The rows of `events` as wire events; a bad row throws a `ReadError` whose reason names it.
    private static func events(in db: Database) throws -> [WireEvent] {
        // The wire fields this file has columns for (one written before revision 3 has no `detectedAt`).
        let present = Set(try db.columns(in: "events").map(\.name))
        let fields = WireField.all.filter { present.contains($0.name) }
        let sql = "SELECT run, seq, " + fields.map(\.name).joined(separator: ", ") + " FROM events ORDER BY run, seq"
        var events: [WireEvent] = []
        let rows = try Row.fetchCursor(db, sql: sql)
        while let row = try rows.next() {
            var members: [(String, FlatJSONValue)] = []
            for (index, field) in fields.enumerated() {
                switch row[index + 2] as DatabaseValue {
                case let value where value.isNull:
                    if field == .lat || field == .lon || field == .distance { members.append((field.name, .null)) }
                case let value:
                    switch value.storage {
                    case let .string(text): members.append((field.name, .string(text)))
                    case let .double(number): members.append((field.name, .number(number)))
                    case let .int64(number): members.append((field.name, .number(Double(number))))
                    default: members.append((field.name, .string("")))
                    }
                }
            }
            do {
                events.append(try WireEvent(members: members))
            } catch {
                let run: Int64 = row[0], seq: Int64 = row[1]
                throw EventLogFile.ReadError(path: "", reason: "events row (run \(run), seq \(seq)): \(error.reason)")
            }
        }
        return events
    }
}
