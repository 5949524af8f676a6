import TestSupport
import Testing
import WireFormat

@testable import EventSinksSQLite

/// `SQLiteEventLog`: a database the SQLite sink wrote, read back as the events it was sent.
@Suite struct SQLiteEventLogTests {
    @Test("Every kind and optional field reads back, every run's events in order")
    func readsBackWhatTheSinkWrote() throws {
        let path = try temporaryDirectory() + "/events.sqlite"
        let events = schemaSamples.map(\.event)
        try run(try SQLiteSink(path: path), events)
        try run(try SQLiteSink(path: path), Array(events.prefix(2)))  // a second run appended
        let read = try SQLiteEventLog.read(path)
        let expected = (events + events.prefix(2)).map(WireEvent.init)
        #expect(read.count == expected.count)
        #expect(zip(read, expected).allSatisfy { x, y in WireField.all.allSatisfy { $0.same(x, y) } })
    }

    @Test("A file that is not the sink's database is refused, naming it")
    func refusals() throws {
        let folder = try temporaryDirectory()
        let text = folder + "/notes.sqlite"
        try "SQLite format 3\0 but nothing after".write(toFile: text, atomically: true, encoding: .utf8)
        for (path, reason) in [
            (folder + "/missing.sqlite", "no such file"), (folder, "it is a directory, not an event log"),
            (text, "an SQLite database, but not one the sqlite: sink wrote"),
        ] {
            let error = #expect(throws: EventLogFile.ReadError.self) { try SQLiteEventLog.read(path) }
            #expect(error?.path == path && error?.reason.hasPrefix(reason) == true, "\(String(describing: error))")
        }
    }
}
