import EventSinks
import Foundation
import Geofencing
import TestSupport
import Testing
import WireFormat

/// The runs of a Monte Carlo batch kept apart by the text sinks: a `run` field after the event's own.
@Suite struct RunNumberingTests {
    @Test func jsonLinesEndEachObjectWithItsRun() throws {
        let path = try temporaryDirectory() + "/events.jsonl"
        let sink = try JSONLinesSink(path: path)
        for run in 0..<2 {
            try sink.beginRun(run, RunDescription())
            for sample in samples.prefix(2) { try sink.send(sample.event) }
        }
        try sink.finish()
        let lines = try contents(path).split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        for (i, line) in lines.enumerated() {
            let plain = JSONLines.encode(samples[i % 2].event)
            #expect(line == plain.dropLast() + ",\"run\":\(i / 2)}")
            // Still a JSON object, with every wire field and the run.
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["run"] as? Int == i / 2)
        }
    }

    @Test func csvHasARunColumnLast() throws {
        let path = try temporaryDirectory() + "/events.csv"
        let sink = try CSVSink(path: path)
        try sink.beginRun(0, RunDescription())
        try sink.send(samples[0].event)
        try sink.beginRun(1, RunDescription())
        try sink.send(samples[3].event)  // a device with a newline: quoted
        try sink.finish()
        let records = try readCSV(try contents(path))
        #expect(records[0] == CSVRecords.columns + ["run"])
        #expect(records.dropFirst().map(\.last) == ["0", "1"])
        let plain = try readCSV(CSVRecords.header + CSVRecords.encode(samples[3].event) + "\r\n")[1]
        #expect(Array(records[2].dropLast()) == plain)
    }

    @Test func anEmptyBatchStillWritesTheRunColumn() throws {
        let path = try temporaryDirectory() + "/events.csv"
        let sink = try CSVSink(path: path)
        try sink.beginRun(0, RunDescription())
        try sink.finish()
        #expect(try contents(path) == (CSVRecords.columns + ["run"]).joined(separator: ",") + "\r\n")
    }

    @Test func aFanOutTellsEverySinkThatNumbersRuns() throws {
        let folder = try temporaryDirectory()
        let jsonl = try JSONLinesSink(path: folder + "/a.jsonl")
        let csv = try CSVSink(path: folder + "/a.csv")
        let fanOut = FanOutSink([jsonl, csv])
        try fanOut.beginRun(3, RunDescription())
        try fanOut.send(samples[0].event)
        try fanOut.finish()
        #expect(try contents(folder + "/a.jsonl").hasSuffix(",\"run\":3}\n"))
        #expect(try contents(folder + "/a.csv").hasSuffix(",3\r\n"))
    }
}
