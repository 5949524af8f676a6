import Parallel
import Testing

@testable import Geofencing

/// Issue 41: a batch builds its world's geometry (shapes, R-tree, rules by region) once. Every copy of a
/// simulation (a Monte Carlo run's, another profile's, a calibrate candidate's) reads the same geometry;
/// a copy whose regions or rules change builds its own; and the world a run gets is the one it would get
/// from scratch.
@Suite("The world's geometry is built once and shared")
struct WorldGeometryTests {
    static let regions = [Walk.circle("a", at: 100, radius: 50), Walk.circle("b", at: 400, radius: 80)]
    static let simulation = Simulation(
        regions: regions, rules: [DwellRule(name: "stay", duration: .seconds(30))], profile: .ios,
        devices: [Device(id: "phone", track: .timed([Walk.line(from: 0, speed: 10, seconds: 60)]))],
        noise: Noise(sigma: 5, seed: 1))

    /// What a copy of the simulation changes, and whether it still shares the original's geometry.
    enum Change: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case noiseSeed = "another noise seed (a Monte Carlo run)"
        case profile = "another profile (compare, calibrate's candidates)"
        case devices = "other devices"
        case regions = "another region"
        case rules = "another rule"
        var testDescription: String { rawValue }
        var shares: Bool { self != .regions && self != .rules }
    }

    @Test("a copy shares the geometry unless its regions or rules change", arguments: Change.allCases)
    func copies(_ change: Change) {
        let original = Self.simulation.world(settings: Self.simulation.settings)
        var copy = Self.simulation
        switch change {
        case .noiseSeed: copy.noise?.seed = 2
        case .profile: copy.profile = .android
        case .devices: copy.devices = []
        case .regions: copy.regions.append(Walk.circle("c", at: 900, radius: 60))
        case .rules: copy.rules = []
        }
        let world = copy.world(settings: copy.settings)
        #expect((world.shapes === original.shapes) == change.shares)
        #expect(world.regions.count == copy.regions.count && world.ruleNames == copy.rules.map(\.name))
        #expect(world.settings == copy.settings, "the settings are the copy's own")
        // The original still reads its own geometry.
        #expect(Self.simulation.world(settings: Self.simulation.settings).shapes === original.shapes)
    }

    @Test("runs on many threads from one shared geometry give the events of separate simulations")
    func sharedAcrossThreads() throws {
        let seeds: [UInt64] = Array(1...16)
        let shared = concurrentMap(seeds.count) { i in
            var run = Self.simulation
            run.noise?.seed = seeds[i]
            let log = EventLog()
            _ = try? run.run(into: log, options: RunOptions(threads: 1))
            return log.events
        }
        for (i, seed) in seeds.enumerated() {
            // A simulation made afresh: its own geometry.
            let fresh = Simulation(
                regions: Self.regions, rules: Self.simulation.rules, profile: .ios, devices: Self.simulation.devices,
                noise: Noise(sigma: 5, seed: seed))
            let log = EventLog()
            try fresh.run(into: log, options: RunOptions(threads: 1))
            #expect(shared[i] == log.events, "seed \(seed)")
        }
    }
}
