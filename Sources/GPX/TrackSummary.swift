import Geodesy
import Time

/// What `perimeter inspect` shows about a loaded track: counts, span, length, speeds, gaps, drops
/// and bounds. Built in one pass over the kept points: O(n) time, O(gaps) memory.
public struct TrackSummary: Sendable, Hashable {
    /// A stretch of more than `TrackSummary.gapThreshold` between two consecutive kept points.
    public struct Gap: Sendable, Hashable {
        /// Line of the point after the gap.
        public var line: Int
        public var from: Timestamp
        public var to: Timestamp
        /// True when the two points lie in different segments.
        public var betweenSegments: Bool
        public var duration: TimeSpan { to - from }
    }

    /// Gaps longer than this (60 s) are listed.
    public static let gapThreshold = TimeSpan.seconds(60)

    public var file: String
    public var kind: PointKind
    public var timing: GPXTrack.Timing
    /// Kept points, in all segments.
    public var points: Int
    /// Segments, empty ones included.
    public var segments: Int
    /// Times of the first and last kept points; nil for an untimed or empty track.
    public var start: Timestamp?
    public var end: Timestamp?
    /// Sum of the haversine distances between consecutive points of each segment, in metres.
    public var length: Meters
    /// Distance over time between consecutive timed points in a segment, in m/s; nil without any time span.
    public var averageSpeed: Double?
    /// The fastest step between consecutive timed points of a segment, in m/s.
    public var maximumSpeed: Double?
    public var gaps: [Gap]
    /// Dropped points by reason, from the track's warnings.
    public var dropped: [GPXWarning.Reason: Int]
    /// The kept points' bounds; nil for an empty track.
    public var bounds: BoundingBox?
    /// The length and top speed with GPS noise smoothed out (`smoothed(_:)`); nil speed without times.
    public var smoothedLength: Meters = 0
    public var smoothedMaximumSpeed: Double?

    /// `end - start`, when both are known.
    public var duration: TimeSpan? {
        guard let start, let end else { return nil }
        return end - start
    }

    public init(_ track: GPXTrack) {
        file = track.file
        kind = track.kind
        timing = track.timing
        segments = track.segments.count
        points = 0
        length = 0
        gaps = []
        dropped = [:]
        for warning in track.warnings { dropped[warning.reason, default: 0] += 1 }
        var box = BoundingBox.empty
        var movingDistance: Meters = 0
        var movingTime = TimeSpan.zero
        var fastest: Double?
        var previous: TrackPoint?
        for segment in track.segments {
            var previousInSegment: TrackPoint?
            for point in segment {
                points += 1
                box.extend(to: point.coordinate)
                if let last = previousInSegment {
                    let step = last.coordinate.distance(to: point.coordinate)
                    length += step
                    if let t0 = last.time, let t1 = point.time, t1 > t0 {
                        let seconds = (t1 - t0).seconds
                        movingDistance += step
                        movingTime = movingTime + (t1 - t0)
                        fastest = max(fastest ?? 0, step / seconds)
                    }
                }
                if let last = previous, let t0 = last.time, let t1 = point.time, t1 - t0 > TrackSummary.gapThreshold {
                    gaps.append(Gap(line: point.line, from: t0, to: t1, betweenSegments: previousInSegment == nil))
                }
                if start == nil { start = point.time }
                end = point.time ?? end
                previousInSegment = point
                previous = point
            }
        }
        bounds = points > 0 ? box : nil
        averageSpeed = movingTime > .zero ? movingDistance / movingTime.seconds : nil
        maximumSpeed = fastest
        (smoothedLength, smoothedMaximumSpeed) = Self.smoothed(track.segments)
    }
}
