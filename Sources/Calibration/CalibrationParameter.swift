import Geodesy
import Geofencing

/// A parameter `calibrate` can fit, named by the profile file's key (`hysteresis`, `delivery.median`):
/// its unit, its bounds and search resolution, how it is read from and set on a run's settings, and what
/// it needs of the field log. Values are plain numbers in the unit (metres, seconds, probabilities).
public struct CalibrationParameter: Hashable, Sendable {
    public enum Unit: String, Hashable, Sendable {
        /// Metres, seconds, or a share or probability in [0, 1].
        case meters = "m"
        case seconds = "s"
        case share = "1"
    }

    /// What a parameter needs of the field log to be identified: crossings of one kind, any crossings,
    /// or events with `detectedAt` (the delivery lag).
    public enum Evidence: Hashable, Sendable {
        case crossings(GeofenceEvent.Kind?)
        case decisionTimes
    }

    public let name: String
    public let unit: Unit
    public let lower: Double
    public let upper: Double
    /// The search's step: values are lower + k × resolution.
    public let resolution: Double
    public let evidence: Evidence
    /// What it is, for --help and the docs.
    public let meaning: String

    /// The table (docs/CALIBRATE.md "Parameters").
    public static let all: [CalibrationParameter] = [
        .init(
            name: "hysteresis", unit: .meters, lower: 0, upper: 300, resolution: 2.5, evidence: .crossings(.exit),
            meaning: "h: metres past the boundary before an exit"),
        .init(
            name: "enterBuffer", unit: .meters, lower: -50, upper: 50, resolution: 2.5, evidence: .crossings(.enter),
            meaning: "e: metres inside the boundary an enter needs (negative: outside)"),
        .init(
            name: "enterConfidence", unit: .share, lower: 0.05, upper: 0.95, resolution: 0.025, evidence: .crossings(.enter),
            meaning: "c_in: the share of the fix's circle inside that an enter needs"),
        .init(
            name: "confirmation", unit: .seconds, lower: 0, upper: 120, resolution: 2, evidence: .crossings(nil),
            meaning: "tau: seconds on the new side before an event"),
        .init(
            name: "interval", unit: .seconds, lower: 0, upper: 600, resolution: 5, evidence: .crossings(nil),
            meaning: "how often the phone observes its position (a multiple of the tick)"),
        .init(
            name: "stationary.interval", unit: .seconds, lower: 30, upper: 1800, resolution: 30, evidence: .crossings(nil),
            meaning: "the slowest observation of a phone at rest (the base needs stationary:)"),
        .init(
            name: "missEnter", unit: .share, lower: 0, upper: 0.9, resolution: 0.01, evidence: .crossings(.enter),
            meaning: "the probability that a confirmed enter is never reported"),
        .init(
            name: "missExit", unit: .share, lower: 0, upper: 0.9, resolution: 0.01, evidence: .crossings(.exit),
            meaning: "the probability that a confirmed exit is never reported"),
        .init(
            name: "delivery.median", unit: .seconds, lower: 1, upper: 600, resolution: 1, evidence: .decisionTimes,
            meaning: "the median delay before the app hears an event (p90 keeps the base's ratio, at least the median)"),
        .init(
            name: "delivery.p90", unit: .seconds, lower: 1, upper: 1800, resolution: 1, evidence: .decisionTimes,
            meaning: "the 90th percentile of that delay (at least the median)"),
        .init(
            name: "noise.sigma", unit: .meters, lower: 0, upper: 50, resolution: 0.5, evidence: .crossings(nil),
            meaning: "the scenario's GPS noise (not written to the profile)"),
        .init(
            name: "outliers.every", unit: .seconds, lower: 600, upper: 172_800, resolution: 600, evidence: .crossings(nil),
            meaning: "the mean time between outlier episodes (the base needs outliers:)"),
    ]

    public static func named(_ name: String) -> CalibrationParameter? { all.first { $0.name == name } }

    /// The number of steps above `lower` that `upper` is.
    var steps: Int { Int(((upper - lower) / resolution).rounded(.down)) }

    /// The value of step `k`.
    func value(_ k: Int) -> Double { lower + Double(k) * resolution }

    /// The step nearest `value`, within the bounds.
    func step(nearest value: Double) -> Int { min(steps, max(0, Int(((value - lower) / resolution).rounded()))) }

    /// Its value in a run's settings and noise.
    func value(in settings: MonitorSettings, noise: Noise?) -> Double {
        switch name {
        case "hysteresis": return settings.hysteresis
        case "enterBuffer": return settings.enterBuffer
        case "enterConfidence": return settings.enterConfidence
        case "confirmation": return settings.confirmation.seconds
        case "interval": return settings.interval.seconds
        case "stationary.interval": return settings.stationary?.interval.seconds ?? 360
        case "missEnter": return settings.missEnter
        case "missExit": return settings.missExit
        case "delivery.median": return settings.delivery?.median.seconds ?? 5
        case "delivery.p90": return settings.delivery?.p90.seconds ?? 20
        case "noise.sigma": return noise?.sigma ?? 0
        case "outliers.every": return settings.outliers?.every.seconds ?? 21_600
        default: preconditionFailure("no parameter \(name)")
        }
    }

    /// Sets it on `settings` (and `noise`), as a fit does; an interval is rounded to a multiple of `tick`.
    public func set(_ value: Double, in settings: inout MonitorSettings, noise: inout Noise?, tick: TimeSpan) {
        let base = settings
        set(value, in: &settings, noise: &noise, base: base, tick: tick)
    }

    /// Sets it. `delivery.median` alone keeps the base's p90 / median ratio (4 when the base has no
    /// delivery); p90 is never below the median. `stationary.interval` and `outliers.every` change a base's
    /// own slow-down and episodes (`Calibration` refuses them for a base without).
    func set(_ value: Double, in settings: inout MonitorSettings, noise: inout Noise?, base: MonitorSettings, tick: TimeSpan)
    {
        func span(_ seconds: Double) -> TimeSpan { TimeSpan(microseconds: Int64((seconds * 1_000_000).rounded())) }
        switch name {
        case "hysteresis": settings.hysteresis = value
        case "enterBuffer": settings.enterBuffer = value
        case "enterConfidence": settings.enterConfidence = value
        case "confirmation": settings.confirmation = span(value)
        case "interval":
            let ticks = (span(value).microseconds + tick.microseconds / 2) / tick.microseconds
            settings.interval = TimeSpan(microseconds: ticks * tick.microseconds)
        case "stationary.interval":
            let ticks = max(1, (span(value).microseconds + tick.microseconds / 2) / tick.microseconds)
            settings.stationary?.interval = TimeSpan(microseconds: ticks * tick.microseconds)
        case "missEnter": settings.missEnter = value
        case "missExit": settings.missExit = value
        case "delivery.median":
            let ratio = base.delivery.map { $0.p90.seconds / $0.median.seconds } ?? 4
            let median = span(value), p90 = span(value * ratio)
            settings.delivery = Delivery(median: median, p90: max(p90, median))
        case "delivery.p90":
            let median = settings.delivery?.median ?? base.delivery?.median ?? span(min(value, 5))
            settings.delivery = Delivery(median: median, p90: max(span(value), median))
        case "noise.sigma":
            noise = Noise(sigma: value, seed: noise?.seed ?? 0, correlation: noise?.correlation ?? .zero)
        case "outliers.every": settings.outliers?.every = span(value)
        default: preconditionFailure("no parameter \(name)")
        }
    }

    /// The default `--fit` for a base profile: the miss probabilities, hysteresis, the enter's rule
    /// (enterConfidence for a base whose enters need more than half the fix's circle inside, as Android's;
    /// else enterBuffer), the delivery median when the base delays delivery and the log has `detectedAt`,
    /// and the interval when the base observes on one.
    public static func defaults(for base: MonitorSettings, logHasDecisionTimes: Bool) -> [CalibrationParameter] {
        var names = ["hysteresis", base.enterConfidence > 0.5 ? "enterConfidence" : "enterBuffer", "missEnter", "missExit"]
        if base.delivery != nil && logHasDecisionTimes { names.append("delivery.median") }
        if base.interval > .zero { names.append("interval") }
        return names.compactMap(named)
    }
}
