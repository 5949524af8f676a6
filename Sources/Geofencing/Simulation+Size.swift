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
    /// what a run's time and its log's size grow with (`TrackFacts.samples`). O(points), the devices on
    /// `threads` threads.
    ///
    /// Times are taken from the tracks as the run takes them (`Track.fixes(start:)`), so the count is
    /// exact; a paced track whose times would overflow counts as `Int64.max`.
    public func sampleCounts(threads: Int = RunOptions.defaultThreads) -> [Int64] {
        trackFacts(threads: threads).map(\.samples)
    }
}
