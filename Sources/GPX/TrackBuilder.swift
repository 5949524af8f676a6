/// Applies SEMANTICS §1 to the points of a GPX file as a `GPXReader` yields them: picks the point
/// kind (trkpt, else rtept, else wpt), decides the timing, and drops out-of-range coordinates,
/// backward times and the earlier of equal times. O(n) time; memory for the points only.
struct TrackBuilder {
    let file: String
    private var trackSegments: [[TrackPoint]] = []
    private var routePoints: [TrackPoint] = []
    private var waypoints: [TrackPoint] = []

    init(file: String) { self.file = file }

    mutating func add(_ item: GPXItem) {
        switch item {
        case .segmentStart(.trackPoint, _): trackSegments.append([])
        case .segmentStart: break
        case .point(.trackPoint, let p):
            if trackSegments.isEmpty { trackSegments.append([]) }
            trackSegments[trackSegments.count - 1].append(p)
        case .point(.routePoint, let p): routePoints.append(p)
        case .point(.waypoint, let p): waypoints.append(p)
        }
    }

    /// The track, or the error of a file whose points are timed only in part.
    func build() throws(GPXError) -> GPXTrack {
        let kind: PointKind
        let segments: [[TrackPoint]]
        if trackSegments.contains(where: { !$0.isEmpty }) {
            (kind, segments) = (.trackPoint, trackSegments)
        } else if !routePoints.isEmpty {
            (kind, segments) = (.routePoint, [routePoints])
        } else if !waypoints.isEmpty {
            (kind, segments) = (.waypoint, [waypoints])
        } else {
            // No points at all: an empty track, keeping its empty trksegs.
            return GPXTrack(file: file, kind: .trackPoint, timing: .untimed, segments: trackSegments, warnings: [])
        }
        let timing = try decideTiming(kind, segments)
        var warnings: [GPXWarning] = []
        var kept: [[TrackPoint]] = []
        kept.reserveCapacity(segments.count)
        /// The segment of the last kept point (it is always that segment's last element).
        var lastSegment: Int?
        for segment in segments {
            kept.append([])
            kept[kept.count - 1].reserveCapacity(segment.count)
            for point in segment {
                guard point.coordinate.isValid else {
                    warnings.append(
                        GPXWarning(
                            reason: .coordinateOutOfRange, line: point.line,
                            message:
                                "<\(kind.rawValue)> dropped: lat \(point.coordinate.latitude), lon \(point.coordinate.longitude) is outside [-90, 90] × [-180, 180]."
                        ))
                    continue
                }
                if timing == .timed, let s = lastSegment, let last = kept[s].last, let time = point.time,
                    let lastTime = last.time
                {
                    if time < lastTime {
                        warnings.append(
                            GPXWarning(
                                reason: .timeWentBack, line: point.line,
                                message:
                                    "<\(kind.rawValue)> dropped: its time \(time.iso8601) is earlier than \(lastTime.iso8601) of the point kept before it (line \(last.line))."
                            ))
                        continue
                    }
                    if time == lastTime {
                        kept[s].removeLast()
                        warnings.append(
                            GPXWarning(
                                reason: .duplicateTime, line: last.line,
                                message:
                                    "<\(kind.rawValue)> dropped: its time \(lastTime.iso8601) is also the time of the point at line \(point.line), which is kept."
                            ))
                    }
                }
                kept[kept.count - 1].append(point)
                lastSegment = kept.count - 1
            }
        }
        return GPXTrack(file: file, kind: kind, timing: timing, segments: kept, warnings: warnings)
    }

    /// Timed when every point has a time, untimed when none has; otherwise an error naming the first
    /// point without one. Counts every point of the kind, out-of-range ones included.
    private func decideTiming(_ kind: PointKind, _ segments: [[TrackPoint]]) throws(GPXError) -> GPXTrack.Timing {
        var timed = 0, total = 0
        var firstUntimed: TrackPoint?
        for segment in segments {
            for point in segment {
                total += 1
                if point.time != nil { timed += 1 } else if firstUntimed == nil { firstUntimed = point }
            }
        }
        if timed == total { return .timed }
        if timed == 0 { return .untimed }
        guard let p = firstUntimed else { return .timed }  // timed < total: one has no time
        throw GPXError(
            file: file, line: p.line, column: p.column,
            message:
                "this <\(kind.rawValue)> has no <time>, but \(timed) of the file's \(total) <\(kind.rawValue)> points have one; give every point a time, or none (then they play at 1 s intervals)."
        )
    }
}

extension GPXTrack {
    /// Reads `path` with a `GPXReader` and applies SEMANTICS §1. O(file size) time; memory for the points.
    static func read(path: String) throws(GPXError) -> GPXTrack {
        let reader = try GPXReader(path: path)
        var builder = TrackBuilder(file: path)
        while let item = try reader.next() { builder.add(item) }
        var track = try builder.build()
        track.zonelessTimes = reader.zonelessTimes
        return track
    }
}
