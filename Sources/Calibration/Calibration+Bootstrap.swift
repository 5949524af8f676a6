import Geodesy

extension Calibration {
    /// The offsets, in steps, at which each parameter's profile line is evaluated around the optimum (the
    /// other parameters held there), both ways, within the bounds.
    /// How far above the optimum's discrepancy two points in a row end a profile line.
    static let lineMargin = 25.0

    static let lineOffsets = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536]

    /// Each parameter's interval (docs/CALIBRATE.md "Uncertainty"): its profile line through `best` is
    /// evaluated at `lineOffsets` steps each way, until two points in a row are `lineMargin` above the
    /// optimum or the bound is reached; each of `options.replicates` bootstrap replicates resamples the fit's crossings of each
    /// kind with replacement (SplitMix64 from the seed) and takes the point of least discrepancy on the
    /// line (ties: nearest the optimum); the interval is the 5th and 95th percentiles of those points,
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
        var estimates = Array(repeating: [Double](), count: parameters.count)
        for _ in 0..<options.replicates {
            var weights = [Double](repeating: 0, count: truth.crossings.count)
            for members in byKind where !members.isEmpty {
                for _ in members.indices { weights[members[Int(random.next() % UInt64(members.count))]] += 1 }
            }
            for (j, line) in lines.enumerated() {
                var chosen = line[0], least = Double.infinity
                for candidate in line {
                    let d = Discrepancy(observed: observedPools, simulated: candidate.pools, weights: weights, kindOf: kindOf,
                                        counts: counts, usesLag: logHasDecisionTimes).total
                    let distance = abs(candidate.steps[j] - best.steps[j]), chosenDistance = abs(chosen.steps[j] - best.steps[j])
                    if d < least || (d == least && (distance < chosenDistance || (distance == chosenDistance && candidate.steps[j] < chosen.steps[j]))) {
                        least = d
                        chosen = candidate
                    }
                }
                estimates[j].append(parameters[j].value(chosen.steps[j]))
            }
        }
        return parameters.enumerated().map { j, parameter in
            let sorted = estimates[j].sorted()
            let value = parameter.value(best.steps[j])
            guard !sorted.isEmpty else { return (value, value) }
            let low = sorted[Int((Double(sorted.count - 1) * 0.05).rounded(.down))]
            let high = sorted[Int((Double(sorted.count - 1) * 0.95).rounded(.up))]
            return (max(parameter.lower, min(low, value) - parameter.resolution / 2),
                    min(parameter.upper, max(high, value) + parameter.resolution / 2))
        }
    }
}
