import Geofencing
import ScenarioFormat

/// Counts, run by run, which devices got each outcome, under each profile and in the truth (one run of
/// the truth): a device got an outcome in a run when the run has at least one event of it (a `dwell` of
/// the rule, at any region; an `enter` or a `visit` of the region), however many. Sparse: memory is
/// O(outcomes × profiles) per run plus one entry per (outcome, device) that some run or the truth has,
/// never outcomes × devices; `add` is O(events + outcomes).
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
    /// The (outcome, device) pairs of the truth, as slots `k × devices.count + d`.
    private let truth: Set<Int>
    /// Per outcome, the devices that got it in the truth.
    private let truthCounts: [Int]
    /// Per profile: the runs added.
    private var runs: [Int]
    /// `counts[p][k]`: per run added under profile p, the devices that got outcome k.
    private var counts: [[[Int]]]
    private var falsePositives: [[[Int]]]
    private var falseNegatives: [[[Int]]]
    /// `hits[p][slot]`: the runs under profile p in which the slot's device got the slot's outcome.
    private var hits: [[Int: Int]]
    private let index: Lookup

    /// Where an event's outcome and device are in the tables.
    private struct Lookup: Sendable {
        var rules: [String: Int] = [:]
        var enters: [String: Int] = [:]
        var visits: [String: Int] = [:]
        var devices: [String: Int] = [:]
        var deviceCount = 0

        /// The slot (`k × devices + d`) of `event`'s outcome and device, if it is an outcome's event.
        func slot(of event: GeofenceEvent) -> Int? {
            let k: Int?
            switch event.detail {
            case let .dwell(rule, _, _): k = rules[rule]
            case .enter: k = enters[event.region]
            case .visit: k = visits[event.region]
            default: k = nil
            }
            guard let k, let d = devices[event.device] else { return nil }
            return k * deviceCount + d
        }

        /// The distinct slots of `events`.
        func slots(_ events: [GeofenceEvent]) -> Set<Int> {
            var slots = Set<Int>()
            for event in events { if let slot = slot(of: event) { slots.insert(slot) } }
            return slots
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
        lookup.deviceCount = devices.count
        index = lookup
        self.truth = lookup.slots(truth)
        var truthCounts = [Int](repeating: 0, count: keys.count)
        for slot in self.truth { truthCounts[slot / max(1, devices.count)] += 1 }
        self.truthCounts = truthCounts
        runs = profiles.map { _ in 0 }
        counts = profiles.map { _ in keys.map { _ in [] } }
        falsePositives = counts
        falseNegatives = counts
        hits = profiles.map { _ in [:] }
    }

    /// Adds one run's events under profile `profile` (an index into `profiles`); runs of a profile are
    /// added in run order.
    public mutating func add(profile p: Int, events: [GeofenceEvent]) {
        var count = [Int](repeating: 0, count: keys.count), positives = count, found = count
        for slot in index.slots(events) {
            let k = slot / devices.count
            count[k] += 1
            hits[p][slot, default: 0] += 1
            if truth.contains(slot) { found[k] += 1 } else { positives[k] += 1 }
        }
        for k in keys.indices {
            counts[p][k].append(count[k])
            falsePositives[p][k].append(positives[k])
            falseNegatives[p][k].append(truthCounts[k] - found[k])
        }
        runs[p] += 1
    }

    /// Per run added under profile `p`, in run order, the devices that got outcome `k` (an index into `keys`).
    public func counts(profile p: Int, outcome k: Int) -> [Int] { counts[p][k] }

    /// One row per outcome, in `keys` order: the truth's count and each profile's statistics over the
    /// runs added, with the share of runs of each device that got the outcome in the truth or in some
    /// run (in the scenario's order; the others' share is 0). O(outcomes × profiles × runs log runs +
    /// entries).
    public var outcomes: [OutcomeRow] {
        let n = devices.count
        // Per outcome, the devices listed: in the truth or hit under some profile.
        var listed = keys.map { _ in Set<Int>() }
        for slot in truth { listed[slot / n].insert(slot % n) }
        for table in hits { for slot in table.keys { listed[slot / n].insert(slot % n) } }
        return keys.enumerated().map { k, key in
            let shown = listed[k].sorted()
            return OutcomeRow(
                key: key, truth: truthCounts[k],
                truthDevices: shown.filter { truth.contains(k * n + $0) }.map { devices[$0] },
                profiles: profiles.indices.map { p in
                    ProfileOutcome(
                        profile: profiles[p], runs: runs[p], devices: CountSpread(counts[p][k]),
                        falsePositives: CountSpread(falsePositives[p][k]),
                        falseNegatives: CountSpread(falseNegatives[p][k]),
                        perDevice: shown.map { d in
                            (devices[d], runs[p] == 0 ? 0 : Double(hits[p][k * n + d] ?? 0) / Double(runs[p]))
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
    /// Each device that got it in the truth or in some run of some profile (in the scenario's order), with
    /// the share of this profile's runs in which it got it, from 0 to 1; every other device's share is 0.
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
