import Testing

@testable import Calibration

/// The discrepancy of docs/CALIBRATE.md on four crossings (two enters, two exits, weight 1 each), each
/// case computed by hand. Delays 30 s and distances 50 m unless a case says otherwise; one run a side.
@Suite("Discrepancy, by hand")
struct DiscrepancyTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var id: String
        /// Per crossing: the delay in seconds, nil when missed.
        var observed: [Double?]
        var simulated: [Double?]
        var spurious: (observed: [Int], simulated: [Int]) = ([0, 0], [0, 0])
        var total: Double
        var testDescription: String { id }
    }

    static let kindOf = [0, 0, 1, 1]

    static let cases: [Case] = [
        Case(id: "the same outcomes: 0", observed: [30, 30, 30, 30], simulated: [30, 30, 30, 30], total: 0),
        // Exits: p_obs = 0.5, p_sim = 1, p̄ = 0.75: 2 × 0.5² / (0.75 × 0.25) = 8/3.
        Case(id: "one exit missed: 8/3", observed: [30, 30, 30, nil], simulated: [30, 30, 30, 30], total: 8.0 / 3),
        // Every simulated delay 5 s later: W₁ = 5, scale = the 10 s floor, 2 × (5/10)² = 0.5 a kind.
        Case(id: "delays 5 s later: 1", observed: [30, 30, 30, 30], simulated: [35, 35, 35, 35], total: 1),
        // Observed exits at 30 s and 70 s: the scale is their spread, 40 s; simulated 50 s and 90 s: W₁ = 20,
        // 2 × (20/40)² = 0.5.
        Case(
            id: "exit delays shifted by half their spread: 0.5", observed: [30, 30, 30, 70], simulated: [30, 30, 50, 90],
            total: 0.5),
        // One spurious exit in the log, none simulated: a = 0.5, b = 0, ā = 0.25: 2 × 0.25 / 0.25 = 2.
        Case(
            id: "a spurious exit: 2", observed: [30, 30, 30, 30], simulated: [30, 30, 30, 30], spurious: ([0, 1], [0, 0]),
            total: 2),
    ]

    func outcomes(_ delays: [Double?], spurious: [Int]) -> CrossingOutcomes {
        var outcomes = CrossingOutcomes(crossings: delays.count, runs: 1)
        for (c, delay) in delays.enumerated() {
            if let delay { outcomes.set(run: 0, crossing: c, delay: delay, distance: 50, lag: 0) }
        }
        outcomes.spurious = [spurious]
        return outcomes
    }

    @Test(arguments: cases) func byHand(_ c: Case) {
        let observed = OutcomePools(outcomes(c.observed, spurious: c.spurious.observed), kindOf: Self.kindOf)
        let simulated = OutcomePools(outcomes(c.simulated, spurious: c.spurious.simulated), kindOf: Self.kindOf)
        let d = Discrepancy(
            observed: observed, simulated: simulated, weights: [1, 1, 1, 1], kindOf: Self.kindOf,
            counts: [2, 2], usesLag: false)
        #expect(abs(d.total - c.total) < 1e-12, "\(d)")
    }

    /// A crossing of weight 0 (held out) counts for nothing.
    @Test func heldOutCrossingsDoNotCount() {
        let observed = OutcomePools(outcomes([30, 30, 30, nil], spurious: [0, 0]), kindOf: Self.kindOf)
        let simulated = OutcomePools(outcomes([30, 30, 30, 30], spurious: [0, 0]), kindOf: Self.kindOf)
        let d = Discrepancy(
            observed: observed, simulated: simulated, weights: [1, 1, 1, 0], kindOf: Self.kindOf,
            counts: [2, 2], usesLag: false)
        #expect(d.total == 0)
    }
}
