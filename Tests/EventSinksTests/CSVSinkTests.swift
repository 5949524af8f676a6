import FileSystem
import Foundation
import Geofencing
import TestSupport
import Testing
import WireFormat

@testable import EventSinks

@Suite struct CSVSinkTests {
    /// The record an event should read back as, column by column.
    static func expectedRecord(_ event: GeofenceEvent) -> [String] {
        let fields = Dictionary(
            uniqueKeysWithValues: expectedFields(event).map { key, value in
                (key, (value as? Double)?.description ?? value as! String)
            })
        return CSVRecords.columns.map { fields[$0] ?? "" }
    }

    @Test(arguments: formatSamples)
    func recordReadsBackWithAnRFC4180Reader(sample: EventSample) throws {
        let record = CSVRecords.encode(sample.event) + "\r\n"
        let records = try readCSV(record)
        #expect(records == [Self.expectedRecord(sample.event)])
    }

    @Test func fileHasHeaderAndCRLFRecords() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/events.csv"
        try run(CSVSink(path: path), samples.map(\.event))
        let text = try contents(path)
        #expect(
            text.hasPrefix(
                "time,device,region,kind,lat,lon,distance,crossedAt,arrival,departure,duration,rule,detectedAt\r\n"))
        let records = try readCSV(text)
        #expect(records.first == CSVRecords.columns)
        #expect(Array(records.dropFirst()) == samples.map { Self.expectedRecord($0.event) })
        #expect(try files(in: directory) == ["events.csv"])
    }

    @Test func python3CSVReadsTheSameRecords() throws {
        let text = CSVRecords.header + samples.map { CSVRecords.encode($0.event) + "\r\n" }.joined()
        let script = """
            import sys, csv, io, json
            print(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline=""), strict=True))))
            """
        guard let output = try python(script, input: text) else { return }
        let records = try JSONDecoder().decode([[String]].self, from: Data(output.utf8))
        #expect(records == [CSVRecords.columns] + samples.map { Self.expectedRecord($0.event) })
    }

    @Test func zeroEventsStillWriteTheHeader() throws {
        let directory = try temporaryDirectory()
        try run(CSVSink(path: directory + "/empty.csv"), [])
        #expect(try contents(directory + "/empty.csv") == CSVRecords.header)
    }

    struct Quoting: CustomTestStringConvertible, Sendable {
        let raw: String
        let field: String
        var testDescription: String { "\(raw.debugDescription) → \(field)" }
    }

    @Test(arguments: [
        Quoting(raw: "plain", field: "plain"), Quoting(raw: "", field: ""), Quoting(raw: "a,b", field: "\"a,b\""),
        Quoting(raw: "say \"hi\"", field: "\"say \"\"hi\"\"\""), Quoting(raw: "a\nb", field: "\"a\nb\""),
        Quoting(raw: "a\r\nb", field: "\"a\r\nb\""), Quoting(raw: "café☕️", field: "café☕️"),
        Quoting(raw: "van-7_north.gate/2:a@b+c=d%e", field: "van-7_north.gate/2:a@b+c=d%e"),
        Quoting(raw: "café ☕️", field: "\"café ☕️\""), Quoting(raw: "a^b", field: "\"a^b\""),
        // Issue 49 H4: a field holding a shell metacharacter is quoted too (spaces were left bare before).
        Quoting(raw: " padded ", field: "\" padded \""), Quoting(raw: "r;touch PWNED;#", field: "\"r;touch PWNED;#\""),
        Quoting(raw: "a&b", field: "\"a&b\""), Quoting(raw: "a|b", field: "\"a|b\""),
        Quoting(raw: "$HOME", field: "\"$HOME\""),
        Quoting(raw: "`id`", field: "\"`id`\""), Quoting(raw: "a<b>c", field: "\"a<b>c\""),
        Quoting(raw: "f(x)", field: "\"f(x)\""),
        Quoting(raw: "it's", field: "\"it's\""), Quoting(raw: "a\\b", field: "\"a\\b\""),
        Quoting(raw: "*.gpx", field: "\"*.gpx\""),
        Quoting(raw: "a?", field: "\"a?\""), Quoting(raw: "[a]", field: "\"[a]\""), Quoting(raw: "#1", field: "\"#1\""),
        Quoting(raw: "~x", field: "\"~x\""), Quoting(raw: "a!", field: "\"a!\""), Quoting(raw: "{a}", field: "\"{a}\""),
        Quoting(raw: "a\tb", field: "\"a\tb\""),
    ])
    func quoting(q: Quoting) {
        var bytes: [UInt8] = []
        EventFormatting.append(csvField: q.raw, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == q.field)
    }

    @Test func exactRecords() {
        #expect(
            CSVRecords.encode(samples[3].event)
                == "2016-01-10T12:03:10.250Z,\"line1\nline2\r\",\"café ☕️\",enter,37.703026,-121.759735,-12.5,2016-01-10T12:03:05.000Z,,,,,"
        )
        #expect(
            CSVRecords.encode(samples[5].event)
                == "2016-01-10T12:07:30.000Z,phone,cafe,visit,37.703026,-121.759735,1e-07,,2016-01-10T12:03:05.001Z,2016-01-10T12:07:25.000Z,259.9985,,"
        )
        #expect(
            CSVRecords.encode(samples[6].event)
                == "2016-01-11T00:00:00.000Z,\"phone 2\",cafe,dwell,37.703026,-121.759735,-1234567.891,,,,260.0,\"Thanks, \"\"friend\"\" 👋\","
        )
    }

    /// Ids a scenario could give to make a CSV file run commands when a shell reads it (issue 49 H4).
    static let shellIds = [
        "r;touch PWNED;#", "a|touch PWNED", "a&&touch PWNED", "a>PWNED", "a touch PWNED", "x\ntouch PWNED",
    ]

    @Test("a CSV file holding shell metacharacters runs no command of its fields in sh, and reads back")
    func shellRunsNoFieldAsACommand() throws {
        let directory = try temporaryDirectory()
        let events = Self.shellIds.enumerated().map { index, id in
            var event = samples[index % 2].event
            event.device = id
            event.region = id
            return event
        }
        try run(CSVSink(path: directory + "/events.csv"), events)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["events.csv"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(try files(in: directory) == ["events.csv"])  // no PWNED, no file a redirection made
        // Perimeter's own CSV reader reads every field back as written.
        var records: [[String]] = []
        try CSVRecords.forEachRecord(in: Array(try contents(directory + "/events.csv").utf8)) { fields in
            records.append(fields.map(\.text))
        }
        #expect(records == [CSVRecords.columns] + events.map(Self.expectedRecord))
    }
}
