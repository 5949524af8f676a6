import Foundation

/// An IANA time zone (`Europe/Madrid`) from the system's tz database, for times written without a zone
/// (a scenario's `timezone:`) and for times shown to people (`--timezone`). Files stay UTC (SEMANTICS §7).
public struct LocalTimeZone: Sendable, Hashable, CustomStringConvertible {
    /// The IANA name, as given.
    public let identifier: String
    private let zone: TimeZone

    /// The zone named `identifier`, or nil when the tz database has no such name.
    public init?(identifier: String) {
        guard identifier.contains("/") || identifier == "UTC" || identifier == "GMT",
            let zone = TimeZone(identifier: identifier)
        else { return nil }
        self.identifier = identifier
        self.zone = zone
    }

    public var description: String { identifier }

    /// The zone's offset from UTC at `instant`, in seconds (east positive). O(log transitions).
    public func secondsFromUTC(at instant: Timestamp) -> Int64 {
        let seconds = Double(floorDiv(instant.microsecondsSince1970, 1_000_000))
        return Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
    }

    /// `instant` as this zone's clocks show it: microseconds since 1970 as if that wall-clock time were
    /// UTC, for formatting with the UTC writers (`iso8601`). O(log transitions).
    public func wallClock(_ instant: Timestamp) -> Timestamp {
        Timestamp(microsecondsSince1970: instant.microsecondsSince1970 + secondsFromUTC(at: instant) * 1_000_000)
    }

    /// The instant at which clocks in this zone read `local` (a wall-clock time, given as microseconds
    /// since 1970 as if it were UTC): `reading(fromLocal:)`'s instant. O(1) look-ups.
    public func instant(fromLocal local: Int64) -> Timestamp { reading(fromLocal: local).instant }

    /// How the zone's clocks read `local` (microseconds since 1970 as if it were UTC): the instant they
    /// show it, and whether they skip it or show it twice. In an overlap (clocks turned back) the earlier
    /// of the two instants; in a gap (clocks turned forward) the first instant after it, so that 02:30 on a
    /// night that skips from 02:00 to 03:00 is 03:00 (Noda Time's "start of the interval after"). Wall-clock
    /// times in order are then instants in order: a table's rows written in local time across a gap keep
    /// their order. O(1) look-ups; in a gap, O(log of its length) more.
    public func reading(fromLocal local: Int64) -> LocalReading {
        func at(_ offset: Int64) -> Int64 { local - offset * 1_000_000 }
        let first = secondsFromUTC(at: Timestamp(microsecondsSince1970: local))
        var candidates: [Int64] = []
        for offset in [first, secondsFromUTC(at: Timestamp(microsecondsSince1970: at(first)))] {
            let utc = at(offset)
            if secondsFromUTC(at: Timestamp(microsecondsSince1970: utc)) == offset { candidates.append(utc) }
            // The other side of a transition near it, before or after (west of Greenwich the first guess
            // falls before it): an overlap has a second reading.
            for side: Int64 in [-3 * 3_600_000_000, 3 * 3_600_000_000] {
                let other = secondsFromUTC(at: Timestamp(microsecondsSince1970: utc + side))
                if other != offset, secondsFromUTC(at: Timestamp(microsecondsSince1970: at(other))) == other {
                    candidates.append(at(other))
                }
            }
        }
        if let earliest = candidates.min(), let latest = candidates.max() {
            let change: LocalReading.Change? = latest > earliest ? .repeated(laterBy: latest - earliest) : nil
            return LocalReading(instant: Timestamp(microsecondsSince1970: earliest), change: change)
        }
        // A gap: read with the offset in force before it, `local` is at or after the transition, and
        // three hours before that is before it; the transition lies between, to the second.
        let before = secondsFromUTC(at: Timestamp(microsecondsSince1970: at(first) - 3 * 3_600_000_000))
        var after = floorDiv(at(before), 1_000_000), earlier = after - 3 * 3_600
        guard secondsFromUTC(at: Timestamp(microsecondsSince1970: earlier * 1_000_000)) == before else {
            return LocalReading(instant: Timestamp(microsecondsSince1970: at(before)), change: .skipped)
        }
        while after - earlier > 1 {
            let middle = earlier + (after - earlier) / 2
            if secondsFromUTC(at: Timestamp(microsecondsSince1970: middle * 1_000_000)) == before {
                earlier = middle
            } else {
                after = middle
            }
        }
        return LocalReading(instant: Timestamp(microsecondsSince1970: after * 1_000_000), change: .skipped)
    }
}

/// How a zone's clocks read a wall-clock time written without a zone (`LocalTimeZone.reading(fromLocal:)`):
/// the instant taken, and whether the clocks skip that time or show it twice, for the warning that says so.
public struct LocalReading: Sendable, Hashable {
    /// A wall-clock time the clocks do not show once.
    public enum Change: Sendable, Hashable {
        /// In a gap (clocks turned forward): read as the first instant after it.
        case skipped
        /// In an overlap (clocks turned back): read as the first of the two instants; the second is
        /// `laterBy` microseconds after it.
        case repeated(laterBy: Int64)
    }

    public var instant: Timestamp
    /// Nil when the clocks show the time once.
    public var change: Change?

    public init(instant: Timestamp, change: Change?) {
        self.instant = instant
        self.change = change
    }
}
