/// How far a candidate's simulated crossings are from the observed ones: the function the fit minimises
/// (docs/CALIBRATE.md "Discrepancy"). Per kind k (enter, exit), over the crossings of weight w_c > 0
/// (the fit's crossings; a bootstrap replicate's counts), with R simulated runs:
///
/// - detection: n_k · (p_obs − p_sim)² / max(p̄ (1 − p̄), 0.05), where n_k = Σ w_c, p_obs = Σ w_c d_c / n_k,
///   p_sim = Σ w_c (Σ_r d_rc / R) / n_k and p̄ = (p_obs + p_sim) / 2: a squared difference over a binomial
///   variance with a floor;
/// - for each of the delay (reported time − true crossing, s), the true distance from the boundary when the
///   phone decided (m), and, when the log has `detectedAt`, the delivery lag (time − detectedAt, s):
///   m · (W₁ / s)², where W₁ = (1/20) Σ_i |Q_obs(q_i) − Q_sim(q_i)| over the levels q_i = (i + ½)/20 (the
///   1-Wasserstein distance through fixed quantiles of the weighted empirical distributions, a simulated
///   value weighing w_c / R), s = max(Q_obs(0.9) − Q_obs(0.1), floor) with floors 10 s, 10 m, 5 s, and m the
///   observed values' weight;
/// - spurious events: N_k · (a_obs − a_sim)² / max(ā, 0.02), a = spurious events per crossing (over all of
///   the kind's N_k crossings: an unpaired event belongs to no crossing, so holdout and bootstrap leave it
///   be), ā their mean.
///
/// The total is the sum over kinds and terms. Under common random numbers it is a deterministic, piecewise
/// constant function of the parameters. O(R × crossings) per evaluation over pre-sorted pools.
public struct Discrepancy: Hashable, Sendable {
    /// The quantile levels of W₁.
    public static let levels = 20
    /// The scales' floors: delay (s), distance (m), lag (s).
    public static let floors: [Double] = [10, 10, 5]
    public static let measures = ["delay", "distance", "lag"]

    /// One kind's terms.
    public struct Terms: Hashable, Sendable {
        public var detection = 0.0
        /// delay, distance, lag.
        public var shapes = [0.0, 0.0, 0.0]
        public var spurious = 0.0
        public var total: Double { detection + shapes.reduce(0, +) + spurious }
    }

    /// Per kind of `TrueCrossings.kinds`.
    public var kinds: [Terms]
    public var total: Double { kinds.reduce(0) { $0 + $1.total } }
}

/// One side's outcomes made ready for weighted comparisons: per kind, the detection indicator sums per
/// crossing, and per kind and measure the (value, crossing) pairs sorted by value. Built once per candidate.
struct OutcomePools: Sendable {
    let runs: Int
    /// Per crossing: in how many runs it was reported.
    let reported: [Int]
    /// [kind][measure]: values ascending, and their crossings.
    let values: [[[Double]]]
    let owners: [[[Int32]]]
    /// Per kind: spurious events per run, averaged.
    let spurious: [Double]

    init(_ outcomes: CrossingOutcomes, kindOf: [Int]) {
        runs = outcomes.runs
        let count = outcomes.crossings
        var reported = [Int](repeating: 0, count: count)
        var pairs = Array(repeating: Array(repeating: [(Double, Int32)](), count: 3), count: TrueCrossings.kinds.count)
        for r in 0..<outcomes.runs {
            for c in 0..<count where outcomes.detected[r * count + c] {
                reported[c] += 1
                let i = r * count + c
                for (m, value) in [outcomes.delay[i], outcomes.distance[i], outcomes.lag[i]].enumerated() where !value.isNaN
                {
                    pairs[kindOf[c]][m].append((value, Int32(c)))
                }
            }
        }
        for k in pairs.indices {
            for m in pairs[k].indices { pairs[k][m].sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) } }
        }
        self.reported = reported
        values = pairs.map { $0.map { $0.map(\.0) } }
        owners = pairs.map { $0.map { $0.map(\.1) } }
        spurious = (0..<TrueCrossings.kinds.count).map { k in
            Double(outcomes.spurious.reduce(0) { $0 + $1[k] }) / Double(max(1, outcomes.runs))
        }
    }

    /// The share of kind k's crossings (weighted by `weights`) that were reported, averaged over the runs;
    /// nil when no crossing of the kind has weight. O(crossings).
    func detection(kind k: Int, weights: [Double], kindOf: [Int]) -> Double? {
        var n = 0.0, seen = 0.0
        for c in weights.indices where weights[c] > 0 && kindOf[c] == k {
            n += weights[c]
            seen += weights[c] * Double(reported[c]) / Double(runs)
        }
        return n > 0 ? seen / n : nil
    }

    /// The weighted quantiles of [kind][measure] at the levels (i + ½) / `levels`: each the first value
    /// whose cumulative weight reaches that share; and the values' weight over the runs. Nil when no value
    /// has weight. O(values).
    func quantiles(
        kind: Int, measure: Int, weights: [Double], levels: Int = Discrepancy.levels
    ) -> (values: [Double], weight: Double)? {
        let values = self.values[kind][measure], owners = self.owners[kind][measure]
        var total = 0.0
        for owner in owners { total += weights[Int(owner)] }
        guard total > 0 else { return nil }
        var result: [Double] = []
        result.reserveCapacity(levels)
        var cumulative = 0.0, level = 0
        for (i, owner) in owners.enumerated() {
            cumulative += weights[Int(owner)]
            while level < levels && cumulative >= (Double(level) + 0.5) / Double(levels) * total - 1e-9 {
                result.append(values[i])
                level += 1
            }
        }
        if let last = values.last { while result.count < levels { result.append(last) } }
        return (result, total / Double(runs))
    }
}

extension Discrepancy {
    /// The discrepancy between `observed` and `simulated` over crossings weighted by `weights` (of kind
    /// `kindOf[c]`); `counts[k]` is kind k's crossings in all; `usesLag` when the log has `detectedAt`.
    init(observed: OutcomePools, simulated: OutcomePools, weights: [Double], kindOf: [Int], counts: [Int], usesLag: Bool) {
        var kinds = Array(repeating: Terms(), count: TrueCrossings.kinds.count)
        var n = [Double](repeating: 0, count: kinds.count), seen = n, expected = n
        for c in weights.indices where weights[c] > 0 {
            let k = kindOf[c]
            n[k] += weights[c]
            seen[k] += weights[c] * Double(observed.reported[c])
            expected[k] += weights[c] * Double(simulated.reported[c]) / Double(simulated.runs)
        }
        for k in kinds.indices {
            if n[k] > 0 {
                let pObserved = seen[k] / n[k], pSimulated = expected[k] / n[k], mean = (pObserved + pSimulated) / 2
                kinds[k].detection =
                    n[k] * (pObserved - pSimulated) * (pObserved - pSimulated) / max(mean * (1 - mean), 0.05)
            }
            for m in 0..<3 where m < 2 || usesLag {
                guard let o = observed.quantiles(kind: k, measure: m, weights: weights) else { continue }
                // Observed values with nothing simulated: as far as the spread, one scale per level.
                let scale = max(
                    o.values[Discrepancy.levels * 9 / 10] - o.values[Discrepancy.levels / 10], Discrepancy.floors[m])
                guard let s = simulated.quantiles(kind: k, measure: m, weights: weights) else {
                    kinds[k].shapes[m] = o.weight
                    continue
                }
                var w1 = 0.0
                for i in 0..<Discrepancy.levels { w1 += abs(o.values[i] - s.values[i]) }
                w1 /= Double(Discrepancy.levels)
                kinds[k].shapes[m] = o.weight * (w1 / scale) * (w1 / scale)
            }
            if counts[k] > 0 {
                let a = observed.spurious[k] / Double(counts[k]), b = simulated.spurious[k] / Double(counts[k])
                kinds[k].spurious = Double(counts[k]) * (a - b) * (a - b) / max((a + b) / 2, 0.02)
            }
        }
        self.kinds = kinds
    }
}
