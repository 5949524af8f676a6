import Draws

extension Calibration {
    /// The offsets, in steps, at which each parameter's profile line is evaluated around the optimum (the
    /// other parameters held there), both ways, within the bounds.
    /// How far above the optimum's discrepancy two points in a row end a profile line.
    static let lineMargin = 25.0

    /// How near the least discrepancy, relative to it, a point counts as tied with it.
    static let tieTolerance = 1e-9

    static let lineOffsets = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536]

    /// Each parameter's interval (docs/CALIBRATE.md "Uncertainty"): its profile line through `best` is
    /// evaluated at `lineOffsets` steps each way, until two points in a row are `lineMargin` above the
    /// optimum or the bound is reached; each of `options.replicates` bootstrap replicates resamples the fit's crossings of each
    /// kind with replacement (SplitMix64 from the seed) and takes the points of least discrepancy on the
    /// line (all of them when several tie: a flat stretch the log cannot tell apart); with `hysteresis` and `enterBuffer` both fitted, its h is its T less
    /// its e⁻ (`Calibration+ExitThreshold`); the interval is the 5th and 95th percentiles of those points,
    /// widened by half the resolution and kept within the bounds. O(parameters × line × (candidates'
    /// runs + replicates × R × crossings)).
    func intervals(around best: Candidate, _ memo: inout Memo, progress: (Int) -> Void) -> [(low: Double, high: Double)] {
        let lines: [[Candidate]] = parameters.enumerated().map { j, parameter in
            var line = [best]
            for sign in [-1, 1] {
                var beyond = 0
                for offset in Self.lineOffsets {
                    var steps = best.steps
                    steps[j] += sign * offset
                    guard steps[j] >= 0 && steps[j] <= parameter.steps else { break }
                    let candidate = evaluate(steps, &memo, progress: progress)
                    line.append(candidate)
                    // Two points in a row this far above the optimum: no replicate will choose beyond them.
                    beyond = candidate.discrepancy.total > best.discrepancy.total + Self.lineMargin ? beyond + 1 : 0
                    if beyond == 2 { break }
                }
            }
            return line
        }
        // The replicates' weights: per kind, as many draws with replacement as the kind has fit crossings.
        let fit = truth.crossings.indices.filter { !heldOut[$0] }
        let byKind = TrueCrossings.kinds.indices.map { k in fit.filter { kindOf[$0] == k } }
        var random = SplitMix64(seed: SplitMix64.mix(options.seed ^ 0xB007_5712_A9))
        // Per replicate and line, the least discrepancy's points: every point tied with the least (a parameter
        // the log cannot tell apart over a stretch has a flat line, and its interval is the whole stretch).
        var lows = Array(repeating: [Double](), count: parameters.count)
        var highs = lows
        for _ in 0..<options.replicates {
            var weights = [Double](repeating: 0, count: truth.crossings.count)
            for members in byKind where !members.isEmpty {
                for _ in members.indices { weights[members[Int(random.next() % UInt64(members.count))]] += 1 }
            }
            var lowSteps = best.steps, highSteps = best.steps
            for (j, line) in lines.enumerated() {
                let totals = line.map {
                    Discrepancy(
                        observed: observedPools, simulated: $0.pools, weights: weights, kindOf: kindOf,
                        counts: counts, usesLag: logHasDecisionTimes
                    ).total
                }
                let least = totals.min() ?? 0
                let tied = line.indices.filter { totals[$0] <= least + Self.tieTolerance * max(1, abs(least)) }.map {
                    line[$0].steps[j]
                }
                lowSteps[j] = tied.min() ?? best.steps[j]
                highSteps[j] = tied.max() ?? best.steps[j]
            }
            // Each parameter's ends from this replicate's points on every line (h from its T and e: lowest
            // with the lowest of both, as h = T − max(0, −e) grows with each).
            for j in parameters.indices {
                lows[j].append(fittedValue(j, at: lowSteps))
                highs[j].append(fittedValue(j, at: highSteps))
            }
        }
        return parameters.enumerated().map { j, parameter in
            let (lower, upper) = (lows[j].sorted(), highs[j].sorted())
            let value = fittedValue(j, at: best.steps)
            guard !lower.isEmpty else { return (value, value) }
            let low = lower[Int((Double(lower.count - 1) * 0.05).rounded(.down))]
            let high = upper[Int((Double(upper.count - 1) * 0.95).rounded(.up))]
            return (
                max(parameter.lower, min(low, value) - parameter.resolution / 2),
                min(parameter.upper, max(high, value) + parameter.resolution / 2)
            )
        }
    }
}
