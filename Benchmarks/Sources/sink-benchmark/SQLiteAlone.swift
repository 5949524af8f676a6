// SQLite's own cost of the SQLite sink's rows: the floor under `sqlite:`.
import EventSinks
import EventSinksSQLite
import Foundation
import GRDBSQLite
import Geofencing
import WireFormat

/// Seconds (best of three) to insert `events`' rows into a new database made by `SQLiteSink` (its schema,
/// its pragmas, one `runs` row), straight through SQLite's C API: every text and number made beforehand,
/// bound without copying, committed in the sink's batches of `SQLiteSink.defaultBatchSize`, then the
/// connection closed (which folds the write-ahead log back, as the sink's `finish` does). What is left of
/// the sink's time beyond this is its own: formatting, binding, GRDB. Without `indexed`, the schema's two
/// indexes on `events` are dropped first (what the table alone costs).
func sqliteAlone(_ events: [GeofenceEvent], folder: String, indexed: Bool = true) throws -> Double {
    /// One of a row's 12 wire fields: a C string, a number, or NULL.
    enum Value {
        case text([CChar])
        case real(Double)
        case null
    }
    func text(_ string: String?) -> Value { string.map { .text(Array($0.utf8CString)) } ?? .null }
    func real(_ number: Double?) -> Value { number.flatMap { $0.isFinite ? .real($0) : nil } ?? .null }
    let rows: [[Value]] = events.map { event in
        let wire = WireEvent(event)
        return [
            text(EventFormatting.time(wire.time)), text(wire.device), text(wire.region), text(wire.kind.description),
            real(wire.lat), real(wire.lon), real(wire.distance), text(wire.crossedAt.map(EventFormatting.time)),
            text(wire.arrival.map(EventFormatting.time)), text(wire.departure.map(EventFormatting.time)),
            real(wire.duration?.seconds), text(wire.rule),
        ]
    }
    let columns = SQLiteSink.eventColumns
    let sql =
        "INSERT INTO events (" + columns.joined(separator: ", ") + ") VALUES ("
        + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
    var best = Double.infinity
    for _ in 0..<3 {
        let path = folder + "/alone.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let sink = try SQLiteSink(path: path)
        let run = sink.runID
        try sink.finish()

        let start = DispatchTime.now()
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { fatalError("open \(path)") }
        func exec(_ statement: String) {
            guard sqlite3_exec(db, statement, nil, nil, nil) == SQLITE_OK else {
                fatalError("\(statement): \(String(cString: sqlite3_errmsg(db)))")
            }
        }
        exec("PRAGMA synchronous = NORMAL")
        exec("PRAGMA cache_size = -\(SQLiteSink.cacheKiB)")
        exec("PRAGMA wal_autocheckpoint = \(SQLiteSink.checkpointPages)")
        if !indexed { exec("DROP INDEX events_by_device_time; DROP INDEX events_by_region") }
        var insert: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &insert, nil) == SQLITE_OK else { fatalError(sql) }
        for (index, row) in rows.enumerated() {
            if index % SQLiteSink.defaultBatchSize == 0 { exec(index == 0 ? "BEGIN" : "COMMIT; BEGIN") }
            sqlite3_reset(insert)
            sqlite3_bind_int64(insert, 1, run)
            sqlite3_bind_int64(insert, 2, Int64(index))
            for (offset, value) in row.enumerated() {
                let column = Int32(offset + 3)
                switch value {
                case let .text(chars):
                    // Bound as static: `rows` holds the bytes, unchanged, until the step below.
                    chars.withUnsafeBufferPointer {
                        _ = sqlite3_bind_text(insert, column, $0.baseAddress, Int32($0.count - 1), nil)
                    }
                case let .real(number): sqlite3_bind_double(insert, column, number)
                case .null: sqlite3_bind_null(insert, column)
                }
            }
            guard sqlite3_step(insert) == SQLITE_DONE else { fatalError(String(cString: sqlite3_errmsg(db))) }
        }
        exec("COMMIT")
        sqlite3_finalize(insert)
        sqlite3_close(db)
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
    }
    return best
}
