import Foundation
import GRDB
import TestSupport
import Testing

@testable import EventSinksSQLite

/// A scenario's `sqlite:` sink may replace (append to) only a database the SQLite sink wrote (issue 37
/// G2): recognised by its header and its first migration, read through a read-only connection.
@Suite("A database the SQLite sink wrote, recognised")
struct SQLiteRecognitionTests {
    @Test func ownDatabaseAndNeitherAnEmptyFileNorOthers() throws {
        let folder = try temporaryDirectory()
        let own = folder + "/events.sqlite", other = folder + "/other.sqlite"
        let empty = folder + "/empty.sqlite", text = folder + "/notes.txt"
        try run(try SQLiteSink(path: own), [samples[0].event])
        try DatabaseQueue(path: other).write { db in try db.execute(sql: "CREATE TABLE users (name TEXT)") }
        try "".write(toFile: empty, atomically: false, encoding: .utf8)
        try "SQLite format 3 is what this text says\n".write(toFile: text, atomically: false, encoding: .utf8)
        #expect(SQLiteSink.isPerimeterDatabase(own))
        #expect(!SQLiteSink.isPerimeterDatabase(empty))  // issue 49 H4: an empty file is never replaced
        #expect(!SQLiteSink.isPerimeterDatabase(other))
        #expect(!SQLiteSink.isPerimeterDatabase(text))
        #expect(!SQLiteSink.isPerimeterDatabase(folder + "/missing.sqlite"))
    }
}
