import Geodesy
import Time

/// How long a monitored region can go without its exact distance being computed: until the device has
/// travelled `distanceLimit` on its odometer, and not at or after `timeLimit`. Within the window the
/// region's monitor cannot act (no candidate starts, none is cancelled or confirmed, no dwell is due), so
/// skipping its samples changes nothing: the run's output is bit-identical to evaluating every sample.
struct QuietWindow: Equatable, Sendable {
    /// On the device's odometer (`QuietWindow.step`), in metres.
    var distanceLimit: Meters
    var timeLimit: Timestamp

    /// No window: the next sample is evaluated.
    static let none = QuietWindow(distanceLimit: -.infinity, timeLimit: .epoch)
    /// A window that never closes: where `earliest(with:)` starts.
    static let never = QuietWindow(distanceLimit: .infinity, timeLimit: Timestamp(microsecondsSince1970: .max))

    /// The window that holds only while both hold.
    @inline(__always)
    func earliest(with other: QuietWindow) -> QuietWindow {
        QuietWindow(distanceLimit: min(distanceLimit, other.distanceLimit), timeLimit: min(timeLimit, other.timeLimit))
    }

    /// True when a sample at `time`, with the odometer at `odometer`, may be skipped.
    @inline(__always)
    func holds(odometer: Meters, at time: Timestamp) -> Bool { odometer < distanceLimit && time < timeLimit }

    /// Above this latitude (degrees) no window is opened: the local plane's stretch (1 / cos lat) grows
    /// without bound toward the poles.
    static let maximumLatitude: Degrees = 80
    /// The longest window, in metres of travel: within it the latitude moves less than 1°, so the plane's
    /// stretch stays under 1 / cos 81° < 6.5.
    static let maximumTravel: Meters = 100_000
    static let stretch = 6.5

    /// How much the odometer advances for a move of `metres` (at least the haversine distance:
    /// `PreparedCoordinate.distanceBound(to:)`) between two observed samples: a
    /// bound on how far the sample moved in any local plane along the way (SEMANTICS §3's polygons are
    /// measured in the plane at each sample), with room for rounding.
    @inline(__always)
    static func step(_ metres: Meters) -> Meters {
        metres * (1.01 + metres * (stretch / Earth.radius)) + 1e-9  // a constant, not a division per sample
    }
}

extension QuietWindow {
    /// The window after an exact evaluation: `d` at a sample at `latitude`, with the monitor able to act
    /// only once d has changed by `margin` (or at `deadline`). A signed distance changes by at most the
    /// distance travelled, plus the plane's stretch times its own size for polygons:
    /// |Δd| ≤ M · (1.01 + (|d| + margin) · 6.5 / R) over M metres of odometer. O(1).
    init(after margin: Meters, distance d: Meters, latitude: Degrees, odometer: Meters, deadline: Timestamp) {
        let room = min(margin, Self.maximumTravel) - (1e-6 + 1e-9 * abs(d))
        guard room > 0, abs(latitude) <= Self.maximumLatitude else {
            self = .none
            return
        }
        let travel = room / (1.01 + (abs(d) + room) * Self.stretch / Earth.radius)
        distanceLimit = odometer + travel
        timeLimit = deadline
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
