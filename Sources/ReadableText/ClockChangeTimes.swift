import Time

/// Local times written without a zone that a zone's clocks skip (a gap, clocks turned forward) or show
/// twice (an overlap, clocks turned back), for the warnings that say how they were read: one time's
/// sentence (a scenario's `start:`, an expectation's `at:`), or the times of one file grouped by kind, with
/// their count and first places (a GPX track, a fix table). O(1) a time.
public struct ClockChangeTimes: Sendable {
    /// The places listed after the first in a grouped warning.
    public static let placesListed = 3

    /// A 1-based line and column.
    public typealias Place = (line: Int, column: Int)

    /// The times of one kind of change: how many, the first (as written, as read, where), the next places.
    private struct Group: Sendable {
        var count = 0
        var first: (written: String, reading: LocalReading, place: Place)?
        var places: [Place] = []

        mutating func add(_ written: () -> String, _ reading: LocalReading, _ place: Place) {
            count += 1
            if first == nil {
                first = (written(), reading, place)
            } else if places.count < ClockChangeTimes.placesListed {
                places.append(place)
            }
        }

        /// Adds `later`'s times, their lines moved down by `lines`.
        mutating func merge(_ later: Group, lines: Int) {
            guard var next = later.first else { return }
            next.place.line += lines
            let moved = later.places.map { (line: $0.line + lines, column: $0.column) }
            guard first != nil else {
                self = Group(count: later.count, first: next, places: moved)
                return
            }
            count += later.count
            places += ([next.place] + moved).prefix(ClockChangeTimes.placesListed - places.count)
        }
    }

    /// The zone whose clocks read the times.
    public let zone: LocalTimeZone
    private var skipped = Group()
    private var repeated = Group()

    public init(zone: LocalTimeZone) { self.zone = zone }

    /// No time was noted.
    public var isEmpty: Bool { skipped.count + repeated.count == 0 }

    /// Notes `written` (the time as the file writes it) read as `reading` at `place`; nothing when the
    /// clocks show it once. The text is made for the first time of a kind only. O(1).
    public mutating func add(_ written: @autoclosure () -> String, reading: LocalReading, at place: Place) {
        switch reading.change {
        case nil: return
        case .skipped: skipped.add(written, reading, place)
        case .repeated: repeated.add(written, reading, place)
        }
    }

    /// Adds the times of `later`, read after these (the next piece of the same file, whose lines are
    /// counted from 1 after `lines` lines). O(placesListed).
    public mutating func merge(_ later: ClockChangeTimes, after lines: Int = 0) {
        skipped.merge(later.skipped, lines: lines)
        repeated.merge(later.repeated, lines: lines)
    }

    /// One warning per kind of change, at its first time: `FILE:LINE:COLUMN: sentence; so are 2 more times
    /// of this track (at 7:9, 8:9); advice`. `what` names the file's kind: `track`, `fix table`.
    public func warnings(file: String, of what: String) -> [String] {
        [skipped, repeated].compactMap { group in
            guard let first = group.first, let change = first.reading.change else { return nil }
            let more = group.count - 1
            var text =
                "\(file):\(first.place.line):\(first.place.column): "
                + Self.sentence(first.written, reading: first.reading, zone: zone)
            if more > 0 {
                let places =
                    group.places.map { "\($0.line):\($0.column)" }.joined(separator: ", ")
                    + (more > group.places.count ? ", …" : "")
                text += "; so \(more == 1 ? "is 1 more time" : "are \(more) more times") of this \(what) (at \(places))"
            }
            return text + "; " + Self.advice(for: change, many: more > 0)
        }
    }

    /// How `written`, a wall-clock time `zone`'s clocks skip or show twice, was read (`reading`), as a
    /// sentence without its advice; empty when they show it once.
    public static func sentence(_ written: String, reading: LocalReading, zone: LocalTimeZone) -> String {
        switch reading.change {
        case nil:
            return ""
        case .skipped:
            let shown = zone.wallClock(reading.instant).iso8601.dropLast()
            return "\(written) is not a time on \(zone.identifier)'s clocks: they skip it, turned forward that night, "
                + "so it is read as the first time after the gap, \(shown) there (\(reading.instant.iso8601))"
        case let .repeated(laterBy):
            let second = Timestamp(microsecondsSince1970: reading.instant.microsecondsSince1970 + laterBy)
            return "\(written) is a time \(zone.identifier)'s clocks show twice, turned back that night, so it is "
                + "read as the first, \(reading.instant.iso8601), not the second, \(second.iso8601)"
        }
    }

    /// What to write instead, for one time or for `many`.
    public static func advice(for change: LocalReading.Change, many: Bool) -> String {
        switch (change, many) {
        case (.skipped, false): "write it with its offset, or as a time the clocks show"
        case (.skipped, true): "write them with their offsets, or as times the clocks show"
        case (.repeated, false): "write it with its offset to say which"
        case (.repeated, true): "write them with their offsets to say which"
        }
    }
}
