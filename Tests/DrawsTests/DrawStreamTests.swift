import Testing

@testable import Draws

/// SEMANTICS §2 "Random draws" by hand. The expected values come from the page's text alone, in Python:
///
/// ```python
/// M = (1 << 64) - 1
/// def mix(z):
///     z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
///     z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
///     return z ^ (z >> 31)
/// def fnv(b):
///     h = 0xCBF29CE484222325
///     for c in b: h = ((h ^ c) * 0x100000001B3) & M
///     return h
/// def key(S, D, W, r): return mix(mix(mix(S ^ fnv(D.encode())) ^ fnv(W.encode())) ^ r)
/// def draw(k, i, n):
///     s, out = mix(k ^ ((i * 0x9E3779B97F4A7C15) & M)), []
///     for _ in range(n):
///         s = (s + 0x9E3779B97F4A7C15) & M; out.append(mix(s))
///     return out
/// u = lambda x: ((x >> 11) + 1) / 2**53
/// ```
struct DrawStreamTests {
    @Test("streamKey and x_j: key(7, phone, phase, 0), draw 0; the phase x_1 mod 120 = 47")
    func phaseDraw() {
        let stream = DrawStream(seed: 7, device: "phone", name: "phase")
        #expect(stream.key == 0xEA67_52CA_41BE_7694)
        var draw = stream.draw(0)
        let x1 = draw.x()
        #expect(x1 == 0x3A3A_1478_9A78_B727)
        #expect(draw.x() == 0x2E20_1F85_1857_41B1)
        #expect(x1 % 120 == 47)
    }

    @Test("u_j, the standard normal and the lognormal: key(0, d, miss-enter, 3), draw 42")
    func uniformsAndNormal() {
        let stream = DrawStream(seed: 0, device: "d", name: "miss-enter", r: 3)
        #expect(stream.key == 0xD40B_D819_DC49_B58B)
        var draw = stream.draw(42)
        let u1 = draw.u(), u2 = draw.u()
        #expect(u1 == 0.8494564574412654)
        #expect(u2 == 0.10344842151887979)
        #expect(stream.u(42) == u1)
        let z = DrawStream.standardNormal(u1, u2)
        #expect(abs(z - 0.4547613178241676) < 1e-15)  // z = sqrt(-2 ln u1) cos(2π u2)
        // m exp(z ln(q/m) / 1.2815515655446004) with m = 10, q = 120
        #expect(abs(DrawStream.lognormal(median: 10, p90: 120, z: z) - 24.15181517436605) < 1e-12)
        #expect(DrawStream.lognormal(median: 30, p90: 30, z: z) == 30)  // q = m gives m
        #expect(stream.u(-1) == 0.04916750761920363)  // i as a 64-bit two's-complement integer
    }

    @Test("a dwell's region number: r = region + 2^32 × (rule + 1)")
    func dwellKey() {
        #expect(DrawStream(seed: 1, device: "d", name: "delay-dwell", r: 2 + (1 << 32)).key == 0xA5B7_CCB1_CD27_5AE1)
    }

    @Test("the device key is the noise's: mix(S ⊕ fnv1a(D))")
    func deviceKeyIsTheNoiseKey() {
        #expect(DrawStream.deviceKey(seed: 9, device: "van-3") == SplitMix64.mix(9 ^ FNV1a.hash("van-3".utf8)))
    }

    /// The noise is a stream too (one random scheme, issue 38): w_k is draw k of the stream keyed by key_D
    /// itself, `r = sqrt(−2 ln u1)`, `θ = 2π u2`, `(r cos θ, r sin θ)`; the values are the Python
    /// reference's `standard_pair(mix(7 ^ fnv("phone")), k)`.
    @Test(
        "the noise's standard pair: draw k of key_D = key(7, phone)",
        arguments: [
            (Int64(42), -1.2769000974620126, -0.10371532483748358),
            (Int64(-3), -0.8597850675986244, -0.15443524471952838),
        ])
    func noisePair(k: Int64, north: Double, east: Double) {
        let stream = DrawStream(key: DrawStream.deviceKey(seed: 7, device: "phone"))
        #expect(stream.key == 0x3014_BBB6_D461_0F76)
        var draw = stream.draw(k)
        let w = draw.normalPair()
        #expect(abs(w.north - north) < 1e-15 && abs(w.east - east) < 1e-15, "k \(k): \(w)")
        var again = stream.draw(k)
        #expect(again.standardNormal() == w.north, "the pair's north is the standard normal of the same draw")
        var scaled = stream.draw(k)
        let s = scaled.normalPair(sigma: 6)
        #expect(abs(s.north - 6 * north) < 1e-13 && abs(s.east - 6 * east) < 1e-13)
    }
}
