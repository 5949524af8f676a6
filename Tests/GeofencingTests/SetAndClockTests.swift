import Geodesy
import Testing

@testable import Geofencing

private let abc = [
    Walk.circle("A", at: 1000, radius: 100), Walk.circle("B", at: 2000, radius: 100),
    Walk.circle("C", at: 3000, radius: 100),
]
/// x(t) = 0.5 + 7t for t in 0…400: refreshes every 500 m fall at t = 72, 144, 216, 288, 360 (504 m).
private let drive = Device(id: "d", track: .timed([Walk.leg(0.5, at: 0, to: 2800.5, at: 400)]))

private func hole(_ id: String) -> Region {
    let outer = [
        Walk.east(400, north: -100), Walk.east(600, north: -100), Walk.east(600, north: 100),
        Walk.east(400, north: 100), Walk.east(400, north: -100),
    ]
    let inner = [
        Walk.east(450, north: -50), Walk.east(450, north: 50), Walk.east(550, north: 50),
        Walk.east(550, north: -50), Walk.east(450, north: -50),
    ]
    return Region(id: id, shape: .polygon(try! MultiPolygon([Polygon(rings: [outer, inner])])))
}

let setAndClockCases: [RuleCase] = [
    // Capacity 1. Nearest at the refreshes: A (0, 72, 144), B from 216 (A 412.5 m, B 387.5 m), C from
    // 360 (B 420.5, C 379.5). A: in at 129 (x = 903.5), out at 158 (1106.5); B: 272 (1904.5), 300 (2100.5).
    RuleCase(
        id: "§4 capacity 1 rotates the nearest region at each refresh",
        simulation: Simulation(regions: abc, overrides: MonitorOverrides { $0.capacity = 1 }, devices: [drive]),
        expected: [
            "0 d monitor-start A", "129 d enter A crossed=129", "158 d exit A crossed=158",
            "158 d visit A 129-158", "216 d monitor-stop A", "216 d monitor-start B",
            "272 d enter B crossed=272", "300 d exit B crossed=300", "300 d visit B 272-300",
            "360 d monitor-stop B", "360 d monitor-start C",
        ]),
    // A refresh distance of 2 km: the only refresh after the first is at t = 286 (x = 2002.5, 2002 m):
    // B is then nearest (inside it), A is stopped; B starts inside (unannounced), so only its exit shows.
    RuleCase(
        id: "§4 refreshDistance decides when the set changes",
        simulation: Simulation(
            regions: abc,
            overrides: MonitorOverrides {
                $0.capacity = 1; $0.refreshDistance = 2000
            },
            devices: [drive]),
        expected: [
            "0 d monitor-start A", "129 d enter A crossed=129", "158 d exit A crossed=158",
            "158 d visit A 129-158", "286 d monitor-stop A", "286 d monitor-start B",
            "300 d exit B crossed=300",
        ]),
    // Static, capacity 2: C fails at the first sample; A and B are watched all along.
    RuleCase(
        id: "§4 static selection: overflow regions get monitor-failed",
        simulation: Simulation(
            regions: abc,
            overrides: MonitorOverrides {
                $0.capacity = 2; $0.selection = .static
            },
            devices: [drive]),
        expected: [
            "0 d monitor-failed C", "0 d monitor-start A", "0 d monitor-start B",
            "129 d enter A crossed=129", "158 d exit A crossed=158", "158 d visit A 129-158",
            "272 d enter B crossed=272", "300 d exit B crossed=300", "300 d visit B 272-300",
        ]),
    // Fix lost between 100 and 200 s: the enter candidate of t = 50 (x = 400.5) waits through the gap
    // and is confirmed at the first sample after it (τ = 60). The exit candidate at 350 never confirms.
    RuleCase(
        id: "§2 §5 a segment gap keeps the state and the pending candidate",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides { $0.confirmation = .seconds(60) },
            devices: [
                Device(
                    id: "d",
                    track: .timed([
                        Walk.leg(350.5, at: 0, to: 450.5, at: 100),
                        Walk.leg(450.5, at: 200, to: 650.5, at: 400),
                    ]))
            ]),
        expected: ["0 d monitor-start r", "200 d enter r crossed=50"]),
    // Point i at start + 2i s, 10 m apart: x(t) = 0.5 + 5t. In at 80 (400.5), out at 120 (600.5).
    RuleCase(
        id: "§1 an untimed track plays at start + i × pace",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            devices: [
                Device(
                    id: "d",
                    track: .paced(
                        [
                            (0...70).map {
                                PacedPoint(Walk.east(0.5 + 10 * Double($0)), ordinal: $0)
                            }
                        ], pace: .seconds(2)))
            ],
            start: Walk.base),
        expected: [
            "0 d monitor-start r", "80 d enter r crossed=80", "120 d exit r crossed=120",
            "120 d visit r 80-120",
        ]),
    // No start given: the clock starts at the earliest first fix (d2's, 3.25 s); d1's first tick is 5.25.
    RuleCase(
        id: "§1 the clock starts at the earliest first fix",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 0, radius: 1000)],
            devices: [
                Device(id: "d1", track: .timed([Walk.leg(0, at: 5, to: 10, at: 9)])),
                Device(id: "d2", track: .timed([Walk.leg(0, at: 3.25, to: 10, at: 4.5)])),
            ]),
        expected: ["3.25 d2 monitor-start r", "5.25 d1 monitor-start r"]),
    // A 3 s tick: x(t) = 5 + 10t is inside from 39.5 s, so the tick at 42 (x = 425); out at 60 (605).
    RuleCase(
        id: "§1 ticks of 3 s sample only t = start + 3k",
        simulation: Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            devices: [Device(id: "d", track: .timed([Walk.leg(5, at: 0, to: 1005, at: 100)]))],
            tick: .seconds(3)),
        expected: ["0 d monitor-start r", "42 d enter r crossed=42", "60 d exit r crossed=60", "60 d visit r 42-60"]),
    // A square [400, 600] × [-100, 100] m with a hole [450, 550] × [-50, 50]: along the equator at 10 m/s
    // from 5, in at 40 (405), into the hole at 45 (455: outside), out of it at 55 (555), out at 60 (605).
    RuleCase(
        id: "§3 a polygon's hole is outside",
        simulation: Simulation(
            regions: [hole("h")],
            devices: [Device(id: "d", track: .timed([Walk.leg(5, at: 0, to: 1005, at: 100)]))]),
        expected: [
            "0 d monitor-start h", "40 d enter h crossed=40", "45 d exit h crossed=45", "45 d visit h 40-45",
            "55 d enter h crossed=55", "60 d exit h crossed=60", "60 d visit h 55-60",
        ]),
    // B = [400, 600] is declared after C = [600.5, 800.5]. At t = 60 (x = 605) the device leaves B and
    // enters C: exit and visit come before enter whatever the region order; two rules of D = 0 fire in
    // rule order (z before a); device "a" before device "b" at equal times.
    RuleCase(
        id: "§7 ties: time, device, kind, region index, rule order",
        simulation: Simulation(
            regions: [Walk.circle("C", at: 700.5, radius: 100), Walk.circle("B", at: 500, radius: 100)],
            rules: [
                DwellRule(name: "z", duration: .zero, regions: ["C"]),
                DwellRule(name: "a", duration: .zero),
            ],
            devices: ["b", "a"].map { Device(id: $0, track: .timed([Walk.leg(5, at: 0, to: 655, at: 65)])) }),
        expected: [
            "0 a monitor-start C", "0 a monitor-start B", "0 b monitor-start C", "0 b monitor-start B",
            "40 a enter B crossed=40", "40 a dwell B a=0", "40 b enter B crossed=40", "40 b dwell B a=0",
            "60 a exit B crossed=60", "60 a visit B 40-60", "60 a enter C crossed=60",
            "60 a dwell C z=0", "60 a dwell C a=0",
            "60 b exit B crossed=60", "60 b visit B 40-60", "60 b enter C crossed=60",
            "60 b dwell C z=0", "60 b dwell C a=0",
        ]),
]

@Test("SEMANTICS §1–§4, §7 by hand", arguments: setAndClockCases)
func setAndClock(_ rule: RuleCase) throws {
    let log = try rule.simulation.eventLog()
    #expect(log == rule.expected, "\(log)")
}

@Test("Times that go back are dropped; of equal times the later fix is kept")
func fixCleaning() {
    let fixes = [
        Fix(Walk.east(0), at: Walk.time(0)), Fix(Walk.east(1), at: Walk.time(2)),
        Fix(Walk.east(2), at: Walk.time(1)), Fix(Walk.east(3), at: Walk.time(2)),
    ]
    let cleaned = Track.timed([fixes, [Fix(Walk.east(4), at: Walk.time(2)), Fix(Walk.east(5), at: Walk.time(3))]])
        .fixes(start: Walk.base)
    #expect(cleaned.map { $0.map(\.coordinate) } == [[Walk.east(0)], [Walk.east(4), Walk.east(5)]])
}

/// `Track.fixes(start:)` on timed tracks, by hand: a track already in order plays as it is; anything §1
/// changes (an empty segment, an equal or earlier time, within or across segments) is cleaned.
struct CleaningCase: CustomTestStringConvertible, Sendable {
    let id: String
    /// Segments of fix times (seconds); each fix's position is east(its place in the track, in metres).
    let times: [[Int]]
    /// The places kept, by segment.
    let kept: [[Int]]
    var testDescription: String { id }
}

@Test(
    "A timed track plays as it is when §1 changes nothing, and is cleaned otherwise",
    arguments: [
        CleaningCase(id: "in order, two segments", times: [[0, 1, 2], [5, 6]], kept: [[0, 1, 2], [3, 4]]),
        CleaningCase(id: "one fix", times: [[7]], kept: [[0]]),
        CleaningCase(id: "no segment", times: [], kept: []),
        CleaningCase(id: "an empty segment goes", times: [[0, 1], [], [2]], kept: [[0, 1], [2]]),
        CleaningCase(id: "equal times within a segment: the later", times: [[0, 1, 1, 2]], kept: [[0, 2, 3]]),
        CleaningCase(id: "equal times across segments: the later", times: [[0, 1], [1, 2]], kept: [[0], [2, 3]]),
        CleaningCase(id: "an earlier time is dropped", times: [[0, 3, 2, 4]], kept: [[0, 1, 3]]),
        CleaningCase(
            id: "a segment that starts earlier loses those fixes", times: [[0, 5], [3, 6]], kept: [[0, 1], [3]]),
    ])
func trackCleaning(_ c: CleaningCase) {
    var place = 0
    let segments = c.times.map { segment in
        segment.map { seconds in
            defer { place += 1 }
            return Fix(Walk.east(Double(place)), at: Walk.time(Double(seconds)))
        }
    }
    let played = Track.timed(segments).fixes(start: Walk.base)
    #expect(played.map { $0.map(\.coordinate) } == c.kept.map { $0.map { Walk.east(Double($0)) } })
}
