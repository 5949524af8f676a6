import Geofencing

/// What makes two events "the same event" across runs: device, region, kind and, for `dwell`, the rule.
public struct EventKey: Hashable, Sendable {
    public var device: String
    public var region: String
    public var kind: GeofenceEvent.Kind
    /// The dwell rule's name; nil for every other kind.
    public var rule: String?
    /// The region's and the rule's positions in the scenario, for ordering as SEMANTICS §7 does.
    public var regionIndex: Int
    public var ruleIndex: Int

    public init(_ event: GeofenceEvent) {
        device = event.device
        region = event.region
        kind = event.kind
        rule = event.rule
        regionIndex = event.regionIndex
        if case let .dwell(_, index, _) = event.detail { ruleIndex = index } else { ruleIndex = -1 }
    }

    // Indices follow from the ids; equality and hashing use the ids alone.
    public static func == (a: EventKey, b: EventKey) -> Bool {
        a.device == b.device && a.region == b.region && a.kind == b.kind && a.rule == b.rule
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(device)
        hasher.combine(region)
        hasher.combine(kind)
        hasher.combine(rule)
    }

    /// SEMANTICS §7's order without the time: device id (UTF-8 bytes), kind, region index, rule order.
    public static func precedes(_ a: EventKey, _ b: EventKey) -> Bool {
        if a.device != b.device { return a.device.utf8.lexicographicallyPrecedes(b.device.utf8) }
        if a.kind != b.kind { return a.kind < b.kind }
        if a.regionIndex != b.regionIndex { return a.regionIndex < b.regionIndex }
        return a.ruleIndex < b.ruleIndex
    }
}
