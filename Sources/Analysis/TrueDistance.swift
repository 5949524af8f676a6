import Geodesy
import Geofencing
import Time

/// The true signed distance from a region's boundary at an event's time, in metres (negative inside): the
/// device's exact position then (SEMANTICS §2's interpolation, by a `SampleStream` without noise started
/// at that time, over the two fixes around it) against the region's shape. O(log fixes) per event.
public struct TrueDistance: Sendable {
    private let segments: [String: [[Fix]]]
    private let regions: [String: Region]
    private let tick: TimeSpan

    /// The exact tracks and regions of `simulation` (its noise is ignored; a recorded device's track is its
    /// true path, SEMANTICS §9).
    public init(_ simulation: Simulation) {
        let start = simulation.clockStart
        var segments: [String: [[Fix]]] = [:]
        for device in simulation.devices where segments[device.id] == nil {
            segments[device.id] = device.truePath(start: start).filter { !$0.isEmpty }
        }
        self.segments = segments
        regions = Dictionary(simulation.regions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        tick = simulation.tick
    }

    /// The distance of `device` from `region`'s boundary at `time`; nil when the device has no position then
    /// (between or outside its track's segments) or the device or region is unknown.
    public func at(_ time: Timestamp, device: String, region: String) -> Meters? {
        guard let segments = segments[device], let region = regions[region] else { return nil }
        // The first segment that ends at `time` or later, as the stream takes it; then its last fix at or
        // before `time` and the next: all that the stream's interpolation at `time` reads.
        let s = Self.firstIndex(in: segments.count) { segments[$0].last.map { $0.time >= time } ?? false }
        guard s < segments.count, let first = segments[s].first, first.time <= time else { return nil }
        let segment = segments[s]
        let a = Self.firstIndex(in: segment.count) { segment[$0].time > time } - 1
        var stream = SampleStream(
            segments: [Array(segment[a...min(a + 1, segment.count - 1)])], start: time, tick: tick,
            noise: nil, deviceID: device)
        guard let sample = stream.next(before: 1), sample.tickIndex == 0 else { return nil }
        return region.signedDistance(to: sample.coordinate)
    }

    /// The first index in 0..<count at which `isPast` holds (it holds from some index on), else count. O(log count).
    private static func firstIndex(in count: Int, where isPast: (Int) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if isPast(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

extension EventMatching {
    /// Fills in the true distance of every paired profile event and every spurious one, when the phone
    /// decided it (a delivered event's `detectedAt`).
    public mutating func measure(_ truth: TrueDistance) {
        for i in pairs.indices {
            guard let time = pairs[i].decidedAt ?? pairs[i].profile else { continue }
            pairs[i].distance = truth.at(time, device: pairs[i].key.device, region: pairs[i].key.region)
        }
        for i in spurious.indices {
            spurious[i].distance = truth.at(
                spurious[i].decidedAt ?? spurious[i].time, device: spurious[i].key.device, region: spurious[i].key.region)
        }
    }

    /// The true distances of the profile's events of `kind`, paired and spurious, ascending.
    public func distances(_ kind: GeofenceEvent.Kind) -> [Meters] {
        (pairs.filter { $0.key.kind == kind }.compactMap(\.distance)
            + spurious.filter { $0.key.kind == kind }.compactMap(\.distance)).sorted()
    }
}
