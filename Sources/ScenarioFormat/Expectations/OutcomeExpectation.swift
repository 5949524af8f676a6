import Geofencing

/// What a device can get in a run (SEMANTICS "Outcomes"): a dwell rule, by its name, or a region's
/// enter or visit.
public enum OutcomeKey: Hashable, Sendable, CustomStringConvertible {
    case rule(String)
    /// `kind` is `.enter` or `.visit`.
    case region(String, kind: GeofenceEvent.Kind)

    /// A scenario's outcomes, in this order: each dwell rule as declared, then each region as declared,
    /// its enter then its visit. O(rules + regions).
    public static func all(rules: [DwellRule], regions: [Region]) -> [OutcomeKey] {
        rules.map { .rule($0.name) } + regions.flatMap { [.region($0.id, kind: .enter), .region($0.id, kind: .visit)] }
    }

    /// `rule "coupon"`, `enter cafe`, `visit cafe`.
    public var description: String {
        switch self {
        case let .rule(name): return "rule \"\(name)\""
        case let .region(id, kind): return "\(kind) \(id)"
        }
    }
}

/// An `outcome:` entry of a scenario's `expect:` list, decoded: over the Monte Carlo batch of `runs: N`
/// (under the scenario's profile), the share of runs in which the number of devices that got the outcome
/// (SEMANTICS "Outcomes") lies within `devices` must lie within `probability`. `perimeter check`
/// (`Regression`) evaluates it.
///
/// ```yaml
/// expect:
///   - outcome: {rule: coupon, devices: {atLeast: 10}, probability: ">= 0.9"}
///   - outcome: {region: chiado, kind: enter, devices: {exactly: 5}, probability: {atLeast: 0.5}}
/// ```
public struct OutcomeExpectation: Hashable, Sendable {
    public var key: OutcomeKey
    /// How many devices (distinct, in one run) may get it.
    public var devices: CountBounds
    /// The share of runs in which the count lies within `devices`.
    public var probability: ProbabilityBounds

    /// `id:` beside `outcome:`: a name for its JUnit testcase that outlives edits around it; nil when not
    /// given.
    public var id: String? = nil

    /// Where it was written: the scenario file, `expect[2].outcome`, and the 1-based line and column (0
    /// when built in code).
    public var file: String
    public var keyPath: String
    public var line: Int
    public var column: Int

    public init(
        key: OutcomeKey, devices: CountBounds, probability: ProbabilityBounds, file: String = "",
        keyPath: String = "", line: Int = 0, column: Int = 0
    ) {
        self.key = key
        self.devices = devices
        self.probability = probability
        self.file = file
        self.keyPath = keyPath
        self.line = line
        self.column = column
    }

    /// `at least 10 devices get rule "coupon"`.
    public var statement: String {
        "\(devices.phrase) device\(devices.isPlural ? "s" : "") \(devices.isPlural ? "get" : "gets") \(key)"
    }

    /// `expect[2].outcome, line 14` (or the key path alone for one built in code).
    public var placeDescription: String { line > 0 ? "\(keyPath), line \(line)" : keyPath }
}
