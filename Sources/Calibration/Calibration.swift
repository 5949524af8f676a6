import Draws
import Geofencing
import Runs
import ScenarioFormat

/// A calibration problem: a scenario's true tracks, a field log, a base profile and the parameters to
/// fit (docs/CALIBRATE.md). `fit()` finds the parameters whose simulated crossings are nearest the
/// observed ones (`Discrepancy`), with a bootstrap interval each and a holdout comparison.
///
/// ```swift
/// let problem = try Calibration(run: ScenarioRun(loading: "store.yaml"), log: ObservedLog.read(["walk.jsonl"]),
///                               base: .iosGPS, parameters: nil, options: .init())
/// let result = problem.fit()
/// ```
public struct Calibration: Sendable {
    /// How the fit runs.
    public struct Options: Sendable {
        /// Simulated runs per candidate; run r has the seed `seed + r` (common random numbers).
        public var runs = 24
        public var seed: UInt64 = 1
        /// The share of crossings kept out of the fit, in [0, 1).
        public var holdout = 0.25
        /// Bootstrap replicates.
        public var replicates = 200
        public var threads = RunOptions.defaultThreads
        /// The fewest crossings (or events with detectedAt) a parameter needs.
        public var fewest = 5
        /// The most bytes of sample streams recorded by the first candidate and replayed by the others when
        /// no fitted parameter moves a sample (`Simulation.recordsSamples(budget:)`): 40 bytes a sample of
        /// each run; runs beyond it draw their samples as before, with the same results. 0 records none.
        public var sampleMemory = 512 << 20

        public init() {}
    }

    public let run: ScenarioRun
    public let log: ObservedLog
    public let base: Profile
    public let parameters: [CalibrationParameter]
    public let options: Options
    public let truth: TrueCrossings
    /// The kind (index into `TrueCrossings.kinds`) of each crossing, and whether it is held out.
    let kindOf: [Int]
    public let heldOut: [Bool]
    /// The crossings of each kind, in all.
    let counts: [Int]
    let observed: CrossingOutcomes
    let observedPools: OutcomePools
    /// Whether the log writes `detectedAt` (then the lag is compared, and distances taken at decisions).
    public let logHasDecisionTimes: Bool
    /// The delivery read from the log's lags (when it has `detectedAt` and a delivery parameter is fitted:
    /// `delivery.median` and `delivery.p90` are then measured, not searched), nil otherwise.
    public let measuredDelivery: MeasuredDelivery?
    /// What standard error is told before the fit: the log's warnings (duplicates, blank lines, rows
    /// skipped), the devices the fit uses, and free columns that split the log by platform.
    public let warnings: [String]

    /// Checks the log against the scenario (`ObservedLogErrors`: every problem at once, or the rows that
    /// have one skipped), restricts the fit to `devices` (nil: the log's devices), pairs the log with the
    /// true crossings, reads the delivery from the log's lags when it has `detectedAt`, and checks that
    /// each parameter can be identified and set (`CalibrationError`). `parameters` nil: the base's
    /// defaults (`CalibrationParameter.defaults`). O(fixes × regions + events).
    public init(
        run: ScenarioRun, log: ObservedLog, base: Profile, parameters: [CalibrationParameter]?,
        options: Options, devices: [String]? = nil
    ) throws(CalibrationFailure) {
        var log = log
        do { log = try log.checked(against: run.simulation) } catch { throw .log(error) }
        var run = run
        run.simulation.profile = base
        let selection = try Self.selectDevices(devices, of: run.simulation, log: log)
        run.simulation.devices = run.simulation.devices.filter { selection.devices.contains($0.id) }
        log.events = selection.events
        warnings = log.warnings + selection.notes + log.platformSplits
        self.log = log
        self.base = base
        self.options = options
        truth = TrueCrossings(run.simulation)
        logHasDecisionTimes = log.events.contains { $0.detectedAt != nil }
        let fitted =
            parameters
            ?? CalibrationParameter.defaults(for: run.simulation.settings, logHasDecisionTimes: logHasDecisionTimes)
        let requested = CalibrationParameter.all.filter(fitted.contains)  // table order: median before p90
        try Self.checkLogHasEvidence(log, for: requested)
        // Invariant: a true crossing's kind is one of `TrueCrossings.kinds` (it keeps no other).
        // swift-format-ignore: NeverForceUnwrap
        let kindOf = truth.crossings.map { TrueCrossings.kinds.firstIndex(of: $0.kind)! }
        self.kindOf = kindOf
        heldOut = truth.crossings.map { Self.isHeldOut($0, share: options.holdout, seed: options.seed) }
        counts = TrueCrossings.kinds.indices.map { k in kindOf.filter { $0 == k }.count }
        var observed = CrossingOutcomes(crossings: truth.crossings.count, runs: 1)
        truth.record(TrueCrossings.reports(log), run: 0, into: &observed, distanceAtDecision: true)
        self.observed = observed
        observedPools = OutcomePools(observed, kindOf: kindOf)
        let hasDecisionTimes = logHasDecisionTimes
        self.parameters = requested.filter { !Self.isMeasured($0, logHasDecisionTimes: hasDecisionTimes) }
        let lags = Self.fitLags(observed, heldOut: heldOut)
        if requested.count > self.parameters.count && lags.count >= options.fewest {
            let measured = MeasuredDelivery(
                lags: lags, replicates: options.replicates, seed: options.seed, base: run.simulation.settings)
            var profile = base
            profile.settings.delivery = measured.delivery
            run.simulation.profile = profile
            run.simulation.overrides[\.delivery] = nil  // the measured delivery replaces the scenario's
            measuredDelivery = measured
        } else {
            measuredDelivery = nil
        }
        if options.sampleMemory > 0, Self.samplesAlike(run.simulation, under: self.parameters) {
            run.simulation.recordsSamples(budget: options.sampleMemory)
        }
        self.run = run
        try checkParameters(requested)
    }

    /// Whether a crossing is held out: a hash of its device, region, kind, index and the seed, below
    /// `share` of 2⁶⁴. The same crossings for the same seed, whatever the log's order.
    static func isHeldOut(_ c: TrueCrossings.Crossing, share: Double, seed: UInt64) -> Bool {
        guard share > 0 else { return false }
        var hash = FNV1a()
        hash.combine("\(c.device)\u{0}\(c.region)\u{0}\(c.kind)\u{0}\(c.index)".utf8)
        let mixed = SplitMix64.mix(hash.value ^ SplitMix64.mix(seed))
        return Double(mixed >> 11) / Double(1 << 53) < share
    }

    /// The fit's crossings of kind `kind` (nil: all), and the fit's events with detectedAt.
    func fitCount(_ kind: GeofenceEvent.Kind?) -> Int {
        truth.crossings.indices.filter { !heldOut[$0] && (kind == nil || truth.crossings[$0].kind == kind) }.count
    }

    /// The crossings of kind index `k` that have weight in `weights`.
    func crossingCount(kind k: Int, weights: [Double]) -> Int {
        zip(weights, kindOf).filter { $0.0 > 0 && $0.1 == k }.count
    }

    var fitDecisionTimes: Int {
        truth.crossings.indices.filter { !heldOut[$0] && observed.detected[$0] && observed.lag[$0] > 0 }.count
    }

    /// Refuses a log with no event of a kind a fitted parameter needs (G8 of issue 37): an empty log, one
    /// of only `visit` rows or only enters was fitted, every value on its range's bound, as if the phone
    /// had missed every crossing. Names the log's files, the kinds missing and the parameters needing each.
    static func checkLogHasEvidence(
        _ log: ObservedLog, for parameters: [CalibrationParameter]
    ) throws(CalibrationFailure) {
        let present = Set(log.events.map(\.kind))
        var missing: [(kind: String, parameters: [String])] = []
        func need(_ kind: String, _ parameter: CalibrationParameter) {
            if let i = missing.firstIndex(where: { $0.kind == kind }) {
                missing[i].parameters.append(parameter.name)
            } else {
                missing.append((kind, [parameter.name]))
            }
        }
        for parameter in parameters {
            switch parameter.evidence {
            case .crossings(.some(let kind)) where !present.contains(kind): need("\(kind)", parameter)
            case .crossings(nil) where !present.contains(.enter) && !present.contains(.exit):
                need("enter or exit", parameter)
            default: break
            }
        }
        guard !missing.isEmpty else { return }
        let files = log.files.joined(separator: ", ")
        let holds =
            log.events.isEmpty && log.skipped == 0
            ? "holds no events"
            : "holds \(log.events.count) enter, exit or dwell event\(log.events.count == 1 ? "" : "s")"
                + (log.skipped > 0 ? " (and \(log.skipped) row\(log.skipped == 1 ? "" : "s") of other kinds, skipped)" : "")
        let lacks = missing.map {
            "no \($0.kind) events, which \($0.parameters.joined(separator: ", ")) need\($0.parameters.count == 1 ? "s" : "")"
        }
        throw .calibration(
            CalibrationError(
                "\(files): the field log \(holds): it has \(lacks.joined(separator: "; and ")); fitted without them, "
                    + "each value would sit on its range's bound, as if the phones had missed every crossing. Give a log "
                    + "of the phones' enters and exits, or leave those parameters out of --fit"))
    }

    private func checkParameters(_ requested: [CalibrationParameter]) throws(CalibrationFailure) {
        let settings = run.simulation.settings
        if let problem = run.simulation.intervalProblem {
            throw .calibration(CalibrationError(run.scenario.file + ": " + problem))
        }
        for parameter in requested {
            // A part of a setting the base lacks (its value is the default: none).
            if let needs = parameter.needs, let field = parameter.field, field.value(in: settings) == field.defaultValue {
                throw .calibration(
                    CalibrationError(
                        "cannot fit \(parameter.name): the base profile \(base.name) has no \(needs.lacking); "
                            + "start from a profile file with \(needs.example)"))
            }
            let have: Int, what: String
            switch parameter.evidence {
            case let .crossings(kind):
                have = fitCount(kind)
                what = kind.map { "true \($0) crossings" } ?? "true crossings"
            case .decisionTimes:
                have = fitDecisionTimes
                what = "reported events with detectedAt (delivered after the decision)"
            }
            if have < options.fewest {
                throw .calibration(
                    CalibrationError(
                        "too few crossings to fit \(parameter.name): the log has \(have) \(what) "
                            + "in the fit (after the holdout of \(options.holdout)), and \(parameter.name) needs at least \(options.fewest); "
                            + "walk more crossings, or leave \(parameter.name) out of --fit"))
            }
        }
    }
}

/// A calibration that cannot be done, in a full sentence (exit 2).
public struct CalibrationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Why `Calibration` refused: the field log (with its place) or the calibration itself.
public enum CalibrationFailure: Error, Sendable, CustomStringConvertible {
    case log(ObservedLogErrors)
    case calibration(CalibrationError)

    public var description: String {
        switch self {
        case let .log(error): return error.description
        case let .calibration(error): return error.description
        }
    }
}
