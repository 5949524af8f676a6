import Documents
import Geofencing
import Time

/// A quantity an expectation measures once per Monte Carlo run, with bounds on its statistics over the
/// runs: how field studies report a phone ("the exit fires a median 65 m past the boundary", "the enter
/// comes within 30 s nine times in ten").
///
/// ```yaml
/// expect:
///   - kind: exit
///     region: store
///     between: ["12:06:00", "12:20:00"]       # which events count (optional)
///     probability: {atLeast: 0.9}              # the share of runs with one
///     delay: {since: "12:06:40", median: {atMost: 30s}, p90: {atMost: 1min}}
///     distance: {median: {atLeast: 55m, atMost: 80m}}
/// ```
///
/// Each run contributes the first matching event (in the window, when `between` is given), if it has
/// one: `delay` is its time minus `since` (the true crossing, say) in seconds, `distance` its signed
/// distance from the boundary in metres (SEMANTICS §7: the sample's, negative inside). Statistics are over
/// the runs that contributed: `p10`, `median`, `p90` by nearest rank, and `mean`.
public struct ExpectationMeasure: Hashable, Sendable {
    public enum Quantity: Hashable, Sendable {
        /// Seconds from `since` to the event.
        case delay(since: Timestamp)
        /// The event's signed distance from the boundary, in metres.
        case distance

        /// `delay` or `distance`: the expectation's key.
        public var key: String {
            switch self {
            case .delay: return "delay"
            case .distance: return "distance"
            }
        }
    }

    /// A statistic over the runs, in the order they are written.
    public enum Statistic: String, Hashable, Sendable, CaseIterable {
        case p10, median, mean, p90
    }

    /// One statistic's bounds, in the quantity's unit (seconds or metres).
    public struct Limit: Hashable, Sendable {
        public var statistic: Statistic
        public var bounds: Bounds<Double>

        public init(_ statistic: Statistic, _ bounds: Bounds<Double>) {
            self.statistic = statistic
            self.bounds = bounds
        }
    }

    public var quantity: Quantity
    /// In the order of `Statistic.allCases`.
    public var limits: [Limit]

    public init(_ quantity: Quantity, limits: [Limit]) {
        self.quantity = quantity
        self.limits = limits
    }

    /// The unit the quantity is shown in: `s` or `m`.
    public var unit: String {
        switch quantity {
        case .delay: return "s"
        case .distance: return "m"
        }
    }
}

extension ScenarioLoader {
    /// The statistics' keys, then `since` for a delay.
    static let measureKeys = ExpectationMeasure.Statistic.allCases.map(\.rawValue)

    /// `delay: {since: TIME, median: {atLeast: DURATION, atMost: DURATION}, …}`.
    func delayMeasure(_ c: PlacedNode, clock: ExpectationClock) -> ExpectationMeasure? {
        let shape =
            "{since: TIME, median: {atLeast: 0s, atMost: 30s}} (since: the true crossing; any of p10, median, mean, p90)"
        guard let f = c.mapping(shape, allowed: ["since"] + Self.measureKeys) else { return nil }
        guard
            let sinceNode = f.required("since", "a time the delay is measured from, such as the true crossing \"12:06:40\"")
        else {
            return nil
        }
        let since = time(sinceNode, clock: clock)
        let limits = measureLimits(f, c, shape) { $0.duration(.any).map { Double($0.microseconds) / 1e6 } }
        guard let since, let limits else { return nil }
        return ExpectationMeasure(.delay(since: since), limits: limits)
    }

    /// `distance: {median: {atLeast: DISTANCE, atMost: DISTANCE}, …}`.
    func distanceMeasure(_ c: PlacedNode) -> ExpectationMeasure? {
        let shape = "{median: {atLeast: 55m, atMost: 80m}} (any of p10, median, mean, p90; negative inside)"
        guard let f = c.mapping(shape, allowed: Self.measureKeys) else { return nil }
        guard let limits = measureLimits(f, c, shape, read: { $0.distance(.any) }) else { return nil }
        return ExpectationMeasure(.distance, limits: limits)
    }

    /// The statistics' bounds of a measure's mapping, at least one; nil, with the problem reported, otherwise.
    private func measureLimits(
        _ f: Fields, _ c: PlacedNode, _ shape: String,
        read: (PlacedNode) -> Double?
    ) -> [ExpectationMeasure.Limit]? {
        var limits: [ExpectationMeasure.Limit] = []
        var ok = true
        for statistic in ExpectationMeasure.Statistic.allCases {
            guard let node = f[statistic.rawValue] else { continue }
            let bounds = self.bounds(node, "{atLeast: X, atMost: Y} (one or both)", read)
            if let bounds {
                limits.append(.init(statistic, Bounds(atLeast: bounds.atLeast, atMost: bounds.atMost)))
            } else {
                ok = false
            }
        }
        if ok && limits.isEmpty {
            if f.misspelt.isEmpty { c.expected(shape) }
            return nil
        }
        return ok ? limits : nil
    }
}
