import Geodesy
import Time

/// A position at an exact time: one point of a timed track, with its own accuracy when it has one.
/// 32 bytes (a fleet's tracks are tens of millions of fixes).
public struct Fix: Hashable, Sendable {
    public var coordinate: Coordinate
    public var time: Timestamp
    /// The radius of the fix's uncertainty, in metres (SEMANTICS §2); nil: the device's, or the monitor's.
    public var accuracy: Meters? {
        get { storedAccuracy == -.infinity ? nil : storedAccuracy }
        set { storedAccuracy = newValue ?? -.infinity }
    }
    /// `accuracy`, or -∞ for none (an optional would add 8 bytes to every fix), as `TableFix` keeps it: an
    /// accuracy of -∞, which no reader gives (accuracies are 0 or more), reads back as none.
    private var storedAccuracy: Meters

    public init(_ coordinate: Coordinate, at time: Timestamp, accuracy: Meters? = nil) {
        self.coordinate = coordinate
        self.time = time
        self.storedAccuracy = accuracy ?? -.infinity
    }
}

/// A point of an untimed track: its position and its ordinal `i` among the file's points, which gives
/// it the time `start + i × pace` once the clock's start is known (SEMANTICS §1).
public struct PacedPoint: Hashable, Sendable {
    public var coordinate: Coordinate
    public var ordinal: Int

    public init(_ coordinate: Coordinate, ordinal: Int) {
        self.coordinate = coordinate
        self.ordinal = ordinal
    }
}

/// A device's track: ordered segments of points; between segments the device has no fix.
public enum Track: Hashable, Sendable {
    /// Every point has a time (the device's offset already added); times never decrease.
    case timed([[Fix]])
    /// No point has a time: point i plays at `start + offset + i × pace`.
    case paced([[PacedPoint]], pace: TimeSpan, offset: TimeSpan = .zero)

    /// The time of the first fix, when the track is timed and not empty.
    public var firstTime: Timestamp? {
        guard case let .timed(segments) = self else { return nil }
        return segments.lazy.compactMap(\.first).first?.time
    }

    /// The timed segments this track plays as, given the clock's start (SEMANTICS §1). Fixes whose
    /// time is earlier than the previous kept fix are dropped; of equal times the later is kept. A
    /// timed track in which §1 changes nothing (a fix table's tracks, which the reader has already
    /// cleaned) is given back as it is, sharing its storage: a run asks for a device's fixes several
    /// times (its size, its warnings, its lane), and a fleet's fixes are tens of megabytes. O(fixes).
    public func fixes(start: Timestamp) -> [[Fix]] {
        let raw: [[Fix]]
        switch self {
        case let .timed(segments):
            if Self.playsAsIs(segments) { return segments }
            raw = segments
        case let .paced(segments, pace, offset):
            raw = segments.map { $0.map { Fix($0.coordinate, at: start + offset + pace * Int64($0.ordinal)) } }
        }
        var cleaned: [[Fix]] = []
        var last: Timestamp?
        for segment in raw {
            var kept: [Fix] = []
            kept.reserveCapacity(segment.count)
            for fix in segment {
                if let l = last, fix.time < l { continue }
                if let l = last, fix.time == l {
                    // The later of equal times wins, even across a segment boundary.
                    if !kept.isEmpty { kept.removeLast() } else { removeLastFix(from: &cleaned) }
                }
                kept.append(fix)
                last = fix.time
            }
            cleaned.append(kept)
        }
        return cleaned.filter { !$0.isEmpty }
    }

    /// Whether timed `segments` play as they are: none empty, every time later than the one before
    /// (across segments too), so that §1 drops and replaces nothing. O(fixes), reading only.
    private static func playsAsIs(_ segments: [[Fix]]) -> Bool {
        var last: Timestamp?
        for segment in segments {
            guard let first = segment.first else { return false }
            if let last, first.time <= last { return false }
            var previous = first.time
            for fix in segment.dropFirst() {
                guard fix.time > previous else { return false }
                previous = fix.time
            }
            last = previous
        }
        return true
    }
}

private func removeLastFix(from segments: inout [[Fix]]) {
    while let lastIndex = segments.indices.last {
        if !segments[lastIndex].isEmpty {
            segments[lastIndex].removeLast()
            return
        }
        segments.removeLast()
    }
}

/// A device: an id, unique in a scenario, and its track.
public struct Device: Hashable, Sendable {
    public var id: String
    public var track: Track
    /// The accuracy of its fixes that have none of their own, in metres; nil: the monitor's (SEMANTICS §2).
    public var accuracy: Meters?
    /// Whether its fixes were recorded on a phone (SEMANTICS §9, revision 4): measurements of a path, not
    /// the path. The phone sees them as they are; the truth runs on the true path estimated from them.
    public var recorded: Bool

    public init(id: String, track: Track, accuracy: Meters? = nil, recorded: Bool = false) {
        self.id = id
        self.track = track
        self.accuracy = accuracy
        self.recorded = recorded
    }
}
