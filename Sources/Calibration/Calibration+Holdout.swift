import Geofencing

/// How well a fitted profile predicts crossings it was not fitted to, per kind: the observed and
/// predicted detection rates, and the delay's 10th, 50th and 90th percentiles (seconds) of each.
public struct HoldoutComparison: Hashable, Sendable {
    public struct Side: Hashable, Sendable {
        /// Share of the crossings reported, in [0, 1]; nil without crossings.
        public var detection: Double?
        /// p10, median, p90 of the delay in seconds (the first delay whose share reaches 0.095, 0.495,
        /// 0.895); nil when nothing was reported.
        public var delay: [Double]?
    }

    public struct Kind: Hashable, Sendable {
        public var kind: GeofenceEvent.Kind
        public var crossings: Int
        public var observed: Side
        public var predicted: Side
    }

    public var kinds: [Kind]
}

extension Calibration {
    /// The held-out crossings under `best` against the log.
    func holdout(_ best: Candidate) -> HoldoutComparison {
        let weights: [Double] = heldOut.map { $0 ? 1 : 0 }
        func side(_ pools: OutcomePools, kind k: Int) -> HoldoutComparison.Side {
            // On 100 levels (i + ½)/100: the 10th, 50th and 90th percentiles are levels 9, 49 and 89.
            let delay = pools.quantiles(kind: k, measure: 0, weights: weights, levels: 100).map { q in
                [q.values[9], q.values[49], q.values[89]]
            }
            return HoldoutComparison.Side(
                detection: pools.detection(kind: k, weights: weights, kindOf: kindOf), delay: delay)
        }
        return HoldoutComparison(
            kinds: TrueCrossings.kinds.enumerated().map { k, kind in
                HoldoutComparison.Kind(
                    kind: kind, crossings: crossingCount(kind: k, weights: weights),
                    observed: side(observedPools, kind: k), predicted: side(best.pools, kind: k))
            })
    }
}
