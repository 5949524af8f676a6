import Geodesy
import Time

/// One thing a device's monitor reported (SEMANTICS §7). A typed value: formatting lives in the sinks.
public struct GeofenceEvent: Hashable, Sendable {
    /// The kinds, in the order in which events of one device at one time are emitted (SEMANTICS §7).
    public enum Kind: Int, Hashable, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        case monitorStop, monitorFailed, monitorStart, exit, visit, enter, dwell

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

        /// The wire name: `monitor-stop`, `enter`, … (as text known at compile time, which a writer copies
        /// in place: `description` is the same as a `String`).
        public var name: StaticString {
            switch self {
            case .monitorStop: return "monitor-stop"
            case .monitorFailed: return "monitor-failed"
            case .monitorStart: return "monitor-start"
            case .exit: return "exit"
            case .visit: return "visit"
            case .enter: return "enter"
            case .dwell: return "dwell"
            }
        }

        /// The wire name (`name`).
        public var description: String { name.description }

        public init?(name: String) {
            guard let kind = Kind.allCases.first(where: { $0.description == name }) else { return nil }
            self = kind
        }
    }

    /// What each kind carries beyond the common fields.
    public enum Detail: Hashable, Sendable {
        case monitorStop, monitorFailed, monitorStart
        case exit(crossedAt: Timestamp)
        case visit(arrival: Timestamp, departure: Timestamp)
        case enter(crossedAt: Timestamp)
        /// `ruleIndex` is the rule's position in the scenario, for ordering.
        case dwell(rule: String, ruleIndex: Int, duration: TimeSpan)
    }

    /// The sample's time; with a delivery delay, when the app hears it (`detectedAt` is the sample's).
    public var time: Timestamp
    public var device: String
    public var region: String
    /// The region's position in declaration order, for ordering.
    public var regionIndex: Int
    /// The sample's position.
    public var coordinate: Coordinate
    /// The sample's signed distance to the region, in metres (negative inside).
    public var distance: Meters
    public var detail: Detail
    /// When the phone decided it, for an event delivered late (SEMANTICS §7 "Delivery", revision 3); nil
    /// when there is no delay (`time` is then the decision time).
    public var detectedAt: Timestamp?

    public init(
        time: Timestamp, device: String, region: String, regionIndex: Int, coordinate: Coordinate,
        distance: Meters, detail: Detail, detectedAt: Timestamp? = nil
    ) {
        self.detectedAt = detectedAt
        self.time = time
        self.device = device
        self.region = region
        self.regionIndex = regionIndex
        self.coordinate = coordinate
        self.distance = distance
        self.detail = detail
    }

    public var kind: Kind {
        switch detail {
        case .monitorStop: return .monitorStop
        case .monitorFailed: return .monitorFailed
        case .monitorStart: return .monitorStart
        case .exit: return .exit
        case .visit: return .visit
        case .enter: return .enter
        case .dwell: return .dwell
        }
    }

    /// When the crossing began, for `enter` and `exit`.
    public var crossedAt: Timestamp? {
        switch detail {
        case let .enter(t), let .exit(t): return t
        default: return nil
        }
    }

    /// The stay's enter time, for `visit`.
    public var arrival: Timestamp? {
        if case let .visit(arrival, _) = detail { return arrival }
        return nil
    }

    /// The stay's exit time, for `visit`.
    public var departure: Timestamp? {
        if case let .visit(_, departure) = detail { return departure }
        return nil
    }

    /// The stay's length for `visit`, the time inside for `dwell`.
    public var duration: TimeSpan? {
        switch detail {
        case let .visit(arrival, departure): return departure - arrival
        case let .dwell(_, _, duration): return duration
        default: return nil
        }
    }

    /// The dwell rule's name, for `dwell`.
    public var rule: String? {
        if case let .dwell(rule, _, _) = detail { return rule }
        return nil
    }

    /// The total order of SEMANTICS §7: time, device id (UTF-8 bytes), decision time, kind, region index, rule order.
    public static func precedes(_ a: GeofenceEvent, _ b: GeofenceEvent) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.device != b.device { return a.device.utf8.lexicographicallyPrecedes(b.device.utf8) }
        let decidedA = a.detectedAt ?? a.time, decidedB = b.detectedAt ?? b.time
        if decidedA != decidedB { return decidedA < decidedB }  // delivered together: in the order decided
        if a.kind != b.kind { return a.kind < b.kind }
        if a.regionIndex != b.regionIndex { return a.regionIndex < b.regionIndex }
        return a.ruleIndex < b.ruleIndex
    }

    var ruleIndex: Int {
        if case let .dwell(_, index, _) = detail { return index }
        return -1
    }
}
