import Geodesy
import Geofencing

/// One event of the reference run and what the profile made of it: the profile's time, or nil (missed).
public struct EventPair: Hashable, Sendable {
    public var key: EventKey
    /// The reference event's time.
    public var reference: Timestamp
    /// The paired profile event's time; nil when the reference event was missed.
    public var profile: Timestamp?

    /// Profile time − reference time (positive: the profile was late); nil when missed.
    public var delay: TimeSpan? { profile.map { $0 - reference } }
}

/// A profile event with no reference event to pair with.
public struct UnpairedEvent: Hashable, Sendable {
    public var key: EventKey
    public var time: Timestamp
}

/// The pairing of a profile run's events with a reference run's, as `perimeter compare` does it.
///
/// Per key (device, region, kind, and the rule for `dwell`), for `enter`, `exit` and `dwell` only: the
/// reference events are taken in time order, and each is paired with the earliest profile event of the
/// same key that is not yet paired and lies within `window` of it, before or after (|Δt| ≤ window).
/// Unpaired reference events are missed; unpaired profile events are spurious.
public struct EventMatching: Sendable {
    /// The kinds that are matched.
    public static let kinds: [GeofenceEvent.Kind] = [.enter, .exit, .dwell]

    /// One per reference event of a matched kind, in the reference's order (SEMANTICS §7).
    public var pairs: [EventPair]
    /// The profile's unpaired events, in its order.
    public var spurious: [UnpairedEvent]

    /// Pairs `profile`'s events with `reference`'s; both in SEMANTICS §7 order (time ascending).
    /// O(n + m) but for profile events skipped over inside one window.
    public init(reference: [GeofenceEvent], profile: [GeofenceEvent], window: TimeSpan) {
        // Each key's profile times, ascending, with whether each is paired; and a cursor before which
        // every time is either paired or too early for any later reference event.
        struct Candidates {
            var times: [Timestamp] = []
            var paired: [Bool] = []
            var cursor = 0
        }
        var candidates: [EventKey: Candidates] = [:]
        for event in profile where Self.kinds.contains(event.kind) {
            candidates[EventKey(event), default: Candidates()].times.append(event.time)
        }
        for key in candidates.keys { candidates[key]!.paired = Array(repeating: false, count: candidates[key]!.times.count) }

        pairs = []
        for event in reference where Self.kinds.contains(event.kind) {
            let key = EventKey(event)
            var match: Timestamp?
            if var c = candidates[key] {
                while c.cursor < c.times.count && (c.paired[c.cursor] || c.times[c.cursor] < event.time - window) {
                    c.cursor += 1
                }
                var i = c.cursor
                while i < c.times.count && c.times[i] <= event.time + window {
                    if !c.paired[i] {
                        c.paired[i] = true
                        match = c.times[i]
                        break
                    }
                    i += 1
                }
                candidates[key] = c
            }
            pairs.append(EventPair(key: key, reference: event.time, profile: match))
        }

        // The unpaired ones, in the profile's order: the n-th event of a key is its n-th time.
        var seen: [EventKey: Int] = [:]
        spurious = []
        for event in profile where Self.kinds.contains(event.kind) {
            let key = EventKey(event)
            let n = seen[key, default: 0]
            seen[key] = n + 1
            if candidates[key]?.paired[n] == false { spurious.append(UnpairedEvent(key: key, time: event.time)) }
        }
    }

    /// The counts and delays of one kind.
    public func tally(_ kind: GeofenceEvent.Kind) -> KindTally {
        let delays = pairs.filter { $0.key.kind == kind }.compactMap(\.delay).sorted()
        return KindTally(paired: delays.count,
                         missed: pairs.filter { $0.key.kind == kind && $0.profile == nil }.count,
                         spurious: spurious.filter { $0.key.kind == kind }.count, delays: delays)
    }
}

/// What happened to the events of one kind: paired, missed, spurious, and the delays of the paired.
public struct KindTally: Hashable, Sendable {
    public var paired: Int
    public var missed: Int
    public var spurious: Int
    /// The delays of the paired events, ascending.
    public var delays: [TimeSpan]

    public init(paired: Int = 0, missed: Int = 0, spurious: Int = 0, delays: [TimeSpan] = []) {
        self.paired = paired
        self.missed = missed
        self.spurious = spurious
        self.delays = delays
    }

    /// Nearest-rank median, 90th percentile and maximum of the delays; nil when none was paired.
    public var median: TimeSpan? { NearestRank.percentile(50, of: delays) }
    public var p90: TimeSpan? { NearestRank.percentile(90, of: delays) }
    public var max: TimeSpan? { delays.last }
}
