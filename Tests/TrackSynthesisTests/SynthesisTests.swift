import Foundation
import GPX
import Geodesy
import ScenarioFormat
import Testing
import Time

@testable import TrackSynthesis

/// 2024-05-01T09:00:00Z
let may1 = Timestamp(iso8601: "2024-05-01T09:00:00Z")!
let equator = Coordinate(latitude: 0, longitude: 0)
/// The point `m` metres east of (0, 0) along the equator (a great circle).
func east(_ m: Double) -> Coordinate { Coordinate(latitude: 0, longitude: (m / Earth.radius).degrees) }

struct CountCase: CustomTestStringConvertible, Sendable {
    var label: String
    var journey: Journey
    var fixes: Int
    var segments: Int
    var testDescription: String { label }
}

@Suite("Journey synthesis")
struct SynthesisTests {
    // Hand-computed: 100 m east at 10 m/s takes 10 s, so fixes at 0…10 s are 11 at a 1 s interval.
    static let countCases: [CountCase] = [
        CountCase(
            label: "only a starting point: one fix", journey: Journey(start: may1, origin: equator, steps: []),
            fixes: 1, segments: 1),
        CountCase(
            label: "100 m at 10 m/s: 0…10 s",
            journey: Journey(
                start: may1, origin: equator,
                steps: [.move(to: east(100), speed: 10)]), fixes: 11, segments: 1),
        CountCase(
            label: "then a 5 s stop: 0…15 s",
            journey: Journey(
                start: may1, origin: equator,
                steps: [.move(to: east(100), speed: 10), .stop(.seconds(5))]), fixes: 16, segments: 1),
        CountCase(
            label: "interval 2 s: 0, 2, …, 10 s",
            journey: Journey(
                start: may1, interval: .seconds(2), origin: equator,
                steps: [.move(to: east(100), speed: 10)]), fixes: 6, segments: 1),
        CountCase(
            label: "interval 3 s: the last tick before the end (0, 3, 6, 9 s)",
            journey: Journey(
                start: may1,
                interval: .seconds(3), origin: equator, steps: [.move(to: east(100), speed: 10)]), fixes: 4, segments: 1),
        CountCase(
            label: "lost 3 s in the middle: 10, 11, 12 s missing, two segments",
            journey: Journey(
                start: may1,
                origin: equator,
                steps: [.move(to: east(100), speed: 10), .lost(.seconds(3)), .move(to: east(200), speed: 10)]),
            fixes: 18, segments: 2),
        CountCase(
            label: "lost at the start: 0…4 s missing",
            journey: Journey(
                start: may1, origin: equator,
                steps: [.lost(.seconds(5)), .stop(.seconds(10))]), fixes: 6, segments: 1),
        CountCase(
            label: "two losses: three segments",
            journey: Journey(
                start: may1, origin: equator,
                steps: [
                    .stop(.seconds(10)), .lost(.seconds(2)), .stop(.seconds(10)), .lost(.seconds(4)), .stop(.seconds(10)),
                ]),
            fixes: 31 - 6, segments: 3),
        CountCase(
            label: "a loss past the end: the track just ends (the fix at 10 s is lost too)",
            journey: Journey(
                start: may1,
                origin: equator, steps: [.stop(.seconds(10)), .lost(.seconds(60))]), fixes: 10, segments: 1),
        CountCase(
            label: "250 ms interval, 2 s stop: 9 fixes",
            journey: Journey(
                start: may1, interval: TimeSpan(microseconds: 250_000),
                origin: equator, steps: [.stop(.seconds(2))]), fixes: 9, segments: 1),
    ]

    @Test("fix and segment counts", arguments: countCases)
    func counts(_ c: CountCase) {
        let track = c.journey.synthesize()
        #expect(track.fixCount == c.fixes)
        #expect(track.segments.count == c.segments)
        let times = track.fixes.map(\.time)
        #expect(times == times.sorted())
        #expect(track.fixes.allSatisfy { ($0.time - may1).microseconds % c.journey.interval.microseconds == 0 })
    }

    @Test("the lost ticks are exactly [t, t + span)")
    func lostTicks() {
        let j = Journey(
            start: may1, origin: equator,
            steps: [.move(to: east(100), speed: 10), .lost(.seconds(3)), .move(to: east(200), speed: 10)])
        let seconds = j.synthesize().segments.map { $0.map { ($0.time - may1).microseconds / 1_000_000 } }
        #expect(seconds == [Array(0...9), Array(13...20)])
        // The device kept moving while lost: at 13 s it is 130 m east.
        #expect(abs(j.synthesize().segments[1][0].coordinate.distance(to: equator) - 130) < 1e-6)
    }

    struct PositionCase: Sendable, CustomTestStringConvertible {
        var label: String
        var journey: Journey
        var second: Int64
        var expected: Coordinate
        var testDescription: String { label }
    }

    static let spb = Coordinate(latitude: 59.9343, longitude: 30.3351)
    static let spbNorth1km = Coordinate(latitude: 59.9343 + (1000 / Earth.radius).degrees, longitude: 30.3351)

    static let positionCases: [PositionCase] = [
        PositionCase(
            label: "100 m east at 10 m/s: 50 m at 5 s",
            journey: Journey(
                start: may1, origin: equator,
                steps: [.move(to: east(100), speed: 10)]), second: 5, expected: east(50)),
        PositionCase(
            label: "…and there at 10 s",
            journey: Journey(
                start: may1, origin: equator,
                steps: [.move(to: east(100), speed: 10)]), second: 10, expected: east(100)),
        PositionCase(
            label: "stop: still there at 12 s",
            journey: Journey(
                start: may1, origin: equator,
                steps: [.move(to: east(100), speed: 10), .stop(.seconds(5))]), second: 12, expected: east(100)),
        PositionCase(
            label: "back west after the stop: 80 m at 17 s",
            journey: Journey(
                start: may1, origin: equator,
                steps: [.move(to: east(100), speed: 10), .stop(.seconds(5)), .move(to: equator, speed: 10)]),
            second: 17, expected: east(80)),
        PositionCase(
            label: "1 km north in St Petersburg at 36 km/h: 300 m at 30 s",
            journey: Journey(
                start: may1,
                origin: spb, steps: [.move(to: spbNorth1km, speed: 10)]), second: 30,
            expected: Coordinate(latitude: 59.9343 + (300 / Earth.radius).degrees, longitude: 30.3351)),
        PositionCase(
            label: "a loss does not stop the clock: 150 m at 15 s",
            journey: Journey(
                start: may1, origin: equator,
                steps: [.lost(.seconds(12)), .move(to: east(200), speed: 10)]), second: 15, expected: east(150)),
    ]

    @Test("positions at known times", arguments: positionCases)
    func positions(_ c: PositionCase) throws {
        let time = may1 + .seconds(c.second)
        #expect(c.journey.position(at: time).distance(to: c.expected) < 1e-6)
        let fix = try #require(c.journey.synthesize().fixes.first { $0.time == time })
        #expect(fix.coordinate.distance(to: c.expected) < 1e-6)
    }

    @Test("great-circle interpolation: distances add up, the midpoint of a long leg is off the rhumb line")
    func greatCircle() {
        let helsinki = Coordinate(latitude: 60.3172, longitude: 24.9633)
        let pulkovo = Coordinate(latitude: 59.8003, longitude: 30.2625)
        let total = helsinki.distance(to: pulkovo)
        for f in stride(from: 0.0, through: 1.0, by: 0.125) {
            let p = helsinki.interpolated(to: pulkovo, fraction: f)
            #expect(abs(helsinki.distance(to: p) - f * total) < 1e-6)
            #expect(abs(p.distance(to: pulkovo) - (1 - f) * total) < 1e-6)
        }
        // Going east at 60° N, the great circle bulges north of both ends' latitude.
        #expect(helsinki.interpolated(to: pulkovo, fraction: 0.5).latitude > 60.0)
        // Across the antimeridian, the short way round.
        let a = Coordinate(latitude: 0, longitude: 179.999), b = Coordinate(latitude: 0, longitude: -179.999)
        #expect(abs(a.interpolated(to: b, fraction: 0.5).longitude.magnitude - 180) < 1e-9)
    }

    static func noisy(seed: UInt64, sigma: Double = 5, seconds: Int64 = 600) -> Journey {
        Journey(
            start: may1, seed: seed, noise: sigma, origin: spb,
            steps: [.move(to: spbNorth1km, speed: 2), .stop(.seconds(seconds))])
    }

    @Test("deterministic: the same journey and seed give the same fixes", arguments: [0, 7, 42] as [UInt64])
    func deterministic(seed: UInt64) {
        #expect(Self.noisy(seed: seed).synthesize() == Self.noisy(seed: seed).synthesize())
    }

    @Test("different seeds give different fixes")
    func seedsDiffer() {
        let a = Self.noisy(seed: 7).synthesize().fixes, b = Self.noisy(seed: 8).synthesize().fixes
        #expect(a.count == b.count)
        #expect(zip(a, b).filter { $0.0.coordinate == $0.1.coordinate }.count == 0)
        // Without noise the seed changes nothing.
        #expect(Self.noisy(seed: 7, sigma: 0).synthesize() == Self.noisy(seed: 8, sigma: 0).synthesize())
    }

    @Test("noise: north and east offsets have mean ≈ 0 and standard deviation ≈ sigma", arguments: [1.0, 5.0, 20.0])
    func noiseStatistics(sigma: Double) {
        let j = Journey(start: may1, seed: 11, noise: sigma, origin: Self.spb, steps: [.stop(.seconds(19_999))])
        let fixes = j.synthesize().fixes
        #expect(fixes.count == 20_000)
        let cosLat = cos(Self.spb.latitude.radians)
        let north = fixes.map { ($0.coordinate.latitude - Self.spb.latitude).radians * Earth.radius }
        let east = fixes.map { ($0.coordinate.longitude - Self.spb.longitude).radians * Earth.radius * cosLat }
        for values in [north, east] {
            let n = Double(values.count)
            let mean = values.reduce(0, +) / n
            let sd = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / (n - 1)).squareRoot()
            // Standard errors: σ/√n ≈ 0.007σ for the mean, σ/√(2n) ≈ 0.005σ for the sd: 5 of them each.
            #expect(abs(mean) < 0.035 * sigma, "mean \(mean)")
            #expect(abs(sd - sigma) < 0.025 * sigma, "sd \(sd)")
        }
        // North and east are independent.
        let r = zip(north, east).map { $0 * $1 }.reduce(0, +) / Double(north.count) / (sigma * sigma)
        #expect(abs(r) < 0.035)
    }

    @Test("correlated noise: each offset keeps exp(−Δt / T) of the last one, and its spread is still sigma")
    func correlatedNoise() {
        let sigma = 10.0, rho = exp(-1.0 / 30)  // a fix a second, T = 30 s
        let j = Journey(
            start: may1, seed: 11, noise: sigma, noiseCorrelation: .seconds(30), origin: Self.spb,
            steps: [.stop(.seconds(59_999))])
        let fixes = j.synthesize().fixes
        let cosLat = cos(Self.spb.latitude.radians)
        let north = fixes.map { ($0.coordinate.latitude - Self.spb.latitude).radians * Earth.radius }
        let east = fixes.map { ($0.coordinate.longitude - Self.spb.longitude).radians * Earth.radius * cosLat }
        for values in [north, east] {
            let n = Double(values.count), mean = values.reduce(0, +) / n
            let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / n
            let lag1 = zip(values, values.dropFirst()).map { ($0 - mean) * ($1 - mean) }.reduce(0, +) / (n - 1) / variance
            // About 1,000 independent values in 60,000 correlated ones: the spread within 10 %, ρ within 0.01.
            #expect(abs(variance.squareRoot() - sigma) < 0.1 * sigma, "sd \(variance.squareRoot())")
            #expect(abs(lag1 - rho) < 0.01, "lag-1 correlation \(lag1), expected \(rho)")
        }
    }

    @Test("a fix loss changes no other fix's noise, with or without a correlation time", arguments: [0, 30] as [Int64])
    func lossKeepsNoise(correlation: Int64) {
        func journey(_ steps: [Journey.Step]) -> Journey {
            Journey(start: may1, seed: 5, noise: 6, noiseCorrelation: .seconds(correlation), origin: Self.spb, steps: steps)
        }
        let whole = journey([.move(to: Self.spbNorth1km, speed: 2), .stop(.seconds(100))]).synthesize().fixes
        let cut = journey([.move(to: Self.spbNorth1km, speed: 2), .lost(.seconds(40)), .stop(.seconds(100))]).synthesize()
            .fixes
        #expect(cut.count == whole.count - 40)
        let byTime = Dictionary(uniqueKeysWithValues: whole.map { ($0.time, $0.coordinate) })
        #expect(cut.allSatisfy { byTime[$0.time] == $0.coordinate })
    }
}
