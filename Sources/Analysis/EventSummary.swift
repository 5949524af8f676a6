import Geofencing
import ReadableText
import Time
import WireFormat

/// What `perimeter summarize` groups events by (`--by`, repeatable, in the order given).
public enum SummaryKey: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The event's `region` id.
    case region
    /// The event's `device` id.
    case device
    /// The event's `time` floored to the hour on the summary's clocks.
    case hour
    /// The event's `time` floored to the day (its date) on the summary's clocks.
    case day

    public var description: String { rawValue }
}

/// The analyst's summary of an event log (`perimeter summarize`): per group of the keys given, the counts
/// of enter, exit, dwell and visit events and the visit durations' p50, p90 and max. `monitor-start`,
/// `monitor-stop` and `monitor-failed` events are not counted and make no group: they say when a region
/// was watched, not what a device did. Every event is grouped by its own `time` (the time it was
/// delivered, SEMANTICS §7: a visit's is its exit's, not its arrival); a visit's duration is its
/// `duration` field, in seconds (departure − arrival, decision times). Percentiles are by nearest rank
/// (`NearestRank`) over the group's visits. Groups are sorted by their keys in the order given: ids by
/// their UTF-8 bytes, hours and days ascending. O(events · log events).
public struct EventSummary: Sendable {
    /// The keys, in the order given; none: one group of every event.
    public let keys: [SummaryKey]
    /// The clocks hours and days are read on (nil: UTC).
    public let zone: LocalTimeZone?
    /// The groups, sorted by their keys.
    public let groups: [SummaryGroup]
    /// The events counted (enter, exit, dwell, visit), and those left out (monitor-*).
    public let counted: Int, notCounted: Int

    /// Groups `events` by `keys`, hours and days on `zone`'s clocks (nil: UTC).
    public init(_ events: [WireEvent], by keys: [SummaryKey], zone: LocalTimeZone?) {
        self.keys = keys
        self.zone = zone
        var tallies: [[GroupValue]: Tally] = [:]
        var counted = 0
        for event in events where Tally.counts(event.kind) {
            counted += 1
            tallies[keys.map { GroupValue(of: event, by: $0, zone: zone) }, default: Tally()].add(event)
        }
        if keys.isEmpty && tallies.isEmpty { tallies[[]] = Tally() }
        self.groups = tallies.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { SummaryGroup(key: $0, $1) }
        self.counted = counted
        self.notCounted = events.count - counted
    }
}

/// One group of a summary: its key (a value per `--by` key) and what happened in it.
public struct SummaryGroup: Sendable, Hashable {
    /// The group's value of each key, in the summary's order of keys.
    public let key: [GroupValue]
    /// Events of each kind counted.
    public let enters: Int, exits: Int, dwells: Int, visits: Int
    /// The visits' durations' nearest-rank p50 and p90, and the longest; nil without visits.
    public let visitP50: TimeSpan?, visitP90: TimeSpan?, visitMax: TimeSpan?

    fileprivate init(key: [GroupValue], _ tally: Tally) {
        self.key = key
        (enters, exits, dwells, visits) = (tally.enters, tally.exits, tally.dwells, tally.durations.count)
        let sorted = tally.durations.sorted()
        visitP50 = NearestRank.percentile(50, of: sorted)
        visitP90 = NearestRank.percentile(90, of: sorted)
        visitMax = sorted.last
    }
}

/// A group's value of one key: an id, an hour (its first instant and the clocks' offset then) or a day
/// (days since 1970-01-01 on the clocks). Values of one key compare as the groups are sorted.
public enum GroupValue: Sendable, Hashable, Comparable, CustomStringConvertible {
    case id(String)
    case hour(start: Timestamp, offsetSeconds: Int64?)
    case day(Int64)

    static let hourMicros: Int64 = 3_600_000_000, dayMicros: Int64 = 86_400_000_000

    /// `event`'s value of `key`: its hour or day is its `time` on `zone`'s clocks (the zone's offset at
    /// that instant: in the hour clocks are turned back, the two hours 01:00 are two groups).
    init(of event: WireEvent, by key: SummaryKey, zone: LocalTimeZone?) {
        let offset = zone?.secondsFromUTC(at: event.time)
        let local = event.time.microsecondsSince1970 + (offset ?? 0) * 1_000_000
        switch key {
        case .region: self = .id(event.region)
        case .device: self = .id(event.device)
        case .hour:
            let start = floorDiv(local, Self.hourMicros) * Self.hourMicros - (offset ?? 0) * 1_000_000
            self = .hour(start: Timestamp(microsecondsSince1970: start), offsetSeconds: offset)
        case .day: self = .day(floorDiv(local, Self.dayMicros))
        }
    }

    /// Ids by their UTF-8 bytes, hours and days ascending.
    public static func < (a: GroupValue, b: GroupValue) -> Bool {
        switch (a, b) {
        case let (.id(x), .id(y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
        case let (.hour(x, _), .hour(y, _)): return x < y
        case let (.day(x), .day(y)): return x < y
        default: return a.order < b.order
        }
    }

    private var order: Int {
        switch self {
        case .id: return 0
        case .hour: return 1
        case .day: return 2
        }
    }

    /// The id; an hour as ISO 8601 on the clocks with their offset (`2024-05-01T09:00:00Z` in UTC,
    /// `2024-05-01T11:00:00+02:00` on a zone's); a day as its date (`2024-05-01`).
    public var description: String {
        switch self {
        case let .id(text): return text
        case let .hour(start, offset):
            let wall = Timestamp(microsecondsSince1970: start.microsecondsSince1970 + (offset ?? 0) * 1_000_000)
            return String(wall.iso8601.prefix(19)) + (offset.map(Readable.offset) ?? "Z")
        case let .day(days):
            return String(Timestamp(microsecondsSince1970: days * Self.dayMicros).iso8601.prefix(10))
        }
    }
}

/// A group's counts as they are added up.
private struct Tally {
    var enters = 0, exits = 0, dwells = 0
    var durations: [TimeSpan] = []

    /// Whether events of `kind` are counted: enter, exit, dwell and visit.
    static func counts(_ kind: GeofenceEvent.Kind) -> Bool {
        kind == .enter || kind == .exit || kind == .dwell || kind == .visit
    }

    mutating func add(_ event: WireEvent) {
        switch event.kind {
        case .enter: enters += 1
        case .exit: exits += 1
        case .dwell: dwells += 1
        case .visit: durations.append(event.duration ?? .zero)
        case .monitorStart, .monitorStop, .monitorFailed: break
        }
    }
}
