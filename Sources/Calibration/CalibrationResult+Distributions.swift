import Geofencing

/// The per-kind distributions `perimeter calibrate --report` draws: over the fit's crossings, the observed
/// outcomes beside those simulated under the fitted profile and under the base (its values on the
/// parameters' grids, the search's first candidate), all taken from the fit's own evaluations (nothing is
/// simulated again). Quantiles on `levels` levels (i + ½) / levels, the rule of `Discrepancy`.
public struct CalibrationDistributions: Hashable, Sendable {
    /// Quantile levels per curve.
    public static let levels = 50

    /// One side: observed, fitted or base.
    public struct Side: Hashable, Sendable {
        /// Share of the fit's crossings reported, in [0, 1]; nil without crossings.
        public var detection: Double?
        /// Per measure of `Discrepancy.measures` (delay s, true distance m, lag s): `levels` quantiles
        /// ascending, nil when nothing of the measure was reported.
        public var quantiles: [[Double]?]
        /// Reported crossings per run, per measure (the values' weight).
        public var values: [Double]
    }

    public struct Kind: Hashable, Sendable {
        public var kind: GeofenceEvent.Kind
        /// The fit's crossings of the kind.
        public var crossings: Int
        public var observed: Side
        public var fitted: Side
        public var base: Side
        /// Spurious events per run and per crossing (over all the kind's crossings, held out or not: a
        /// spurious event belongs to none): observed, fitted, base.
        public var spurious: [Double]
    }

    public var kinds: [Kind]
    /// Whether the log has `detectedAt` (then the lag is drawn).
    public var hasLag: Bool
}

/// A free column of the field log (`platform`, `os`, `model`, `appState`, …) summarised: each value and
/// how many of the log's events carry it, the most frequent first (ties by value).
public struct FreeColumnSummary: Hashable, Sendable {
    public struct Count: Hashable, Sendable {
        public var value: String
        public var events: Int
    }

    public var column: String
    public var counts: [Count]

    /// The log's free columns, by name. O(events × columns).
    static func summaries(_ log: ObservedLog) -> [FreeColumnSummary] {
        var tally: [String: [String: Int]] = [:]
        for event in log.events {
            for (column, value) in event.extra { tally[column, default: [:]][value, default: 0] += 1 }
        }
        return tally.sorted { $0.key < $1.key }.map { column, values in
            let counts = values.map { Count(value: $0.key, events: $0.value) }
                .sorted { $0.events != $1.events ? $0.events > $1.events : $0.value < $1.value }
            return FreeColumnSummary(column: column, counts: counts)
        }
    }
}

extension Calibration {
    /// The distributions over the fit's crossings: the log's, `fitted`'s and `base`'s pools. O(crossings × runs).
    func distributions(fitted: OutcomePools, base: OutcomePools) -> CalibrationDistributions {
        let weights = fitWeights
        func side(_ pools: OutcomePools, kind k: Int) -> CalibrationDistributions.Side {
            let measured = Discrepancy.measures.indices.map { m in
                pools.quantiles(kind: k, measure: m, weights: weights, levels: CalibrationDistributions.levels)
            }
            return CalibrationDistributions.Side(
                detection: pools.detection(kind: k, weights: weights, kindOf: kindOf),
                quantiles: measured.map { $0?.values },
                values: measured.map { $0?.weight ?? 0 })
        }
        return CalibrationDistributions(
            kinds: TrueCrossings.kinds.enumerated().map { k, kind in
                CalibrationDistributions.Kind(
                    kind: kind, crossings: crossingCount(kind: k, weights: weights),
                    observed: side(observedPools, kind: k), fitted: side(fitted, kind: k),
                    base: side(base, kind: k),
                    spurious: [observedPools.spurious[k], fitted.spurious[k], base.spurious[k]].map {
                        counts[k] > 0 ? $0 / Double(counts[k]) : 0
                    })
            }, hasLag: logHasDecisionTimes)
    }
}
