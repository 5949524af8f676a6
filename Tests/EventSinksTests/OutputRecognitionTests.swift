import Foundation
import TestSupport
import Testing
import WireFormat

@testable import EventSinks

/// Whether a file holds a sink's own output (issue 37 G2, issue 49 H3): what a scenario's own sink may
/// replace. Files each sink wrote, and lookalikes that must not pass: an HTTP spool, a field log, an
/// empty file, a line of an event beside lines that are not.
@Suite("A sink's own output, recognised by its lines")
struct OutputRecognitionTests {
    /// What the `jsonl:` sink writes: every sample's line, as `JSONLines.encode` makes it.
    static let events = schemaSamples.map { JSONLines.encode($0.event) + "\n" }.joined()
    static let event = JSONLines.encode(samples[0].event) + "\n"
    /// An HTTP sink's spool: the same lines, each with its batch's key last.
    static let spool = schemaSamples.map { SpoolLines.line(JSONLines.encode($0.event), key: "9c0f-3") + "\n" }.joined()
    /// The first lines of `Examples/field-study/observed.jsonl`: an event's keys and others.
    static let fieldLog = """
        {"time":"2026-10-14T08:05:02.097Z","detectedAt":"2026-10-14T08:04:58.000Z","device":"tester-1","region":"cafe-tejo","kind":"enter","lat":38.708994,"lon":-9.1407,"platform":"ios","os":"26.1","model":"iPhone 15","appState":"background"}
        {"time":"2026-10-14T08:08:13.512Z","detectedAt":"2026-10-14T08:08:07.000Z","device":"tester-1","region":"cafe-tejo","kind":"exit","lat":38.709122,"lon":-9.138143,"platform":"ios","os":"26.1","model":"iPhone 15","appState":"background"}

        """

    /// (id, the file's text, jsonl, csv, geojson)
    static let cases: [(id: String, text: String, jsonl: Bool, csv: Bool, geojson: Bool)] = [
        ("empty (issue 49 H4: never replaced)", "", false, false, false),
        ("the jsonl sink's lines, every kind, late or not", events, true, false, false),
        (
            "a Monte Carlo batch's lines",
            schemaSamples.map { JSONLines.encode($0.event).dropLast() + ",\"run\":3}\n" }.joined(),
            true, false, false
        ),
        ("an HTTP spool (issue 49 H3)", spool, false, false, false),
        ("a field log (issue 49 H3)", fieldLog, false, false, false),
        (
            "an event's first keys alone",
            "{\"time\":\"2016-01-10T12:00:00.000Z\",\"device\":\"p\",\"region\":\"c\",\"kind\":\"exit\"}\n", false, false,
            false
        ),
        ("the jsonl sink's lines, then a line that is not an event", events + "{\"note\":\"mine\"}\n", false, false, false),
        ("the jsonl sink's lines, then text without a line end", events + "#!/bin/sh", false, false, false),
        (
            "an event's keys in another order",
            event.replacingOccurrences(
                of: "\"device\":\"phone\",\"region\":\"cafe\"", with: "\"region\":\"cafe\",\"device\":\"phone\""), false,
            false, false
        ),
        ("the CSV header", CSVRecords.header + CSVRecords.encode(samples[0].event) + "\r\n", false, true, false),
        ("the CSV header with run", CSVRecords.columns.joined(separator: ",") + ",run\r\n", false, true, false),
        ("the CSV header, then a shell command", CSVRecords.header + "touch PWNED\n", false, false, false),
        ("the GeoJSON opening", "{\"type\":\"FeatureCollection\",\"features\":[\n]}\n", false, false, true),
        ("a shell script", "#!/bin/sh\nexit 0\n", false, false, false),
        ("JSON without an event's keys", "{\"name\": \"app\", \"time\": 1}\n", false, false, false),
        ("a JSON line of an event after a script's line", "#!/bin/sh\n" + event, false, false, false),
        ("a CSV of other columns", "name,email\r\n", false, false, false),
        ("a CSV header with one more column", CSVRecords.columns.joined(separator: ",") + ",x\r\n", false, false, false),
        ("other GeoJSON", "{\"type\": \"FeatureCollection\", \"features\": []}", false, false, false),
    ]

    @Test("each kind recognises its own output and nothing else", arguments: cases)
    func recognised(_ c: (id: String, text: String, jsonl: Bool, csv: Bool, geojson: Bool)) throws {
        let path = try temporaryDirectory() + "/file"
        try c.text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(OutputRecognition.isEventLines(path) == c.jsonl, "jsonl: \(c.id)")
        #expect(OutputRecognition.isEventCSV(path) == c.csv, "csv: \(c.id)")
        #expect(OutputRecognition.starts(path, with: "\(GeoJSONSink.opening)") == c.geojson, "geojson: \(c.id)")
    }

    @Test(
        "an HTTP spool is recognised as a spool, and nothing else is",
        arguments: [
            ("a spool", spool, true), ("events", events, false), ("a field log", fieldLog, false), ("empty", "", false),
        ])
    func spools(_ c: (id: String, text: String, spool: Bool)) throws {
        let path = try temporaryDirectory() + "/spool.jsonl"
        try c.text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(OutputRecognition.isSpool(path) == c.spool, "\(c.id)")
    }

    @Test("a link, a FIFO, a folder or nothing is never recognised (and a FIFO is not waited on)")
    func notRegular() throws {
        let folder = try temporaryDirectory()
        try Self.event.write(toFile: folder + "/e.jsonl", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.jsonl", withDestinationPath: "e.jsonl")
        #expect(mkfifo(folder + "/pipe.jsonl", 0o644) == 0)
        for name in ["link.jsonl", "pipe.jsonl", ".", "missing.jsonl"] {
            #expect(!OutputRecognition.isEventLines(folder + "/" + name), "\(name)")
        }
        #expect(OutputRecognition.isEventLines(folder + "/e.jsonl"))
    }
}
