import Foundation
import Geofencing
import TestSupport
import Testing

@testable import WireFormat

@Suite struct JSONLinesTests {
    @Test(arguments: formatSamples)
    func lineReadsBackWithJSONSerialization(sample: EventSample) throws {
        let line = JSONLines.encode(sample.event)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let expected = expectedFields(sample.event)
        #expect(object.count == expected.count)
        for (key, value) in expected {
            if let number = value as? Double {
                // Foundation's JSONSerialization on Linux reads some numbers a few ulps off
                // (0.30000000000000004 as 0.3000000000000001): exactness is checked with python3 below.
                let read = try #require((object[key] as? NSNumber)?.doubleValue, "\(key)")
                #expect(abs(read - number) <= 4 * number.ulp, "\(key)")
            } else {
                #expect(object[key] as? String == value as? String, "\(key)")
            }
        }
    }

    @Test(arguments: formatSamples)
    func keysAreInWireOrder(sample: EventSample) throws {
        var parser = FlatJSONParser(Array(JSONLines.encode(sample.event).utf8))
        let keys = try parser.object().map(\.0)
        let extra: [String] =
            switch sample.event.kind {
            case .enter, .exit: ["crossedAt"]
            case .visit: ["arrival", "departure", "duration"]
            case .dwell: ["rule", "duration"]
            default: []
            }
        #expect(keys == ["time", "device", "region", "kind", "lat", "lon", "distance"] + extra)
    }

    @Test(arguments: formatSamples)
    func roundTripsThroughDecode(sample: EventSample) throws {
        let decoded = try JSONLines.decode(line: JSONLines.encode(sample.event))
        #expect(decoded == WireEvent(sample.event))
        #expect(JSONLines.encode(decoded) == JSONLines.encode(sample.event))
    }

    @Test func exactText() {
        let event = samples[3].event
        #expect(
            JSONLines.encode(event)
                == #"{"time":"2016-01-10T12:03:10.250Z","device":"line1\nline2\r","region":"café ☕️","kind":"enter","lat":37.703026,"lon":-121.759735,"distance":-12.5,"crossedAt":"2016-01-10T12:03:05.000Z"}"#
        )
        #expect(JSONLines.encode(samples[6].event).hasSuffix(#""rule":"Thanks, \"friend\" 👋","duration":260.0}"#))
        #expect(JSONLines.encode(samples[4].event).contains(#""device":"back\\slash\ttab\u0001\u001b""#))
        #expect(JSONLines.encode(samples[7].event).contains(#""device":"\u2028sep""#))
    }

    struct NumberCase: CustomTestStringConvertible, Sendable {
        let value: Double
        let text: String?
        var testDescription: String { "\(value) → \(text ?? "null")" }
    }

    @Test(arguments: [
        NumberCase(value: -3, text: "-3.0"), NumberCase(value: 0.25, text: "0.25"), NumberCase(value: -0.0, text: "-0.0"),
        NumberCase(value: 1e-5, text: "1e-05"), NumberCase(value: 1.5e20, text: "1.5e+20"),
        NumberCase(value: 0.1 + 0.2, text: "0.30000000000000004"), NumberCase(value: .infinity, text: nil),
        NumberCase(value: -.infinity, text: nil), NumberCase(value: .nan, text: nil),
    ])
    func numbers(case c: NumberCase) throws {
        #expect(EventFormatting.number(c.value) == c.text)
        var event = samples[0].event
        event.distance = c.value
        let line = JSONLines.encode(event)
        _ = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        if let text = c.text {
            #expect(line.contains("\"distance\":\(text)"))
            #expect(try JSONLines.decode(line: line).distance.bitPattern == c.value.bitPattern)
        } else {
            #expect(line.contains("\"distance\":null"))
        }
    }

    struct BadLine: CustomTestStringConvertible, Sendable {
        let name: String
        let line: String
        let message: String
        /// The column a syntax error carries (`WireFormatError.column`); nil for an event's content.
        var column: Int? = nil
        var testDescription: String { name }
    }

    static let start = #"{"time":"2016-01-10T12:00:00.000Z","device":"d","region":"r","#

    @Test(arguments: [
        BadLine(name: "not JSON", line: "hello", message: "not a JSON event object: expected '{' at column 1", column: 1),
        BadLine(
            name: "unknown kind", line: start + #""kind":"arrive","lat":1,"lon":2,"distance":3}"#,
            message:
                #""kind" is "arrive", not one of monitor-stop, monitor-failed, monitor-start, exit, visit, enter, dwell"#),
        BadLine(
            name: "missing crossedAt", line: start + #""kind":"enter","lat":1,"lon":2,"distance":3}"#,
            message: #""crossedAt" is missing (a enter event has it)"#),
        BadLine(
            name: "foreign key", line: start + #""kind":"monitor-start","lat":1,"lon":2,"distance":3,"rule":"x"}"#,
            message: #""rule" does not belong in a monitor-start event"#),
        BadLine(
            name: "string for a number", line: start + #""kind":"monitor-start","lat":"1","lon":2,"distance":3}"#,
            message: #""lat" must be a number"#),
        BadLine(
            name: "bad time",
            line: #"{"time":"yesterday","device":"d","region":"r","kind":"monitor-start","lat":1,"lon":2,"distance":3}"#,
            message: #""time" is not an ISO 8601 time: "yesterday""#),
        BadLine(
            name: "duplicate key", line: start + #""kind":"monitor-start","lat":1,"lat":1,"lon":2,"distance":3}"#,
            message: #"the key "lat" appears twice"#),
        BadLine(
            name: "nested", line: start + #""kind":"monitor-start","lat":[1],"lon":2,"distance":3}"#,
            message: "not a JSON event object: a nested object or array at column 91", column: 91),
    ])
    func decodeErrors(bad: BadLine) {
        #expect(throws: WireFormatError(reason: bad.message, column: bad.column)) { try JSONLines.decode(line: bad.line) }
    }

    @Test func decodeLogNamesTheLine() throws {
        let good = JSONLines.encode(samples[0].event)
        let log = good + "\n\n" + good + "\r\n" + "{}\n"
        #expect(throws: WireFormatError(line: 4, reason: #""kind" is missing"#)) { try JSONLines.decode(log: log) }
        #expect(try JSONLines.decode(log: good + "\n" + good + "\n").count == 2)
    }

    @Test func decodeAcceptsHandWrittenLines() throws {
        let line =
            #" { "kind" : "dwell", "rule": "caf\u00e9 \ud83d\udc4b", "duration": 10, "time": "2016-01-10T12:00:00Z", "#
            + #""device": "d", "region": "r", "lat": 1, "lon": -2.5e1, "distance": null } "#
        let event = try JSONLines.decode(line: line)
        #expect(event.rule == "café 👋")
        #expect(event.duration == .seconds(10))
        #expect(event.lon == -25)
        #expect(event.distance.isNaN)
    }

    @Test func python3ReadsTheSameFieldsInTheSameOrderExactly() throws {
        let log = samples.map { JSONLines.encode($0.event) + "\n" }.joined()
        let script = """
            import sys, json
            rows = [[[k, repr(v) if isinstance(v, float) else v] for k, v in json.loads(line).items()] for line in sys.stdin.read().split("\\n") if line]
            print(json.dumps(rows))
            """
        guard let output = try python(script, input: log) else { return }
        let rows = try JSONDecoder().decode([[[String]]].self, from: Data(output.utf8))
        #expect(rows == samples.map { expectedPythonView($0.event) })
    }
}
