import Geofencing
import Time

/// The spread of a Monte Carlo batch's events, grouped by crossing: for each enter, exit and dwell of the
/// exact reference run (the n-th of its key: device, region, kind, rule), the share of runs whose event
/// was paired with it (`EventMatching`, one to one), the p5, p50 and p95 of that event's time and the
/// median and p90 of its delay (nearest rank); per key one row of the events left unpaired (spurious);
/// and for the other kinds (monitor-start, visit, …), each key's n-th occurrence within a run.
///
/// Built run by run, in run order (`add(run:)`), so that it is the same for any thread count. Memory
/// holds one time per event of every run; O(pairing) per run.
public struct EventSpread: Sendable {
    /// What a row gathers.
    public enum Group: Hashable, Sendable {
        /// The n-th crossing (1-based) of its key in the reference run, at that time.
        case crossing(Int, Timestamp)
        /// The n-th event (1-based) of its key within a run: kinds that are not paired.
        case occurrence(Int)
        /// The events of its key that no crossing took.
        case spurious
    }

    /// One row, over the runs.
    public struct Entry: Hashable, Sendable {
        public var key: EventKey
        public var group: Group
        /// Runs that detected the crossing or had the occurrence; for `spurious`, the spurious events in all.
        public var count: Int
        /// The share of runs that detected it (had it; for `spurious`, had at least one), from 0 to 1.
        public var share: Double
        /// The nearest-rank p5, p50 and p95 of the events' times; nil when there was none.
        public var p5: Timestamp?
        public var p50: Timestamp?
        public var p95: Timestamp?
        /// For a crossing: the median and p90 of the delay (event time − crossing time); else nil.
        public var delayMedian: TimeSpan?
        public var delayP90: TimeSpan?

        /// The crossing's or occurrence's number; 0 for `spurious`.
        public var n: Int {
            switch group {
            case let .crossing(n, _), let .occurrence(n): return n
            case .spurious: return 0
            }
        }
    }

    /// The runs added so far.
    public private(set) var runs = 0
    private let reference: [GeofenceEvent]
    private let window: TimeSpan
    /// The reference's crossings as rows, in its order.
    private let crossings: [Row]
    private var times: [Row: [Timestamp]] = [:]
    /// For `spurious` rows: how many runs had at least one.
    private var spuriousRuns: [EventKey: Int] = [:]

    private struct Row: Hashable {
        var key: EventKey
        var group: Group
    }

    /// A spread against `reference`, the exact reference run's events (SEMANTICS §7 order), pairing within
    /// `window` as `perimeter compare` does.
    public init(reference: [GeofenceEvent], window: TimeSpan = .seconds(600)) {
        self.reference = reference
        self.window = window
        crossings = Self.crossings(of: reference)
        // Every crossing has its row, detected or not.
        for row in crossings { times[row] = [] }
    }

    private static func crossings(of reference: [GeofenceEvent]) -> [Row] {
        var seen: [EventKey: Int] = [:]
        return reference.filter { EventMatching.kinds.contains($0.kind) }.map { event in
            let key = EventKey(event)
            let n = seen[key, default: 0] + 1
            seen[key] = n
            return Row(key: key, group: .crossing(n, event.time))
        }
    }

    /// Adds one run's events (SEMANTICS §7 order).
    public mutating func add(run events: [GeofenceEvent]) {
        runs += 1
        let matching = EventMatching(reference: reference, profile: events, window: window)
        for (row, pair) in zip(crossings, matching.pairs) {
            if let time = pair.profile { times[row, default: []].append(time) }
        }
        var spuriousKeys = Set<EventKey>()
        for event in matching.spurious {
            times[Row(key: event.key, group: .spurious), default: []].append(event.time)
            spuriousKeys.insert(event.key)
        }
        for key in spuriousKeys { spuriousRuns[key, default: 0] += 1 }
        var seen: [EventKey: Int] = [:]
        for event in events where !EventMatching.kinds.contains(event.kind) {
            let key = EventKey(event)
            let n = seen[key, default: 0] + 1
            seen[key] = n
            times[Row(key: key, group: .occurrence(n)), default: []].append(event.time)
        }
    }

    /// Every row: ordered by time (a crossing's own, else the median), then as SEMANTICS §7 orders events,
    /// then crossings and occurrences by number, the spurious row last.
    public var entries: [Entry] {
        let all = times.map { row, times -> Entry in
            let sorted = times.sorted()
            var entry = Entry(
                key: row.key, group: row.group, count: sorted.count, share: 0,
                p5: NearestRank.percentile(5, of: sorted), p50: NearestRank.percentile(50, of: sorted),
                p95: NearestRank.percentile(95, of: sorted))
            if case let .crossing(_, at) = row.group {
                let delays = sorted.map { $0 - at }
                entry.delayMedian = NearestRank.percentile(50, of: delays)
                entry.delayP90 = NearestRank.percentile(90, of: delays)
            }
            let having = row.group == .spurious ? spuriousRuns[row.key, default: 0] : sorted.count
            entry.share = Double(having) / Double(Swift.max(1, runs))
            return entry
        }
        func time(_ entry: Entry) -> Timestamp {
            if case let .crossing(_, at) = entry.group { return at }
            // Invariant: a row holds at least one event, so its median exists.
            // swift-format-ignore: NeverForceUnwrap
            return entry.p50!
        }
        return all.sorted { a, b in
            if time(a) != time(b) { return time(a) < time(b) }
            if a.key != b.key { return EventKey.precedes(a.key, b.key) }
            if (a.group == .spurious) != (b.group == .spurious) { return b.group == .spurious }
            return a.n < b.n
        }
    }
}
