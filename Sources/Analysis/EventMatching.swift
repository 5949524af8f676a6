import Geodesy
import Geofencing
import Time

/// One event of the reference run and what the profile made of it: the profile's time, or nil (missed).
public struct EventPair: Hashable, Sendable {
    public var key: EventKey
    /// The reference event's time.
    public var reference: Timestamp
    /// The paired profile event's time; nil when the reference event was missed.
    public var profile: Timestamp?
    /// When the phone decided the paired profile event (its `detectedAt`, SEMANTICS §7 revision 3), when it
    /// was delivered later than that; the true distance is measured then.
    public var decidedAt: Timestamp?
    /// The true signed distance from the boundary when the phone decided the profile event (`decidedAt`,
    /// else `profile`), in metres (negative inside), on the exact track (`TrueDistance`); nil when missed,
    /// not measured, or outside the track's segments.
    public var distance: Meters?

    public init(
        key: EventKey, reference: Timestamp, profile: Timestamp?, decidedAt: Timestamp? = nil,
        distance: Meters? = nil
    ) {
        self.key = key
        self.reference = reference
        self.profile = profile
        self.decidedAt = decidedAt
        self.distance = distance
    }

    /// Profile time − reference time (positive: the profile was late); nil when missed.
    public var delay: TimeSpan? { profile.map { $0 - reference } }
}

/// A profile event with no reference event to pair with.
public struct UnpairedEvent: Hashable, Sendable {
    public var key: EventKey
    public var time: Timestamp
    /// When the phone decided it, when delivered later (`detectedAt`).
    public var decidedAt: Timestamp?
    /// The true signed distance from the boundary when it was decided, in metres (negative inside); nil
    /// when not measured.
    public var distance: Meters?

    public init(key: EventKey, time: Timestamp, decidedAt: Timestamp? = nil, distance: Meters? = nil) {
        self.key = key
        self.time = time
        self.decidedAt = decidedAt
        self.distance = distance
    }
}

/// The pairing of a profile run's events with a reference run's, as `perimeter compare` does it.
///
/// Per key (device, region, kind, and the rule for `dwell`), for `enter`, `exit` and `dwell` only: the
/// one-to-one, order-preserving alignment of least cost Σ|Δt| + window × unpaired, pairs at most `window`
/// apart, ties to the earliest profile event (`EventAlignment`). Unpaired reference events are missed;
/// unpaired profile events are spurious.
public struct EventMatching: Sendable {
    /// The kinds that are matched.
    public static let kinds: [GeofenceEvent.Kind] = [.enter, .exit, .dwell]

    /// One per reference event of a matched kind, in the reference's order (SEMANTICS §7).
    public var pairs: [EventPair]
    /// The profile's unpaired events, in its order.
    public var spurious: [UnpairedEvent]

    /// Pairs `profile`'s events with `reference`'s; both in SEMANTICS §7 order (time ascending).
    /// O(n + m) for keys whose events are more than `window` apart; O(n_b · m_b) for a block of events of
    /// one key each within `window` of the next.
    public init(reference: [GeofenceEvent], profile: [GeofenceEvent], window: TimeSpan) {
        // Each key's times and positions in its log, ascending.
        struct Side {
            var times: [Int64] = []
            var positions: [Int] = []
        }
        /// Each event's key (nil for kinds not matched), and each key's times and positions.
        func sides(_ log: [GeofenceEvent]) -> ([EventKey?], [EventKey: Side]) {
            var keys: [EventKey?] = [], sides: [EventKey: Side] = [:]
            keys.reserveCapacity(log.count)
            for (position, event) in log.enumerated() {
                guard Self.kinds.contains(event.kind) else { keys.append(nil); continue }
                let key = EventKey(event)
                keys.append(key)
                sides[key, default: Side()].times.append(event.time.microsecondsSince1970)
                sides[key, default: Side()].positions.append(position)
            }
            return (keys, sides)
        }
        let (referenceKeys, referenceSides) = sides(reference), (profileKeys, profileSides) = sides(profile)
        // Each reference position's paired profile position; which profile positions are paired.
        var partner = [Int?](repeating: nil, count: reference.count)
        var paired = [Bool](repeating: false, count: profile.count)
        for (key, side) in referenceSides {
            guard let other = profileSides[key] else { continue }
            let aligned = EventAlignment.align(reference: side.times, profile: other.times, window: window.microseconds)
            for (k, match) in aligned.enumerated() {
                guard let match else { continue }
                partner[side.positions[k]] = other.positions[match]
                paired[other.positions[match]] = true
            }
        }
        pairs = []
        for (position, event) in reference.enumerated() {
            guard let key = referenceKeys[position] else { continue }
            pairs.append(
                EventPair(
                    key: key, reference: event.time, profile: partner[position].map { profile[$0].time },
                    decidedAt: partner[position].flatMap { profile[$0].detectedAt }))
        }
        spurious = []
        for (position, event) in profile.enumerated() where !paired[position] {
            guard let key = profileKeys[position] else { continue }
            spurious.append(UnpairedEvent(key: key, time: event.time, decidedAt: event.detectedAt))
        }
    }

    /// The counts and delays of one kind.
    public func tally(_ kind: GeofenceEvent.Kind) -> KindTally {
        let delays = pairs.filter { $0.key.kind == kind }.compactMap(\.delay).sorted()
        return KindTally(
            paired: delays.count,
            missed: pairs.filter { $0.key.kind == kind && $0.profile == nil }.count,
            spurious: spurious.filter { $0.key.kind == kind }.count, delays: delays,
            distances: distances(kind))
    }
}

/// What happened to the events of one kind: paired, missed, spurious, the delays of the paired, and the
/// true distances (metres) of the paired and spurious profile events.
public struct KindTally: Hashable, Sendable {
    public var paired: Int
    public var missed: Int
    public var spurious: Int
    /// The delays of the paired events, ascending.
    public var delays: [TimeSpan]
    /// The true signed distances of the profile's paired and spurious events that were measured, ascending.
    public var distances: [Meters]

    public init(paired: Int = 0, missed: Int = 0, spurious: Int = 0, delays: [TimeSpan] = [], distances: [Meters] = []) {
        self.paired = paired
        self.missed = missed
        self.spurious = spurious
        self.delays = delays
        self.distances = distances
    }

    /// Nearest-rank median and 90th percentile of the true distances, in metres; nil when none was measured.
    public var distanceMedian: Meters? { NearestRank.percentile(50, of: distances) }
    public var distanceP90: Meters? { NearestRank.percentile(90, of: distances) }

    /// Nearest-rank median, 90th percentile and maximum of the delays; nil when none was paired.
    public var median: TimeSpan? { NearestRank.percentile(50, of: delays) }
    public var p90: TimeSpan? { NearestRank.percentile(90, of: delays) }
    public var max: TimeSpan? { delays.last }
}
