import Geodesy
import Geofencing

/// The spread of a Monte Carlo batch's events: for each event key (device, region, kind, rule) and n,
/// the 1-based occurrence of that key within a run, the share of runs in which it occurs and the p5,
/// p50 and p95 of its time over those runs (nearest rank).
///
/// Built run by run, in run order (`add(run:)`), so that it is the same for any thread count. Memory
/// holds one time per event of every run.
public struct EventSpread: Sendable {
    /// One event key and occurrence, over the runs.
    public struct Entry: Hashable, Sendable {
        public var key: EventKey
        /// 1-based: the n-th event of this key within a run.
        public var n: Int
        /// How many runs had it.
        public var count: Int
        /// The share of runs that had it, from 0 to 1.
        public var share: Double
        public var p5: Timestamp
        public var p50: Timestamp
        public var p95: Timestamp
    }

    /// The runs added so far.
    public private(set) var runs = 0
    private var times: [Occurrence: [Timestamp]] = [:]

    private struct Occurrence: Hashable {
        var key: EventKey
        var n: Int
    }

    public init() {}

    /// Adds one run's events (SEMANTICS §7 order).
    public mutating func add(run events: [GeofenceEvent]) {
        runs += 1
        var seen: [EventKey: Int] = [:]
        for event in events {
            let key = EventKey(event)
            let n = seen[key, default: 0] + 1
            seen[key] = n
            times[Occurrence(key: key, n: n), default: []].append(event.time)
        }
    }

    /// Every key and occurrence, ordered by median time, then as SEMANTICS §7 orders events, then n.
    public var entries: [Entry] {
        times.map { occurrence, times in
            let sorted = times.sorted()
            return Entry(key: occurrence.key, n: occurrence.n, count: sorted.count,
                         share: Double(sorted.count) / Double(Swift.max(1, runs)),
                         p5: NearestRank.percentile(5, of: sorted)!, p50: NearestRank.percentile(50, of: sorted)!,
                         p95: NearestRank.percentile(95, of: sorted)!)
        }.sorted { a, b in
            if a.p50 != b.p50 { return a.p50 < b.p50 }
            if a.key != b.key { return EventKey.precedes(a.key, b.key) }
            return a.n < b.n
        }
    }

    /// The share of runs in which some event of `key` occurs at least `n` times.
    public func share(of key: EventKey, n: Int = 1) -> Double {
        Double(times[Occurrence(key: key, n: n)]?.count ?? 0) / Double(Swift.max(1, runs))
    }
}
