import Geodesy
import Time

/// How long a monitored region can go without its exact distance being computed: while the device is
/// closer than `reach` to `anchor`, where the window was made, and not at or after `timeLimit`. Within the
/// window the region's monitor cannot act (no candidate starts, none is cancelled or confirmed, no dwell is
/// due), so skipping its samples changes nothing: the run's output is bit-identical to evaluating every
/// sample.
///
/// The reach is a distance from the anchor, not a length of path: d depends only on where a sample is, and
/// a device within `reach` of the anchor could have come there in one step. A parked phone's 5 to 10 m of
/// jitter a fix then never closes a window, where counting every metre travelled closed it within seconds.
///
/// The same window, anchored where it was last renewed, stands for a group of slots (`DeviceMonitor`'s
/// group wakes) and for all of them (its next wake): by the triangle inequality a device closer than
/// `reach − distance(anchor, A)` to A is closer than `reach` to the anchor (`seen(from:)`).
struct QuietWindow: Equatable, Sendable {
    /// Where the window was made (a sample's position), with an upper bound on the cosine of its latitude.
    var anchor: Coordinate
    var cosLatitude: Double
    /// Metres of haversine distance from `anchor`; −∞ for no window.
    var reach: Meters
    var timeLimit: Timestamp

    /// No window: the next sample is evaluated.
    static let none = QuietWindow(
        anchor: Coordinate(latitude: 0, longitude: 0), cosLatitude: 1, reach: -.infinity, timeLimit: .epoch)

    /// An upper bound on the haversine distance from the anchor to `position` (whose latitude's cosine is
    /// at most `cosLatitudeAtMost`), in metres; +∞ beyond 6,000 km (`Coordinate.nearDistanceBound`), where
    /// no window reaches: `.none`'s anchor may be half the globe away. O(1), no trigonometry.
    @inline(__always)
    func distance(to position: Coordinate, cosLatitudeAtMost: Double) -> Meters {
        anchor.nearDistanceBound(to: position, cosLatitudes: cosLatitude * cosLatitudeAtMost)
    }

    /// True when a sample at `time`, `distance` (`distance(to:…)`) from the anchor, may be skipped.
    @inline(__always)
    func holds(distance: Meters, at time: Timestamp) -> Bool { distance < reach && time < timeLimit }

    /// `holds(distance:at:)` for a sample at `position` without a square root: true only where that is
    /// true, given `spreadLimit`, this window's `Coordinate.nearSpreadLimit(below: reach)`. O(1).
    @inline(__always)
    func holds(at position: Coordinate, cosLatitudeAtMost: Double, _ time: Timestamp, spreadLimit: Double) -> Bool {
        anchor.nearSpread(to: position, cosLatitudes: cosLatitude * cosLatitudeAtMost) < spreadLimit && time < timeLimit
    }

    /// This window's reach as seen from a point `distance` (`distance(to:…)`) from its anchor: closer than
    /// that to the point is closer than `reach` to the anchor. O(1).
    @inline(__always)
    func seen(from distance: Meters) -> Meters { reach - distance }

    /// Above this latitude (degrees) no window is opened: the local plane's stretch (1 / cos lat) grows
    /// without bound toward the poles.
    static let maximumLatitude: Degrees = 80
    /// The longest window, in metres of travel: within it the latitude moves less than 1°, so the plane's
    /// stretch stays under 1 / cos 81° < 6.5.
    static let maximumTravel: Meters = 100_000
    static let stretch = 6.5
}

extension QuietWindow {
    /// The window after an exact evaluation at `p`: `d` there, with the monitor able to act only once d has
    /// changed by `margin` (or at `deadline`). A signed distance changes by at most the plane distance
    /// moved, step(m) = m · (1.01 + m · 6.5 / R) + 1 nm for a move of m haversine metres (SEMANTICS §3's
    /// polygons are measured in the plane at each sample), plus the plane's stretch times its own size for polygons: |Δd| ≤ M · (1.01 + (|d| +
    /// margin) · 6.5 / R) for a move of M plane metres. The reach is the largest haversine distance m with
    /// step(m) under the M that keeps |Δd| under the margin, less a micrometre for rounding (step(m) ≤ m ·
    /// (1.01 + M · 6.5 / R) + 1 nm for m ≤ M). `.none` when there is no room, or above `maximumLatitude`. O(1).
    init(after margin: Meters, distance d: Meters, at p: PreparedCoordinate, deadline: Timestamp) {
        let room = min(margin, Self.maximumTravel) - (1e-6 + 1e-9 * abs(d))
        guard room > 0, abs(p.coordinate.latitude) <= Self.maximumLatitude else {
            self = .none
            return
        }
        let travel = room / (1.01 + (abs(d) + room) * Self.stretch / Earth.radius)
        let reach = travel / (1.01 + travel * Self.stretch / Earth.radius) - 1e-6
        guard reach > 0 else {
            self = .none
            return
        }
        self.init(anchor: p.coordinate, cosLatitude: p.cosLatitude, reach: reach, timeLimit: deadline)
    }

    /// The window of `windows` (their reaches and time limits) anchored at `position` (`cosLatitude`: an
    /// upper bound on its latitude's cosine): it holds only where all of them hold. O(windows).
    init(anchoredAt position: Coordinate, cosLatitude: Double, covering windows: UnsafeBufferPointer<QuietWindow>) {
        var reach = Meters.infinity
        var timeLimit = Timestamp(microsecondsSince1970: .max)
        for window in windows {
            reach = min(reach, window.seen(from: window.distance(to: position, cosLatitudeAtMost: cosLatitude)))
            timeLimit = min(timeLimit, window.timeLimit)
        }
        self.init(anchor: position, cosLatitude: cosLatitude, reach: reach, timeLimit: timeLimit)
    }
}

extension RegionMonitor {
    /// How much `d` may change from `d` before this monitor could act on a sample: the margin to its
    /// state's threshold (`Thresholds.trigger`, SEMANTICS §5), the one `observe` reads. Zero or less: no room.
    func quietMargin(distance d: Meters) -> Meters { trigger.margin(from: d) }

    /// This state's threshold on d (`Thresholds.trigger`). O(1).
    @inline(__always)
    var trigger: Trigger { thresholds.trigger(side: side, pending: candidateSince != nil) }

    /// True when outside with no candidate: then only d ≤ −e makes this monitor act (SEMANTICS §5), and
    /// no dwell or confirmation is ever due.
    var waitsOutside: Bool { side == .outside && candidateSince == nil }

    /// The first time at which this monitor acts whatever `d` is: a pending candidate's confirmation,
    /// or the next dwell rule due in the announced stay (`durations`: the region's rules' D). O(rules).
    func deadline(durations: [TimeSpan]) -> Timestamp {
        var first = Timestamp.writable.upperBound
        if let since = candidateSince { first = min(first, since + thresholds.confirmation) }
        if side == .inside, let began = stayBegan {
            for (i, duration) in durations.enumerated() where !firedRules[i] {
                first = min(first, began + duration)
            }
        }
        return first
    }
}
