import Geodesy
import Testing

@testable import Geofencing

/// Issue 41 item 4: a simulation that records its sample streams (`recordsSamples(budget:)`, what calibrate
/// turns on for its candidates) draws each device's noise, outliers and positions once per stream and
/// replays them in every later run with the same stream. The events are those of a run that draws them, for
/// every monitor; a stream that does not fit in the budget is drawn as usual; a copy whose devices change
/// records afresh.
@Suite("Sample streams recorded once and replayed")
struct SampleRecordingsTests {
    /// Each run's events, and the total of the recorded streams' samples.
    static func events(_ simulation: Simulation, threads: Int = 1) throws -> [GeofenceEvent] {
        let log = EventLog()
        try simulation.run(into: log, options: RunOptions(threads: threads))
        return log.events
    }

    /// A monitor other than the simulation's own in the parts a fit changes (none moves a sample).
    static func candidate(_ simulation: Simulation, _ i: Int) -> Simulation {
        var copy = simulation
        copy.overrides.hysteresis = Double(10 * i)
        copy.overrides.enterBuffer = Double(5 * i - 20)
        copy.overrides.missExit = 0.1 * Double(i % 3)
        return copy
    }

    @Test(
        "replayed streams give the events of drawn ones, for every candidate monitor (random revision-3 scenarios)",
        arguments: Array(UInt64(1)...12))
    func replayMatchesDrawing(seed: UInt64) throws {
        var recording = RandomScenario.make(seed: seed, revision3: true)
        if recording.noise == nil { recording.noise = Noise(sigma: 8, seed: seed, correlation: .seconds(20)) }
        let plain = recording
        recording.recordsSamples(budget: 1 << 30)
        for i in 0..<4 {
            // Twice each: the first run of a stream records it (i = 0), every later one replays it.
            let drawn = try Self.events(Self.candidate(plain, i))
            #expect(try Self.events(Self.candidate(recording, i)) == drawn, "seed \(seed), candidate \(i)")
            #expect(try Self.events(Self.candidate(recording, i), threads: 3) == drawn, "seed \(seed), candidate \(i)")
        }
        #expect(recording.recordings?.streams == recording.devices.count, "one stream a device, recorded once")
    }

    /// What a copy of a recording simulation changes, and whether its runs replay the original's streams.
    enum Change: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case monitor = "another hysteresis (a calibrate candidate)"
        case seed = "another noise seed (a Monte Carlo run): a stream of its own"
        case sigma = "another noise sigma: a stream of its own"
        case accuracy = "another accuracy: a stream of its own"
        case devices = "other devices: recorded afresh"
        var testDescription: String { rawValue }
    }

    @Test("a copy replays the original's streams only when its streams are the same", arguments: Change.allCases)
    func copies(_ change: Change) throws {
        var original = Simulation(
            regions: [Walk.circle("a", at: 300, radius: 100)], profile: .ios,
            devices: [
                Device(id: "p", track: .timed([Walk.line(from: 0, speed: 5, seconds: 200)])),
                Device(id: "q", track: .timed([Walk.line(from: 600, speed: -5, seconds: 200)])),
            ],
            noise: Noise(sigma: 10, seed: 3, correlation: .seconds(30)))
        original.recordsSamples(budget: 1 << 20)
        let originalEvents = try Self.events(original)
        var copy = original
        switch change {
        case .monitor: copy.overrides.hysteresis = 80
        case .seed: copy.noise?.seed = 4
        case .sigma: copy.noise?.sigma = 3
        case .accuracy: copy.overrides.accuracy = 40
        case .devices: copy.devices.removeLast()
        }
        var drawn = copy
        drawn.recordsSamples(budget: 0)
        #expect(try Self.events(copy) == Self.events(drawn), "the copy's own events")
        let shared = copy.recordings === original.recordings
        #expect(shared == (change != .devices))
        #expect(original.recordings?.streams == (change == .monitor ? 2 : change == .devices ? 2 : 4))
        #expect(try Self.events(original) == originalEvents, "the original replays its own streams")
    }

    @Test("streams beyond the budget are drawn, not recorded, with the same events")
    func budget() throws {
        var simulation = Simulation(
            regions: [Walk.circle("a", at: 300, radius: 100)], profile: .ios,
            devices: (0..<3).map { Device(id: "d\($0)", track: .timed([Walk.line(from: 0, speed: 4, seconds: 250)])) },
            noise: Noise(sigma: 10, seed: 9))
        let plain = try Self.events(simulation)
        // One device's 251 samples fit, not two.
        simulation.recordsSamples(budget: RecordedSamples.bytes(samples: 251 + 100, exact: false))
        #expect(try Self.events(simulation) == plain)
        #expect(try Self.events(simulation) == plain)
        #expect(simulation.recordings?.streams == 1)
    }
}
