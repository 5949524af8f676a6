import Geodesy
import Time

/// One region's monitor on one device: a small value that reduces samples to crossings (SEMANTICS §4–§6).
///
/// It knows the side the device is on, the pending candidate crossing if any, and the announced stay
/// (the enter's time) with the dwell rules already fired in it. O(1) per sample, plus O(rules) for dwell.
struct RegionMonitor: Sendable {
    enum Side: Sendable { case outside, inside }

    /// What a sample did to the region.
    enum Crossing: Equatable, Sendable {
        /// A confirmed enter: the stay begins now.
        case entered(crossedAt: Timestamp)
        /// A confirmed exit; `arrival` is the announced stay's enter time, nil for an unannounced stay.
        case exited(crossedAt: Timestamp, arrival: Timestamp?)
    }

    /// One state's threshold on d (SEMANTICS §5): the monitor acts at d > `level` when `above`, else at
    /// d ≤ `level`. Metres.
    struct Trigger: Sendable {
        var level: Meters
        var above: Bool

        /// Whether d reaches the threshold. O(1).
        @inline(__always)
        func isReached(by d: Meters) -> Bool { above ? d > level : d <= level }

        /// How far d may move from `d` toward the threshold before it could reach it: zero or less when it
        /// has (no room). Metres, O(1).
        @inline(__always)
        func margin(from d: Meters) -> Meters { above ? level - d : d - level }
    }

    let thresholds: Thresholds
    private(set) var side: Side
    /// t_c of the pending candidate.
    private(set) var candidateSince: Timestamp?
    /// t_e of the announced stay; nil outside, or inside an unannounced stay.
    private(set) var stayBegan: Timestamp?
    /// The dwell rules (by position in the region's rule list) already fired in this stay.
    private(set) var firedRules: [Bool]

    /// The state of a region that joins the monitored set at a sample (SEMANTICS §4): inside if d ≤ 0,
    /// with no hysteresis. With `announce`, an inside start is an enter at `time` and begins a stay.
    init(distance d: Meters, at time: Timestamp, thresholds: Thresholds, ruleCount: Int, announce: Bool) {
        self.thresholds = thresholds
        self.side = d <= 0 ? .inside : .outside
        self.firedRules = Array(repeating: false, count: ruleCount)
        if side == .inside && announce { stayBegan = time }
    }

    /// Applies one sample's signed distance at `time`, with its accuracy `a` (SEMANTICS §5); returns the
    /// confirmed crossing. The confidence is computed only where a candidate could start.
    mutating func observe(distance d: Meters, accuracy a: Meters = 0, at time: Timestamp) -> Crossing? {
        if trigger.isReached(by: d) {
            switch (side, candidateSince) {
            case (.outside, nil) where Confidence.inside(distance: d, accuracy: a) >= thresholds.enterConfidence:
                candidateSince = time  // starts an enter
            case (.inside, nil) where Confidence.inside(distance: d, accuracy: a) <= thresholds.exitConfidence:
                candidateSince = time  // starts an exit
            case (_, .some): candidateSince = nil  // went back out, or came back in
            default: break
            }
        }
        guard let since = candidateSince, time >= since + thresholds.confirmation else { return nil }
        candidateSince = nil
        switch side {
        case .outside:
            side = .inside
            stayBegan = time
            firedRules = firedRules.map { _ in false }
            return .entered(crossedAt: since)
        case .inside:
            side = .outside
            defer { stayBegan = nil }
            return .exited(crossedAt: since, arrival: stayBegan)
        }
    }

    /// Makes the stay that began at this sample's confirmed enter unannounced: the phone never reported it
    /// (SEMANTICS §5 "Misses"), so no dwell or visit belongs to it.
    mutating func missEnter() { stayBegan = nil }

    /// The dwell rules due at `time` (SEMANTICS §6): while inside an announced stay, each rule whose
    /// duration has passed since the enter fires once. `durations[i]` is the region's i-th rule's D.
    mutating func dueDwells(at time: Timestamp, durations: [TimeSpan]) -> [Int] {
        guard side == .inside, let began = stayBegan else { return [] }
        var due: [Int] = []
        for (i, duration) in durations.enumerated() where !firedRules[i] && time >= began + duration {
            firedRules[i] = true
            due.append(i)
        }
        return due
    }
}

/// The rule each threshold plays in (SEMANTICS §5); the thresholds themselves are declared beside the
/// settings they come from (`MonitorSettings.swift`).
extension RegionMonitor.Thresholds {
    /// e⁻ = max(0, −e): how far outside a pending enter may go before it is dropped, and how far outside
    /// a device stays entered (an exit starts only beyond h + e⁻, and a pending exit is dropped at d ≤ e⁻).
    var enterReach: Meters { max(0, -enterBuffer) }

    /// The distance at which a monitor on `side`, with a candidate `pending` or not, acts (SEMANTICS §5's
    /// table, each threshold stated here once): outside, an enter starts at d ≤ −e (and the confidence);
    /// a pending enter is dropped at d > e⁻; inside, an exit starts at d > h + e⁻ (and the confidence);
    /// a pending exit is dropped at d ≤ e⁻. Read by `observe` and by the quiet windows' margin. O(1).
    @inline(__always)
    func trigger(side: RegionMonitor.Side, pending: Bool) -> RegionMonitor.Trigger {
        switch (side, pending) {
        case (.outside, false): return RegionMonitor.Trigger(level: -enterBuffer, above: false)
        case (.outside, true): return RegionMonitor.Trigger(level: enterReach, above: true)
        case (.inside, false): return RegionMonitor.Trigger(level: hysteresis + enterReach, above: true)
        case (.inside, true): return RegionMonitor.Trigger(level: enterReach, above: false)
        }
    }
}
