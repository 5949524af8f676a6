import GRDB
import TestSupport
import Testing
import WireFormat

@testable import EventSinksSQLite

/// The `events` table is the wire schema (`WireField`): its columns after `run, seq`, read back from a real
/// file with `PRAGMA table_info`, are the table's fields in order, with their SQLite types and NOT NULL
/// where every event has the field; a file of the first schema gains revision 3's columns at the end.
@Suite struct SQLiteSchemaTests {
    /// (name, type, not null) of `events`' columns in `path`, by `PRAGMA table_info`.
    static func columns(_ path: String) throws -> [String] {
        try readOnly(path).read { db in
            try Row.fetchAll(db, sql: "PRAGMA table_info(events)").map { row in
                "\(row["name"] as String) \(row["type"] as String)\((row["notnull"] as Int) == 1 ? " NOT NULL" : "")"
            }
        }
    }

    /// The columns the table says: `run` and `seq`, then each field.
    static let expected =
        ["run INTEGER NOT NULL", "seq INTEGER NOT NULL"]
        + WireField.allCases.map { field in
            let type: String
            switch field.type {
            case .time, .text: type = "TEXT"
            case .number: type = "REAL"
            }
            let always = field.isCarried(by: .monitorStart) && !field.isOptional && field.type != .number
            return "\(field.name) \(type)\(always ? " NOT NULL" : "")"
        }

    @Test func aNewFileHasTheTablesColumns() throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        try run(try SQLiteSink(path: path), [samples[0].event])
        #expect(try Self.columns(path) == Self.expected)
        #expect(SQLiteSink.eventColumns == ["run", "seq"] + WireField.allCases.map(\.name))
    }

    @Test func aFileOfTheFirstSchemaGainsTheLaterFieldsAtTheEnd() throws {
        let path = try firstSchemaFile()
        try run(try SQLiteSink(path: path), [samples[3].event])
        #expect(try Self.columns(path) == Self.expected)
    }

    /// The text SQLite keeps for `events` (migration v1's, with v3's column added by SQLite) is the one the
    /// hand-written migrations gave, before the columns were made from the table: files are alike.
    @Test func theFirstMigrationsTextIsUnchanged() throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        try run(try SQLiteSink(path: path), [])
        let sql = try readOnly(path).read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'events'")
        }
        #expect(
            sql == """
                CREATE TABLE events (
                    run INTEGER NOT NULL REFERENCES runs(id),
                    seq INTEGER NOT NULL,
                    time TEXT NOT NULL,
                    device TEXT NOT NULL,
                    region TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    lat REAL,
                    lon REAL,
                    distance REAL,
                    crossedAt TEXT,
                    arrival TEXT,
                    departure TEXT,
                    duration REAL,
                    rule TEXT, detectedAt TEXT,
                    PRIMARY KEY (run, seq)
                ) WITHOUT ROWID
                """)
    }
}
