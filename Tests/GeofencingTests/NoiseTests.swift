import Geodesy
import Testing
import Time

@testable import Geofencing

/// SEMANTICS §2's noise by hand: the standard pairs w_k of device "d" with seed 1 (from the page's
/// formulas: key = mix(1 ⊕ fnv1a("d")), SplitMix64, Box–Muller), and the Gauss–Markov offsets over
/// samples k = 0, 1 and, after a gap, 30, 31, with σ = 10 m and a tick of 1 s.
@Suite("Noise, by hand")
struct NoiseTests {
    static let w: [Int64: (north: Double, east: Double)] = [
        0: (-1.4136740303360056, 0.975278819168896), 1: (2.414648341570963, -0.14290378253158081),
        30: (0.9210111575437777, -1.06197583103683), 31: (0.9804012879171028, -1.0514281896131972),
    ]

    /// The offsets of the samples of a device standing at (0, 0) at t = 0, 1 and 30, 31 (two segments).
    private func offsets(correlation: TimeSpan) -> [(Int64, Double, Double)] {
        let origin = Coordinate(latitude: 0, longitude: 0)
        let fixes = [
            [Fix(origin, at: Walk.time(0)), Fix(origin, at: Walk.time(1))],
            [Fix(origin, at: Walk.time(30)), Fix(origin, at: Walk.time(31))],
        ]
        var stream = SampleStream(
            segments: fixes, start: Walk.base, tick: .seconds(1),
            noise: Noise(sigma: 10, seed: 1, correlation: correlation), deviceID: "d")
        var out: [(Int64, Double, Double)] = []
        while let s = stream.next() {
            out.append(
                (s.tickIndex, s.coordinate.latitude.radians * Earth.radius, s.coordinate.longitude.radians * Earth.radius))
        }
        return out
    }

    @Test("without correlation each offset is σ × w_k")
    func independent() {
        let got = offsets(correlation: .zero)
        #expect(got.map(\.0) == [0, 1, 30, 31])
        for (k, north, east) in got {
            #expect(abs(north - 10 * Self.w[k]!.north) < 1e-9 && abs(east - 10 * Self.w[k]!.east) < 1e-9, "k = \(k)")
        }
    }

    /// ρ = exp(−1 s / 10 s) = 0.904837418 between k = 0 and 1; exp(−29 s / 10 s) = 0.055023220 across the
    /// gap to k = 30. n_1 = 0.904837 × (−14.136740) + 10 × sqrt(1 − 0.904837²) × 2.414648 = −2.510911.
    @Test("with a correlation time of 10 s the offset wanders, across the gap too")
    func correlated() {
        let expected: [(Int64, Double, Double)] = [
            (0, -14.136740303360057, 9.75278819168896), (1, -2.5109109075231633, 8.216264452915762),
            (30, 9.058000544937366, -10.151584847341553), (31, 12.370147514635846, -13.662065703820144),
        ]
        let got = offsets(correlation: .seconds(10))
        #expect(got.count == expected.count)
        for ((k, north, east), (ek, en, ee)) in zip(got, expected) {
            #expect(k == ek)
            #expect(abs(north - en) < 1e-9 && abs(east - ee) < 1e-9, "k = \(k): (\(north), \(east))")
        }
    }
}
