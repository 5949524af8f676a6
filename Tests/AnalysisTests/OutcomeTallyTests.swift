import Analysis
import Geodesy
import Geofencing
import ScenarioFormat
import Testing
import Time

private let noon: Int64 = 1_452_427_200_000_000

/// `"a coupon"` (a dwell of rule coupon at s1), `"b enter s1"`, `"a visit s1"`, `"a exit s1"`.
private func event(_ text: String) -> GeofenceEvent {
    let parts = text.split(separator: " ").map(String.init)
    let time = Timestamp(microsecondsSince1970: noon)
    let detail: GeofenceEvent.Detail
    switch parts[1] {
    case "enter": detail = .enter(crossedAt: time)
    case "exit": detail = .exit(crossedAt: time)
    case "visit": detail = .visit(arrival: time, departure: time)
    default: detail = .dwell(rule: parts[1], ruleIndex: 0, duration: .seconds(600))
    }
    let region = parts.count > 2 ? parts[2] : "s1"
    return GeofenceEvent(
        time: time, device: parts[0], region: region, regionIndex: region == "s1" ? 0 : 1,
        coordinate: Coordinate(latitude: 0, longitude: 0), distance: 0, detail: detail)
}

/// One outcome's expected figures under the one profile, counted by hand.
struct OutcomeCase: CustomTestStringConvertible, Sendable {
    var name: String
    var key: OutcomeKey
    var truth: [String]
    var runs: [[String]]
    var expectedTruth: Int
    var devices: CountSpread
    var falsePositives: (median: Int, mean: Double)
    var falseNegatives: (median: Int, mean: Double)
    /// The devices listed (in the truth or hit in some run) and their shares.
    var listed: [String]
    var shares: [Double]
    var testDescription: String { name }
}

/// Truth: a got the coupon; a and b entered s1; a visited s1. Four runs of one profile.
private let truth = ["a coupon", "a enter", "b enter", "a visit", "a exit"]
private let fourRuns = [
    ["a coupon", "b coupon", "a enter", "b enter"],  // coupon: a, b (b false +)
    ["a coupon", "a enter", "a visit"],  // coupon: a; enter: a (b false −)
    ["c enter"],  // coupon: none (a false −); enter: c (+), a and b (−)
    ["a coupon", "a coupon", "c coupon", "a enter", "a enter", "b enter", "b visit"],  // repeats count once
]

private let cases: [OutcomeCase] = [
    // coupon devices per run 2, 1, 0, 2: sorted 0 1 2 2; p5 rank ⌈0.2⌉ = 1 → 0, median rank 2 → 1,
    // p95 rank ⌈3.8⌉ = 4 → 2, mean 5/4. False + 1 0 0 1 (median rank 2 of 0 0 1 1 → 0, mean 0.5);
    // false − 0 0 1 0 (median 0, mean 0.25). a in runs 0, 1, 3; b in 0; c in 3.
    OutcomeCase(
        name: "a dwell rule, repeats counted once", key: .rule("coupon"), truth: truth, runs: fourRuns,
        expectedTruth: 1, devices: CountSpread(p5: 0, median: 1, p95: 2, mean: 1.25), falsePositives: (0, 0.5),
        falseNegatives: (0, 0.25), listed: ["a", "b", "c"], shares: [0.75, 0.25, 0.25]),
    // enter devices per run 2, 1, 1, 2: sorted 1 1 2 2 → p5 1, median 1, p95 2, mean 1.5.
    // False + 0 0 1 0 → median 0, mean 0.25; false − 0 1 2 0 (sorted 0 0 1 2) → median 0, mean 0.75.
    OutcomeCase(
        name: "a region's enter", key: .region("s1", kind: .enter), truth: truth, runs: fourRuns, expectedTruth: 2,
        devices: CountSpread(p5: 1, median: 1, p95: 2, mean: 1.5), falsePositives: (0, 0.25),
        falseNegatives: (0, 0.75), listed: ["a", "b", "c"], shares: [0.75, 0.5, 0.25]),
    // visit devices per run 0, 1, 0, 1 → sorted 0 0 1 1: p5 0, median 0, p95 1, mean 0.5.
    // False + 0 0 0 1 (b in run 3) → mean 0.25; false − 1 0 1 1 (sorted 0 1 1 1) → median 1, mean 0.75.
    OutcomeCase(
        name: "a region's visit", key: .region("s1", kind: .visit), truth: truth, runs: fourRuns, expectedTruth: 1,
        devices: CountSpread(p5: 0, median: 0, p95: 1, mean: 0.5), falsePositives: (0, 0.25),
        falseNegatives: (1, 0.75), listed: ["a", "b"], shares: [0.25, 0.25]),
    // A region nobody entered: all zero, no device listed; an exit is no outcome.
    OutcomeCase(
        name: "a region nobody entered", key: .region("s2", kind: .enter), truth: truth, runs: fourRuns,
        expectedTruth: 0, devices: CountSpread(p5: 0, median: 0, p95: 0, mean: 0), falsePositives: (0, 0),
        falseNegatives: (0, 0), listed: [], shares: []),
    // One run: every quantile is that run's count.
    OutcomeCase(
        name: "one run", key: .rule("coupon"), truth: truth, runs: [["b coupon", "c coupon"]], expectedTruth: 1,
        devices: CountSpread(p5: 2, median: 2, p95: 2, mean: 2), falsePositives: (2, 2), falseNegatives: (1, 1),
        listed: ["a", "b", "c"], shares: [0, 1, 1]),
    // Twenty runs, device a in the first k of them: counts 0 ×(20−k), 1 ×k. With k = 1 the p95 (rank 19) is 0
    // and the mean 0.05; the p5 (rank 1) is 0. Only a is listed: b and c never got it.
    OutcomeCase(
        name: "twenty runs, one hit", key: .rule("coupon"), truth: [],
        runs: [["a coupon"]] + Array(repeating: [], count: 19),
        expectedTruth: 0, devices: CountSpread(p5: 0, median: 0, p95: 0, mean: 0.05), falsePositives: (0, 0.05),
        falseNegatives: (0, 0), listed: ["a"], shares: [0.05]),
]

@Suite("Outcomes: devices that got each rule, enter and visit, counted by hand")
struct OutcomeTallyTests {
    private static let keys = OutcomeKey.all(
        rules: [DwellRule(name: "coupon", duration: .seconds(600))],
        regions: [
            Region(id: "s1", shape: .circle(try! Circle(center: Coordinate(latitude: 0, longitude: 0), radius: 50))),
            Region(id: "s2", shape: .circle(try! Circle(center: Coordinate(latitude: 1, longitude: 0), radius: 50))),
        ])

    @Test func outcomesInTheScenarioOrder() {
        #expect(Self.keys.map(\.description) == ["rule \"coupon\"", "enter s1", "visit s1", "enter s2", "visit s2"])
    }

    @Test(arguments: cases)
    func counts(_ c: OutcomeCase) throws {
        var tally = OutcomeTally(keys: Self.keys, devices: ["a", "b", "c"], profiles: ["ios"], truth: c.truth.map(event))
        for run in c.runs { tally.add(profile: 0, events: run.map(event)) }
        let row = try #require(tally.outcomes.first { $0.key == c.key })
        #expect(row.truth == c.expectedTruth)
        let outcome = try #require(row.profiles.first)
        #expect(outcome.runs == c.runs.count)
        #expect(outcome.devices == c.devices)
        #expect(outcome.falsePositives.median == c.falsePositives.median)
        #expect(outcome.falsePositives.mean == c.falsePositives.mean)
        #expect(outcome.falseNegatives.median == c.falseNegatives.median)
        #expect(outcome.falseNegatives.mean == c.falseNegatives.mean)
        #expect(outcome.perDevice.map(\.device) == c.listed)
        #expect(outcome.perDevice.map(\.share) == c.shares)
    }

    @Test func profilesAreCountedApart() {
        var tally = OutcomeTally(
            keys: Self.keys, devices: ["a", "b"], profiles: ["ios", "android"], truth: [event("a coupon")])
        tally.add(profile: 0, events: [event("a coupon")])
        tally.add(profile: 1, events: [event("b coupon")])
        tally.add(profile: 1, events: [])
        let row = tally.outcomes[0]
        #expect(row.truthDevices == ["a"])
        #expect(row.profiles.map(\.profile) == ["ios", "android"])
        #expect(row.profiles.map(\.runs) == [1, 2])
        #expect(row.profiles[0].falseNegatives.mean == 0 && row.profiles[1].falseNegatives.mean == 1)
        #expect(row.profiles[1].falsePositives.mean == 0.5 && row.profiles[1].perDevice.map(\.share) == [0, 0.5])
    }
}
