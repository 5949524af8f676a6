import Foundation
import TestSupport
import Testing
import WireFormat

@Suite struct EventLogFileTests {
    @Test func anEventLogFileReadsItsEventsOrRefusesItsBadLine() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/s.jsonl"
        let lines = samples.prefix(3).map(\.event).map { JSONLines.encode($0) + "\n" }.joined()
        try lines.write(toFile: path, atomically: true, encoding: .utf8)
        let file = try EventLogFile(path: path)
        #expect(file.events == samples.prefix(3).map(\.event).map(WireEvent.init))
        try (lines + "{}\n").write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: EventLogFile.ReadError.self) { try EventLogFile(path: path) }
        #expect(error?.line == 4)
        #expect(error?.description.hasPrefix(path + ":4: ") == true)
    }

    @Test("not a file", arguments: [("missing", "no such file"), ("folder", "it is a directory, not an event log")])
    func notAFile(name: String, reason: String) throws {
        let directory = try temporaryDirectory()
        let path = name == "folder" ? directory : directory + "/missing.jsonl"
        let error = #expect(throws: EventLogFile.ReadError.self) { try EventLogFile(path: path) }
        #expect(error?.description == path + ": " + reason)
    }

    @Test func aFIFOIsRefusedWithoutBeingOpened() throws {
        let path = try temporaryDirectory() + "/fifo.jsonl"
        #expect(mkfifo(path, 0o600) == 0)
        let error = #expect(throws: EventLogFile.ReadError.self) { try EventLogFile(path: path) }
        #expect(error?.reason == "it is not a regular file (a FIFO or a device); an event log is a file")
    }
}
