import Foundation
import Geodesy
import Geofencing
import Time
import WireFormat

// Events and helpers shared by the tests of the sinks (core, SQLite, HTTP) and of the wire format.

public func at(_ text: String) -> Timestamp {
    guard let time = Timestamp(iso8601: text) else { fatalError("bad time \(text)") }
    return time
}

/// A hand-built event per kind, with ids that need escaping or quoting, and a readable name.
public struct EventSample: CustomStringConvertible, Sendable {
    public let name: String
    public let event: GeofenceEvent
    public var description: String { name }
}

public let samples: [EventSample] = {
    let p = Coordinate(latitude: 37.703026, longitude: -121.759735)
    func event(
        _ time: String, _ device: String, _ region: String, _ distance: Double,
        _ detail: GeofenceEvent.Detail, at coordinate: Coordinate = p
    ) -> GeofenceEvent {
        GeofenceEvent(
            time: at(time), device: device, region: region, regionIndex: 0, coordinate: coordinate,
            distance: distance, detail: detail)
    }
    return [
        EventSample(
            name: "monitor-start, plain ids", event: event("2016-01-10T12:00:00Z", "phone", "cafe", 512.25, .monitorStart)),
        EventSample(
            name: "monitor-stop, comma in region", event: event("2016-01-10T12:00:01Z", "phone", "a,b", 3.0, .monitorStop)),
        EventSample(
            name: "monitor-failed, quotes", event: event("2016-01-10T12:00:02Z", "say \"hi\"", "it's", -3.0, .monitorFailed)),
        EventSample(
            name: "enter, newline and CR in device",
            event: event(
                "2016-01-10T12:03:10.250Z", "line1\nline2\r", "café ☕️", -12.5,
                .enter(crossedAt: at("2016-01-10T12:03:05Z")))),
        EventSample(
            name: "exit, backslash tab and control chars",
            event: event(
                "2016-01-10T12:07:30.999Z", "back\\slash\ttab\u{1}\u{1B}", "日本語", 0.1 + 0.2,
                .exit(crossedAt: at("2016-01-10T12:07:25.5Z")))),
        EventSample(
            name: "visit, sub-millisecond times",
            event: event(
                "2016-01-10T12:07:30.000999Z", "phone", "cafe", 1e-7,
                .visit(arrival: at("2016-01-10T12:03:05.0015Z"), departure: at("2016-01-10T12:07:25Z")))),
        EventSample(
            name: "dwell, rule with quotes, comma and emoji",
            event: event(
                "2016-01-11T00:00:00Z", "phone 2", "cafe", -1234567.891,
                .dwell(rule: "Thanks, \"friend\" 👋", ruleIndex: 2, duration: .seconds(260)))),
        EventSample(
            name: "dwell, fractional duration and extreme coordinates",
            event: event(
                "1969-12-31T23:59:59.5Z", "\u{2028}sep", "", .leastNonzeroMagnitude,
                .dwell(rule: "", ruleIndex: 0, duration: TimeSpan(microseconds: 1_500_001)),
                at: Coordinate(latitude: -90, longitude: 179.99999999999997))),
    ]
}()

/// `samples` and two events whose ids are too long to be stored inside their strings (over 15 bytes): the
/// formats read such a string's bytes where they lie, so each path (plain, and one needing escapes) is
/// checked. For the tests of one event at a time; the tests of a whole log keep to `samples`.
public let formatSamples: [EventSample] =
    samples
    + {
        let p = Coordinate(latitude: 59.92698, longitude: 30.319762)
        func at(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }
        func event(
            _ time: String, _ device: String, _ region: String, _ distance: Double,
            _ detail: GeofenceEvent.Detail
        ) -> GeofenceEvent {
            GeofenceEvent(
                time: at(time), device: device, region: region, regionIndex: 0, coordinate: p,
                distance: distance, detail: detail)
        }
        return [
            EventSample(
                name: "enter, long ids (kept apart from the string, not inline)",
                event: event(
                    "2024-05-01T09:00:00Z", "delivery-van-0042-of-fleet-north", "depot-gate-long-region-identifier",
                    59.92698,
                    .enter(crossedAt: at("2024-05-01T08:59:58Z")))),
            EventSample(
                name: "exit, long ids that need escaping",
                event: event(
                    "2024-05-01T09:00:01Z", "a device called \"north, gate 7\"\n",
                    "a region with a comma, a quote \" and a tab\t", 30.319762,
                    .exit(crossedAt: at("2024-05-01T09:00:00.5Z")))),
        ]
    }()

/// `formatSamples`, and those of the kinds that can be delivered late (`WireField.detectedAt.isCarried(by:)`;
/// the engine delays no other) again delivered late, `detectedAt` 5 s before their time: an event of every
/// kind with and without each optional field, for the tests that hold a format's fields to the wire schema.
public let schemaSamples: [EventSample] =
    formatSamples
    + formatSamples.filter {
        WireField.detectedAt.isCarried(by: $0.event.kind)
    }.map { sample in
        var event = sample.event
        event.detectedAt = event.time - .seconds(5)
        return EventSample(name: sample.name + ", delivered late", event: event)
    }

/// A fresh empty directory (`TemporaryFolders`).
public func temporaryDirectory() throws -> String {
    try TemporaryFolders.make("sinks").path
}

public func contents(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}

public func files(in directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
}

/// Runs `events` through `sink` and finishes it.
public func run(_ sink: any EventSink, _ events: [GeofenceEvent]) throws {
    for event in events { try sink.send(event) }
    try sink.finish()
}

/// A strict RFC 4180 reader: records of fields, CRLF between records, quoted fields with doubled quotes.
public func readCSV(_ text: String) throws -> [[String]] {
    struct Malformed: Error { let at: Int }
    let chars = Array(text.unicodeScalars)
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var i = 0
    var atFieldStart = true
    while i < chars.count {
        let c = chars[i]
        if atFieldStart && c == "\"" {
            i += 1
            while true {
                guard i < chars.count else { throw Malformed(at: i) }
                if chars[i] == "\"" {
                    if i + 1 < chars.count && chars[i + 1] == "\"" { field.unicodeScalars.append("\""); i += 2; continue }
                    i += 1
                    break
                }
                field.unicodeScalars.append(chars[i])
                i += 1
            }
            atFieldStart = false
            guard i == chars.count || chars[i] == "," || chars[i] == "\r" else { throw Malformed(at: i) }
            continue
        }
        switch c {
        case ",":
            record.append(field); field = ""; atFieldStart = true; i += 1
        case "\r":
            guard i + 1 < chars.count, chars[i + 1] == "\n" else { throw Malformed(at: i) }
            record.append(field); records.append(record); record = []; field = ""; atFieldStart = true; i += 2
        case "\n", "\"":
            throw Malformed(at: i)  // a bare LF or a quote inside an unquoted field
        default:
            field.unicodeScalars.append(c); atFieldStart = false; i += 1
        }
    }
    guard atFieldStart && field.isEmpty && record.isEmpty else { throw Malformed(at: i) }  // last record ends in CRLF
    return records
}

/// The wire fields of an event as (key, text-or-number) pairs in wire order (SEMANTICS §7, written out
/// here independently of the encoders), for comparing with readers.
public func expectedFields(_ event: GeofenceEvent) -> [(String, Any)] {
    let wire = WireEvent(event)
    var fields: [(String, Any)] = [
        ("time", wire.time.iso8601), ("device", wire.device), ("region", wire.region),
        ("kind", wire.kind.description), ("lat", wire.lat), ("lon", wire.lon), ("distance", wire.distance),
    ]
    switch wire.kind {
    case .enter, .exit:
        fields.append(("crossedAt", wire.crossedAt!.iso8601))
    case .visit:
        fields += [
            ("arrival", wire.arrival!.iso8601), ("departure", wire.departure!.iso8601),
            ("duration", wire.duration!.seconds),
        ]
    case .dwell:
        fields += [("rule", wire.rule!), ("duration", wire.duration!.seconds)]
    case .monitorStart, .monitorStop, .monitorFailed:
        break
    }
    return fields
}

/// Runs a python3 script with `input` on standard input and returns its standard output, or nil when
/// python3 is not installed (the tests that use it then check less).
public func python(_ script: String, input: String) throws -> String? {
    let candidates =
        ["/usr/bin/python3", "/usr/local/bin/python3"]
        + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/python3" }
    guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        return nil
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["-c", script]
    let stdin = Pipe(), stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let data = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    struct PythonFailed: Error { let status: Int32 }
    guard process.terminationStatus == 0 else { throw PythonFailed(status: process.terminationStatus) }
    return String(decoding: data, as: UTF8.self)
}

/// The fields as python3 reads them: `[[key, value], …]` per event, numbers as `repr` strings
/// (Python's repr is the shortest round-trip text, like Swift's description).
public func expectedPythonView(_ event: GeofenceEvent) -> [[String]] {
    expectedFields(event).map { key, value in
        if let number = value as? Double { return [key, number.isFinite ? number.description : "None"] }
        return [key, value as! String]
    }
}
