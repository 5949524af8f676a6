import Geodesy

/// A place where a recorded device stayed (SEMANTICS §9, revision 4): the fixes from `first` to `last`
/// of one segment, all within the stay radius of the first but for short excursions (spikes).
public struct Stay: Hashable, Sendable {
    /// The mean position of its near fixes (latitude, and longitude relative to the first fix's).
    public var coordinate: Coordinate
    /// The times of its first and last fixes: the true path is held at `coordinate` between them.
    public var arrival: Timestamp
    public var departure: Timestamp
    /// The indices of its first and last fixes in the segment.
    public var first: Int
    public var last: Int
    /// How many fixes were near (the centroid's); the others between `first` and `last` were spikes.
    public var near: Int

    public init(coordinate: Coordinate, arrival: Timestamp, departure: Timestamp, first: Int, last: Int, near: Int) {
        self.coordinate = coordinate
        self.arrival = arrival
        self.departure = departure
        self.first = first
        self.last = last
        self.near = near
    }
}

/// The constants of SEMANTICS §9 (revision 4): how stays are found in a recorded track, and how long the
/// truth must stay on a new side for a crossing to count.
public struct RecordedTrackRules: Hashable, Sendable {
    /// D: a stay's fixes lie within this distance (haversine) of its first fix, in metres.
    public var stayRadius: Meters
    /// T: a stay lasts at least this long, first fix to last.
    public var stayTime: TimeSpan
    /// G: a run of fixes beyond D is a spike, not a departure, when a fix within D follows no later than
    /// G after the run's first fix.
    public var spikeReturn: TimeSpan
    /// τ: the truth's crossing counts only once the true path stays on the new side this long.
    public var settle: TimeSpan

    public init(
        stayRadius: Meters = 30, stayTime: TimeSpan = .seconds(120), spikeReturn: TimeSpan = .seconds(60),
        settle: TimeSpan = .seconds(60)
    ) {
        self.stayRadius = stayRadius
        self.stayTime = stayTime
        self.spikeReturn = spikeReturn
        self.settle = settle
    }

    /// SEMANTICS §9's values.
    public static let standard = RecordedTrackRules()

    /// The stays of one segment (fixes in time order), in order, by §9's anchored scan (Li et al. 2008,
    /// with spikes skipped). O(n × w): w is the number of fixes within D of an anchor plus those in the G
    /// after one beyond it (a constant of the recording rate), with no allocation per fix.
    public func stays(in segment: [Fix]) -> [Stay] {
        var stays: [Stay] = []
        var i = 0
        let n = segment.count
        while i < n {
            let anchor = PreparedCoordinate(segment[i].coordinate)
            let near = { (k: Int) in anchor.distance(to: PreparedCoordinate(segment[k].coordinate)) <= stayRadius }
            var j = i, k = i + 1
            while k < n {
                if near(k) {
                    j = k
                    k += 1
                    continue
                }
                // A fix beyond D: a spike when the track comes back within D no later than G after it.
                var m = k + 1
                while m < n, segment[m].time - segment[k].time <= spikeReturn, !near(m) { m += 1 }
                guard m < n, segment[m].time - segment[k].time <= spikeReturn else { break }
                k = m
            }
            guard segment[j].time - segment[i].time >= stayTime else {
                i += 1
                continue
            }
            stays.append(stay(of: segment, from: i, to: j, near: near))
            i = j + 1
        }
        return stays
    }

    /// The stay of `segment[i...j]`: the mean of its near fixes, latitude and longitude (each longitude
    /// as its difference from the first's, normalised, summed in order), the sums taken in fix order.
    private func stay(of segment: [Fix], from i: Int, to j: Int, near: (Int) -> Bool) -> Stay {
        let anchor = segment[i].coordinate
        var latitudes = 0.0, longitudes = 0.0, count = 0
        for k in i...j where near(k) {
            latitudes += segment[k].coordinate.latitude
            longitudes += normalizedLongitude(segment[k].coordinate.longitude - anchor.longitude)
            count += 1
        }
        let centre = Coordinate(
            latitude: latitudes / Double(count),
            longitude: normalizedLongitude(anchor.longitude + longitudes / Double(count)))
        return Stay(coordinate: centre, arrival: segment[i].time, departure: segment[j].time, first: i, last: j, near: count)
    }

    /// The true path of one segment (§9): each stay's fixes replaced by its centroid at its arrival and at
    /// its departure, the other fixes kept as they are (without their accuracy). O(n × w), as `stays`.
    public func truePath(of segment: [Fix]) -> [Fix] {
        var path: [Fix] = []
        path.reserveCapacity(segment.count)
        var next = 0
        for stay in stays(in: segment) {
            for fix in segment[next..<stay.first] { path.append(Fix(fix.coordinate, at: fix.time)) }
            path.append(Fix(stay.coordinate, at: stay.arrival))
            path.append(Fix(stay.coordinate, at: stay.departure))
            next = stay.last + 1
        }
        for fix in segment[next...] { path.append(Fix(fix.coordinate, at: fix.time)) }
        return path
    }
}

extension Device {
    /// The path the device took, on the clock that starts at `start`: its fixes (SEMANTICS §1), or for
    /// a recorded device the true path estimated from them, segment by segment (§9). O(fixes × w).
    public func truePath(start: Timestamp, recording: RecordedTrackRules = .standard) -> [[Fix]] {
        let fixes = track.fixes(start: start)
        guard recorded else { return fixes }
        return fixes.map { recording.truePath(of: $0) }
    }
}
