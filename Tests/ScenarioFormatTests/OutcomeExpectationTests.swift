import Documents
import Foundation
import Geofencing
import ScenarioFormat
import TestSupport
import Testing

/// A scenario with two regions, a rule and `entries` as its `expect:` list, noise and `runs: 20` unless `top`
/// says otherwise. Entries start on line 14, column 5.
private func load(
    _ entries: [String], top: String = "noise: {sigma: 10m, seed: 1}\nruns: 20"
) throws(ScenarioErrors)
    -> Scenario
{
    let track = PerimeterProcess.root.appendingPathComponent("Tracks/lorrenzillos-visit.gpx").path
    let text = """
        name: outcomes
        start: 2016-01-10T12:00:00Z
        regions:
          - {id: lorrenzillos, circle: {lat: 37.703026, lon: -121.759735, radius: 300}}
          - {id: parking, circle: {lat: 37.70, lon: -121.75, radius: 50}}
        rules:
          - {name: coupon, dwell: 10s}
        devices:
          - {id: phone, track: "\(track)", pace: 1}
        \(top)
        expect:
          - {kind: enter, count: {atLeast: 0}}

        """ + entries.map { "  - " + $0 }.joined(separator: "\n") + "\n"
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("outcome-\(UUID().uuidString).yaml")
    _ = FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8))
    defer { try? FileManager.default.removeItem(at: file) }
    return try ScenarioLoader.load(path: file.path)
}

struct OutcomeDecodingCase: Sendable, CustomTestStringConvertible {
    var entry: String
    var key: OutcomeKey
    var devices: CountBounds
    var probability: ProbabilityBounds
    var testDescription: String { entry }
}

struct BadOutcomeCase: Sendable, CustomTestStringConvertible {
    var entry: String
    var top: String = "noise: {sigma: 10m, seed: 1}\nruns: 20"
    var keyPath: String
    var message: String
    var testDescription: String { entry }
}

@Suite("expect: outcome: how many devices get a rule, an enter or a visit, over the runs")
struct OutcomeExpectationTests {
    @Test(arguments: [
        OutcomeDecodingCase(
            entry: #"outcome: {rule: coupon, devices: {atLeast: 10}, probability: ">= 0.9"}"#, key: .rule("coupon"),
            devices: CountBounds(atLeast: 10), probability: ProbabilityBounds(atLeast: 0.9)),
        OutcomeDecodingCase(
            entry: #"outcome: {rule: coupon, devices: {atMost: 2}, probability: "<= 0.05"}"#, key: .rule("coupon"),
            devices: CountBounds(atMost: 2), probability: ProbabilityBounds(atMost: 0.05)),
        OutcomeDecodingCase(
            entry: #"outcome: {region: parking, kind: visit, devices: {exactly: 0}, probability: "== 1"}"#,
            key: .region("parking", kind: .visit), devices: .exactly(0),
            probability: ProbabilityBounds(atLeast: 1, atMost: 1)),
        OutcomeDecodingCase(
            entry: "outcome: {region: lorrenzillos, kind: enter, devices: 1, probability: {atLeast: 0.5, atMost: 1}}",
            key: .region("lorrenzillos", kind: .enter), devices: .exactly(1),
            probability: ProbabilityBounds(atLeast: 0.5, atMost: 1)),
        OutcomeDecodingCase(
            entry: #"outcome: {rule: coupon, devices: {atLeast: 1, atMost: 3}, probability: ">=0.25"}"#,
            key: .rule("coupon"), devices: CountBounds(atLeast: 1, atMost: 3),
            probability: ProbabilityBounds(atLeast: 0.25)),
    ])
    func decodes(_ c: OutcomeDecodingCase) throws {
        let scenario = try load([c.entry])
        #expect(scenario.expectations.count == 1)  // the event expectation beside it
        let outcome = try #require(scenario.outcomeExpectations.first)
        #expect(outcome.key == c.key)
        #expect(outcome.devices == c.devices)
        #expect(outcome.probability == c.probability)
        #expect(outcome.keyPath == "expect[1].outcome")
        #expect(outcome.line == 14)
    }

    @Test(arguments: [
        BadOutcomeCase(
            entry: #"outcome: {rule: coupons, devices: 1, probability: ">= 0.9"}"#, keyPath: "expect[1].outcome.rule",
            message: #"unknown rule "coupons"; did you mean "coupon"? The scenario's rules are: coupon."#),
        BadOutcomeCase(
            entry: #"outcome: {region: cafe, kind: enter, devices: 1, probability: ">= 0.9"}"#,
            keyPath: "expect[1].outcome.region",
            message: #"unknown region id "cafe". The scenario's regions are: lorrenzillos, parking."#),
        BadOutcomeCase(
            entry: #"outcome: {region: parking, kind: exit, devices: 1, probability: ">= 0.9"}"#,
            keyPath: "expect[1].outcome.kind", message: #"expected enter or visit, got "exit""#),
        BadOutcomeCase(
            entry: #"outcome: {region: parking, devices: 1, probability: ">= 0.9"}"#, keyPath: "expect[1].outcome.kind",
            message: "missing; expected enter or visit"),
        BadOutcomeCase(
            entry: #"outcome: {rule: coupon, kind: enter, devices: 1, probability: ">= 0.9"}"#,
            keyPath: "expect[1].outcome.kind",
            message: "kind goes with region; a rule's outcome is its dwell: leave kind out"),
        BadOutcomeCase(
            entry: #"outcome: {rule: coupon, region: parking, kind: enter, devices: 1, probability: ">= 0.9"}"#,
            keyPath: "expect[1].outcome",
            message: "expected rule or region, got both: an outcome is one rule, or one region's enter or visit"),
        BadOutcomeCase(
            entry: #"outcome: {devices: 1, probability: ">= 0.9"}"#, keyPath: "expect[1].outcome",
            message: "expected rule: NAME (a dwell rule), or region: ID with kind: enter or visit; got neither"),
        BadOutcomeCase(
            entry: #"outcome: {rule: coupon, probability: ">= 0.9"}"#, keyPath: "expect[1].outcome.devices",
            message:
                "missing; expected a number of devices: {atLeast: N}, {atMost: M}, both, {exactly: N}, or an integer N (integers of 0 or more)"
        ),
        BadOutcomeCase(
            entry: #"outcome: {rule: coupon, devices: {exactly: 2, atLeast: 1}, probability: ">= 0.9"}"#,
            keyPath: "expect[1].outcome.devices",
            message: "exactly goes alone: give {exactly: N}, or {atLeast: N, atMost: M}"),
        BadOutcomeCase(
            entry: #"outcome: {rule: coupon, devices: {atLeast: -1}, probability: ">= 0.9"}"#,
            keyPath: "expect[1].outcome.devices.atLeast",
            message: #"expected a number of devices, an integer of 0 or more, got "-1""#),
        BadOutcomeCase(
            entry: #"outcome: {rule: coupon, devices: 1, probability: "> 0.9"}"#, keyPath: "expect[1].outcome.probability",
            message:
                #"expected a share of runs from 0 to 1: ">= 0.9", "<= 0.1", "== 1", or {atLeast: SHARE, atMost: SHARE}, got "> 0.9""#
        ),
        BadOutcomeCase(
            entry: #"outcome: {rule: coupon, devices: 1, probability: ">= 1.5"}"#, keyPath: "expect[1].outcome.probability",
            message:
                #"expected a share of runs from 0 to 1: ">= 0.9", "<= 0.1", "== 1", or {atLeast: SHARE, atMost: SHARE}, got ">= 1.5""#
        ),
        BadOutcomeCase(
            entry: #"outcome: {rule: coupon, devices: 1, probability: ">= 0.9"}"#,
            top: "noise: {sigma: 10m, seed: 1}\n# and no runs:",
            keyPath: "expect[1].outcome.probability",
            message:
                "an outcome's probability is measured over a Monte Carlo batch: add runs: N (say 100) at the top of the scenario, with noise:"
        ),
        BadOutcomeCase(
            entry: #"{outcome: {rule: coupon, devices: 1, probability: ">= 0.9"}, kind: enter}"#, keyPath: "expect[1].kind",
            message: #"unknown key "kind". The keys allowed here are: outcome, id."#),
        BadOutcomeCase(
            entry: #"outcome: {rule: coupon, device: phone, devices: 1, probability: ">= 0.9"}"#,
            keyPath: "expect[1].outcome.device",
            message:
                #"unknown key "device"; did you mean "devices"? The keys allowed here are: rule, region, kind, devices, probability."#
        ),
    ])
    func refuses(_ c: BadOutcomeCase) {
        do {
            _ = try load([c.entry], top: c.top)
            Issue.record("loaded")
        } catch {
            #expect(error.errors.map(\.keyPath) == [c.keyPath], "\(error)")
            #expect(error.errors.first?.message == c.message)
            #expect(error.errors.first?.line == 14)
        }
    }
}
