import Geodesy
import Time

/// A region a device monitors: its index and its monitor's state. A struct, not a tuple: a tuple's copies
/// go through the runtime's generic value witnesses.
struct MonitoredRegion: Sendable {
    let region: Int
    var state: RegionMonitor

    /// The region's quiet window while it waits outside (`RegionMonitor.waitsOutside`), from bounds on its
    /// d at `p` instead of d: the margin d + e is at least `lower + e`, and the plane's stretch grows with
    /// |d| ≤ `upper`, so the window is never longer than the exact one's. No dwell or confirmation is due
    /// outside without a candidate, so there is no deadline. O(1); `mutating` for the reason below.
    mutating func quietWindow(distanceAtLeast lower: Meters, atMost upper: Meters, at p: PreparedCoordinate) -> QuietWindow {
        QuietWindow(
            after: state.trigger.margin(from: lower), distance: upper, at: p, deadline: state.deadline(durations: []))
    }

    /// The region's quiet window after its exact distance `d` at `p` (`durations`: the rules' D by region).
    /// Changes nothing: `mutating` only so that `monitors[slot].quietWindow(…)` runs in place, where a
    /// non-mutating call works on a copy (retaining and releasing the fired rules). O(rules).
    mutating func quietWindow(distance d: Meters, at p: PreparedCoordinate, durations: [[TimeSpan]]) -> QuietWindow {
        let deadline =
            state.firedRules.isEmpty ? state.deadline(durations: []) : state.deadline(durations: durations[region])
        return QuietWindow(after: state.quietMargin(distance: d), distance: d, at: p, deadline: deadline)
    }
}
