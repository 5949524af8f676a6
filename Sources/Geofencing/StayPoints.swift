import Foundation
import Geodesy
import Time

/// A place where a recorded device stayed (SEMANTICS §9, revision 4): the fixes from `first` to `last`
/// of one segment, the core of those within the stay radius of an anchor fix but for short excursions.
public struct Stay: Hashable, Sendable {
    /// Its centre: the median position of the fixes near its anchor (latitude, and longitude relative to the
    /// anchor's).
    public var coordinate: Coordinate
    /// The times of its core's first and last fixes: the true path is held at `coordinate` between them.
    public var arrival: Timestamp
    public var departure: Timestamp
    /// The indices of its first and last fixes in the segment.
    public var first: Int
    public var last: Int
    /// How many fixes are its core's (within D/2 of its centre); the others between `first` and `last`
    /// were spikes or jitter.
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
        stayRadius: Meters = 50, stayTime: TimeSpan = .seconds(120), spikeReturn: TimeSpan = .seconds(20),
        settle: TimeSpan = .seconds(60)
    ) {
        self.stayRadius = stayRadius
        self.stayTime = stayTime
        self.spikeReturn = spikeReturn
        self.settle = settle
    }

    /// SEMANTICS §9's values.
    public static let standard = RecordedTrackRules()

    /// The stays of one segment (fixes in time order), in order, by §9's anchored scan (after Li et al.
    /// 2008, with spikes skipped, a median centre and a core). O(n × w + m log m): w is the number of fixes
    /// within D of an anchor plus those in the G after one beyond it (a constant of the recording rate),
    /// m a candidate stay's fixes (sorted for the medians).
    public func stays(in segment: [Fix]) -> [Stay] {
        var stays: [Stay] = []
        var i = 0
        let n = segment.count
        let scan = Scan(segment: segment, radius: stayRadius)
        while i < n {
            var j = i, k = i + 1
            while k < n {
                if scan.near(i, k) {
                    j = k
                    k += 1
                    continue
                }
                // A fix beyond D: a spike when the track comes back within D no later than G after it.
                var m = k + 1
                while m < n, segment[m].time - segment[k].time <= spikeReturn, !scan.near(i, m) { m += 1 }
                guard m < n, segment[m].time - segment[k].time <= spikeReturn else { break }
                k = m
            }
            guard segment[j].time - segment[i].time >= stayTime, let stay = core(of: scan, from: i, to: j) else {
                i += 1
                continue
            }
            stays.append(stay)
            i = stay.last + 1
        }
        return stays
    }

    /// A segment's fixes with the test of §9's anchored scan: whether fix k is within D of fix i.
    struct Scan {
        let segment: [Fix]
        let radius: Meters
        /// Each fix with its trigonometry done once, and as a point of the unit sphere. A chord is never
        /// longer than its arc and, under 100 m, shorter by less than a nanometre: a chord beyond D plus a
        /// micrometre settles "not near", one within D less a micrometre "near", with a few multiplications;
        /// only a chord within a micrometre of D asks the haversine. The same answers as the haversine's.
        let prepared: [PreparedCoordinate]
        let unit: [(x: Double, y: Double, z: Double)]
        let farChord: Double, nearChord: Double

        init(segment: [Fix], radius: Meters) {
            self.segment = segment
            self.radius = radius
            prepared = segment.map { PreparedCoordinate($0.coordinate) }
            unit = prepared.map { point in
                let lambda = point.coordinate.longitude.radians
                return (
                    point.cosLatitude * cos(lambda), point.cosLatitude * sin(lambda), sin(point.coordinate.latitude.radians)
                )
            }
            farChord = (radius + 1e-6) / Earth.radius
            nearChord = max(0, radius - 1e-6) / Earth.radius
        }

        @inline(__always)
        func near(_ i: Int, _ k: Int) -> Bool {
            let (dx, dy, dz) = (unit[k].x - unit[i].x, unit[k].y - unit[i].y, unit[k].z - unit[i].z)
            let chord = dx * dx + dy * dy + dz * dz
            if chord > farChord * farChord { return false }
            if chord < nearChord * nearChord { return true }
            return prepared[i].distance(to: prepared[k]) <= radius
        }
    }

    /// The stay in `segment[i...j]`, or nil when its core is too short: the centre is the median latitude and
    /// the median longitude (as differences from fix i's, normalised) of the near fixes; the core, the near
    /// fixes within D/2 of the centre; the stay runs from the core's first fix to its last, and must last T.
    private func core(of scan: Scan, from i: Int, to j: Int) -> Stay? {
        let segment = scan.segment
        let anchor = segment[i].coordinate
        var latitudes: [Double] = [], longitudes: [Double] = []
        for k in i...j where scan.near(i, k) {
            latitudes.append(segment[k].coordinate.latitude)
            longitudes.append(normalizedLongitude(segment[k].coordinate.longitude - anchor.longitude))
        }
        let centre = PreparedCoordinate(
            Coordinate(
                latitude: Self.median(&latitudes),
                longitude: normalizedLongitude(anchor.longitude + Self.median(&longitudes))))
        var first: Int?, last = i, count = 0
        for k in i...j where scan.near(i, k) && centre.distance(to: scan.prepared[k]) <= stayRadius / 2 {
            if first == nil { first = k }
            last = k
            count += 1
        }
        guard let first, segment[last].time - segment[first].time >= stayTime else { return nil }
        return Stay(
            coordinate: centre.coordinate, arrival: segment[first].time, departure: segment[last].time, first: first,
            last: last, near: count)
    }

    /// The median of `values` (not empty): the middle one once sorted, or the mean of the two middle ones.
    static func median(_ values: inout [Double]) -> Double {
        values.sort()
        let m = values.count
        return m % 2 == 1 ? values[(m - 1) / 2] : (values[m / 2 - 1] + values[m / 2]) / 2
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

extension RecordedTrackRules {
    /// How far a track's fixes scatter while it stops (SEMANTICS §9): the median distance of its stays' core
    /// fixes from their centres, in metres, over the first `limit` fixes of each segment; nil when it has
    /// no stay there. A recorded track scatters by metres; a synthetic one, still in one place, by 0.
    public func jitter(of segments: [[Fix]], limit: Int = .max) -> Meters? {
        var distances: [Double] = []
        for whole in segments {
            let segment = Array(whole.prefix(limit))
            for stay in stays(in: segment) {
                let centre = PreparedCoordinate(stay.coordinate)
                for fix in segment[stay.first...stay.last] {
                    let d = centre.distance(to: PreparedCoordinate(fix.coordinate))
                    if d <= stayRadius / 2 { distances.append(d) }
                }
            }
        }
        return distances.isEmpty ? nil : Self.median(&distances)
    }

    /// The jitter above which a track looks recorded on a phone, in metres: a phone at rest scatters by
    /// metres (gps.gov: within 4.9 m 95 % of the time under open sky); a track made by a program that
    /// stops in one place repeats it exactly.
    public static let recordedJitter: Meters = 0.5
}
