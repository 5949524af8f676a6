import Documents
import Foundation
import Geofencing
import ScenarioFormat
import TestSupport
import Testing
import Time

/// A scenario of the README's visit with one `expect:` entry (on line 13) and `top` above it.
private func load(_ entry: String, top: String = "noise: {sigma: 10m, seed: 3}\nruns: 50") throws(ScenarioErrors) -> Scenario
{
    let track = PerimeterProcess.root.appendingPathComponent("Tracks/lorrenzillos-visit.gpx").path
    let text = """
        name: measures
        start: 2016-01-10T12:00:00Z
        profile: ios
        regions:
          - id: lorrenzillos
            circle: {lat: 37.703026, lon: -121.759735, radius: 300}
        devices:
          - {id: phone, track: "\(track)", pace: 1}
        \(top)
        expect:
          - \(entry)

        """
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("measure-\(UUID().uuidString).yaml")
    _ = FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8))
    defer { try? FileManager.default.removeItem(at: file) }
    return try ScenarioLoader.load(path: file.path)
}

private let noon = Timestamp.parse(iso8601: "2016-01-10T12:01:37Z", localZone: nil)!.0

@Suite("Expectations: delay and distance measured over runs")
struct ExpectationMeasureTests {
    @Test(
        "delay: and distance: decode to their statistics' bounds, in seconds and metres",
        arguments: [
            (
                "{kind: enter, delay: {since: \"12:01:37\", median: {atMost: 30s}, p90: {atLeast: 5s, atMost: 1min}}}",
                [
                    ExpectationMeasure(
                        .delay(since: noon),
                        limits: [.init(.median, Bounds(atMost: 30)), .init(.p90, Bounds(atLeast: 5, atMost: 60))])
                ]
            ),
            (
                "{kind: exit, distance: {mean: {atLeast: -5m, atMost: 1.5km}}}",
                [ExpectationMeasure(.distance, limits: [.init(.mean, Bounds(atLeast: -5, atMost: 1500))])]
            ),
            (
                "{kind: exit, distance: {p10: {atLeast: 10m}}, delay: {since: \"12:01:37\", mean: {atLeast: -10s}}}",
                [
                    ExpectationMeasure(.delay(since: noon), limits: [.init(.mean, Bounds(atLeast: -10))]),
                    ExpectationMeasure(.distance, limits: [.init(.p10, Bounds(atLeast: 10))]),
                ]
            ),
        ])
    func decodes(entry: String, measures: [ExpectationMeasure]) throws {
        let expectation = try #require(try load(entry).expectations.first)
        #expect(expectation.measures == measures)
        // Without another condition, the expectation asks for some matching event.
        #expect(expectation.condition == .count(CountBounds(atLeast: 1), in: nil))
    }

    @Test(
        "A measure keeps its condition and window",
        arguments: [
            "{kind: enter, between: [\"12:00:00\", \"12:05:00\"], delay: {since: \"12:01:37\", median: {atMost: 30s}}}"
        ])
    func keepsWindow(entry: String) throws {
        let expectation = try #require(try load(entry).expectations.first)
        guard case .between = expectation.condition else {
            Issue.record("\(expectation.condition)")
            return
        }
        #expect(expectation.measures.count == 1)
    }

    @Test(
        "A bad measure is an error at its key path",
        arguments: [
            (
                "{kind: enter, delay: {since: \"12:01:37\", median: {atMost: 30s}}}", "", "expect[0].delay",
                "a delay is measured over a Monte Carlo batch: add runs: N (say 200) at the top of the scenario, with noise:"
            ),
            (
                "{kind: enter, delay: {median: {atMost: 30s}}}", "noise: {sigma: 10m}\nruns: 5", "expect[0].delay.since",
                "missing; expected a time the delay is measured from, such as the true crossing \"12:06:40\""
            ),
            (
                "{kind: enter, delay: {since: \"12:01:37\"}}", "noise: {sigma: 10m}\nruns: 5", "expect[0].delay",
                "expected {since: TIME, median: {atLeast: 0s, atMost: 30s}} (since: the true crossing; any of p10, median, mean, p90), got a mapping"
            ),
            (
                "{kind: enter, distance: {median: {atLeast: 9m, atMost: 3m}}}", "noise: {sigma: 10m}\nruns: 5",
                "expect[0].distance.median",
                "atMost (3.0) is less than atLeast (9.0)"
            ),
            (
                "{kind: enter, distance: {medain: {atMost: 3m}}}", "noise: {sigma: 10m}\nruns: 5",
                "expect[0].distance.medain",
                "unknown key \"medain\"; did you mean \"median\"?"
            ),
        ])
    func rejects(entry: String, top: String, keyPath: String, message: String) {
        do {
            let scenario = try load(entry, top: top)
            Issue.record("loaded \(scenario.expectations)")
        } catch {
            #expect(error.errors.map(\.keyPath) == [keyPath], "\(error)")
            #expect(error.errors.first.map { $0.message.hasPrefix(message) } == true, "\(error)")
        }
    }
}
