import Geodesy
import Testing

/// SEMANTICS §5's confidence, by hand: (acos(c) − c·sqrt(1 − c²)) / π with c = d / a clamped to [-1, 1].
@Suite("Confidence of being inside")
struct ConfidenceTests {
    @Test(
        "hand-computed",
        arguments: [
            (-10.0, 10.0, 1.0), (0, 10, 0.5), (10, 10, 0), (-20, 10, 1), (20, 10, 0),
            (5, 10, 0.19550110947788538), (-5, 10, 0.8044988905221148), (-3, 20, 0.5951336488308931),
            (3, 20, 0.4048663511691069),
            (0, 0, 1), (-1e-9, 0, 1), (1e-9, 0, 0),
        ])
    func table(d: Double, a: Double, confidence: Double) {
        #expect(abs(Confidence.inside(distance: d, accuracy: a) - confidence) < 1e-12)
    }

    @Test("Android's 85 % and 15 % fall at d = ∓0.58514 a")
    func androidThresholds() {
        let c = 0.5851374228807952
        #expect(abs(Confidence.inside(distance: -c * 20, accuracy: 20) - 0.85) < 1e-12)
        #expect(abs(Confidence.inside(distance: c * 20, accuracy: 20) - 0.15) < 1e-12)
        #expect(Confidence.inside(distance: -11.6, accuracy: 20) < 0.85)
        #expect(Confidence.inside(distance: -11.8, accuracy: 20) > 0.85)
    }
}
