import Geodesy
import Testing
import Time

@testable import Geofencing

/// SEMANTICS §5's thresholds, each stated once (`RegionMonitor.Thresholds.trigger`), as hand-computed cases:
/// per state, the first d at which the monitor acts and the last at which it does not, and the quiet
/// margin read from the same threshold.
struct TriggerCase: CustomTestStringConvertible, Sendable {
    let id: String
    let hysteresis: Meters, enterBuffer: Meters
    let side: RegionMonitor.Side, pending: Bool
    /// The monitor acts at `acts`, not at `holds`.
    let acts: Meters, holds: Meters
    /// `quietMargin` at d = 0.
    let marginAtZero: Meters
    var testDescription: String { id }
}

let triggerCases: [TriggerCase] = [
    // h = 10, e = 5: an enter starts at d ≤ −5; e⁻ = 0.
    TriggerCase(
        id: "outside, e = 5: an enter starts at d ≤ −5", hysteresis: 10, enterBuffer: 5, side: .outside, pending: false,
        acts: -5, holds: -4.999, marginAtZero: 5),
    TriggerCase(
        id: "outside pending, e = 5: dropped at d > 0", hysteresis: 10, enterBuffer: 5, side: .outside, pending: true,
        acts: 0.001, holds: 0, marginAtZero: 0),
    TriggerCase(
        id: "inside, h = 10, e = 5: an exit starts at d > 10", hysteresis: 10, enterBuffer: 5, side: .inside, pending: false,
        acts: 10.001, holds: 10, marginAtZero: 10),
    TriggerCase(
        id: "inside pending, e = 5: dropped at d ≤ 0", hysteresis: 10, enterBuffer: 5, side: .inside, pending: true,
        acts: 0, holds: 0.001, marginAtZero: 0),
    // h = 10, e = −20: an enter starts up to 20 m outside; e⁻ = 20.
    TriggerCase(
        id: "outside, e = −20: an enter starts at d ≤ 20", hysteresis: 10, enterBuffer: -20, side: .outside, pending: false,
        acts: 20, holds: 20.001, marginAtZero: -20),
    TriggerCase(
        id: "outside pending, e = −20: dropped at d > 20", hysteresis: 10, enterBuffer: -20, side: .outside, pending: true,
        acts: 20.001, holds: 20, marginAtZero: 20),
    TriggerCase(
        id: "inside, h = 10, e = −20: an exit starts at d > 30", hysteresis: 10, enterBuffer: -20, side: .inside,
        pending: false,
        acts: 30.001, holds: 30, marginAtZero: 30),
    TriggerCase(
        id: "inside pending, e = −20: dropped at d ≤ 20", hysteresis: 10, enterBuffer: -20, side: .inside, pending: true,
        acts: 20, holds: 20.001, marginAtZero: -20),
]

@Suite struct ThresholdTriggerTests {
    @Test(arguments: triggerCases)
    func threshold(_ c: TriggerCase) {
        let thresholds = RegionMonitor.Thresholds(hysteresis: c.hysteresis, enterBuffer: c.enterBuffer, confirmation: .zero)
        let trigger = thresholds.trigger(side: c.side, pending: c.pending)
        #expect(trigger.isReached(by: c.acts))
        #expect(!trigger.isReached(by: c.holds))
        #expect(trigger.margin(from: 0) == c.marginAtZero)
        #expect(trigger.margin(from: c.acts) <= 0 && trigger.margin(from: c.holds) >= 0)  // 0: no room, yet not acting
    }

    /// `observe` reads the same threshold: a monitor in each state, given d just short of it and then at it,
    /// changes state (starts or drops a candidate) only at it. Confidence 0.5 with accuracy 0 passes at
    /// any d ≤ 0 for an enter and d > 0 for an exit.
    @Test(arguments: triggerCases)
    func observeActsAtTheThreshold(_ c: TriggerCase) {
        let thresholds = RegionMonitor.Thresholds(
            hysteresis: c.hysteresis, enterBuffer: c.enterBuffer,
            confirmation: .seconds(60))
        let t0 = Timestamp(microsecondsSince1970: 1_000_000_000_000)
        func monitor() -> RegionMonitor {
            var m = RegionMonitor(
                distance: c.side == .inside ? -1 : 1_000, at: t0, thresholds: thresholds, ruleCount: 0, announce: true)
            if c.pending {  // start the candidate from far beyond the threshold
                _ = m.observe(distance: c.side == .inside ? 1_000 : -1_000, at: t0)
            }
            return m
        }
        var held = monitor(), acted = monitor()
        let before = held.candidateSince
        _ = held.observe(distance: c.holds, at: t0 + .seconds(1))
        _ = acted.observe(distance: c.acts, at: t0 + .seconds(1))
        if c.enterBuffer > 0 || c.side == .inside || c.pending {
            #expect(held.candidateSince == before)
            #expect(acted.candidateSince != before)
        }
    }
}
