import Documents
import Foundation
import Geofencing
import ScenarioFormat
import TestSupport
import Testing
import Time

/// A scenario of the README's visit with `entries` as its `expect:` list (one per line, from line 11).
private func load(
    _ entries: [String], start: String = "2016-01-10T12:00:00Z", top: String = ""
) throws(ScenarioErrors) -> Scenario {
    let track = PerimeterProcess.root.appendingPathComponent("Tracks/lorrenzillos-visit.gpx").path
    let text = """
        name: decoding
        start: \(start)
        profile: ios-documented
        regions:
          - id: lorrenzillos
            circle: {lat: 37.703026, lon: -121.759735, radius: 300}
        rules:
          - {name: Thanks for visiting, dwell: 10s, regions: [lorrenzillos]}
        devices:
          - {id: phone, track: "\(track)", pace: 1}
        \(top)
        expect:

        """ + entries.map { "  - " + $0 }.joined(separator: "\n") + "\n"
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("expect-\(UUID().uuidString).yaml")
    _ = FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8))
    defer { try? FileManager.default.removeItem(at: file) }
    return try ScenarioLoader.load(path: file.path)
}

struct DecodingCase: Sendable, CustomTestStringConvertible {
    var entry: String
    var expected: EventExpectation
    var testDescription: String { entry }
}

private func decoded(
    _ kind: GeofenceEvent.Kind, device: String? = nil, region: String? = nil, rule: String? = nil,
    _ condition: EventExpectation.Condition
) -> EventExpectation {
    EventExpectation(kind: kind, device: device, region: region, rule: rule, condition: condition)
}

let decodingCases: [DecodingCase] = [
    DecodingCase(
        entry: #"{kind: enter, device: phone, region: lorrenzillos, at: "12:01:57", within: 30s}"#,
        expected: decoded(.enter, device: "phone", region: "lorrenzillos", .at(t("12:01:57"), within: .seconds(30)))),
    DecodingCase(
        entry: "{kind: enter, at: 12:01:57}",
        expected: decoded(.enter, .at(t("12:01:57"), within: .zero))),
    DecodingCase(
        entry: #"{kind: enter, at: "9:05:00.25", within: 0.5}"#,
        expected: decoded(.enter, .at(t("09:05:00.250"), within: TimeSpan(microseconds: 500_000)))),
    DecodingCase(
        entry: #"{kind: enter, at: "2016-01-11T01:00:00+02:00"}"#,
        expected: decoded(.enter, .at(t("23:00:00"), within: .zero))),
    DecodingCase(
        entry: #"{kind: exit, region: lorrenzillos, between: ["12:04:00", "12:06:00"]}"#,
        expected: decoded(.exit, region: "lorrenzillos", .between(TimeWindow(t("12:04:00"), t("12:06:00"))))),
    DecodingCase(
        entry: "{kind: dwell, rule: Thanks for visiting, count: 1}",
        expected: decoded(.dwell, rule: "Thanks for visiting", .count(1, in: nil))),
    DecodingCase(
        entry: #"{kind: dwell, count: 0, between: ["12:00:00", "12:01:00"]}"#,
        expected: decoded(.dwell, .count(0, in: TimeWindow(t("12:00:00"), t("12:01:00"))))),
    DecodingCase(
        entry: "{kind: dwell, rule: Thanks for visiting, count: {atLeast: 1}}",
        expected: decoded(.dwell, rule: "Thanks for visiting", .count(CountBounds(atLeast: 1), in: nil))),
    DecodingCase(
        entry: #"{kind: enter, count: {atLeast: 1, atMost: 3}, between: ["12:00:00", "12:01:00"]}"#,
        expected: decoded(.enter, .count(CountBounds(atLeast: 1, atMost: 3), in: TimeWindow(t("12:00:00"), t("12:01:00"))))),
    DecodingCase(
        entry: "{kind: exit, count: {atMost: 2}}",
        expected: decoded(.exit, .count(CountBounds(atMost: 2), in: nil))),
    DecodingCase(
        entry: "{kind: monitor-failed, never: true}",
        expected: decoded(.monitorFailed, .never(in: nil))),
    DecodingCase(
        entry: #"{kind: enter, never: true, between: ["12:00:00", "12:01:36"]}"#,
        expected: decoded(.enter, .never(in: TimeWindow(t("12:00:00"), t("12:01:36"))))),
    DecodingCase(
        entry: "{kind: dwell, region: lorrenzillos, after: {atMost: 3m}}",
        expected: decoded(.dwell, region: "lorrenzillos", .after(atLeast: nil, atMost: .seconds(180)))),
    DecodingCase(
        entry: "{kind: dwell, rule: Thanks for visiting, after: {atMost: 30s, since: enter}}",
        expected: decoded(.dwell, rule: "Thanks for visiting", .since(.enter, atLeast: nil, atMost: .seconds(30)))),
    DecodingCase(
        entry: "{kind: dwell, after: {atLeast: 1m, since: start}}",
        expected: decoded(.dwell, .after(atLeast: .seconds(60), atMost: nil))),
    DecodingCase(
        entry: "{kind: dwell, region: lorrenzillos, after: {atLeast: 1m, atMost: 5m}}",
        expected: decoded(.dwell, region: "lorrenzillos", .after(atLeast: .seconds(60), atMost: .seconds(300)))),
]

struct InvalidExpectCase: Sendable, CustomTestStringConvertible {
    var entry: String
    var keyPath: String
    var column: Int
    var message: String
    var testDescription: String { entry }
}

let invalidExpectCases: [InvalidExpectCase] = [
    InvalidExpectCase(
        entry: "{kind: entre, at: 12:00:00}", keyPath: "expect[0].kind", column: 12,
        message: #"expected one of enter, exit, visit, dwell, monitor-start, monitor-stop, monitor-failed, got "entre""#),
    InvalidExpectCase(
        entry: "{region: lorrenzillos, at: 12:00:00}", keyPath: "expect[0].kind", column: 5,
        message:
            "missing; expected an event kind: one of enter, exit, visit, dwell, monitor-start, monitor-stop, monitor-failed"),
    InvalidExpectCase(
        entry: "{kind: enter, region: pizzeria, never: true}", keyPath: "expect[0].region", column: 27,
        message: #"unknown region id "pizzeria". The scenario's regions are: lorrenzillos."#),
    InvalidExpectCase(
        entry: "{kind: enter, device: phon, never: true}", keyPath: "expect[0].device", column: 27,
        message: #"unknown device id "phon"; did you mean "phone"? The scenario's devices are: phone."#),
    InvalidExpectCase(
        entry: "{kind: dwell, rule: Thanks, count: 1}", keyPath: "expect[0].rule", column: 25,
        message: #"unknown rule "Thanks". The scenario's rules are: Thanks for visiting."#),
    InvalidExpectCase(
        entry: "{kind: enter, rule: Thanks for visiting, count: 1}", keyPath: "expect[0].rule", column: 25,
        message: "a rule filter needs kind: dwell (only dwell events have a rule), got kind: enter"),
    InvalidExpectCase(
        entry: "{kind: enter, at: 25:00:00}", keyPath: "expect[0].at", column: 23,
        message:
            #"expected a time: "HH:MM:SS" (on 2016-01-10, the UTC date of the clock's start) or ISO 8601 such as 2016-01-10T12:01:57Z, got "25:00:00""#
    ),
    InvalidExpectCase(
        entry: "{kind: enter, at: 12:00:00, within: -1s}", keyPath: "expect[0].within", column: 41,
        message:
            #"expected a duration of 0 or more (a number of seconds or a string like "20s", "5m", "2h" or "250ms", exact to the microsecond), got "-1s""#
    ),
    InvalidExpectCase(
        entry: "{kind: enter, at: 12:00:00, count: 2}", keyPath: "expect[0]", column: 5,
        message:
            "expected exactly one of at, between, count, never or after (count and never may go with between), got at and count"
    ),
    InvalidExpectCase(
        entry: "{kind: enter}", keyPath: "expect[0]", column: 5,
        message: "expected one of at, between, count, never or after, got none of them"),
    InvalidExpectCase(
        entry: "{kind: enter, count: 1, colour: red}", keyPath: "expect[0].colour", column: 29,
        message:
            "unknown key \"colour\". The keys allowed here are: kind, device, region, rule, at, within, between, count, never, after, probability, delay, distance, id."
    ),
    InvalidExpectCase(
        entry: "{kind: enter, cont: 1}", keyPath: "expect[0].cont", column: 19,
        message:
            "unknown key \"cont\"; did you mean \"count\"? The keys allowed here are: kind, device, region, rule, at, within, between, count, never, after, probability, delay, distance, id."
    ),
    InvalidExpectCase(
        entry: "{kind: enter, count: 1.5}", keyPath: "expect[0].count", column: 26,
        message: #"expected a number of events, an integer of 0 or more, got "1.5""#),
    InvalidExpectCase(
        entry: "{kind: enter, count: {atLeast: 3, atMost: 1}}", keyPath: "expect[0].count", column: 26,
        message: "atMost (1) is less than atLeast (3)"),
    InvalidExpectCase(
        entry: "{kind: enter, count: {atLeast: -1}}", keyPath: "expect[0].count.atLeast", column: 36,
        message: #"expected a number of events, an integer of 0 or more, got "-1""#),
    InvalidExpectCase(
        entry: "{kind: enter, count: {atleast: 1}}", keyPath: "expect[0].count.atleast", column: 27,
        message: #"unknown key "atleast"; did you mean "atLeast"? The keys allowed here are: atLeast, atMost."#),
    InvalidExpectCase(
        entry: "{kind: enter, count: [1, 2]}", keyPath: "expect[0].count", column: 26,
        message:
            "expected {atLeast: N, atMost: M} (one or both, integers of 0 or more), or an integer N for exactly N, got [1, 2]"
    ),
    InvalidExpectCase(
        entry: "{kind: enter, never: false}", keyPath: "expect[0].never", column: 26,
        message: #"expected true (leave never out to expect nothing of the kind), got "false""#),
    InvalidExpectCase(
        entry: #"{kind: enter, between: ["12:05:00"]}"#, keyPath: "expect[0].between", column: 28,
        message: #"expected a window [START, END] of two times, got [12:05:00]"#),
    InvalidExpectCase(
        entry: #"{kind: enter, between: ["12:05:00", "12:01:00"]}"#, keyPath: "expect[0].between", column: 28,
        message: "the window ends before it starts: 2016-01-10T12:01:00.000Z is earlier than 2016-01-10T12:05:00.000Z"),
    InvalidExpectCase(
        entry: #"{kind: enter, between: ["12:00:00", "12:05:00"], within: 3s}"#, keyPath: "expect[0].within", column: 62,
        message: "within goes with at only; use between for a window"),
    InvalidExpectCase(
        entry: "{kind: dwell, after: {atLeast: 5m, atMost: 1m}}", keyPath: "expect[0].after", column: 26,
        message: "atMost (60 s) is less than atLeast (300 s)"),
    InvalidExpectCase(
        entry: "{kind: dwell, after: {}}", keyPath: "expect[0].after", column: 26,
        message:
            "expected {atLeast: DURATION, atMost: DURATION, since: KIND} (one or both bounds; since: an event kind such as enter, or start, the default), got a mapping"
    ),
    InvalidExpectCase(
        entry: "{kind: dwell, after: 3m}", keyPath: "expect[0].after", column: 26,
        message:
            #"expected {atLeast: DURATION, atMost: DURATION, since: KIND} (one or both bounds; since: an event kind such as enter, or start, the default), got "3m""#
    ),
    InvalidExpectCase(
        entry: "~", keyPath: "expect[0]", column: 5,
        message:
            #"expected an expectation: a mapping such as {kind: enter, region: ID, at: "12:01:57", within: 30s}, got nothing (null)"#
    ),
]

@Suite("expect: decoding")
struct ExpectationDecodingTests {
    @Test("Each form of the grammar decodes", arguments: decodingCases)
    func decodes(_ c: DecodingCase) throws {
        let scenario = try load([c.entry])
        let got = try #require(scenario.expectations.first)
        #expect(got.kind == c.expected.kind)
        #expect(got.device == c.expected.device)
        #expect(got.region == c.expected.region)
        #expect(got.rule == c.expected.rule)
        #expect(got.condition == c.expected.condition)
        #expect(got.keyPath == "expect[0]")
        #expect(got.line == 13)
    }

    @Test("A bad entry is an error with its key path, line and column", arguments: invalidExpectCases)
    func rejects(_ c: InvalidExpectCase) {
        do {
            _ = try load([c.entry])
            Issue.record("loaded")
        } catch {
            #expect(error.errors.count == 1, "\(error)")
            let first = error.errors[0]
            #expect(first.keyPath == c.keyPath)
            #expect(first.line == 13)
            #expect(first.column == c.column)
            #expect(first.message == c.message)
        }
    }

    @Test(
        "probability: bounds a share of the scenario's runs",
        arguments: [
            ("{kind: enter, count: 1, probability: {atLeast: 0.9}}", ProbabilityBounds(atLeast: 0.9)),
            ("{kind: enter, count: 2, probability: {atMost: 0.05}}", ProbabilityBounds(atMost: 0.05)),
            ("{kind: enter, count: 1, probability: {atLeast: 0, atMost: 1}}", ProbabilityBounds(atLeast: 0, atMost: 1)),
        ])
    func probability(entry: String, bounds: ProbabilityBounds) throws {
        let scenario = try load([entry], top: "noise: {sigma: 10m, seed: 3}\nruns: 50")
        #expect(scenario.runs == 50)
        #expect(scenario.expectations.first?.probability == bounds)
        #expect(scenario.expectations.first?.condition == .count(entry.contains("count: 2") ? 2 : 1, in: nil))
    }

    @Test(
        "A bad probability or runs: is an error at its place",
        arguments: [
            (
                "{kind: enter, count: 1, probability: {atLeast: 0.9}}", "", "expect[0].probability", 42,
                "a probability is measured over a Monte Carlo batch: add runs: N (say 100) at the top of the scenario, with noise:"
            ),
            (
                "{kind: enter, count: 1, probability: {atLeast: 1.5}}", "noise: {sigma: 10m}\nruns: 5",
                "expect[0].probability.atLeast", 52,
                #"expected a share of runs from 0 to 1, got "1.5""#
            ),
            (
                "{kind: enter, count: 1, probability: {atLeast: 0.9, atMost: 0.5}}", "noise: {sigma: 10m}\nruns: 5",
                "expect[0].probability", 42,
                "atMost (0.5) is less than atLeast (0.9)"
            ),
            (
                "{kind: enter, count: 1, probability: {}}", "noise: {sigma: 10m}\nruns: 5", "expect[0].probability", 42,
                "expected {atLeast: SHARE, atMost: SHARE} (one or both, from 0 to 1), got a mapping"
            ),
            (
                "{kind: enter, count: 1, probability: 0.9}", "noise: {sigma: 10m}\nruns: 5", "expect[0].probability", 42,
                #"expected {atLeast: SHARE, atMost: SHARE} (one or both, from 0 to 1), got "0.9""#
            ),
        ])
    func badProbability(entry: String, top: String, keyPath: String, column: Int, message: String) {
        do {
            _ = try load([entry], top: top)
            Issue.record("loaded")
        } catch {
            #expect(error.errors.map(\.keyPath) == [keyPath], "\(error)")
            #expect(error.errors.first?.column == column)
            #expect(error.errors.first?.message == message)
        }
    }

    @Test(
        "runs: needs noise and a positive count",
        arguments: [
            (
                "runs: 10",
                #"Monte Carlo runs vary the noise seed, and this scenario has no noise; add noise: {sigma: 5m, seed: 1}"#
            ),
            ("noise: {sigma: 5m}\nruns: 0", #"expected a number of Monte Carlo runs, an integer greater than 0, got "0""#),
            ("noise: {sigma: 5m}\nruns: 1000000", "expected at most 100000 runs, got 1000000"),
        ])
    func badRuns(top: String, message: String) {
        do {
            _ = try load(["{kind: enter, count: 1}"], top: top)
            Issue.record("loaded")
        } catch {
            #expect(error.errors.map(\.keyPath) == ["runs"], "\(error)")
            #expect(error.errors.first?.message == message)
        }
    }

    @Test("A time of day is on the clock's start date, never moved to the next day")
    func timeOfDayStaysOnTheStartDate() throws {
        let scenario = try load(["{kind: enter, at: \"08:00:00\"}"], start: "2016-01-10T23:30:00Z")
        #expect(scenario.expectations.first?.condition == .at(t("08:00:00"), within: .zero))
    }
}

/// `2016-01-10T` + `hh:mm:ss`, UTC.
private func t(_ clock: String) -> Timestamp { time("2016-01-10T\(clock)Z") }
