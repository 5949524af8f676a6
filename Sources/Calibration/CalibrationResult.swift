import Geofencing

/// What `Calibration.fit()` found: each parameter's value, interval and base value, the crossings used,
/// the discrepancy at the optimum and the holdout comparison.
public struct CalibrationResult: Sendable {
    public struct Fitted: Hashable, Sendable {
        public var parameter: CalibrationParameter
        public var value: Double
        public var low: Double
        public var high: Double
        /// The base profile's value (with the scenario's overrides), in the parameter's unit.
        public var base: Double
    }

    public var base: Profile
    public var parameters: [Fitted]
    /// The fitted profile (the base with the fitted values); `noise.sigma` is the scenario's, not in it.
    public var profile: Profile
    public var crossings: (fit: Int, holdout: Int)
    public var discrepancy: Discrepancy
    public var holdout: HoldoutComparison
    public var runs: Int
    public var seed: UInt64
    public var replicates: Int
    /// Candidates simulated.
    public var evaluations: Int
    /// The observed log's files and the scenario's, for the profile's `source:`.
    public var scenario: String
    public var files: [String]
    /// Observed spurious events per kind, in all.
    public var spurious: [Int]
    /// The observed, fitted and base distributions per kind, for `--report`.
    public var distributions: CalibrationDistributions
    /// The field log's free columns, summarised.
    public var freeColumns: [FreeColumnSummary]
    /// The delivery read from the log's lags, when it was (its two values are among `parameters`).
    public var measuredDelivery: MeasuredDelivery? = nil
    /// Whether the held-out crossings are predicted, and what to add to `--fit` when not (`health`).
    public var health = ""
}

extension Calibration {
    /// Searches, then the intervals and the holdout. `progress` is told the number of candidates simulated
    /// so far. Deterministic for a seed, whatever the threads.
    public func fit(progress: (Int) -> Void = { _ in }) -> CalibrationResult {
        var memo = Memo()
        let best = search(&memo, progress: progress)
        let intervals = self.intervals(around: best, &memo, progress: progress)
        let settings = run.simulation.settings
        let fitted = parameters.enumerated().map { j, parameter in
            CalibrationResult.Fitted(
                parameter: parameter, value: fittedValue(j, at: best.steps), low: intervals[j].low,
                high: intervals[j].high, base: parameter.value(in: settings, noise: run.simulation.noise))
        }
        let heldOutCount = heldOut.filter { $0 }.count
        let comparison = holdout(best)
        // Invariant: the search evaluates the base first, so `memo.order[0]` is a candidate.
        // swift-format-ignore: NeverForceUnwrap
        return CalibrationResult(
            base: base, parameters: fitted + (measuredDelivery?.fitted ?? []),
            profile: scenarioRun(best.steps).simulation.profile,
            crossings: (truth.crossings.count - heldOutCount, heldOutCount),
            discrepancy: best.discrepancy, holdout: comparison, runs: options.runs, seed: options.seed,
            replicates: options.replicates, evaluations: memo.order.count, scenario: run.scenario.file,
            files: log.files, spurious: observed.spurious[0],
            distributions: distributions(fitted: best.pools, base: memo.candidates[memo.order[0]]!.pools),
            freeColumns: FreeColumnSummary.summaries(log), measuredDelivery: measuredDelivery,
            health: health(comparison))
    }
}

extension CalibrationResult {
    /// A sentence for each fitted value that sits on its range's bound, or whose bootstrap interval reaches
    /// one (G8 of issue 37): the log then does not pin it (the best value may lie beyond the range, or the
    /// log may not show the parameter at all), and the value says more of the range than of the phones.
    public var boundWarnings: [String] {
        parameters.compactMap { p in
            let lower = p.parameter.lower, upper = p.parameter.upper
            let unit = p.parameter.unit == .share ? "" : " " + p.parameter.unit.rawValue
            let range = "its range (\(Self.plain(lower)) to \(Self.plain(upper))\(unit))"
            let fitted = "\(p.parameter.name) was fitted to \(Self.plain(p.value))\(unit)"
            let opening: String
            if p.value <= lower || p.value >= upper {
                opening = fitted + ", the \(p.value <= lower ? "lower" : "upper") bound of " + range
            } else if p.low <= lower || p.high >= upper {
                opening =
                    fitted + ", but its interval (\(Self.plain(p.low)) to \(Self.plain(p.high))\(unit)) reaches the "
                    + "\(p.low <= lower ? "lower" : "upper") bound of " + range
            } else {
                return nil
            }
            return opening
                + ": the field log does not pin it; check that the log holds the crossings it needs, or leave "
                + "\(p.parameter.name) out of --fit"
        }
    }

    /// `0`, `0.87`, `300`: a value for a sentence (`number`'s text without a trailing `.0`).
    private static func plain(_ value: Double) -> String {
        let text = number(value)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
