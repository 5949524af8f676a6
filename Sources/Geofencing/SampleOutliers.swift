import Draws
import Foundation
import Geodesy
import Time

/// A device's outlier episodes (SEMANTICS §2 "Outliers", revision 3): over all of its samples in order,
/// an episode begins at a sample not already in one with probability tick / every (draw k of stream
/// `outlier`), displaces the samples of the next `duration` by one lognormal offset o, and reports an
/// accuracy of at least `accuracyScale × ℓ`. O(1) a sample, nothing allocated.
struct SampleOutliers: Sendable {
    let settings: Outliers
    let stream: DrawStream
    /// tick / every: an episode's chance to begin at a sample.
    let chance: Double
    /// The open episode: its end (first sample time + duration), offset o and reported accuracy.
    private var episode: (end: Timestamp, north: Meters, east: Meters, accuracy: Meters)?

    init(_ settings: Outliers, deviceKey: UInt64, tick: TimeSpan) {
        self.settings = settings
        stream = DrawStream(deviceKey: deviceKey, name: "outlier")
        chance = Double(tick.microseconds) / Double(settings.every.microseconds)
    }

    /// The episode's offset o (north, east, metres) and accuracy at the sample of tick `k` at `time`, or
    /// nil when the sample is in no episode. Samples come in tick order.
    mutating func offset(tickIndex k: Int64, at time: Timestamp) -> (north: Meters, east: Meters, accuracy: Meters)? {
        if let open = episode, time < open.end { return (open.north, open.east, open.accuracy) }
        episode = nil
        var draw = stream.draw(k)
        guard draw.u() < chance else { return nil }
        let length = DrawStream.lognormal(median: settings.median, p90: settings.p90, z: draw.standardNormal())
        let bearing = 2 * Double.pi * draw.u()
        let opened = (
            end: time + settings.duration, north: length * cos(bearing), east: length * sin(bearing),
            accuracy: settings.accuracyScale * length
        )
        episode = opened
        return (opened.north, opened.east, opened.accuracy)
    }
}

/// The stationary slow-down's anchor (SEMANTICS §2, revision 3): the exact position (before noise and
/// outliers) and time of the device's first sample, moved to each later sample whose exact position is
/// more than `within` metres (haversine) from it. O(1) a sample.
struct StationaryAnchor: Sendable {
    let within: Meters
    private var position: Coordinate?
    /// t_anchor.
    private(set) var time = Timestamp(microsecondsSince1970: 0)

    init(within: Meters) { self.within = within }

    /// Moves the anchor to the sample at `exact`, `time` if it is the first or has moved away.
    mutating func update(_ exact: Coordinate, at time: Timestamp) {
        if let position, exact.distance(to: position) <= within { return }
        position = exact
        self.time = time
    }
}
