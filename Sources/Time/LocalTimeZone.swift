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
    /// since 1970 as if it were UTC). In an overlap (clocks turned back) the earlier of the two instants;
    /// in a gap (clocks turned forward) the time is read with the offset before the gap, so 02:30 on a
    /// night that skips from 02:00 to 03:00 is 03:30 after it. O(1) look-ups.
    public func instant(fromLocal local: Int64) -> Timestamp {
        func at(_ offset: Int64) -> Int64 { local - offset * 1_000_000 }
        let first = secondsFromUTC(at: Timestamp(microsecondsSince1970: local))
        var candidates: [Int64] = []
        for offset in [first, secondsFromUTC(at: Timestamp(microsecondsSince1970: at(first)))] {
            let utc = at(offset)
            if secondsFromUTC(at: Timestamp(microsecondsSince1970: utc)) == offset { candidates.append(utc) }
            // The other side of a transition near it: an overlap has a second reading.
            let other = secondsFromUTC(at: Timestamp(microsecondsSince1970: utc - 3 * 3_600_000_000))
            if other != offset, secondsFromUTC(at: Timestamp(microsecondsSince1970: at(other))) == other {
                candidates.append(at(other))
            }
        }
        if let earliest = candidates.min() { return Timestamp(microsecondsSince1970: earliest) }
        // A gap: the offset in force just before it.
        let before = secondsFromUTC(at: Timestamp(microsecondsSince1970: at(first) - 3 * 3_600_000_000))
        return Timestamp(microsecondsSince1970: at(before))
    }
}
