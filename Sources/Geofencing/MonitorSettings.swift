import Geodesy
import Time

/// The monitor's numbers, resolved: a profile's defaults with the scenario's overrides applied. The plain
/// struct the engine reads; `MonitorField.all` below describes each field once (key, kind, range, default,
/// levels, SEMANTICS section, calibrate's bounds), in this order.
public struct MonitorSettings: Hashable, Sendable {
    /// How many regions a device monitors at once; nil is unlimited.
    public var capacity: Int?
    public var selection: Selection
    /// How far a device moves, in metres, before the nearest set is chosen again.
    public var refreshDistance: Meters
    /// h: metres beyond the boundary a device must pass before an exit starts.
    public var hysteresis: Meters
    /// e: metres inside the boundary an enter needs; negative lets an enter start up to −e metres outside
    /// (revision 3).
    public var enterBuffer: Meters
    /// τ: how long a device must stay on its new side.
    public var confirmation: TimeSpan
    public var initialTrigger: InitialTrigger
    /// a: the accuracy of fixes that have none of their own and whose device has none, in metres.
    public var accuracy: Meters
    /// c_in: the confidence of being inside that an enter needs, in [0, 1] (SEMANTICS §5).
    public var enterConfidence: Double
    /// c_out: the confidence of being inside at or below which an exit starts, in [0, 0.5].
    public var exitConfidence: Double
    /// How often a device observes its position (revision 2 §2): a multiple of the tick, or zero for every
    /// sample. Samples it does not observe play no part in §4–§6.
    public var interval: TimeSpan
    /// p of the observation grid (revision 3 §2).
    public var phase: Phase
    /// The stationary slow-down (revision 3 §2), or none.
    public var stationary: Stationary?
    /// Outlier episodes (revision 3 §2), or none.
    public var outliers: Outliers?
    /// The delay before the app hears an enter, exit or dwell (revision 3 §7), or none.
    public var delivery: Delivery?
    /// The probabilities, in [0, 1], that the phone never reports a confirmed enter or exit (revision 3 §5).
    public var missEnter: Double
    public var missExit: Double

    public init(
        capacity: Int?, selection: Selection, refreshDistance: Meters, hysteresis: Meters,
        enterBuffer: Meters, confirmation: TimeSpan, initialTrigger: InitialTrigger,
        accuracy: Meters = 0, enterConfidence: Double = 0.5, exitConfidence: Double = 0.5,
        interval: TimeSpan = .zero, phase: Phase = .zero, stationary: Stationary? = nil,
        outliers: Outliers? = nil, delivery: Delivery? = nil, missEnter: Double = 0, missExit: Double = 0
    ) {
        self.capacity = capacity
        self.selection = selection
        self.refreshDistance = refreshDistance
        self.hysteresis = hysteresis
        self.enterBuffer = enterBuffer
        self.confirmation = confirmation
        self.initialTrigger = initialTrigger
        self.accuracy = accuracy
        self.enterConfidence = enterConfidence
        self.exitConfidence = exitConfidence
        self.interval = interval
        self.phase = phase
        self.stationary = stationary
        self.outliers = outliers
        self.delivery = delivery
        self.missEnter = missEnter
        self.missExit = missExit
    }

    /// The settings no profile has changed: ground truth's, each field at its row's default.
    public static let neutral = MonitorSettings(
        capacity: nil, selection: .nearest, refreshDistance: 500, hysteresis: 0, enterBuffer: 0,
        confirmation: .zero, initialTrigger: .none)

    /// Whether a run with these settings draws anything from the run's seed besides the noise (SEMANTICS §2
    /// "Random draws"): a random phase, outliers, a delivery delay, or a miss probability above 0 here or
    /// in `regions`' own settings. O(regions with settings of their own).
    public func drawsRandomly(regions: [Region] = []) -> Bool {
        func draws(_ s: MonitorSettings) -> Bool {
            s.phase == .random || s.outliers != nil || s.delivery != nil || s.missEnter > 0 || s.missExit > 0
        }
        return draws(self) || regions.contains { !$0.overrides.isEmpty && draws($0.overrides.applied(to: self)) }
    }
}

extension RegionMonitor {
    /// h, e, τ, c_in, c_out and the miss probabilities of SEMANTICS §5 for one region: the fields of its
    /// settings (the monitor's with the region's own applied) that a region may set. Resolved once per
    /// region; the monitor reads them per sample.
    struct Thresholds: Sendable {
        var hysteresis: Meters
        /// e; negative lets an enter start up to −e metres outside.
        var enterBuffer: Meters
        var confirmation: TimeSpan
        var enterConfidence: Double = 0.5
        var exitConfidence: Double = 0.5
        var missEnter: Double = 0
        var missExit: Double = 0
    }
}

extension RegionMonitor.Thresholds {
    /// The thresholds of a region whose resolved settings are `s`. O(1).
    init(_ s: MonitorSettings) {
        self.init(
            hysteresis: s.hysteresis, enterBuffer: s.enterBuffer, confirmation: s.confirmation,
            enterConfidence: s.enterConfidence, exitConfidence: s.exitConfidence, missEnter: s.missEnter,
            missExit: s.missExit)
    }
}

extension MonitorField {
    static let enterConfidenceMeaning =
        "an enter confidence, a share from 0 to 1 (0.85: 85 % of the fix's circle inside)"
    static let exitConfidenceMeaning =
        "an exit confidence, a share from 0 to 0.5 (0.15: 15 % or less of the fix's circle inside)"
    static let probability = "a probability from 0 to 1"

    /// Every monitor setting, in order: the order of `profile show`, of the run description and of
    /// SEMANTICS §8's table. A row's default is the value of `MonitorSettings.neutral`.
    public static let all: [MonitorField] = [
        MonitorField(
            "capacity", .count, \.capacity, levels: .device, section: "§4",
            wrap: { .count($0) }, unwrap: { if case let .count(v) = $0 { v } else { nil } }),
        .choice("selection", \.selection, levels: .device, section: "§4"),
        .distance("refreshDistance", \.refreshDistance, levels: .device, section: "§4"),
        .distance(
            "hysteresis", \.hysteresis, levels: .everywhere, section: "§5",
            fit: .init(
                rank: 0, .meters, 0, 300, by: 2.5, evidence: .crossings(.exit), byDefault: .always,
                meaning: "h: metres past the boundary before an exit")),
        .distance(
            "enterBuffer", \.enterBuffer, signed: true, levels: .everywhere, section: "§5",
            fit: .init(
                rank: 1, .meters, -50, 50, by: 2.5, evidence: .crossings(.enter),
                byDefault: .when(
                    "for a base whose enters need at most half the fix's circle inside (ios, ios-gps, ideal)",
                    { base, _ in !(base.enterConfidence > 0.5) }),
                meaning: "e: metres inside the boundary an enter needs (negative: outside)")),
        .duration(
            "confirmation", \.confirmation, levels: .everywhere, section: "§5",
            fit: .init(
                rank: 3, .seconds, 0, 120, by: 2, evidence: .crossings(nil),
                meaning: "tau: seconds on the new side before an event")),
        .choice("initialTrigger", \.initialTrigger, levels: .device, section: "§4"),
        .distance("accuracy", \.accuracy, levels: .device, section: "§2"),
        .share(
            "enterConfidence", \.enterConfidence, in: 0...1, expected: enterConfidenceMeaning, levels: .everywhere,
            section: "§5",
            fit: .init(
                rank: 2, .share, 0.05, 0.95, by: 0.025, evidence: .crossings(.enter),
                byDefault: .when(
                    "for a base whose enters need more than half the fix's circle inside (android, android-background)",
                    { base, _ in base.enterConfidence > 0.5 }),
                meaning: "c_in: the share of the fix's circle inside that an enter needs")),
        .share(
            "exitConfidence", \.exitConfidence, in: 0...0.5, expected: exitConfidenceMeaning, levels: .everywhere,
            section: "§5"),
        .duration(
            "interval", \.interval, onTicks: true, levels: .device, section: "§2",
            fit: .init(
                rank: 4, .seconds, 0, 600, by: 5, evidence: .crossings(nil),
                byDefault: .when("when the base observes on one (android-background)", { base, _ in base.interval > .zero }),
                meaning: "how often the phone observes its position (a multiple of the tick)")),
        MonitorField(
            "phase", .phase, \.phase, levels: .device, section: "§2", describedOnlyWhenSet: true,
            wrap: { .phase($0) }, unwrap: { if case let .phase(v) = $0 { v } else { nil } }),
        MonitorField(
            "stationary", .stationary, \.stationary, levels: .device, section: "§2", describedOnlyWhenSet: true,
            fits: [
                .init(
                    rank: 5, part: "interval", .seconds, 30, 1800, by: 30, evidence: .crossings(nil),
                    meaning: "the slowest observation of a phone at rest (the base needs stationary:)",
                    needs: ("stationary slow-down", "stationary: {after, within, interval}"),
                    value: { $0.stationary?.interval.seconds ?? 360 },
                    set: { value, s, _, tick in s.stationary?.interval = Fit.onTicks(value, tick: tick, fewest: 1) })
            ],
            wrap: { .stationary($0) }, unwrap: { if case let .stationary(v) = $0 { v } else { nil } }),
        MonitorField(
            "outliers", .outliers, \.outliers, levels: .device, section: "§2", describedOnlyWhenSet: true,
            fits: [
                .init(
                    rank: 11, part: "every", .seconds, 600, 172_800, by: 600, evidence: .crossings(nil),
                    meaning: "the mean time between outlier episodes (the base needs outliers:)",
                    needs: ("outlier episodes", "outliers: {every, duration, median, p90}"),
                    value: { $0.outliers?.every.seconds ?? 21_600 },
                    set: { value, s, _, _ in s.outliers?.every = Fit.span(value) })
            ],
            wrap: { .outliers($0) }, unwrap: { if case let .outliers(v) = $0 { v } else { nil } }),
        MonitorField(
            "delivery", .delivery, \.delivery, levels: .device, section: "§7", describedOnlyWhenSet: true,
            fits: [
                .init(
                    rank: 8, part: "median", .seconds, 1, 600, by: 1, evidence: .decisionTimes,
                    byDefault: .when(
                        "when the base delays delivery (the fitted ones) and the log has detectedAt",
                        { base, logHasDecisionTimes in base.delivery != nil && logHasDecisionTimes }),
                    meaning:
                        "the median delay before the app hears an event (p90 keeps the base's ratio, at least the median)",
                    value: { $0.delivery?.median.seconds ?? 5 },
                    set: { value, s, base, _ in
                        // p90 keeps the base's p90 / median ratio (4 when the base has none), never below the median.
                        let ratio = base.delivery.map { $0.p90.seconds / $0.median.seconds } ?? 4
                        let median = Fit.span(value), p90 = Fit.span(value * ratio)
                        s.delivery = Delivery(median: median, p90: max(p90, median))
                    }),
                .init(
                    rank: 9, part: "p90", .seconds, 1, 1800, by: 1, evidence: .decisionTimes,
                    meaning: "the 90th percentile of that delay (at least the median)",
                    value: { $0.delivery?.p90.seconds ?? 20 },
                    set: { value, s, base, _ in
                        let median = s.delivery?.median ?? base.delivery?.median ?? Fit.span(min(value, 5))
                        s.delivery = Delivery(median: median, p90: max(Fit.span(value), median))
                    }),
            ],
            wrap: { .delivery($0) }, unwrap: { if case let .delivery(v) = $0 { v } else { nil } }),
        .share(
            "missEnter", \.missEnter, in: 0...1, expected: probability, levels: .everywhere, section: "§5",
            describedOnlyWhenSet: true,
            fit: .init(
                rank: 6, .share, 0, 0.9, by: 0.01, evidence: .crossings(.enter), byDefault: .always,
                meaning: "the probability that a confirmed enter is never reported")),
        .share(
            "missExit", \.missExit, in: 0...1, expected: probability, levels: .everywhere, section: "§5",
            describedOnlyWhenSet: true,
            fit: .init(
                rank: 7, .share, 0, 0.9, by: 0.01, evidence: .crossings(.exit), byDefault: .always,
                meaning: "the probability that a confirmed exit is never reported")),
    ]
}

extension MonitorField {
    /// The row of the probability that a decided event of `kind` is lost (SEMANTICS §5): enters' or exits';
    /// nil for the other kinds. O(rows).
    public static func miss(of kind: GeofenceEvent.Kind) -> MonitorField? {
        switch kind {
        case .enter: row(at: \MonitorSettings.missEnter)
        case .exit: row(at: \MonitorSettings.missExit)
        default: nil
        }
    }
}
