import Geofencing
import Time

/// A parameter `calibrate` can fit, named by the profile file's key (`hysteresis`, `delivery.median`): a
/// fit of a monitor setting from the settings table (`MonitorField.Fit`: unit, bounds, resolution,
/// evidence), or the scenario's GPS noise. Values are plain numbers in the unit (metres, seconds,
/// probabilities).
public struct CalibrationParameter: Hashable, Sendable {
    public typealias Unit = MonitorField.Fit.Unit
    public typealias Evidence = MonitorField.Fit.Evidence

    /// What the parameter sets.
    public enum Target: Sendable {
        /// A monitor setting, or a part of one.
        case setting(MonitorField, MonitorField.Fit)
        /// σ of the scenario's GPS noise (SEMANTICS §2): the scenario's, not the phone's.
        case noiseSigma
    }

    /// `hysteresis`, `delivery.median`, `noise.sigma`.
    public let name: String
    public let target: Target
    public let unit: Unit
    public let lower: Double
    public let upper: Double
    /// The search's step: values are lower + k × resolution.
    public let resolution: Double
    public let evidence: Evidence
    /// What it is, for --help and the docs.
    public let meaning: String

    init(setting field: MonitorField, _ fit: MonitorField.Fit) {
        name = field.name(of: fit)
        target = .setting(field, fit)
        (unit, lower, upper, resolution, evidence, meaning) =
            (fit.unit, fit.lower, fit.upper, fit.resolution, fit.evidence, fit.meaning)
    }

    /// The noise's sigma, which the profile does not hold (written to the profile file as a comment only).
    static let noiseSigma = CalibrationParameter(
        name: "noise.sigma", target: .noiseSigma, unit: .meters, lower: 0, upper: 50, resolution: 0.5,
        evidence: .crossings(nil), meaning: "the scenario's GPS noise (not written to the profile)")
    /// Its place among the parameters: after the delivery's (as the list read when it was written out).
    static let noiseSigmaRank = 10

    private init(
        name: String, target: Target, unit: Unit, lower: Double, upper: Double, resolution: Double, evidence: Evidence,
        meaning: String
    ) {
        (self.name, self.target, self.unit, self.lower, self.upper, self.resolution, self.evidence, self.meaning) =
            (name, target, unit, lower, upper, resolution, evidence, meaning)
    }

    public static func == (a: CalibrationParameter, b: CalibrationParameter) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Every parameter (docs/CALIBRATE.md "Parameters"): the settings table's fits and the noise's sigma,
    /// by their rank.
    public static let all: [CalibrationParameter] = {
        let fits = MonitorField.all.flatMap { field in
            field.fits.map { (rank: $0.rank, CalibrationParameter(setting: field, $0)) }
        }
        return (fits + [(noiseSigmaRank, noiseSigma)]).sorted { $0.rank < $1.rank }.map(\.1)
    }()

    public static func named(_ name: String) -> CalibrationParameter? { all.first { $0.name == name } }

    /// The monitor setting it fits; nil for the noise.
    public var field: MonitorField? {
        if case let .setting(field, _) = target { return field }
        return nil
    }

    /// For a part of a setting the base may lack: how to say the base has none, and what to start from.
    public var needs: (lacking: String, example: String)? {
        if case let .setting(_, fit) = target { return fit.needs }
        return nil
    }

    /// The number of steps above `lower` that `upper` is.
    var steps: Int { Int(((upper - lower) / resolution).rounded(.down)) }

    /// The value of step `k`.
    func value(_ k: Int) -> Double { lower + Double(k) * resolution }

    /// The step nearest `value`, within the bounds.
    func step(nearest value: Double) -> Int { min(steps, max(0, Int(((value - lower) / resolution).rounded()))) }

    /// Its value in a run's settings and noise.
    func value(in settings: MonitorSettings, noise: Noise?) -> Double {
        switch target {
        case let .setting(field, fit): return field.value(of: fit, in: settings)
        case .noiseSigma: return noise?.sigma ?? 0
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
        switch target {
        case let .setting(field, fit): field.set(fit, to: value, in: &settings, base: base, tick: tick)
        case .noiseSigma: noise = Noise(sigma: value, seed: noise?.seed ?? 0, correlation: noise?.correlation ?? .zero)
        }
    }

    /// The default `--fit` for a base profile: each fit whose `byDefault` holds for the base (and for
    /// whether the log has `detectedAt`), in table order: the miss probabilities, hysteresis, the enter's
    /// rule, the delivery median when the base delays delivery and the log has `detectedAt`, the interval
    /// when the base observes on one (`MonitorField.all`).
    public static func defaults(for base: MonitorSettings, logHasDecisionTimes: Bool) -> [CalibrationParameter] {
        all.filter { parameter in
            guard case let .setting(_, fit) = parameter.target else { return false }
            switch fit.byDefault {
            case .never: return false
            case .always: return true
            case let .when(_, holds): return holds(base, logHasDecisionTimes)
            }
        }
    }

    /// The default `--fit` in words, for --help: `hysteresis, enterBuffer for a base whose …, missEnter, …`.
    public static var defaultsDescription: String {
        all.compactMap { parameter in
            guard case let .setting(_, fit) = parameter.target else { return nil }
            switch fit.byDefault {
            case .never: return nil
            case .always: return parameter.name
            case let .when(words, _): return parameter.name + " " + words
            }
        }.joined(separator: ", ")
    }
}

extension MonitorOverrides {
    /// Sets aside the scenario's overrides of the settings `parameters` fit (`delivery.median` sets aside
    /// the whole `delivery`).
    mutating func clear(_ parameters: [CalibrationParameter]) {
        for parameter in parameters { if let field = parameter.field { self[field] = nil } }
    }
}
