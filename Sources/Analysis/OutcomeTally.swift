import Geofencing
import ScenarioFormat

/// Counts, run by run, which devices got each outcome, under each profile and in the truth (one run of
/// the truth): a device got an outcome in a run when the run has at least one event of it (a `dwell` of
/// the rule, at any region; an `enter` or a `visit` of the region), however many. Memory: O(outcomes ×
/// devices × profiles) plus O(outcomes × profiles) per run; `add` is O(events + outcomes × devices).
///
/// ```swift
/// var tally = OutcomeTally(keys: OutcomeKey.all(rules: rules, regions: regions), devices: ["a", "b"],
///                          profiles: ["ios"], truth: idealEvents)
/// tally.add(profile: 0, events: runEvents)   // once per run, in run order
/// let rows = tally.outcomes                   // OutcomeRow per key
/// ```
public struct OutcomeTally: Sendable {
    public let keys: [OutcomeKey]
    public let devices: [String]
    public let profiles: [String]
    /// `truth[k * devices.count + d]`: device d got outcome k in the truth.
    let truth: [Bool]
    /// Per profile: the runs added.
    private(set) var runs: [Int]
    /// `counts[p][k]`: per run added under profile p, the devices that got outcome k.
    private var counts: [[[Int]]]
    private var falsePositives: [[[Int]]]
    private var falseNegatives: [[[Int]]]
    /// `hits[p][k * devices.count + d]`: the runs under profile p in which device d got outcome k.
    private var hits: [[Int]]
    private let index: Lookup

    /// Where an event's outcome and device are in the tables.
    private struct Lookup: Sendable {
        var rules: [String: Int] = [:]
        var enters: [String: Int] = [:]
        var visits: [String: Int] = [:]
        var devices: [String: Int] = [:]

        /// The outcome of `event`, if it is one.
        func key(of event: GeofenceEvent) -> Int? {
            switch event.detail {
            case let .dwell(rule, _, _): return rules[rule]
            case .enter: return enters[event.region]
            case .visit: return visits[event.region]
            default: return nil
            }
        }
    }

    /// Ready to count runs under `profiles` (names) against `truth`, the truth's events. `keys` are
    /// distinct (an outcome given twice is counted at its first place only).
    public init(keys: [OutcomeKey], devices: [String], profiles: [String], truth: [GeofenceEvent]) {
        self.keys = keys
        self.devices = devices
        self.profiles = profiles
        var lookup = Lookup()
        for (k, key) in keys.enumerated() {
            switch key {
            case let .rule(name): lookup.rules[name] = lookup.rules[name] ?? k
            case let .region(id, .enter): lookup.enters[id] = lookup.enters[id] ?? k
            case let .region(id, _): lookup.visits[id] = lookup.visits[id] ?? k
            }
        }
        for (d, device) in devices.enumerated() { lookup.devices[device] = lookup.devices[device] ?? d }
        index = lookup
        var got = [Bool](repeating: false, count: keys.count * devices.count)
        Self.mark(truth, lookup, devices.count, into: &got)
        self.truth = got
        runs = profiles.map { _ in 0 }
        counts = profiles.map { _ in keys.map { _ in [] } }
        falsePositives = counts
        falseNegatives = counts
        hits = profiles.map { _ in [Int](repeating: 0, count: keys.count * devices.count) }
    }

    /// Marks in `got` each (outcome, device) that `events` has.
    private static func mark(_ events: [GeofenceEvent], _ lookup: Lookup, _ deviceCount: Int, into got: inout [Bool]) {
        for event in events {
            guard let k = lookup.key(of: event), let d = lookup.devices[event.device] else { continue }
            got[k * deviceCount + d] = true
        }
    }

    /// Adds one run's events under profile `profile` (an index into `profiles`); runs of a profile are
    /// added in run order.
    public mutating func add(profile p: Int, events: [GeofenceEvent]) {
        let n = devices.count
        var got = [Bool](repeating: false, count: keys.count * n)
        Self.mark(events, index, n, into: &got)
        for k in keys.indices {
            var count = 0, positives = 0, negatives = 0
            for d in 0..<n {
                let slot = k * n + d
                if got[slot] {
                    count += 1
                    hits[p][slot] += 1
                    if !truth[slot] { positives += 1 }
                } else if truth[slot] {
                    negatives += 1
                }
            }
            counts[p][k].append(count)
            falsePositives[p][k].append(positives)
            falseNegatives[p][k].append(negatives)
        }
        runs[p] += 1
    }

    /// Per run added under profile `p`, in run order, the devices that got outcome `k` (an index into `keys`).
    public func counts(profile p: Int, outcome k: Int) -> [Int] { counts[p][k] }

    /// One row per outcome, in `keys` order: the truth's count and each profile's statistics over the
    /// runs added. O(outcomes × (profiles × runs log runs + devices)).
    public var outcomes: [OutcomeRow] {
        let n = devices.count
        return keys.enumerated().map { k, key in
            let inTruth = (0..<n).filter { truth[k * n + $0] }
            return OutcomeRow(
                key: key, truth: inTruth.count, truthDevices: inTruth.map { devices[$0] },
                profiles: profiles.indices.map { p in
                    ProfileOutcome(
                        profile: profiles[p], runs: runs[p], devices: CountSpread(counts[p][k]),
                        falsePositives: CountSpread(falsePositives[p][k]),
                        falseNegatives: CountSpread(falseNegatives[p][k]),
                        perDevice: (0..<n).map { d in
                            (devices[d], runs[p] == 0 ? 0 : Double(hits[p][k * n + d]) / Double(runs[p]))
                        })
                })
        }
    }
}

/// One outcome: how many devices got it in the truth, and under each profile.
public struct OutcomeRow: Sendable {
    public var key: OutcomeKey
    /// The devices that got it in the truth.
    public var truth: Int
    public var truthDevices: [String]
    /// In the order of the profiles.
    public var profiles: [ProfileOutcome]
}

/// One outcome under one profile, over its runs.
public struct ProfileOutcome: Sendable {
    public var profile: String
    public var runs: Int
    /// The devices that got it, per run.
    public var devices: CountSpread
    /// The devices that got it and did not in the truth, per run.
    public var falsePositives: CountSpread
    /// The devices that got it in the truth and did not under the profile, per run.
    public var falseNegatives: CountSpread
    /// Each device (in the scenario's order) with the share of runs in which it got it, from 0 to 1.
    public var perDevice: [(device: String, share: Double)]
}

/// A count over runs: its nearest-rank p5, median and p95 (`NearestRank`) and its mean; all 0 for no runs.
public struct CountSpread: Hashable, Sendable {
    public var p5: Int
    public var median: Int
    public var p95: Int
    public var mean: Double

    public init(p5: Int, median: Int, p95: Int, mean: Double) {
        self.p5 = p5
        self.median = median
        self.p95 = p95
        self.mean = mean
    }

    /// The spread of `values` (one per run, in any order). O(n log n).
    public init(_ values: [Int]) {
        let sorted = values.sorted()
        p5 = NearestRank.percentile(5, of: sorted) ?? 0
        median = NearestRank.percentile(50, of: sorted) ?? 0
        p95 = NearestRank.percentile(95, of: sorted) ?? 0
        mean = sorted.isEmpty ? 0 : Double(sorted.reduce(0, +)) / Double(sorted.count)
    }
}
