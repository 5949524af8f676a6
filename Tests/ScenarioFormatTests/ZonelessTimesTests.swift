import Documents
import Foundation
import ScenarioFormat
import Testing
import Time

/// Times a scenario writes without a zone (issue 42 item 10, docs/SCENARIO-REFERENCE.md "Keys"): an expectation's
/// ISO time read as UTC gets one warning for the list, at the first; with `timezone:` they are read on its
/// clocks without one; a local time those clocks skip (a gap, clocks turned forward) or show twice (an
/// overlap) is said at its place.
@Suite("Scenario times without a zone")
struct ZonelessTimesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var fixture: String
        /// The clock's start and the expectations' first times (`at`, or a window's start), UTC.
        var start: String
        var times: [String]
        /// Each warning after `FILE:`.
        var warnings: [String]
        var testDescription: String { fixture }
    }

    static let utcAdvice =
        "write them with Z or an offset, or give the scenario timezone: NAME (such as Europe/Madrid) if they are local times"

    @Test(arguments: [
        Case(
            fixture: "utc-expectations.yaml", start: "2024-05-01T08:00:00Z",
            times: ["2024-05-01T09:00:00Z", "2024-05-01T09:10:00Z", "2024-05-01T09:20:00Z"],
            warnings: [
                "8:37: expect[0].at: 2024-05-01T09:00:00 has no zone, so it is read as UTC (2024-05-01T09:00:00.000Z), "
                    + "and so is 1 more expectation time; " + utcAdvice
            ]),
        Case(
            fixture: "one-utc-expectation.yaml", start: "2024-05-01T08:00:00Z", times: ["2024-05-01T09:00:00Z"],
            warnings: [
                "7:37: expect[0].at: 2024-05-01T09:00:00 has no zone, so it is read as UTC (2024-05-01T09:00:00.000Z); "
                    + "write it with Z or an offset, or give the scenario timezone: NAME (such as Europe/Madrid) if it is a local time"
            ]),
        // Madrid is +02:00 in May: 10:00 is 08:00 UTC; the time of day 11:10 is on Madrid's date and clocks.
        Case(
            fixture: "zoned-expectations.yaml", start: "2024-05-01T08:00:00Z",
            times: ["2024-05-01T09:00:00Z", "2024-05-01T09:10:00Z"], warnings: []),
        // 02:30 and 02:45 are in the gap (02:00 PST to 03:00 PDT): both read as its end, 03:00 PDT (10:00 UTC),
        // so that 03:15 (10:15 UTC) stays after them.
        Case(
            fixture: "gap-start.yaml", start: "2016-03-13T10:00:00Z",
            times: ["2016-03-13T10:00:00Z", "2016-03-13T10:15:00Z"],
            warnings: [
                "2:8: start: 2016-03-13T02:30:00 is not a time on America/Los_Angeles's clocks: they skip it, turned "
                    + "forward that night, so it is read as the first time after the gap, 2016-03-13T03:00:00.000 there "
                    + "(2016-03-13T10:00:00.000Z); write it with its offset, or as a time the clocks show",
                "8:37: expect[0].at: 2016-03-13T02:45:00 is not a time on America/Los_Angeles's clocks: they skip it, "
                    + "turned forward that night, so it is read as the first time after the gap, 2016-03-13T03:00:00.000 "
                    + "there (2016-03-13T10:00:00.000Z); write it with its offset, or as a time the clocks show",
            ]),
        // 01:30 came twice (PDT, then PST): the first, 08:30 UTC, said with the second.
        Case(
            fixture: "overlap-start.yaml", start: "2016-11-06T08:30:00Z", times: [],
            warnings: [
                "2:8: start: 2016-11-06T01:30:00 is a time America/Los_Angeles's clocks show twice, turned back that "
                    + "night, so it is read as the first, 2016-11-06T08:30:00.000Z, not the second, "
                    + "2016-11-06T09:30:00.000Z; write it with its offset to say which"
            ]),
    ])
    func readAndSaid(_ c: Case) throws {
        let path = fixture("zoneless/" + c.fixture)
        let scenario = try ScenarioLoader().load(path: path)
        #expect(scenario.simulation.start == time(c.start))
        let firstTimes = scenario.expectations.map { expectation -> Timestamp? in
            switch expectation.condition {
            case let .at(time, _): return time
            case let .between(window): return window.start
            default: return nil
            }
        }
        #expect(firstTimes == c.times.map(time))
        #expect(scenario.warnings == c.warnings.map { path + ":" + $0 })
    }
}
