import Foundation
import Geofencing
import ScenarioFormat
import Testing
import Time

/// Local times a scenario's `timezone:` clocks skip or show twice (issue 49, H12), hand-computed in
/// America/Los_Angeles: on 2016-03-13 its clocks went from 02:00 PST (-08:00, 10:00 UTC) to 03:00 PDT
/// (-07:00), so 02:30 is no time there and is read as the gap's end, 10:00 UTC; on 2016-11-06 they went back
/// from 02:00 PDT (09:00 UTC) to 01:00 PST, so 01:30 is 08:30 UTC (the first, taken) and 09:30 UTC. Each
/// place is warned of; a track's and a table's times in order stay in order, and no fix is dropped for it.
@Suite("Local times in a clock change")
struct ClockChangeTimesTests {
    static let gapAdvice = "write it with its offset, or as a time the clocks show"

    @Test("An expectation's at: in the gap or the overlap is warned of at its place")
    func expectationTimes() throws {
        let gap = fixture("clock-change/gap.yaml"), fold = fixture("clock-change/fold.yaml")
        let gapScenario = try ScenarioLoader().load(path: gap)
        let foldScenario = try ScenarioLoader().load(path: fold)
        #expect(firstTimes(gapScenario) == [time("2016-03-13T10:00:00Z")])
        #expect(firstTimes(foldScenario) == [time("2016-11-06T08:30:00Z")])
        #expect(
            gapScenario.warnings.contains(
                "\(gap):9:37: expect[0].at: 02:30:00 on 2016-03-13 is not a time on America/Los_Angeles's clocks: they "
                    + "skip it, turned forward that night, so it is read as the first time after the gap, "
                    + "2016-03-13T03:00:00.000 there (2016-03-13T10:00:00.000Z); " + Self.gapAdvice),
            "\(gapScenario.warnings)")
        #expect(
            foldScenario.warnings == [
                "\(fold):8:37: expect[0].at: 01:30:00 on 2016-11-06 is a time America/Los_Angeles's clocks show twice, "
                    + "turned back that night, so it is read as the first, 2016-11-06T08:30:00.000Z, not the second, "
                    + "2016-11-06T09:30:00.000Z; write it with its offset to say which"
            ])
    }

    @Test("A GPX track's zone-less time in the gap is warned of at its point, and the track keeps its order")
    func trackTimes() throws {
        let path = fixture("clock-change/gap.yaml")
        let scenario = try ScenarioLoader().load(path: path)
        let track = fixture("clock-change/gap.gpx")
        let fixes = try #require(scenario.simulation.devices.first).track.fixes(start: .epoch).flatMap { $0 }
        #expect(fixes.map(\.time) == ["2016-03-13T09:59:00Z", "2016-03-13T10:00:00Z", "2016-03-13T10:10:00Z"].map(time))
        #expect(
            scenario.warnings.contains(
                "\(track):4:1: 2016-03-13T02:30:00.000 is not a time on America/Los_Angeles's clocks: they skip it, "
                    + "turned forward that night, so it is read as the first time after the gap, 2016-03-13T03:00:00.000 "
                    + "there (2016-03-13T10:00:00.000Z); \(Self.gapAdvice) (device \"anna\")"),
            "\(scenario.warnings)")
    }

    @Test("A fix table's zone-less times in the gap and the overlap: every row kept, one warning of each kind")
    func tableTimes() throws {
        let path = fixture("clock-change/table.yaml")
        let scenario = try ScenarioLoader().load(path: path)
        let table = fixture("clock-change/vans.csv")
        let fixes = scenario.simulation.devices.map { $0.track.fixes(start: .epoch).flatMap { $0 }.map(\.time) }
        // Read with the offset before the gap, 02:30 was 10:30 UTC, and the rows at 03:10 and 03:20 were dropped.
        let v: [String] = [
            "2016-03-13T09:30:00Z", "2016-03-13T10:00:00Z", "2016-03-13T10:10:00Z", "2016-03-13T10:20:00Z",
            "2016-11-06T07:50:00Z", "2016-11-06T08:30:00Z", "2016-11-06T10:10:00Z",
        ]
        let w: [String] = ["2016-03-13T10:00:00Z"]
        #expect(fixes == [v.map(time), w.map(time)])
        let zoneless = "\(table): 8 times have no zone and were read in America/Los_Angeles"
        let gap: String =
            "\(table):3:3: 2016-03-13T02:30:00 is not a time on America/Los_Angeles's clocks: they skip it, turned "
            + "forward that night, so it is read as the first time after the gap, 2016-03-13T03:00:00.000 there "
            + "(2016-03-13T10:00:00.000Z); so is 1 more time of this fix table (at 9:3); write them with their "
            + "offsets, or as times the clocks show"
        let overlap: String =
            "\(table):7:3: 2016-11-06T01:30:00 is a time America/Los_Angeles's clocks show twice, turned back that "
            + "night, so it is read as the first, 2016-11-06T08:30:00.000Z, not the second, "
            + "2016-11-06T09:30:00.000Z; write it with its offset to say which"
        #expect(scenario.warnings == [zoneless, gap, overlap])
    }

    /// Each expectation's time (`at`, or a window's start).
    private func firstTimes(_ scenario: Scenario) -> [Timestamp?] {
        scenario.expectations.map { expectation -> Timestamp? in
            switch expectation.condition {
            case let .at(time, _): return time
            case let .between(window): return window.start
            default: return nil
            }
        }
    }
}
