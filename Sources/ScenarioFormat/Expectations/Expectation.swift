import Geofencing
import Time

/// One entry of a scenario's `expect:` list, decoded: which events it is about and what must hold of
/// them. `perimeter check` (the `Regression` module) evaluates it against a run's events.
///
/// ```yaml
/// expect:
///   - {kind: enter, device: phone, region: lorrenzillos, at: "12:01:57", within: 30s}  # an event near a time
///   - {kind: exit, region: lorrenzillos, between: ["12:04:00", "12:06:00"]}          # an event in a window
///   - {kind: dwell, rule: Thanks for visiting, count: 1}                              # exactly N events
///   - {kind: dwell, rule: Thanks for visiting, count: {atLeast: 1}}                   # N or more (or at most M)
///   - {kind: enter, region: pizzeria, never: true}                                    # no such event
///   - {kind: dwell, region: lorrenzillos, after: {atMost: 3m}}                        # first one ≤ 3 min after the start
///   - {kind: dwell, rule: welcome, after: {atMost: 1m, since: enter}}                 # ≤ 1 min after its enter
///   - {kind: enter, region: cafe, between: ["12:01:00", "12:03:00"], probability: {atLeast: 0.9}}
/// ```
///
/// `delay:` and `distance:` measure the first matching event of each run (`ExpectationMeasure`).
///
/// With `probability`, the condition is evaluated on each run of the Monte Carlo batch that the scenario's
/// `runs: N` declares, and the share of runs in which it holds must lie within the bounds.
///
/// An event matches when its kind is `kind` and, for each of `device`, `region` and `rule` that is set,
/// its field is equal to it (`rule` only exists on `dwell` events).
public struct EventExpectation: Hashable, Sendable {
    /// What must hold of the matching events.
    public enum Condition: Hashable, Sendable {
        /// `at: T, within: W`: some matching event has |time − T| ≤ W.
        case at(Timestamp, within: TimeSpan)
        /// `between: [A, B]` alone: some matching event has A ≤ time ≤ B.
        case between(TimeWindow)
        /// `count: N` or `count: {atLeast: N, atMost: M}`, optionally with `between`: how many matching
        /// events (in the window, when given).
        case count(CountBounds, in: TimeWindow?)
        /// `never: true`, optionally with `between`: no matching event (in the window, when given).
        case never(in: TimeWindow?)
        /// `after: {atLeast, atMost}`: the first matching event's time minus the clock's start lies in
        /// [atLeast, atMost] (either bound may be absent, not both).
        case after(atLeast: TimeSpan?, atMost: TimeSpan?)
        /// `after: {atLeast, atMost, since: KIND}`: the first matching event's time minus that of the
        /// last event of kind KIND before it, of the same device and region, lies in [atLeast, atMost]
        /// ("the welcome comes within 3 minutes of the enter").
        case since(GeofenceEvent.Kind, atLeast: TimeSpan?, atMost: TimeSpan?)

        /// `count: N`: exactly N matching events.
        public static func count(_ n: Int, in window: TimeWindow?) -> Condition { .count(.exactly(n), in: window) }
    }

    public var kind: GeofenceEvent.Kind
    public var device: String?
    public var region: String?
    /// A dwell rule's name; only with `kind: dwell`.
    public var rule: String?
    public var condition: Condition
    /// `probability: {atLeast, atMost}`: the share of Monte Carlo runs in which `condition` holds; nil
    /// for an expectation of the one plain run.
    public var probability: ProbabilityBounds?
    /// `delay:` and `distance:`: quantities measured on the first matching event of each Monte Carlo run,
    /// with bounds on their statistics over the runs (`ExpectationMeasure`).
    public var measures: [ExpectationMeasure]

    /// `id:`: a name the expectation keeps when lines move or expectations are added before it (its
    /// JUnit testcase is named by it, `CheckCase`); nil when not given.
    public var id: String? = nil

    /// Where it was written: the scenario file, `expect[2]`, and the 1-based line and column (0 when
    /// the expectation was built in code).
    public var file: String
    public var keyPath: String
    public var line: Int
    public var column: Int

    public init(
        kind: GeofenceEvent.Kind, device: String? = nil, region: String? = nil, rule: String? = nil,
        condition: Condition, probability: ProbabilityBounds? = nil, measures: [ExpectationMeasure] = [],
        file: String = "", keyPath: String = "", line: Int = 0, column: Int = 0
    ) {
        self.measures = measures
        self.kind = kind
        self.device = device
        self.region = region
        self.rule = rule
        self.condition = condition
        self.probability = probability
        self.file = file
        self.keyPath = keyPath
        self.line = line
        self.column = column
    }
}

/// A closed interval of time, both ends included.
public struct TimeWindow: Hashable, Sendable {
    public var start: Timestamp
    public var end: Timestamp

    public init(_ start: Timestamp, _ end: Timestamp) {
        self.start = start
        self.end = end
    }

    public func contains(_ time: Timestamp) -> Bool { start <= time && time <= end }
}

/// A closed range with either end open: `{atLeast, atMost}` of an expectation, both ends included, at
/// least one set. `count:` bounds a number of events, `probability:` a share of runs from 0 to 1.
public struct Bounds<Value: Comparable & Hashable & Sendable>: Hashable, Sendable {
    public var atLeast: Value?
    public var atMost: Value?

    public init(atLeast: Value? = nil, atMost: Value? = nil) {
        self.atLeast = atLeast
        self.atMost = atMost
    }

    public func contains(_ value: Value) -> Bool {
        (atLeast.map { value >= $0 } ?? true) && (atMost.map { value <= $0 } ?? true)
    }

    /// `0.5` (both ends equal), `between 0.4 and 0.6`, `at least 0.9`, `at most 0.1`.
    public var phrase: String {
        switch (atLeast, atMost) {
        case let (l?, m?) where l == m: return "\(l)"
        case let (l?, m?): return "between \(l) and \(m)"
        case let (l?, nil): return "at least \(l)"
        case let (nil, m?): return "at most \(m)"
        case (nil, nil): return "any"
        }
    }
}

/// The bounds of a share of runs, from 0 to 1.
public typealias ProbabilityBounds = Bounds<Double>

/// How many events an expectation allows: exactly N (`count: N`), or a range (`count: {atLeast: 1}`: "the
/// welcome fires").
public typealias CountBounds = Bounds<Int>

extension Bounds where Value == Int {
    /// `count: N`.
    public static func exactly(_ n: Int) -> CountBounds { CountBounds(atLeast: n, atMost: n) }

    /// Whether the noun after `phrase` is plural: `1 dwell`, `at least 1 dwell`, `at most 2 dwells`.
    public var isPlural: Bool {
        switch (atLeast, atMost) {
        case let (l?, m?): return l != m || l != 1
        case let (l?, nil): return l != 1
        case let (nil, m?): return m != 1
        case (nil, nil): return true
        }
    }
}
