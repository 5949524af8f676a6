import Geodesy
import Testing

@testable import Geofencing

/// One hand-computed case of which rules cover which regions (SEMANTICS §6: a rule lists its regions by
/// id, or covers all): each region's rule indices, in rule order.
struct RuleCoverCase: CustomTestStringConvertible, Sendable {
    let id: String
    let regionIDs: [String]
    let rules: [DwellRule]
    let expected: [[Int]]
    var testDescription: String { id }
}

private func rule(_ name: String, _ seconds: Int64, _ regions: [String]? = nil) -> DwellRule {
    DwellRule(name: name, duration: .seconds(seconds), regions: regions)
}

let ruleCoverCases: [RuleCoverCase] = [
    RuleCoverCase(
        id: "no rules: every region has none", regionIDs: ["a", "b", "c"], rules: [],
        expected: [[], [], []]),
    RuleCoverCase(
        id: "rules covering all: every region has each, in rule order", regionIDs: ["a", "b"],
        rules: [rule("x", 5), rule("y", 0)], expected: [[0, 1], [0, 1]]),
    RuleCoverCase(
        id: "a listed rule between two covering all", regionIDs: ["a", "b", "c"],
        rules: [rule("all1", 1), rule("some", 2, ["c", "a"]), rule("all2", 3)],
        expected: [[0, 1, 2], [0, 2], [0, 1, 2]]),
    RuleCoverCase(
        id: "an unknown id is ignored, an id listed twice counts once", regionIDs: ["a", "b"],
        rules: [rule("r", 1, ["zz", "b", "b"])], expected: [[], [0]]),
    RuleCoverCase(
        id: "an empty list covers nothing", regionIDs: ["a", "b"],
        rules: [rule("none", 1, []), rule("all", 2)], expected: [[1], [1]]),
    RuleCoverCase(
        id: "a duplicate region id: the rule covers its first region only", regionIDs: ["a", "a", "b"],
        rules: [rule("r", 1, ["a"])], expected: [[0], [], []]),
]

@Suite("World: the rules covering each region")
struct WorldRulesTests {
    @Test("each region's rules and durations", arguments: ruleCoverCases)
    func rulesByRegion(_ c: RuleCoverCase) throws {
        let regions = try c.regionIDs.enumerated().map { i, id in
            Region(id: id, shape: .circle(try Circle(center: Coordinate(latitude: 0, longitude: Double(i)), radius: 100)))
        }
        let world = World(regions: regions, rules: c.rules, settings: Profile.ideal.settings)
        #expect(world.rulesByRegion == c.expected)
        #expect(world.ruleDurationsByRegion == c.expected.map { $0.map { c.rules[$0].duration } })
        #expect(world.regionIDs == c.regionIDs)
    }
}
