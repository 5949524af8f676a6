import Draws
import Foundation
import Geodesy
import Time

@testable import Geofencing

typealias SeededRandom = SplitMix64

/// Random scenarios around a random point of the globe: circles and squares (some with holes) within a
/// few kilometres, walks and drives with stops and fix losses, random monitor settings.
enum RandomScenario {
    /// With `revision3`, the monitor also gets revision 3's fields at random (signed enter buffers, enter
    /// confidences below 0.5, misses, delivery, phase, stationary slow-down, outliers).
    static func make(
        seed: UInt64, profile: Profile? = nil, latitudes: ClosedRange<Degrees> = -60...60,
        revision3: Bool = false
    ) -> Simulation {
        var rng = SeededRandom(seed: seed)
        let origin = Coordinate(
            latitude: .random(in: latitudes, using: &rng), longitude: .random(in: -179...179, using: &rng))
        func around(_ east: Double, _ north: Double) -> Coordinate { origin.offset(northMeters: north, eastMeters: east) }

        var regions: [Region] = []
        for i in 0..<Int.random(in: 1...30, using: &rng) {
            let x = Double.random(in: -3000...3000, using: &rng), y = Double.random(in: -3000...3000, using: &rng)
            var region: Region
            if Bool.random(using: &rng) {
                region = Region(
                    id: "c\(i)",
                    shape: .circle(try! Circle(center: around(x, y), radius: .random(in: 20...800, using: &rng))))
            } else {
                let half = Double.random(in: 50...700, using: &rng)
                func square(_ h: Double, clockwise: Bool) -> [Coordinate] {
                    let corners = [around(x - h, y - h), around(x + h, y - h), around(x + h, y + h), around(x - h, y + h)]
                    let ring = clockwise ? Array(corners.reversed()) : corners
                    return ring + [ring[0]]
                }
                var rings = [square(half, clockwise: false)]
                if Bool.random(using: &rng) { rings.append(square(half / 3, clockwise: true)) }
                region = Region(id: "p\(i)", shape: .polygon(try! MultiPolygon([Polygon(rings: rings)])))
            }
            if Int.random(in: 0..<4, using: &rng) == 0 { region.overrides.hysteresis = .random(in: 0...100, using: &rng) }
            regions.append(region)
        }

        let base = Timestamp(iso8601: "2024-03-01T08:00:00Z")!
        var devices: [Device] = []
        for d in 0..<Int.random(in: 1...5, using: &rng) {
            var segments: [[Fix]] = []
            var t = base + TimeSpan(microseconds: .random(in: 0...30_000_000, using: &rng))
            var x = Double.random(in: -3000...3000, using: &rng), y = Double.random(in: -3000...3000, using: &rng)
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                var fixes: [Fix] = []
                for _ in 0..<Int.random(in: 2...40, using: &rng) {
                    fixes.append(Fix(around(x, y), at: t))
                    let stop = Int.random(in: 0..<5, using: &rng) == 0
                    let step = TimeSpan(microseconds: .random(in: 1_000_000...60_000_000, using: &rng))
                    if !stop {
                        let speed = Double.random(in: 1...25, using: &rng),
                            heading = Double.random(in: 0..<(2 * .pi), using: &rng)
                        x += speed * step.seconds * cos(heading)
                        y += speed * step.seconds * sin(heading)
                    }
                    t = t + step
                }
                segments.append(fixes)
                t = t + TimeSpan(microseconds: .random(in: 1_000_000...120_000_000, using: &rng))  // fix lost
            }
            devices.append(Device(id: "dev\(d)", track: .timed(segments)))
        }

        let rules = (0..<Int.random(in: 0...3, using: &rng)).map {
            DwellRule(
                name: "rule\($0)", duration: .seconds(.random(in: 0...120, using: &rng)),
                regions: Bool.random(using: &rng) ? nil : regions.filter { _ in Bool.random(using: &rng) }.map(\.id))
        }
        var overrides = MonitorOverrides()
        if Bool.random(using: &rng) { overrides.capacity = .some(.random(in: 1...10, using: &rng)) }
        if Bool.random(using: &rng) { overrides.selection = Bool.random(using: &rng) ? .static : .nearest }
        if Bool.random(using: &rng) { overrides.refreshDistance = .random(in: 100...1500, using: &rng) }
        if Bool.random(using: &rng) { overrides.confirmation = .seconds(.random(in: 0...40, using: &rng)) }
        if Bool.random(using: &rng) { overrides.initialTrigger = Bool.random(using: &rng) ? .enter : InitialTrigger.none }
        let chosen =
            profile ?? [Profile.iosDocumented, .androidDocumented, .androidBackgroundDocumented, .ideal].randomElement(
                using: &rng)!
        let noise = Bool.random(using: &rng) ? Noise(sigma: .random(in: 1...15, using: &rng), seed: rng.next()) : nil
        if revision3 {  // drawn after the rest: the revision-2 fields stay those of the same seed without it
            overrides.enterBuffer = .random(in: -40...20, using: &rng)
            if Bool.random(using: &rng) { overrides.enterConfidence = .random(in: 0...1, using: &rng) }
            if Bool.random(using: &rng) { overrides.hysteresis = .random(in: 0...60, using: &rng) }
            if Bool.random(using: &rng) { overrides.missEnter = .random(in: 0...0.5, using: &rng) }
            if Bool.random(using: &rng) { overrides.missExit = .random(in: 0...0.5, using: &rng) }
            if Bool.random(using: &rng) { overrides.delivery = .some(Delivery(median: .seconds(5), p90: .seconds(90))) }
            if Bool.random(using: &rng) { overrides.interval = .seconds(6); overrides.phase = .random }
            if Bool.random(using: &rng) {
                overrides.stationary = .some(Stationary(after: .seconds(20), within: 15, interval: .seconds(60)))
            }
            if Bool.random(using: &rng) {
                overrides.outliers = .some(
                    Outliers(
                        every: .seconds(120), duration: .seconds(12), median: 200, p90: 900,
                        accuracyScale: 0.5))
            }
        }
        let tick = TimeSpan.seconds(revision3 ? [1, 2, 3, 6].randomElement(using: &rng)! : .random(in: 1...3, using: &rng))
        return Simulation(
            regions: regions, rules: rules, profile: chosen,
            overrides: profile == nil || revision3 ? overrides : MonitorOverrides(),
            devices: devices, tick: tick, noise: noise)
    }
}

/// Runs `body` for every seed in `seeds`, naming the seed in any failure.
func withEverySeed(_ seeds: ClosedRange<UInt64>, _ body: (UInt64) throws -> Void) rethrows {
    for seed in seeds { try body(seed) }
}
