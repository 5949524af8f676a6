import Geodesy
import Geofencing

/// The true signed distance from a region's boundary at an event's time, in metres (negative inside): the
/// device's exact position then (SEMANTICS §2's interpolation, by a `SampleStream` without noise started
/// at that time) against the region's shape. O(fixes of the device) per event.
public struct TrueDistance: Sendable {
    private let segments: [String: [[Fix]]]
    private let regions: [String: Region]
    private let tick: TimeSpan

    /// The exact tracks and regions of `simulation` (its noise is ignored).
    public init(_ simulation: Simulation) {
        let start = simulation.clockStart
        var segments: [String: [[Fix]]] = [:]
        for device in simulation.devices where segments[device.id] == nil {
            segments[device.id] = device.track.fixes(start: start)
        }
        self.segments = segments
        regions = Dictionary(simulation.regions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        tick = simulation.tick
    }

    /// The distance of `device` from `region`'s boundary at `time`; nil when the device has no position then
    /// (between or outside its track's segments) or the device or region is unknown.
    public func at(_ time: Timestamp, device: String, region: String) -> Meters? {
        guard let segments = segments[device], let region = regions[region] else { return nil }
        var stream = SampleStream(segments: segments, start: time, tick: tick, noise: nil, deviceID: device)
        guard let sample = stream.next(before: 1), sample.tickIndex == 0 else { return nil }
        return region.signedDistance(to: sample.coordinate)
    }
}

extension EventMatching {
    /// Fills in the true distance of every paired profile event and every spurious one.
    public mutating func measure(_ truth: TrueDistance) {
        for i in pairs.indices {
            guard let time = pairs[i].profile else { continue }
            pairs[i].distance = truth.at(time, device: pairs[i].key.device, region: pairs[i].key.region)
        }
        for i in spurious.indices {
            spurious[i].distance = truth.at(spurious[i].time, device: spurious[i].key.device, region: spurious[i].key.region)
        }
    }

    /// The true distances of the profile's events of `kind`, paired and spurious, ascending.
    public func distances(_ kind: GeofenceEvent.Kind) -> [Meters] {
        (pairs.filter { $0.key.kind == kind }.compactMap(\.distance)
            + spurious.filter { $0.key.kind == kind }.compactMap(\.distance)).sorted()
    }
}
