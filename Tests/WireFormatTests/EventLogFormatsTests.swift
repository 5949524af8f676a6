import FileSystem
import Geofencing
import TestSupport
import Testing

@testable import WireFormat

/// Event logs read back in every text format `summarize` reads: CSV as `csv:` writes it, a Monte Carlo
/// batch's runs pooled, and each format told by its first bytes (`EventLogFormat`).
@Suite struct EventLogFormatsTests {
    /// Whether `a` and `b` hold the same value of every wire field (NaN equal to NaN).
    static func same(_ a: [WireEvent], _ b: [WireEvent]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in WireField.all.allSatisfy { $0.same(x, y) } }
    }

    @Test("CSV as the csv: sink writes it reads back as the events, every kind and optional field")
    func csvRoundTrip() throws {
        let events = schemaSamples.map { WireEvent($0.event) }
        let text = CSVRecords.header + events.map { CSVRecords.encode($0) + "\r\n" }.joined()
        #expect(Self.same(try CSVRecords.decode(log: Array(text.utf8)), events))
        // A byte order mark, LF line ends and the columns in another order read the same.
        let reordered = ["\u{FEFF}kind", "device", "region", "time", "lat", "lon", "distance", "crossedAt"]
        let line = "enter,d,r,2024-05-01T08:00:00.000Z,,1.5,-2.0,2024-05-01T07:59:59.000Z"
        let decoded = try CSVRecords.decode(log: Array((reordered.joined(separator: ",") + "\n" + line + "\n").utf8))
        #expect(decoded.count == 1 && decoded[0].lat.isNaN && decoded[0].lon == 1.5 && decoded[0].kind == .enter)
    }

    /// (the log, the error's line, column and reason).
    static let badCSV: [(String, Int, Int, String)] = [
        ("time,device,kind\r\n", 1, 1, "the header has no \"region\" column"),
        ("time,device,region,kind,time\r\n", 1, 25, "the header names the column \"time\" twice"),
        ("time,device,region,kind,run\r\n", 1, 25, "\"run\" is not a column of an event log"),
        (
            "time,device,region,kind\r\n2024-05-01T08:00:00.000Z,d,r\r\n", 2, 1,
            "a record of 3 fields, but the header names 4 columns"
        ),
        (
            "time,device,region,kind,lat,lon,distance\r\n2024-05-01T08:00:00.000Z,d,r,monitor-start,1,x,2\r\n", 2, 46,
            "\"lon\" is \"x\", not a number"
        ),
    ]

    @Test("A CSV that is not an event log is refused at its line and column", arguments: badCSV)
    func csvRefusal(_ testCase: (String, Int, Int, String)) {
        let error = #expect(throws: WireFormatError.self) { try CSVRecords.decode(log: Array(testCase.0.utf8)) }
        #expect(error?.line == testCase.1 && error?.column == testCase.2, "\(String(describing: error))")
        #expect(error?.reason.hasPrefix(testCase.3) == true, "\(String(describing: error))")
    }

    @Test("A Monte Carlo batch's run member and column are read and dropped when its runs are pooled")
    func pooledRuns() throws {
        let event = WireEvent(samples[0].event)
        let line = String(JSONLines.encode(event).dropLast()) + ",\"run\":3}"
        #expect(Self.same(try JSONLines.decode(logOfRuns: line + "\n" + line), [event, event]))
        #expect(throws: WireFormatError.self) { try JSONLines.decode(log: line) }
        let csv = CSVRecords.header.dropLast() + ",run\r\n" + CSVRecords.encode(event) + ",3\r\n"
        #expect(Self.same(try CSVRecords.decode(log: Array(csv.utf8), poolingRuns: true), [event]))
        let badRun = CSVRecords.header.dropLast() + ",run\r\n" + CSVRecords.encode(event) + ",three\r\n"
        #expect(throws: WireFormatError.self) { try CSVRecords.decode(log: Array(badRun.utf8), poolingRuns: true) }
    }

    /// (a file's first bytes, the format they are).
    static let heads: [(String, EventLogFormat?)] = [
        ("SQLite format 3\0 and pages", .sqlite),
        (JSONLines.encode(WireEvent(samples[0].event)) + "\n", .jsonLines),
        (CSVRecords.header, .csv),
        ("\u{FEFF}" + CSVRecords.header, .csv),
        ("{\"name\": \"a scenario\"}\n", nil),
        ("name: a scenario\n", nil),
        ("", nil),
    ]

    @Test("Each format is told by its first bytes", arguments: heads)
    func recognition(_ testCase: (String, EventLogFormat?)) {
        #expect(EventLogFormat.recognized(head: Array(testCase.0.utf8)) == testCase.1)
    }
}
