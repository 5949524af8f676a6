import Geofencing
import Time

/// One field of an event on the wire (SEMANTICS §7), in wire order: the order of CSV's columns, the SQLite
/// sink's `events` columns after `run, seq`, and the Spark stage's schema; JSON Lines' keys and GeoJSON's
/// properties (without `lat` and `lon`, its point) follow it too, but for a dwell's `rule` before its
/// `duration` (`keyOrder`). The one list of the event's fields: a field is
/// added here, once; every format reads its name, type, kinds and value from here, and
/// `WireSchemaTests` and its neighbours hold each format to it.
///
/// ```
/// field       type    kinds                        optional
/// time        time    all
/// device      text    all
/// region      text    all
/// kind        text    all
/// lat         number  all                          (null: not finite)
/// lon         number  all
/// distance    number  all
/// crossedAt   time    enter, exit
/// arrival     time    visit
/// departure   time    visit
/// duration    number  visit, dwell                 (seconds)
/// rule        text    dwell
/// detectedAt  time    enter, exit, visit, dwell    yes: only for an event delivered late (revision 3)
/// ```
public enum WireField: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case time, device, region, kind, lat, lon, distance, crossedAt, arrival, departure, duration, rule, detectedAt

    /// `allCases`, made once: a loop over it per event allocates nothing (`allCases` makes its array at
    /// each call).
    public static let all: [WireField] = allCases

    /// How a field's value is written.
    public enum ValueType: Sendable {
        /// An instant, as ISO 8601 text with milliseconds in UTC (`2016-01-10T12:03:05.000Z`).
        case time
        /// A string (ids, the kind's name, the rule's name).
        case text
        /// A JSON number, its shortest form (`null` when not finite); metres, degrees or seconds.
        case number
    }

    /// A field's value in one event, as every format reads it: `absent` where the event's kind does not
    /// carry the field, or an optional field is not written.
    public enum Value: Equatable, Sendable {
        case time(Timestamp)
        case text(String)
        case number(Double)
        case absent
    }

    /// The key, column and property name.
    public var name: String { rawValue }
    public var description: String { rawValue }

    public var type: ValueType {
        switch self {
        case .time, .crossedAt, .arrival, .departure, .detectedAt: return .time
        case .device, .region, .kind, .rule: return .text
        case .lat, .lon, .distance, .duration: return .number
        }
    }

    /// Whether an event of `kind` carries the field. O(1).
    public func isCarried(by kind: GeofenceEvent.Kind) -> Bool {
        switch self {
        case .time, .device, .region, .kind, .lat, .lon, .distance: return true
        case .crossedAt: return kind == .enter || kind == .exit
        case .arrival, .departure: return kind == .visit
        case .duration: return kind == .visit || kind == .dwell
        case .rule: return kind == .dwell
        case .detectedAt: return kind == .enter || kind == .exit || kind == .visit || kind == .dwell
        }
    }

    /// Whether an event of a kind that carries the field may leave it out: `detectedAt`, written only for an
    /// event delivered late (`WireRecord.writtenDetectedAt`). The others are always there for their kinds.
    public var isOptional: Bool { self == .detectedAt }

    /// The SEMANTICS revision that added the field to the wire (the SQLite sink's migrations add the
    /// columns of each revision after the first).
    public var revision: Int { self == .detectedAt ? 3 : 1 }

    /// Whether the field is written for every event: every kind carries it and it is not optional. A
    /// number is not (it may be `null`).
    public var isAlwaysWritten: Bool {
        type != .number && !isOptional && GeofenceEvent.Kind.allCases.allSatisfy(isCarried(by:))
    }

    /// JSON Lines' key order (and GeoJSON's properties'): the table's, but a dwell's `rule` before its
    /// `duration`, as revision 1 wrote them (CSV's and SQLite's columns keep the table's order).
    public static let keyOrder: [WireField] = {
        var order = allCases.filter { $0 != .rule }
        order.insert(.rule, at: order.firstIndex(of: .duration) ?? order.endIndex)
        return order
    }()

    /// The fields an event of `kind` carries, in JSON Lines' key order (`keyOrder`), the optional ones
    /// included or not. O(fields).
    public static func keys(of kind: GeofenceEvent.Kind, includingOptional: Bool = true) -> [WireField] {
        keyOrder.filter { $0.isCarried(by: kind) && (includingOptional || !$0.isOptional) }
    }

    /// The field's value in `event` (`absent` where the kind does not carry it, or `detectedAt` is not
    /// set: `WireEvent(_:)` keeps it only where it is written). O(1); inlinable, so that a writer's loop
    /// over the fields in another module (the SQLite sink's rows) makes no call per field.
    @inlinable
    public func value(of event: WireEvent) -> Value {
        switch self {
        case .time: return .time(event.time)
        case .device: return .text(event.device)
        case .region: return .text(event.region)
        case .kind: return .text(event.kind.description)
        case .lat: return .number(event.lat)
        case .lon: return .number(event.lon)
        case .distance: return .number(event.distance)
        case .crossedAt: return event.crossedAt.map(Value.time) ?? .absent
        case .arrival: return event.arrival.map(Value.time) ?? .absent
        case .departure: return event.departure.map(Value.time) ?? .absent
        case .duration: return event.duration.map { .number($0.seconds) } ?? .absent
        case .rule: return event.rule.map(Value.text) ?? .absent
        case .detectedAt: return event.detectedAt.map(Value.time) ?? .absent
        }
    }

    /// Whether `a` and `b` hold the same value of this field, NaN (`null`) equal to NaN. O(1).
    public func same(_ a: WireEvent, _ b: WireEvent) -> Bool {
        switch (value(of: a), value(of: b)) {
        case let (.number(x), .number(y)): return x == y || (x.isNaN && y.isNaN)
        case let (x, y): return x == y
        }
    }
}
