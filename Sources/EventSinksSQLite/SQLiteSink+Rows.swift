import GRDB
import GRDBSQLite
import Geofencing
import Time
import WireFormat

extension SQLiteSink {
    /// Binds one event's row to the prepared `INSERT INTO events` (`insertEventSQL`): `run`, `seq`, then
    /// the wire fields (`WireField.allCases`) as JSON Lines writes them (times as ISO 8601 text, NULL for a number that is not
    /// finite and where the event's kind has no value). Straight into SQLite: each text is made in
    /// `scratch` and copied by SQLite, so a row allocates nothing of its own. O(fields).
    static func bind(
        _ event: GeofenceEvent, run: Int64, seq: Int64, to statement: SQLiteStatement,
        sql: String, scratch: inout [UInt8]
    ) throws {
        let wire = WireEvent(event)
        var column: Int32 = 0
        func check(_ code: Int32) throws {
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), sql: sql) }
        }
        func integer(_ value: Int64) throws {
            column += 1
            try check(sqlite3_bind_int64(statement, column, value))
        }
        func number(_ value: Double?) throws {
            column += 1
            guard let value, value.isFinite else { return try check(sqlite3_bind_null(statement, column)) }
            try check(sqlite3_bind_double(statement, column, value))
        }
        func text(_ write: (inout [UInt8]) -> Void) throws {
            column += 1
            scratch.removeAll(keepingCapacity: true)
            write(&scratch)
            let code = scratch.withUnsafeBufferPointer { bytes in
                // An empty text is still text (a nil pointer would bind NULL).
                withUnsafePointer(to: 0 as UInt8) { empty in
                    sqlite3_bind_text(
                        statement, column,
                        UnsafeRawPointer(bytes.baseAddress ?? empty)
                            .assumingMemoryBound(to: CChar.self), Int32(bytes.count), sqliteTransient)
                }
            }
            try check(code)
        }
        func text(_ value: String?) throws {
            guard let value else {
                column += 1
                return try check(sqlite3_bind_null(statement, column))
            }
            try text { $0.append(contentsOf: value.utf8) }
        }
        func time(_ value: Timestamp?) throws {
            guard let value else { return try text(nil as String?) }
            try text { EventFormatting.append(time: value, to: &$0) }
        }

        try check(sqlite3_reset(statement))
        try integer(run)
        try integer(seq)
        for field in WireField.all {
            switch field.value(of: wire) {
            case let .time(t): try time(t)
            case let .text(string): try text(string)
            case let .number(x): try number(x)
            case .absent: try text(nil as String?)
            }
        }
        assert(Int(column) == eventColumns.count)
    }
}

/// SQLite's `SQLITE_TRANSIENT`: the text is copied before `sqlite3_bind_text` returns.
private let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
