import Geodesy
import Testing
import Time

@testable import Geofencing

/// A device and the facts its track must give (`Simulation.trackFacts`), hand-computed: the fixes as the run
/// plays them (SEMANTICS §1), their box, times, smallest accuracy (SEMANTICS §2's fallbacks) and samples.
struct TrackFactsCase: CustomTestStringConvertible, Sendable {
    var id: String
    var device: Device
    /// The monitor's accuracy, for fixes and devices without their own.
    var monitorAccuracy: Meters = 20
    /// The box's west and east edges in metres east of (0, 0), all fixes on the equator; nil: no box.
    var eastwards: ClosedRange<Double>?
    var first: Double?
    var last: Double?
    var smallestAccuracy: Meters?
    var samples: Int64
    var testDescription: String { id }
}

private func fix(_ east: Double, at seconds: Double, accuracy: Meters? = nil) -> Fix {
    Fix(Walk.east(east), at: Walk.time(seconds), accuracy: accuracy)
}

@Suite("Track facts: the loader's checks read each fix once")
struct TrackFactsTests {
    static let cases: [TrackFactsCase] = [
        .init(
            id: "no fix: nothing but no samples",
            device: Device(id: "a", track: .timed([])), eastwards: nil, first: nil, last: nil, smallestAccuracy: nil,
            samples: 0),
        .init(
            id: "a fix's own accuracy below the monitor's",
            device: Device(id: "a", track: .timed([[fix(0, at: 0, accuracy: 12), fix(50, at: 10)]])),
            eastwards: 0...50, first: 0, last: 10, smallestAccuracy: 12, samples: 11),
        .init(
            id: "the device's accuracy stands for fixes without their own",
            device: Device(id: "a", track: .timed([[fix(0, at: 0, accuracy: 40), fix(-30, at: 4)]]), accuracy: 25),
            eastwards: -30...0, first: 0, last: 4, smallestAccuracy: 25, samples: 5),
        .init(
            id: "the monitor's accuracy stands when neither has one",
            device: Device(id: "a", track: .timed([[fix(10, at: 2), fix(20, at: 3)]])), monitorAccuracy: 35,
            eastwards: 10...20, first: 2, last: 3, smallestAccuracy: 35, samples: 2),
        // §1: of equal times the later fix is kept, across segments too; the dropped fix at 900 m east
        // widens nothing and its accuracy is not taken. Samples: 0 s, then 5…8 s (none in the gap).
        .init(
            id: "the fixes as the run plays them: a replaced fix is not in the box",
            device: Device(
                id: "a",
                track: .timed([[fix(0, at: 0), fix(900, at: 5, accuracy: 1)], [fix(100, at: 5), fix(200, at: 8)]])),
            eastwards: 0...200, first: 0, last: 8, smallestAccuracy: 20, samples: 1 + 4),
        .init(
            id: "a paced track's times from the clock's start",
            device: Device(
                id: "a",
                track: .paced([(0..<4).map { PacedPoint(Walk.east(Double($0) * 10), ordinal: $0) }], pace: .seconds(2))),
            eastwards: 0...30, first: 0, last: 6, smallestAccuracy: 20, samples: 7),
        .init(
            id: "a paced track whose times overflow: samples Int64.max, its fixes not read",
            device: Device(
                id: "a",
                track: .paced(
                    [(0..<4).map { PacedPoint(Walk.east(0), ordinal: $0) }], pace: TimeSpan(microseconds: .max / 2))),
            eastwards: nil, first: nil, last: nil, smallestAccuracy: nil, samples: .max),
    ]

    @Test("each device's box, times, smallest accuracy and samples", arguments: cases)
    func facts(_ c: TrackFactsCase) throws {
        let simulation = Simulation(
            regions: [], overrides: MonitorOverrides(\.accuracy, c.monitorAccuracy), devices: [c.device],
            start: c.device.track.firstTime == nil ? Walk.time(0) : nil)
        let facts = try #require(simulation.trackFacts(threads: 1).first)
        #expect(facts.samples == c.samples)
        #expect(facts.smallestAccuracy == c.smallestAccuracy)
        #expect(facts.first == c.first.map(Walk.time))
        #expect(facts.last == c.last.map(Walk.time))
        #expect(facts.span == c.first.flatMap { first in c.last.map { TimeSpan(seconds: $0 - first)! } })
        if let eastwards = c.eastwards {
            let box = try #require(facts.box)
            #expect(abs(box.minLongitude * Walk.metersPerDegree - eastwards.lowerBound) < 1e-6)
            #expect(abs(box.maxLongitude * Walk.metersPerDegree - eastwards.upperBound) < 1e-6)
            #expect(box.minLatitude == 0 && box.maxLatitude == 0)
        } else {
            #expect(facts.box == nil)
        }
        #expect(simulation.sampleCounts() == [c.samples])
    }

    @Test("the same facts on one thread and on four, for many devices")
    func threads() {
        let devices = (0..<40).map { d in
            Device(
                id: "d\(d)",
                track: .timed([
                    (0..<(d % 7 + 1)).map { fix(Double(d * 13 + $0), at: Double($0), accuracy: Double(d % 5 + 3)) }
                ]))
        }
        let simulation = Simulation(regions: [], devices: devices)
        #expect(simulation.trackFacts(threads: 1) == simulation.trackFacts(threads: 4))
    }
}
