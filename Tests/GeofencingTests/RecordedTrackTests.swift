import Testing

@testable import Geofencing

/// SEMANTICS §9 (revision 4) by hand: the stays of a recorded segment and the truth with settled crossings,
/// the same cases as `Scripts/semantics_reference_test.py` (metres east on the equator here, north on a
/// meridian there).
@Suite struct RecordedTrackTests {
    /// A segment of fixes every 10 s at `xs` metres east of (0, 0).
    static func segment(_ xs: [Double]) -> [Fix] {
        xs.enumerated().map { Fix(Walk.east($0.element), at: Walk.time(Double(10 * $0.offset))) }
    }

    struct StayCase: CustomTestStringConvertible, Sendable {
        var id: String
        var xs: [Double]
        /// (first fix, last fix, centre in metres east) of each stay.
        var stays: [StayRow]
        var testDescription: String { id }
    }

    struct StayRow: Equatable, Sendable {
        var first: Int
        var last: Int
        var x: Double
    }

    static let stayCases: [StayCase] = [
        StayCase(
            id: "120 s within D of fix 0, then away", xs: Array(repeating: 0, count: 13) + [200, 400],
            stays: [StayRow(first: 0, last: 12, x: 0)]),
        StayCase(id: "110 s is below T", xs: Array(repeating: 0, count: 12) + [200, 400], stays: []),
        StayCase(
            id: "one fix 300 m off, back 10 s later: a spike",
            xs: Array(repeating: 0, count: 6) + [300] + Array(repeating: 0, count: 6) + [500],
            stays: [StayRow(first: 0, last: 12, x: 0)]),
        StayCase(
            id: "three fixes 300 m off, back 30 s > G after the first: a departure",
            xs: Array(repeating: 0, count: 6) + [300, 300, 300] + Array(repeating: 0, count: 6) + [500], stays: []),
        StayCase(
            id: "walked in and out: the median centre is 0, the core (25 m) runs from fix 2 to fix 15",
            xs: [45, 30, 15] + Array(repeating: 0, count: 12) + [15, 30, 45, 900],
            stays: [StayRow(first: 2, last: 15, x: 0)]),
    ]

    @Test(arguments: stayCases)
    func stays(_ c: StayCase) {
        let found = RecordedTrackRules.standard.stays(in: Self.segment(c.xs)).map {
            StayRow(
                first: $0.first, last: $0.last,
                x: (($0.coordinate.longitude * Walk.metersPerDegree) * 1e6).rounded() / 1e6)
        }
        #expect(found == c.stays)
    }

    /// DOORWAY: 61 fixes every 10 s alternating 100 m and 92 m from the centre of a café of radius 96 m
    /// (outside and inside) for 600 s, then away: one stay at the median, 100 m (outside).
    static let doorway: [(Double, Double)] =
        (0...60).map { (($0 % 2 == 0 ? 100 : 92), Double(10 * $0)) } + [(400, 610), (700, 620)]
    /// INSIDE: in from 300 m, at 50 m from 30 s to 930 s with one fix 300 m off at 300 s, out to 700 m at
    /// 1100 s. The stay is 30 s to 930 s at 50 m; the path crosses 96 m at 21 s (95 m) and 934 s (110 m),
    /// settled after τ = 60 s at 81 s and 994 s and moved back: enter 21, dwell 621 (681 − 60), exit 934.
    static let inside: [(Double, Double)] =
        [(300, 0), (200, 10), (100, 20)] + stride(from: 30, through: 930, by: 10).map { ($0 == 300 ? 300 : 50, Double($0)) }
        + [(200, 940), (400, 950), (700, 1100)]

    static func cafe(_ points: [(Double, Double)], recorded: Bool) -> Simulation {
        Simulation(
            regions: [Walk.circle("cafe", at: 0, radius: 96)],
            rules: [DwellRule(name: "coupon", duration: .seconds(600))],
            devices: [
                Device(
                    id: "d", track: .timed([points.map { Fix(Walk.east($0.0), at: Walk.time($0.1)) }]), recorded: recorded)
            ])
    }

    static let fixesAsExact = [
        "0 d monitor-start cafe", "21 d enter cafe crossed=21", "292 d exit cafe crossed=292", "292 d visit cafe 21-292",
        "309 d enter cafe crossed=309", "909 d dwell cafe coupon=600", "934 d exit cafe crossed=934",
        "934 d visit cafe 309-934",
    ]

    @Test func aDoorwayIsOneStayNotThirtyCrossings() throws {
        let asExact = try Self.cafe(Self.doorway, recorded: false).eventLog()
        #expect(asExact.filter { $0.contains(" enter ") }.count == 30)
        let truth = Self.cafe(Self.doorway, recorded: true).truth(threads: 1).events.map(\.compact)
        #expect(truth == ["0 d monitor-start cafe"])
    }

    @Test func aSpikeDoesNotResetTheDwell() throws {
        #expect(try Self.cafe(Self.inside, recorded: false).eventLog() == Self.fixesAsExact)
        let truth = Self.cafe(Self.inside, recorded: true).truth(threads: 1).events.map(\.compact)
        #expect(
            truth == [
                "0 d monitor-start cafe", "21 d enter cafe crossed=21", "621 d dwell cafe coupon=600",
                "934 d exit cafe crossed=934", "934 d visit cafe 21-934",
            ])
    }

    @Test func withoutRecordedDevicesTheTruthIsTheRun() throws {
        let simulation = Self.cafe(Self.inside, recorded: false)
        #expect(simulation.truth(threads: 1).events.map(\.compact) == Self.fixesAsExact)
    }

    @Test func truthAgreesOnAnyThreadCount() {
        var simulation = Self.cafe(Self.inside, recorded: true)
        simulation.devices.append(Device(id: "e", track: .timed([Self.segment([0, 50, 100, 150])]), recorded: false))
        simulation.devices.append(
            Device(id: "f", track: Self.cafe(Self.doorway, recorded: true).devices[0].track, recorded: true))
        let one = simulation.truth(threads: 1).events
        #expect(simulation.truth(threads: 4).events == one)
    }

    @Test func jitterTellsARecordedTrackFromAnExactOne() {
        let rules = RecordedTrackRules.standard
        let still = Self.segment(Array(repeating: 0, count: 20))
        #expect(rules.jitter(of: [still]) == 0)
        let scattered = Self.segment((0..<20).map { $0 % 2 == 0 ? 3 : -3 })
        #expect(abs((rules.jitter(of: [scattered]) ?? 0) - 3) < 1e-6)
        #expect(rules.jitter(of: [Self.segment([0, 100, 200])]) == nil)
    }
}
