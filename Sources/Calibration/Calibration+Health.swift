import Foundation
import Geofencing

extension Calibration {
    /// The "fit health" line (issue 42, item 2): whether the held-out crossings are predicted within their
    /// sampling spread, and when not, which parameters to add to `--fit`. Per kind with at least 5 held-out
    /// crossings: the detection rate misses when observed and predicted differ by more than
    /// 2 √(p̄(1 − p̄)/n) + 0.02 (add the kind's miss probability, else `noise.sigma`); the delay's median
    /// or p90 misses when the predicted one lies more than 1 s outside the observed quantile's sampling
    /// band, the observed quantiles at the levels q ± 2 √(q(1 − q)/m) of the m held-out delays (for the
    /// p90: add the delivery when the log has `detectedAt` and it is not fitted, else `noise.sigma`, which
    /// widens the spread). A parameter already fitted is not suggested. O(kinds × crossings).
    func health(_ holdout: HoldoutComparison) -> String {
        let weights: [Double] = heldOut.map { $0 ? 1 : 0 }
        let fitted = Set(parameters.map(\.name) + (measuredDelivery == nil ? [] : ["delivery.median", "delivery.p90"]))
        var misses: [String] = [], suggestions: [String] = []
        func suggest(_ names: [String]) {
            for name in names where !fitted.contains(name) && !suggestions.contains(name) {
                suggestions.append(name)
                return
            }
        }
        func text(_ x: Double) -> String { CalibrationResult.number((x * 10).rounded() / 10) }
        for k in holdout.kinds where k.crossings >= 5 {
            let name = "\(k.kind)s"
            if let o = k.observed.detection, let p = k.predicted.detection {
                let mean = (o + p) / 2
                if abs(o - p) > 2 * (mean * (1 - mean) / Double(k.crossings)).squareRoot() + 0.02 {
                    misses.append(
                        "the held-out \(name) are reported at \(CalibrationResult.number((o * 1000).rounded() / 1000)), "
                            + "predicted \(CalibrationResult.number((p * 1000).rounded() / 1000))")
                    suggest([MonitorField.miss(of: k.kind)?.key, "noise.sigma"].compactMap { $0 })
                }
            }
            guard let o = k.observed.delay, let p = k.predicted.delay,
                let kindIndex = TrueCrossings.kinds.firstIndex(of: k.kind),
                let levels = observedPools.quantiles(kind: kindIndex, measure: 0, weights: weights, levels: 100)
            else { continue }
            // The observed quantile's band at level q: the quantiles at q ± 2 √(q(1 − q)/m), widened by 1 s.
            func outside(_ predicted: Double, level q: Double) -> Bool {
                let m = max(1, levels.weight), spread = 2 * (q * (1 - q) / m).squareRoot()
                func at(_ level: Double) -> Double { levels.values[min(99, max(0, Int((level * 100).rounded(.down))))] }
                return predicted < at(q - spread) - 1 || predicted > at(q + spread) + 1
            }
            if outside(p[1], level: 0.5) {
                misses.append("the held-out \(name)' median delay is \(text(o[1])) s, predicted \(text(p[1])) s")
                suggest(logHasDecisionTimes ? ["delivery.median", "noise.sigma"] : ["noise.sigma"])
            }
            if outside(p[2], level: 0.9) {
                misses.append("the held-out \(name)' delay p90 is \(text(o[2])) s, predicted \(text(p[2])) s")
                suggest(logHasDecisionTimes ? ["delivery.p90", "noise.sigma"] : ["noise.sigma"])
            }
        }
        guard holdout.kinds.contains(where: { $0.crossings >= 5 }) else {
            return "Fit health: not tested (fewer than 5 crossings of each kind held out; raise --holdout)."
        }
        guard !misses.isEmpty else {
            return "Fit health: good: the held-out crossings are predicted within their sampling spread."
        }
        let advice =
            suggestions.isEmpty
            ? "the base profile's form may not describe these phones; try another --profile"
            : "add \(suggestions.joined(separator: ", ")) to --fit"
        return "Fit health: " + misses.joined(separator: "; ") + ": " + advice + "."
    }
}
