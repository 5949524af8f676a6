import Draws
import Geodesy
import Time

/// Which of a device's samples it observes (SEMANTICS §2 "Observation"): those on its grid, tick indices k
/// with (k − p) mod n = 0, and with a stationary slow-down only those at which it moved recently or has
/// not observed for `stationary.interval`. O(1) a sample, nothing allocated.
struct Observation: Sendable {
    /// n = interval / tick, at least 1.
    let every: Int64
    /// p, the phase, in [0, n).
    let phase: Int64
    let stationary: Stationary?
    /// t_last: the last observed sample's time, tracked only with a slow-down.
    private var lastObserved: Timestamp?
    /// The anchor: the exact position and time of an observed sample, moved on at observed samples more
    /// than `within` away (only with a slow-down).
    private var anchor: StationaryAnchor?

    init(every: Int64 = 1, phase: Int64 = 0, stationary: Stationary? = nil) {
        self.every = max(1, every)
        self.phase = phase
        self.stationary = stationary
        self.anchor = stationary.map { StationaryAnchor(within: $0.within) }
    }

    /// The observation of a device under `settings` at `tick` (device key: `DrawStream.deviceKey`): a
    /// random phase is x_1 mod n of draw 0 of the device's stream `phase`.
    init(_ settings: MonitorSettings, tick: TimeSpan, deviceKey: UInt64) {
        let every = max(1, settings.interval.microseconds / tick.microseconds)
        let phase: Int64
        switch settings.phase {
        case let .fixed(span): phase = span.microseconds / tick.microseconds
        case .random:
            var draw = DrawStream(deviceKey: deviceKey, name: "phase").draw(0)
            phase = Int64(draw.x() % UInt64(every))
        }
        self.init(every: every, phase: phase, stationary: settings.stationary)
    }

    /// Whether tick `k` is on the grid: (k − p) mod n = 0 (a zero remainder has no sign). Every tick is
    /// when n = 1, the usual case: no division then.
    @inline(__always)
    func isOnGrid(_ k: Int64) -> Bool { every == 1 || (k - phase) % every == 0 }

    /// Whether the device observes `sample` (its samples come in tick order, each asked once); `exact` is
    /// its exact position (`SampleStream.exactCoordinate`), read only with a slow-down: the phone learns at
    /// its own checks whether it moved, so a still phone notices late that it moves again.
    @inline(__always)
    mutating func observes(_ sample: Sample, exact: @autoclosure () -> Coordinate) -> Bool {
        guard isOnGrid(sample.tickIndex) else { return false }
        if let stationary {
            if let last = lastObserved, let anchor, sample.time - anchor.time >= stationary.after,
                sample.time < last + stationary.interval
            {
                return false  // still, and checked recently
            }
            lastObserved = sample.time
            anchor?.update(exact(), at: sample.time)  // set with `stationary`
        }
        return true
    }
}
