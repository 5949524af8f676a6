extension Calibration {
    /// One evaluated candidate: its steps, its discrepancy on the fit's crossings, its simulated pools
    /// (kept for the bootstrap and the holdout).
    struct Candidate: Sendable {
        var steps: [Int]
        var discrepancy: Discrepancy
        var pools: OutcomePools
    }

    /// The evaluations made so far, by steps: each candidate is simulated once.
    struct Memo {
        var candidates: [[Int]: Candidate] = [:]
        var order: [[Int]] = []
    }

    /// The fit's weights: 1 for a crossing in the fit, 0 for one held out.
    var fitWeights: [Double] { heldOut.map { $0 ? 0 : 1 } }

    /// The candidate at `steps`, simulated unless it was before.
    func evaluate(_ steps: [Int], _ memo: inout Memo, progress: (Int) -> Void) -> Candidate {
        if let known = memo.candidates[steps] { return known }
        let pools = OutcomePools(simulate(steps), kindOf: kindOf)
        let discrepancy = Discrepancy(
            observed: observedPools, simulated: pools, weights: fitWeights, kindOf: kindOf,
            counts: counts, usesLag: logHasDecisionTimes)
        let candidate = Candidate(steps: steps, discrepancy: discrepancy, pools: pools)
        memo.candidates[steps] = candidate
        memo.order.append(steps)
        progress(memo.order.count)
        return candidate
    }

    /// Whether `a` is better than `b`: a lower discrepancy; of equal ones, the steps nearer the base's
    /// (then the smaller steps), so that ties break the same way on every run.
    func better(_ a: Candidate, _ b: Candidate, start: [Int]) -> Bool {
        let (x, y) = (a.discrepancy.total, b.discrepancy.total)
        if x != y { return x < y }
        let da = zip(a.steps, start).map { abs($0 - $1) }.reduce(0, +),
            db = zip(b.steps, start).map { abs($0 - $1) }.reduce(0, +)
        if da != db { return da < db }
        return a.steps.lexicographicallyPrecedes(b.steps)
    }

    /// The search (docs/CALIBRATE.md "Optimiser"): from the base's values, a grid of 9 points over each
    /// parameter's bounds in turn (the others held), then a pattern search: each parameter tries ± its
    /// step, the best move is taken; when none improves, the steps halve, down to the resolution (one
    /// step), and the search ends when no move at one step improves. Deterministic: evaluations are
    /// memoized by steps, ties broken by `better`. O(parameters × (9 + 2 × log₂(bounds / resolution) ×
    /// moves)) candidates.
    func search(_ memo: inout Memo, progress: (Int) -> Void) -> Candidate {
        let start = parameters.indices.map { j in
            parameters[j].step(nearest: coordinate(j, in: run.simulation.settings, noise: run.simulation.noise))
        }
        var best = evaluate(start, &memo, progress: progress)
        for (j, parameter) in parameters.enumerated() {
            for g in 0...8 {
                var steps = best.steps
                steps[j] = (parameter.steps * g + 4) / 8
                let candidate = evaluate(steps, &memo, progress: progress)
                if better(candidate, best, start: start) { best = candidate }
            }
        }
        var sizes = parameters.map { max(1, $0.steps / 16) }
        while true {
            var move: Candidate?
            for (j, parameter) in parameters.enumerated() {
                for sign in [-1, 1] {
                    var steps = best.steps
                    steps[j] = min(parameter.steps, max(0, steps[j] + sign * sizes[j]))
                    guard steps != best.steps else { continue }
                    let candidate = evaluate(steps, &memo, progress: progress)
                    if better(candidate, move ?? best, start: start) { move = candidate }
                }
            }
            if let move, better(move, best, start: start) {
                best = move
            } else if sizes.contains(where: { $0 > 1 }) {
                sizes = sizes.map { max(1, $0 / 2) }
            } else {
                return best
            }
        }
    }
}
