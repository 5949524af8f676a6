import Testing
import Time

@testable import Geofencing

/// A simulation and the samples each device must make (SEMANTICS §2), counted without running.
struct SampleCountCase: CustomTestStringConvertible, Sendable {
    var id: String
    var simulation: Simulation
    var counts: [Int64]
    var testDescription: String { id }
}

private func timed(_ segments: [[Double]]) -> Track {
    .timed(segments.map { $0.map { Fix(Walk.east(0), at: Walk.time($0)) } })
}

@Suite("Sample counts")
struct SampleCountTests {
    static let cases: [SampleCountCase] = [
        .init(
            id: "one segment of 10 s: 11 ticks",
            simulation: Simulation(
                regions: [],
                devices: [
                    Device(id: "a", track: timed([[0, 10]]))
                ]), counts: [11]),
        .init(
            id: "fractional ends: ticks 1…9 only",
            simulation: Simulation(
                regions: [],
                devices: [
                    Device(id: "a", track: timed([[0, 10]])), Device(id: "b", track: timed([[0.5, 9.5]])),
                ]), counts: [11, 9]),
        // Of equal times the later fix is kept (SEMANTICS §1): the first segment keeps only its fix at 0.
        .init(
            id: "equal times across segments",
            simulation: Simulation(
                regions: [],
                devices: [
                    Device(id: "a", track: timed([[0, 5], [5, 8]]))
                ]), counts: [1 + 4]),
        .init(
            id: "a gap between segments has no samples",
            simulation: Simulation(
                regions: [],
                devices: [
                    Device(id: "a", track: timed([[0, 2], [100, 101]]))
                ]), counts: [5]),
        .init(
            id: "a 3 s tick",
            simulation: Simulation(
                regions: [],
                devices: [
                    Device(id: "a", track: timed([[0, 10]]))
                ], tick: .seconds(3)), counts: [4]),
        .init(
            id: "a start after the track's beginning",
            simulation: Simulation(
                regions: [],
                devices: [
                    Device(id: "a", track: timed([[0, 10]]))
                ], start: Walk.time(4)), counts: [7]),
        .init(
            id: "a one-point track: one sample",
            simulation: Simulation(
                regions: [],
                devices: [
                    Device(id: "a", track: timed([[3]]))
                ]), counts: [1]),
        .init(
            id: "a paced track of 4 points at 2 s",
            simulation: Simulation(
                regions: [],
                devices: [
                    Device(
                        id: "a", track: .paced([(0..<4).map { PacedPoint(Walk.east(0), ordinal: $0) }], pace: .seconds(2)))
                ]),
            counts: [7]),
        .init(
            id: "a paced track whose times overflow counts as Int64.max",
            simulation: Simulation(
                regions: [],
                devices: [
                    Device(
                        id: "a",
                        track: .paced(
                            [(0..<4).map { PacedPoint(Walk.east(0), ordinal: $0) }],
                            pace: TimeSpan(microseconds: .max / 2)))
                ]), counts: [.max]),
    ]

    @Test("counted as a run makes them", arguments: cases)
    func counts(_ c: SampleCountCase) throws {
        #expect(c.simulation.sampleCounts() == c.counts)
        // The run agrees, where it can be run.
        if !c.counts.contains(.max) {
            let summary = try c.simulation.run(into: EventLog())
            #expect(Int64(summary.samples) == c.counts.reduce(0, +))
        }
    }
}
