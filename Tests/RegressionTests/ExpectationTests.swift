import Geofencing
import ReadableText
import Regression
import ScenarioFormat
import Testing
import Time
import WireFormat

/// The day of the README's scenario, plus a pizzeria visited later by the phone and by a tablet.
let day: [WireEvent] = [
    event(.monitorStart, "lorrenzillos", at: "12:00:00", distance: 1201.2),
    event(.enter, "lorrenzillos", at: "12:01:57", crossedAt: "12:01:37"),
    event(.dwell, "lorrenzillos", at: "12:02:07"),
    event(.exit, "lorrenzillos", at: "12:05:00", crossedAt: "12:04:40"),
    event(.visit, "lorrenzillos", at: "12:05:00"),
    event(.enter, "pizzeria", at: "12:10:03"),
    event(.enter, "pizzeria", "tablet", at: "12:20:00"),
]

struct ExpectationCase: Sendable, CustomTestStringConvertible {
    var id: String
    var expectation: EventExpectation
    /// Nil: it holds.
    var failure: String?
    var testDescription: String { id }
}

private func expect(
    _ kind: GeofenceEvent.Kind, device: String? = nil, region: String? = nil, rule: String? = nil,
    _ condition: EventExpectation.Condition
) -> EventExpectation {
    EventExpectation(kind: kind, device: device, region: region, rule: rule, condition: condition)
}

private func window(_ a: String, _ b: String) -> TimeWindow { TimeWindow(t(a), t(b)) }

let expectationCases: [ExpectationCase] = [
    // at / within
    ExpectationCase(
        id: "at: exact time passes",
        expectation: expect(.enter, device: "phone", region: "lorrenzillos", .at(t("12:01:57"), within: .zero))),
    ExpectationCase(
        id: "at: within the tolerance passes",
        expectation: expect(.enter, region: "lorrenzillos", .at(t("12:02:27"), within: .seconds(30)))),
    ExpectationCase(
        id: "at: just outside the tolerance fails",
        expectation: expect(.enter, device: "phone", region: "lorrenzillos", .at(t("12:01:23"), within: .seconds(30))),
        failure: "expected enter of lorrenzillos by phone at 12:01:23 ± 30 s; the nearest was at 12:01:57 (+34 s)"),
    ExpectationCase(
        id: "at: the nearest of several, earlier",
        expectation: expect(.enter, .at(t("12:15:00"), within: .seconds(60))),
        failure: "expected enter at 12:15:00 ± 1 min; the nearest was at 12:10:03 (-4 min 57 s)"),
    ExpectationCase(
        id: "at: no such event",
        expectation: expect(.monitorFailed, .at(t("12:00:00"), within: .zero)),
        failure: "expected monitor-failed at 12:00:00; there was none"),
    ExpectationCase(
        id: "at: device filter",
        expectation: expect(.enter, device: "tablet", .at(t("12:10:03"), within: .seconds(5))),
        failure: "expected enter by tablet at 12:10:03 ± 5 s; the nearest was at 12:20:00 (+9 min 57 s)"),
    // between
    ExpectationCase(
        id: "between: inside the window passes",
        expectation: expect(.exit, region: "lorrenzillos", .between(window("12:04:00", "12:06:00")))),
    ExpectationCase(
        id: "between: both ends are included",
        expectation: expect(.exit, region: "lorrenzillos", .between(window("12:05:00", "12:05:00")))),
    ExpectationCase(
        id: "between: too late",
        expectation: expect(.exit, region: "lorrenzillos", .between(window("12:03:00", "12:04:30"))),
        failure:
            "expected exit of lorrenzillos between 12:03:00 and 12:04:30; the nearest was at 12:05:00 (30 s after the window)"
    ),
    ExpectationCase(
        id: "between: too early",
        expectation: expect(.dwell, rule: "Thanks for visiting", .between(window("12:03:00", "12:04:00"))),
        failure:
            "expected dwell \"Thanks for visiting\" between 12:03:00 and 12:04:00; the nearest was at 12:02:07 (53 s before the window)"
    ),
    ExpectationCase(
        id: "between: none at all",
        expectation: expect(.visit, region: "pizzeria", .between(window("12:00:00", "13:00:00"))),
        failure: "expected visit of pizzeria between 12:00:00 and 13:00:00; there was none"),
    // count
    ExpectationCase(
        id: "count: exactly one dwell passes",
        expectation: expect(.dwell, rule: "Thanks for visiting", .count(1, in: nil))),
    ExpectationCase(
        id: "count: of a rule that never fired",
        expectation: expect(.dwell, rule: "Regular", .count(1, in: nil)),
        failure: "expected 1 dwell \"Regular\", got 0"),
    ExpectationCase(
        id: "count: too many",
        expectation: expect(.enter, region: "pizzeria", .count(1, in: nil)),
        failure: "expected 1 enter of pizzeria, got 2 (first at 12:10:03)"),
    ExpectationCase(
        id: "count: plural",
        expectation: expect(.exit, .count(2, in: nil)),
        failure: "expected 2 exits, got 1 (first at 12:05:00)"),
    ExpectationCase(
        id: "count: in a window passes",
        expectation: expect(.enter, .count(2, in: window("12:00:00", "12:10:03")))),
    ExpectationCase(
        id: "count: in a window fails",
        expectation: expect(.enter, .count(3, in: window("12:00:00", "12:15:00"))),
        failure: "expected 3 enters between 12:00:00 and 12:15:00, got 2 (first at 12:01:57)"),
    ExpectationCase(
        id: "count: zero passes when there is none",
        expectation: expect(.monitorStop, .count(0, in: nil))),
    ExpectationCase(
        id: "count: at least one passes with two",
        expectation: expect(.enter, region: "pizzeria", .count(CountBounds(atLeast: 1), in: nil))),
    ExpectationCase(
        id: "count: at least one, of a rule that never fired",
        expectation: expect(.dwell, rule: "Regular", .count(CountBounds(atLeast: 1), in: nil)),
        failure: "expected at least 1 dwell \"Regular\", got 0"),
    ExpectationCase(
        id: "count: at most one, with two",
        expectation: expect(.enter, region: "pizzeria", .count(CountBounds(atMost: 1), in: nil)),
        failure: "expected at most 1 enter of pizzeria, got 2 (first at 12:10:03)"),
    ExpectationCase(
        id: "count: a range in a window",
        expectation: expect(.enter, .count(CountBounds(atLeast: 3, atMost: 5), in: window("12:00:00", "12:15:00"))),
        failure: "expected between 3 and 5 enters between 12:00:00 and 12:15:00, got 2 (first at 12:01:57)"),
    // never
    ExpectationCase(
        id: "never: passes",
        expectation: expect(.enter, region: "mall", .never(in: nil))),
    ExpectationCase(
        id: "never: fails with the count and the first",
        expectation: expect(.enter, region: "pizzeria", .never(in: nil)),
        failure: "expected no enter of pizzeria, got 2 (first at 12:10:03)"),
    ExpectationCase(
        id: "never: in a window passes",
        expectation: expect(.enter, region: "lorrenzillos", .never(in: window("12:00:00", "12:01:56")))),
    ExpectationCase(
        id: "never: in a window fails",
        expectation: expect(.enter, device: "tablet", .never(in: window("12:15:00", "12:30:00"))),
        failure: "expected no enter by tablet between 12:15:00 and 12:30:00, got 1 (first at 12:20:00)"),
    // after
    ExpectationCase(
        id: "after: at most, passes",
        expectation: expect(.dwell, region: "lorrenzillos", .after(atLeast: nil, atMost: .seconds(180)))),
    ExpectationCase(
        id: "after: at most, fails",
        expectation: expect(.dwell, region: "lorrenzillos", .after(atLeast: nil, atMost: .seconds(120))),
        failure:
            "expected dwell of lorrenzillos at most 2 min after the start (12:00:00); the first was at 12:02:07, 2 min 7 s after the start"
    ),
    ExpectationCase(
        id: "after: a range, passes",
        expectation: expect(.dwell, region: "lorrenzillos", .after(atLeast: .seconds(60), atMost: .seconds(300)))),
    ExpectationCase(
        id: "after: a range, too early",
        expectation: expect(.enter, .after(atLeast: .seconds(180), atMost: .seconds(600))),
        failure:
            "expected enter between 3 min and 10 min after the start (12:00:00); the first was at 12:01:57, 1 min 57 s after the start"
    ),
    ExpectationCase(
        id: "after: at least, passes on the first event",
        expectation: expect(.exit, .after(atLeast: .seconds(300), atMost: nil))),
    ExpectationCase(
        id: "after: none",
        expectation: expect(.dwell, region: "pizzeria", .after(atLeast: nil, atMost: .seconds(60))),
        failure: "expected dwell of pizzeria at most 1 min after the start (12:00:00); there was none"),
    // after, since an event of the same device and region
    ExpectationCase(
        id: "since enter: the dwell 10 s after the enter passes",
        expectation: expect(.dwell, region: "lorrenzillos", .since(.enter, atLeast: nil, atMost: .seconds(10)))),
    ExpectationCase(
        id: "since enter: fails with both times",
        expectation: expect(.dwell, .since(.enter, atLeast: nil, atMost: .seconds(5))),
        failure:
            "expected dwell at most 5 s after the enter of its device and region; the first was at 12:02:07, 10 s after the enter at 12:01:57"
    ),
    ExpectationCase(
        id: "since exit: no exit before the first enter",
        expectation: expect(.enter, .since(.exit, atLeast: nil, atMost: .seconds(600))),
        failure:
            "expected enter at most 10 min after the exit of its device and region; the first, at 12:01:57, had no exit of lorrenzillos by phone before it"
    ),
    ExpectationCase(
        id: "since enter: another region's enter does not count",
        expectation: expect(.enter, region: "pizzeria", .since(.enter, atLeast: .seconds(0), atMost: nil)),
        failure:
            "expected enter of pizzeria at least 0 s after the enter of its device and region; the first, at 12:10:03, had no enter of pizzeria by phone before it"
    ),
    ExpectationCase(
        id: "since monitor-start: the exit at least 5 min after monitoring began",
        expectation: expect(.exit, .since(.monitorStart, atLeast: .seconds(300), atMost: nil))),
]

@Suite("Expectations")
struct ExpectationTests {
    @Test("An expectation holds, or fails with its exact sentence", arguments: expectationCases)
    func evaluates(_ c: ExpectationCase) {
        #expect(c.expectation.failure(in: day, clockStart: clockStart) == c.failure)
    }

    @Test("Times on another day than the clock's start are shown in full")
    func otherDay() {
        let e = EventExpectation(kind: .enter, condition: .at(Timestamp(iso8601: "2016-01-11T12:01:57Z")!, within: .zero))
        #expect(
            e.failure(in: day, clockStart: clockStart)
                == "expected enter at 2016-01-11T12:01:57.000Z; the nearest was at 12:20:00 (-23 h 41 min 57 s)")
    }

    @Test(
        "Readable durations",
        arguments: [
            (0, "0 s"), (34, "34 s"), (60, "1 min"), (250, "4 min 10 s"), (3600, "1 h"), (3723, "1 h 2 min 3 s"),
        ])
    func durations(_ seconds: Int64, _ text: String) {
        #expect(TimeSpan.seconds(seconds).readable == text)
        #expect(Readable.signed(.seconds(-seconds)) == (seconds == 0 ? "+0 s" : "-" + text))
        #expect(TimeSpan(microseconds: 500_000).readable == "0.5 s")
    }
}
