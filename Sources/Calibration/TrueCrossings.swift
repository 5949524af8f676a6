import Analysis
import Geofencing
import Time

/// The true enter and exit crossings of a scenario: its tracks without noise through an exact monitor
/// (the `ideal` profile: h = e = 0, no confirmation, no draws), and the pairing of reported events with
/// them by `compare`'s one-to-one, order-preserving rule (`EventAlignment`). O(fixes × regions) to build.
public struct TrueCrossings: Sendable {
    /// One true crossing.
    public struct Crossing: Hashable, Sendable {
        public var device: String
        public var region: String
        public var kind: GeofenceEvent.Kind
        public var time: Timestamp
        /// Its position among its (device, region, kind)'s crossings, from 0.
        public var index: Int
    }

    /// The kinds fitted: enter and exit.
    public static let kinds: [GeofenceEvent.Kind] = [.enter, .exit]

    struct Key: Hashable {
        var device: String
        var region: String
        var kind: GeofenceEvent.Kind
    }

    /// Grouped by (device, region, kind), each group in time order.
    public let crossings: [Crossing]
    /// Each key's crossings, a range of `crossings`, and their times in microseconds.
    private let groups: [Key: (range: Range<Int>, times: [Int64])]
    /// How far apart a reported event and its crossing may be (`compare`'s default window, 10 min).
    public let window: TimeSpan
    let truth: TrueDistance

    /// The true crossings of `simulation`'s tracks (its profile, overrides and noise are set aside; a recorded
    /// device's are its true path's, settled: SEMANTICS §9).
    public init(_ simulation: Simulation, window: TimeSpan = .seconds(600)) {
        var exact = simulation
        exact.profile = .ideal
        exact.overrides = MonitorOverrides()
        exact.noise = nil
        for i in exact.regions.indices {
            let region = exact.regions[i]
            exact.regions[i] = Region(id: region.id, shape: region.shape)
        }
        // Recorded devices (SEMANTICS §9): their true paths, with settled crossings.
        let events = exact.truth(threads: 1).events
        var byKey: [Key: [Timestamp]] = [:], order: [Key] = []
        for event in events where Self.kinds.contains(event.kind) {
            let key = Key(device: event.device, region: event.region, kind: event.kind)
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append(event.time)
        }
        var crossings: [Crossing] = [], groups: [Key: (Range<Int>, [Int64])] = [:]
        for key in order {
            let times = byKey[key, default: []]
            let first = crossings.count
            for (k, time) in times.enumerated() {
                crossings.append(Crossing(device: key.device, region: key.region, kind: key.kind, time: time, index: k))
            }
            groups[key] = (first..<crossings.count, times.map(\.microsecondsSince1970))
        }
        self.crossings = crossings
        self.groups = groups
        self.window = window
        truth = TrueDistance(simulation)
    }

    /// A reported event: what a phone said, from a field log or a simulated run.
    struct Report {
        var key: Key
        var time: Timestamp
        var decidedAt: Timestamp?
    }

    /// Pairs `reports` (each key's in time order) with the crossings and writes run `run`'s outcomes.
    /// `distanceAtDecision`: the true distance is taken at the decision time (`detectedAt`) when the event
    /// has one; else always at `time` (a log that does not write `detectedAt`). O(reports + crossings).
    func record(_ reports: [Report], run: Int, into outcomes: inout CrossingOutcomes, distanceAtDecision: Bool) {
        var byKey: [Key: [Report]] = [:]
        for report in reports { byKey[report.key, default: []].append(report) }
        for (key, reports) in byKey.sorted(by: {
            ($0.key.device, $0.key.region, $0.key.kind) < ($1.key.device, $1.key.region, $1.key.kind)
        }) {
            guard let group = groups[key] else {
                if let k = Self.kinds.firstIndex(of: key.kind) { outcomes.spurious[run][k] += reports.count }
                continue
            }
            let times = reports.map(\.time.microsecondsSince1970)
            let aligned = EventAlignment.align(reference: group.times, profile: times, window: window.microseconds)
            var paired = 0
            for (k, match) in aligned.enumerated() {
                guard let match else { continue }
                paired += 1
                let report = reports[match], crossing = crossings[group.range.lowerBound + k]
                let at = distanceAtDecision ? report.decidedAt ?? report.time : report.time
                outcomes.set(
                    run: run, crossing: group.range.lowerBound + k,
                    delay: (report.time - crossing.time).seconds,
                    distance: truth.at(at, device: key.device, region: key.region) ?? .nan,
                    lag: (report.time - (report.decidedAt ?? report.time)).seconds)
            }
            if let k = Self.kinds.firstIndex(of: key.kind) { outcomes.spurious[run][k] += reports.count - paired }
        }
    }

    /// The events of one simulated run, as reports (enter and exit only).
    static func reports(_ events: [GeofenceEvent]) -> [Report] {
        events.filter { kinds.contains($0.kind) }.map {
            Report(key: Key(device: $0.device, region: $0.region, kind: $0.kind), time: $0.time, decidedAt: $0.detectedAt)
        }
    }

    /// A field log's enter and exit events, as reports, each key's in time order.
    static func reports(_ log: ObservedLog) -> [Report] {
        log.events.filter { kinds.contains($0.kind) }.sorted { $0.time < $1.time }.map {
            Report(key: Key(device: $0.device, region: $0.region, kind: $0.kind), time: $0.time, decidedAt: $0.detectedAt)
        }
    }
}

/// What happened to each true crossing in each of `runs` runs (a field log is one run): reported or
/// missed, the delay (reported time − crossing, seconds), the true distance from the boundary when the
/// phone decided (metres, NaN when unknown), the delivery lag (time − detectedAt, seconds); and the
/// spurious events per run and kind. Flat arrays, run-major: entry r × crossings + c.
public struct CrossingOutcomes: Sendable {
    public let crossings: Int
    public let runs: Int
    public var detected: [Bool]
    public var delay: [Double]
    public var distance: [Double]
    public var lag: [Double]
    /// Per run, per kind of `TrueCrossings.kinds`.
    public var spurious: [[Int]]

    init(crossings: Int, runs: Int) {
        self.crossings = crossings
        self.runs = runs
        detected = Array(repeating: false, count: crossings * runs)
        delay = Array(repeating: .nan, count: crossings * runs)
        distance = Array(repeating: .nan, count: crossings * runs)
        lag = Array(repeating: .nan, count: crossings * runs)
        spurious = Array(repeating: Array(repeating: 0, count: TrueCrossings.kinds.count), count: runs)
    }

    mutating func set(run: Int, crossing: Int, delay: Double, distance: Double, lag: Double) {
        let i = run * crossings + crossing
        detected[i] = true
        self.delay[i] = delay
        self.distance[i] = distance
        self.lag[i] = lag
    }
}
