import Calibration
import Foundation
import Geodesy
import Geofencing
import Runs
import TestSupport
import Testing
import Time

/// The scenario of the reader's tests: the synthetic study's 2 walks through 2 stores (store-1, store-2;
/// walker-1, walker-2), the first walk from 09:00:00 to about 09:25.
private let study: (scenario: String, folder: URL) = {
    let folder = try! TemporaryFolders.make("observed-log")
    let scenario = try! SyntheticFieldStudy(fences: 2, walks: 2, seed: 3).write(into: folder.path)
    return (scenario, folder)
}()

@Suite("Field logs: reading and checking")
struct ObservedLogTests {
    /// Writes `text` to a file of the given extension and reads it, checked against the study.
    func read(_ text: String, ext: String = "jsonl") throws -> ObservedLog {
        let path = study.folder.appendingPathComponent("log-\(UUID().uuidString).\(ext)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try ObservedLog.read([path]).checked(against: try ScenarioRun(loading: study.scenario).simulation)
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        var id: String
        var ext: String
        var text: String
        var line: Int
        var column: Int
        var says: String
        var testDescription: String { id }
    }

    static let good = #"{"device":"walker-1","region":"store-1","kind":"enter","time":"2026-10-05T09:04:00Z"}"#

    /// Each bad log: the line and column of the problem (hand-counted bytes, 1-based) and words of the sentence.
    static let bad: [Bad] = [
        Bad(
            id: "unknown region", ext: "jsonl",
            text: good + "\n" + #"{"device":"walker-1","region":"store-9","kind":"exit","time":"2026-10-05T09:06:00Z"}"#,
            line: 2, column: 22, says: "the region \"store-9\" is not in the scenario; did you mean \"store-1\"?"),
        Bad(
            id: "unknown device", ext: "jsonl",
            text: #"{"device":"walker-7","region":"store-1","kind":"enter","time":"2026-10-05T09:04:00Z"}"#,
            line: 1, column: 2, says: "the device \"walker-7\" is not in the scenario; did you mean \"walker-1\"?"),
        Bad(
            id: "unknown kind", ext: "jsonl",
            text: #"{"device":"walker-1","region":"store-1","kind":"entr","time":"2026-10-05T09:04:00Z"}"#,
            line: 1, column: 41, says: "no kind \"entr\"; a field log's kinds are enter, exit and dwell"),
        Bad(
            id: "outside every true track", ext: "jsonl",
            text: #"{"device":"walker-1","region":"store-1","kind":"enter","time":"2026-10-05T12:00:00Z"}"#,
            line: 1, column: 56, says: "outside the true track of \"walker-1\", which runs from 2026-10-05T09:00:00.000Z"),
        Bad(
            id: "unparsable row", ext: "jsonl", text: good + "\n\n" + #"{"device":"walker-1","region" "store-1"}"#,
            line: 3, column: 31, says: "the row does not parse"),
        Bad(
            id: "bad time", ext: "jsonl", text: #"{"device":"walker-1","region":"store-1","kind":"enter","time":"09:04"}"#,
            line: 1, column: 56,
            says: "\"time\" is \"09:04\", which is neither an ISO 8601 time nor a number of seconds since 1970"),
        Bad(
            id: "time without a zone", ext: "jsonl",
            text: #"{"device":"walker-1","region":"store-1","kind":"enter","time":"2026-10-05T09:04:00"}"#,
            line: 1, column: 56, says: "\"time\" has no zone"),
        Bad(
            id: "missing field", ext: "jsonl", text: #"{"device":"walker-1","kind":"enter","time":"2026-10-05T09:04:00Z"}"#,
            line: 1, column: 1, says: "the row has no \"region\""),
        Bad(
            id: "detectedAt after time", ext: "jsonl",
            text:
                #"{"device":"walker-1","region":"store-1","kind":"enter","time":"2026-10-05T09:04:00Z","detectedAt":"2026-10-05T09:05:00Z"}"#,
            line: 1, column: 86, says: "detectedAt (2026-10-05T09:05:00.000Z) is after time"),
        Bad(
            id: "CSV unknown region", ext: "csv",
            text:
                "device,region,kind,time\r\nwalker-1,store-1,enter,2026-10-05T09:04:00Z\r\nwalker-1,cafe,exit,2026-10-05T09:06:00Z\r\n",
            line: 3, column: 10, says: "the region \"cafe\" is not in the scenario"),
        Bad(
            id: "CSV unterminated quote", ext: "csv",
            text: "device,region,kind,time\nwalker-1,\"store-1,enter,2026-10-05T09:04:00Z\n",
            line: 2, column: 10, says: "a quoted field that never ends"),
        Bad(
            id: "CSV bad time", ext: "csv", text: "time,device,region,kind\n2026-13-05T09:04:00Z,walker-1,store-1,enter\n",
            line: 2, column: 1, says: "\"time\" is \"2026-1…\" (20 characters), which is neither an ISO 8601 time"),
    ]

    @Test(arguments: bad) func namesThePlace(_ c: Bad) throws {
        do {
            _ = try read(c.text, ext: c.ext)
            Issue.record("read without an error")
        } catch let errors as ObservedLogErrors {
            #expect(errors.errors.count == 1, "\(errors)")
            let error = errors.first
            #expect(error.file.hasSuffix("." + c.ext))
            #expect((error.line, error.column) == (c.line, c.column), "\(error)")
            #expect(error.message.contains(c.says), "\(error.message)")
        }
    }

    /// perimeter's own output is a field log: simulator keys ignored, other kinds skipped, free columns kept.
    @Test func readsPerimetersOwnOutputAndFreeColumns() throws {
        let jsonl = """
            {"time":"2026-10-05T09:00:00.000Z","device":"walker-1","region":"store-1","kind":"monitor-start","lat":48.8566,"lon":2.3522,"distance":10}
            {"time":"2026-10-05T09:04:05.000Z","device":"walker-1","region":"store-1","kind":"enter","lat":48.8566,"lon":2.3522,"distance":-3.5,"crossedAt":"2026-10-05T09:03:58.000Z","detectedAt":"2026-10-05T09:04:00.000Z","os":"iOS 26.1"}
            """
        let log = try read(jsonl)
        #expect(log.skipped == 1)
        let event = try #require(log.events.first)
        #expect(log.events.count == 1)
        #expect(event.kind == .enter && event.detectedAt == Timestamp(iso8601: "2026-10-05T09:04:00Z"))
        #expect(event.extra == ["os": "iOS 26.1"])
        #expect(event.coordinate == Coordinate(latitude: 48.8566, longitude: 2.3522))
        let csv =
            "time,device,region,kind,lat,lon,distance,crossedAt,arrival,departure,duration,rule,detectedAt,model\r\n"
            + "2026-10-05T09:04:05.000Z,walker-1,store-1,enter,48.8566,2.3522,-3.5,2026-10-05T09:03:58.000Z,,,,,2026-10-05T09:04:00.000Z,\"Pixel 8, black\"\r\n"
        let fromCSV = try read(csv, ext: "csv")
        #expect(fromCSV.events.map(\.time) == log.events.map(\.time))
        #expect(fromCSV.events.first?.extra == ["model": "Pixel 8, black"])
    }

    /// A line past the cap is refused by its length, not read.
    @Test func refusesAnEndlessLine() throws {
        let text = #"{"device":""# + String(repeating: "x", count: ObservedLog.maximumRowBytes) + #""}"#
        #expect(throws: ObservedLogErrors.self) { try read(text) }
    }
}
