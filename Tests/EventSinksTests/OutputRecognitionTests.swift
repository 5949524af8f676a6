import Foundation
import TestSupport
import Testing
import WireFormat

@testable import EventSinks

/// Whether a file holds a sink's own output, by its start (issue 37 G2): what a scenario's own sink may
/// replace. Hand-written files of each kind, and lookalikes that must not pass.
@Suite("A sink's own output, recognised by its start")
struct OutputRecognitionTests {
    static let event =
        "{\"time\":\"2016-01-10T12:00:00.000Z\",\"device\":\"phone\",\"region\":\"cafe\",\"kind\":\"exit\"}\n"

    /// (id, the file's text, jsonl, csv, geojson)
    static let cases: [(id: String, text: String, jsonl: Bool, csv: Bool, geojson: Bool)] = [
        ("empty", "", true, true, true),
        ("an event line", event, true, false, false),
        ("an event line of a Monte Carlo batch, CRLF", event.dropLast(2) + ",\"run\":3}\r\n", true, false, false),
        ("the CSV header", CSVRecords.header + "2016-01-10T12:00:00.000Z,phone,cafe,exit\r\n", false, true, false),
        ("the CSV header with run", CSVRecords.columns.joined(separator: ",") + ",run\r\n", false, true, false),
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
