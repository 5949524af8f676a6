import Draws
import Foundation
import Geodesy
import Testing
import Time

@testable import Geofencing

/// Random scenarios of parked phones: a device waits at a few spots for minutes, a fix every second or
/// two, with 5 to 15 m of noise, among 10 to 60 circles and squares whose edges pass within metres of the
/// spots. There the quiet windows are re-anchored again and again (the jitter keeps the device within a
/// window's reach, the groups' and the next wake's reaches shrink and are renewed), and regions are
/// evaluated at the edge of their reach: the cases where a window too long would show.
enum ParkedScenario {
    static func make(seed: UInt64) -> Simulation {
        var rng = SeededRandom(seed: seed)
        let origin = Coordinate(
            latitude: .random(in: -70...70, using: &rng), longitude: .random(in: -179...179, using: &rng))
        func around(_ east: Double, _ north: Double) -> Coordinate { origin.offset(northMeters: north, eastMeters: east) }
        let spots = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
            (Double.random(in: -400...400, using: &rng), Double.random(in: -400...400, using: &rng))
        }
        var regions: [Region] = []
        for i in 0..<Int.random(in: 10...60, using: &rng) {
            // An edge within 0 to 40 m of a spot, on either side.
            let (x, y) = spots.randomElement(using: &rng)!
            let size = Double.random(in: 20...300, using: &rng)
            let gap = size + .random(in: -40...40, using: &rng)
            let heading = Double.random(in: 0..<(2 * .pi), using: &rng)
            let cx = x + gap * cos(heading), cy = y + gap * sin(heading)
            if Bool.random(using: &rng) {
                regions.append(Region(id: "c\(i)", shape: .circle(try! Circle(center: around(cx, cy), radius: size))))
            } else {
                let ring = [
                    around(cx - size, cy - size), around(cx + size, cy - size), around(cx + size, cy + size),
                    around(cx - size, cy + size), around(cx - size, cy - size),
                ]
                regions.append(Region(id: "p\(i)", shape: .polygon(try! MultiPolygon([Polygon(rings: [ring])]))))
            }
        }
        let base = Timestamp(iso8601: "2024-03-01T08:00:00Z")!
        var devices: [Device] = []
        for d in 0..<Int.random(in: 1...3, using: &rng) {
            var fixes: [Fix] = []
            var t = base + TimeSpan(microseconds: .random(in: 0...10_000_000, using: &rng))
            for (x, y) in spots.shuffled(using: &rng) {
                let every = TimeSpan.seconds(.random(in: 1...2, using: &rng))
                for _ in 0..<Int.random(in: 60...400, using: &rng) {
                    fixes.append(Fix(around(x, y), at: t, accuracy: .random(in: 5...20, using: &rng)))
                    t = t + every
                }
            }
            devices.append(Device(id: "parked\(d)", track: .timed([fixes])))
        }
        let rules = (0..<Int.random(in: 0...2, using: &rng)).map {
            DwellRule(name: "rule\($0)", duration: .seconds(.random(in: 0...120, using: &rng)), regions: nil)
        }
        var overrides = MonitorOverrides()
        if Bool.random(using: &rng) { overrides.confirmation = .seconds(.random(in: 0...40, using: &rng)) }
        if Bool.random(using: &rng) { overrides.hysteresis = .random(in: 0...60, using: &rng) }
        if Bool.random(using: &rng) { overrides.capacity = .some(.random(in: 5...20, using: &rng)) }
        let profile = [Profile.iosDocumented, .androidDocumented, .ideal].randomElement(using: &rng)!
        return Simulation(
            regions: regions, rules: rules, profile: profile, overrides: overrides, devices: devices,
            tick: .seconds(1), noise: Noise(sigma: .random(in: 5...15, using: &rng), seed: rng.next()))
    }
}

@Test("Skipping quiet regions changes nothing for parked phones whose jitter plays along region edges", arguments: 1...60)
func parkedQuietWindowsAreExact(seed: UInt64) throws {
    let simulation = ParkedScenario.make(seed: seed)
    var plainOptions = RunOptions(threads: 1)
    plainOptions.skipsQuietRegions = false
    let fast = EventLog(), plain = EventLog()
    try simulation.run(into: fast, options: RunOptions(threads: 1))
    try simulation.run(into: plain, options: plainOptions)
    #expect(fast.events == plain.events, "seed \(seed): the quiet windows changed the events")
}

/// The test above compares something: most parked scenarios have enters or exits.
@Test("Most parked scenarios have enters or exits")
func parkedCasesHaveCrossings() throws {
    let crossing = try (UInt64(1)...60).filter { seed in
        let log = EventLog()
        try ParkedScenario.make(seed: seed).run(into: log, options: RunOptions(threads: 1))
        return log.events.contains {
            if case .enter = $0.detail { true } else if case .exit = $0.detail { true } else { false }
        }
    }
    #expect(crossing.count > 40, "parked scenarios with crossings: \(crossing.count) of 60")
}
