import Parallel
import Time

extension SampleStream {
    /// The number of ticks `start + k × tick` (k ≥ 0) that lie within one of `segments` (SEMANTICS §2),
    /// a tick shared by two segments counted once. Saturates at `Int64.max`. O(segments).
    public static func sampleCount(of segments: [[Fix]], start: Timestamp, tick: TimeSpan) -> Int64 {
        var count: Int64 = 0
        var nextTick: Int64 = 0
        for segment in segments {
            guard let (k0, k1) = ticks(of: segment, from: nextTick, start: start, tick: tick) else { continue }
            let (sum, overflow) = count.addingReportingOverflow(k1 - k0 + 1)
            if overflow { return .max }
            count = sum
            nextTick = k1 + 1
        }
        return count
    }
}

extension Simulation {
    /// How many samples each device makes in a run, in device order, counted without running:
    /// what a run's time and its log's size grow with. O(points), the devices on all cores.
    ///
    /// Times are taken from the tracks as the run takes them (`Track.fixes(start:)`), so the count is
    /// exact; a paced track whose times would overflow counts as `Int64.max`.
    public func sampleCounts() -> [Int64] {
        let (start, devices, tick) = (clockStart, devices, tick)
        return concurrentMap(devices.count) { i in
            let device = devices[i]
            if case let .paced(segments, pace, offset) = device.track {
                let lastOrdinal = Int64(segments.lazy.compactMap(\.last?.ordinal).max() ?? 0)
                guard let span = pace.multiplied(by: lastOrdinal),
                    case let (first, o1) = start.microsecondsSince1970.addingReportingOverflow(offset.microseconds), !o1,
                    first.addingReportingOverflow(span.microseconds).overflow == false
                else { return .max }
            }
            return SampleStream.sampleCount(of: device.track.fixes(start: start), start: start, tick: tick)
        }
    }
}
