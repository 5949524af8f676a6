import Draws
import Geodesy
import Time

/// A device's position at one tick of the clock (SEMANTICS §2).
public struct Sample: Hashable, Sendable {
    /// k in `t_k = start + k × tick`.
    public var tickIndex: Int64
    public var time: Timestamp
    public var coordinate: Coordinate
    /// a: the accuracy in metres, interpolated between the fixes around the tick like the position.
    public var accuracy: Meters = 0
}

/// The samples of one device, in time order: one at every tick that lies within one of its segments.
///
/// Positions are interpolated linearly in latitude and in longitude between the fixes around the tick,
/// longitude the short way round and normalised to [-180, 180). Between segments there is no sample.
/// O(1) amortised per sample; holds only the device's fixes.
public struct SampleStream: IteratorProtocol, Sendable {
    private let segments: [[Fix]]
    private let start: Timestamp
    private let tick: TimeSpan
    private var noise: SampleNoise?
    private var outliers: SampleOutliers?
    /// Whether `exactCoordinate` is kept, for a stationary slow-down.
    private let tracksExact: Bool
    /// The exact position (before noise and outliers) of the last sample returned, when the stream keeps it
    /// (`tracksExact`): what a stationary slow-down's anchor follows (SEMANTICS §2, revision 3). Kept here,
    /// not in `Sample`: a sample stays as small as revision 2's.
    public private(set) var exactCoordinate = Coordinate(latitude: 0, longitude: 0)
    /// The accuracy of fixes that have none of their own.
    private let accuracy: Meters

    private var segmentIndex = 0
    private var fixIndex = 0
    private var nextTick: Int64 = 0
    private var lastTick: Int64 = -1
    /// Whether the samples come from `recorded` (`replay(_:)`), not from the segments; `replayIndex` is the next one's.
    private var replaying = false
    private var recorded = RecordedSamples()
    private var replayIndex = 0

    /// - Parameters:
    ///   - segments: timed fixes, times never decreasing (as `Track.fixes(start:)` gives them).
    ///   - noise: when set, every sample is displaced by seeded Gaussian offsets keyed by `deviceID`.
    ///   - accuracy: the accuracy of fixes that have none (the device's, else the monitor's), in metres.
    ///   - outliers: when set, outlier episodes drawn from the run's seed (`noise?.seed`, else 0).
    ///   - tracksExact: keep each sample's exact position (`exactCoordinate`), for a stationary slow-down.
    public init(
        segments: [[Fix]], start: Timestamp, tick: TimeSpan, noise: Noise? = nil, deviceID: String = "",
        accuracy: Meters = 0, outliers: Outliers? = nil, tracksExact: Bool = false
    ) {
        precondition(tick.microseconds > 0, "the tick must be positive")
        self.segments = segments
        self.accuracy = accuracy
        self.start = start
        self.tick = tick
        self.noise = noise.map { SampleNoise($0, deviceID: deviceID, tick: tick) }
        let deviceKey = DrawStream.deviceKey(seed: noise?.seed ?? 0, device: deviceID)
        self.outliers = outliers.map { SampleOutliers($0, deviceKey: deviceKey, tick: tick) }
        self.tracksExact = tracksExact
        self.segmentIndex = -1
        advanceSegment()
    }

    /// The first and last tick index this stream can produce, or nil when it produces none.
    public var tickRange: ClosedRange<Int64>? {
        var first: Int64?, last: Int64?
        for segment in segments {
            guard let (k0, k1) = Self.ticks(of: segment, from: 0, start: start, tick: tick) else { continue }
            first = min(first ?? k0, k0)
            last = max(last ?? k1, k1)
        }
        guard let first, let last else { return nil }
        return first...last
    }

    /// The next sample, or nil when the track is over.
    public mutating func next() -> Sample? {
        if replaying { return nextRecorded(before: .max) }
        while segmentIndex < segments.count {
            if nextTick <= lastTick {
                let k = nextTick
                nextTick += 1
                return sample(at: k)
            }
            advanceSegment()
        }
        return nil
    }

    /// The next sample if its tick index is below `limit`; nil (and nothing consumed) otherwise.
    public mutating func next(before limit: Int64) -> Sample? {
        if replaying { return nextRecorded(before: limit) }
        while segmentIndex < segments.count {
            if nextTick <= lastTick {
                guard nextTick < limit else { return nil }
                let k = nextTick
                nextTick += 1
                return sample(at: k)
            }
            advanceSegment()
        }
        return nil
    }

    /// The tick index of the next sample, or nil when the track is over; consumes nothing.
    ///
    /// Lets a run skip stretches of time in which no device has a sample (a scenario `start` years
    /// before the tracks). O(1) amortised.
    public mutating func upcomingTick() -> Int64? {
        if replaying { return replayIndex < recorded.samples.count ? recorded.samples[replayIndex].tickIndex : nil }
        while segmentIndex < segments.count {
            if nextTick <= lastTick { return nextTick }
            advanceSegment()
        }
        return nil
    }

    /// At most how many samples the stream gives in all: the sum of its segments' ticks. O(segments).
    var sampleBound: Int {
        segments.reduce(0) { sum, segment in
            guard let (k0, k1) = Self.ticks(of: segment, from: 0, start: start, tick: tick) else { return sum }
            return sum + Int(clamping: k1 - k0 + 1)
        }
    }

    /// Every sample from where the stream stands to its end, with the exact positions when it keeps them
    /// (`SampleRecordings`). O(samples).
    mutating func recordAll() -> RecordedSamples {
        var all = RecordedSamples()
        all.samples.reserveCapacity(sampleBound)
        if tracksExact { all.exact.reserveCapacity(sampleBound) }
        while let sample = next() {
            all.samples.append(sample)
            if tracksExact { all.exact.append(exactCoordinate) }
        }
        return all
    }

    /// From now on, gives `samples` (what `recordAll()` gave on a stream made the same way) instead of
    /// drawing them: the same samples and exact positions, with no noise, outlier or interpolation cost.
    mutating func replay(_ samples: RecordedSamples) {
        recorded = samples
        replaying = true
        replayIndex = 0
    }

    /// The next recorded sample if its tick index is below `limit`. O(1).
    private mutating func nextRecorded(before limit: Int64) -> Sample? {
        guard replayIndex < recorded.samples.count, recorded.samples[replayIndex].tickIndex < limit else { return nil }
        if tracksExact { exactCoordinate = recorded.exact[replayIndex] }
        replayIndex += 1
        return recorded.samples[replayIndex - 1]
    }

    /// The first and last tick index `k ≥ floor` with `start + k × tick` within `segment` (first fix
    /// time ≤ t ≤ last fix time, SEMANTICS §2), or nil when there is none. O(1).
    static func ticks(of segment: [Fix], from floor: Int64, start: Timestamp, tick: TimeSpan) -> (Int64, Int64)? {
        guard let a = segment.first, let b = segment.last else { return nil }
        let k0 = max(floor, ceilDiv((a.time - start).microseconds, tick.microseconds))
        let k1 = floorDiv((b.time - start).microseconds, tick.microseconds)
        return k0 <= k1 ? (k0, k1) : nil
    }

    /// Moves to the next segment that has at least one tick not yet sampled.
    private mutating func advanceSegment() {
        segmentIndex += 1
        while segmentIndex < segments.count {
            if let (k0, k1) = Self.ticks(of: segments[segmentIndex], from: max(nextTick, 0), start: start, tick: tick) {
                nextTick = k0
                lastTick = k1
                fixIndex = 0
                return
            }
            segmentIndex += 1
        }
    }

    private mutating func sample(at k: Int64) -> Sample {
        let t = start + tick * k
        // Indexed in place (`segments[s][i]`), not copied out: a copy of the segment would retain it per sample.
        let s = segmentIndex, count = segments[s].count
        while fixIndex + 1 < count, segments[s][fixIndex + 1].time <= t { fixIndex += 1 }
        let a = segments[s][fixIndex]
        var position: Coordinate
        let accuracyA = a.accuracy ?? accuracy
        var sampleAccuracy = accuracyA
        if a.time == t || fixIndex + 1 == count {
            position = Coordinate(latitude: a.coordinate.latitude, longitude: normalizedLongitude(a.coordinate.longitude))
        } else {
            let b = segments[s][fixIndex + 1]
            let f = Double((t - a.time).microseconds) / Double((b.time - a.time).microseconds)
            let lat = a.coordinate.latitude + f * (b.coordinate.latitude - a.coordinate.latitude)
            let dLon = normalizedLongitude(b.coordinate.longitude - a.coordinate.longitude)
            position = Coordinate(latitude: lat, longitude: normalizedLongitude(a.coordinate.longitude + f * dLon))
            sampleAccuracy = accuracyA + f * ((b.accuracy ?? accuracy) - accuracyA)
        }
        guard tracksExact || outliers != nil else {  // revision 2's sample: the noise's move only
            if let n = noise?.offset(tickIndex: k) {
                position = position.offset(northMeters: n.north, eastMeters: n.east)
            }
            return Sample(tickIndex: k, time: t, coordinate: position, accuracy: sampleAccuracy)
        }
        return phoneSample(at: k, time: t, exact: position, accuracy: sampleAccuracy)
    }

    /// The sample with revision 3's parts (SEMANTICS §2): the exact position kept for the stationary anchor, and
    /// one move by n + o, the noise's offset plus an outlier episode's, which also sets the accuracy. Out of
    /// line: a run without them does not pay for their code.
    @inline(never)
    private mutating func phoneSample(at k: Int64, time t: Timestamp, exact: Coordinate, accuracy a: Meters) -> Sample {
        var sample = Sample(tickIndex: k, time: t, coordinate: exact, accuracy: a)
        if tracksExact { exactCoordinate = exact }
        var move = noise?.offset(tickIndex: k)
        if let o = outliers?.offset(tickIndex: k, at: t) {
            move = ((move?.north ?? 0) + o.north, (move?.east ?? 0) + o.east)
            sample.accuracy = max(sample.accuracy, o.accuracy)
        }
        if let move { sample.coordinate = exact.offset(northMeters: move.north, eastMeters: move.east) }
        return sample
    }
}
