/// An instant in UTC, exact to the microsecond (SEMANTICS §1: every comparison of times is exact).
///
/// Stored as whole microseconds since 1970-01-01T00:00:00Z, so tick arithmetic never rounds.
public struct Timestamp: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z; negative before it.
    public var microsecondsSince1970: Int64

    @inlinable
    public init(microsecondsSince1970: Int64) { self.microsecondsSince1970 = microsecondsSince1970 }

    /// 1970-01-01T00:00:00Z, the clock's start when no track has times (SEMANTICS §1).
    public static let epoch = Timestamp(microsecondsSince1970: 0)

    @inlinable
    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microsecondsSince1970 < b.microsecondsSince1970 }

    @inlinable
    public static func + (t: Timestamp, span: TimeSpan) -> Timestamp {
        Timestamp(microsecondsSince1970: t.microsecondsSince1970 + span.microseconds)
    }

    @inlinable
    public static func - (t: Timestamp, span: TimeSpan) -> Timestamp {
        Timestamp(microsecondsSince1970: t.microsecondsSince1970 - span.microseconds)
    }

    @inlinable
    public static func - (a: Timestamp, b: Timestamp) -> TimeSpan {
        TimeSpan(microseconds: a.microsecondsSince1970 - b.microsecondsSince1970)
    }

    /// ISO 8601 in UTC with milliseconds (truncated), e.g. `2016-01-10T12:00:05.250Z`.
    public var description: String { iso8601 }

    /// 0000-01-01T00:00:00Z, the earliest time ISO 8601's four-digit years can write.
    public static let earliest = Timestamp(microsecondsSince1970: -62_167_219_200_000_000)
    /// 9999-12-31T23:59:59.999999Z, the latest time ISO 8601's four-digit years can write.
    public static let latest = Timestamp(microsecondsSince1970: 253_402_300_799_999_999)
    /// `earliest...latest`: the times an event log can show and read back. Computed, not stored: a stored
    /// range is a lazily made global, checked at every read (a fleet's every fix, in `adding`).
    public static var writable: ClosedRange<Timestamp> { earliest...latest }

    /// `self + span`, or nil when the sum leaves `writable` (or Int64).
    public func adding(_ span: TimeSpan) -> Timestamp? {
        let (sum, overflow) = microsecondsSince1970.addingReportingOverflow(span.microseconds)
        let time = Timestamp(microsecondsSince1970: sum)
        return !overflow && Self.writable.contains(time) ? time : nil
    }
}

/// A length of time, exact to the microsecond. Negative spans are allowed (offsets).
public struct TimeSpan: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The span in whole microseconds.
    public var microseconds: Int64

    @inlinable
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// A span of whole seconds.
    @inlinable
    public static func seconds(_ seconds: Int64) -> TimeSpan { TimeSpan(microseconds: seconds * 1_000_000) }

    /// The span nearest to `seconds` at microsecond resolution, or nil when not finite or out of range.
    public init?(seconds: Double) {
        let micros = (seconds * 1_000_000).rounded()
        guard micros.isFinite, abs(micros) < 9.2e18 else { return nil }
        self.microseconds = Int64(micros)
    }

    public static let zero = TimeSpan(microseconds: 0)

    /// The span in seconds (exact for spans under about 285 years).
    @inlinable
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    @inlinable
    public static func < (a: TimeSpan, b: TimeSpan) -> Bool { a.microseconds < b.microseconds }
    @inlinable
    public static func + (a: TimeSpan, b: TimeSpan) -> TimeSpan { TimeSpan(microseconds: a.microseconds + b.microseconds) }
    @inlinable
    public static func * (a: TimeSpan, k: Int64) -> TimeSpan { TimeSpan(microseconds: a.microseconds * k) }

    /// `self * k`, or nil when the product overflows Int64 microseconds.
    public func multiplied(by k: Int64) -> TimeSpan? {
        let (product, overflow) = microseconds.multipliedReportingOverflow(by: k)
        return overflow ? nil : TimeSpan(microseconds: product)
    }

    /// The span in seconds, as the shortest decimal: `20`, `0.5`, `3600`.
    public var description: String {
        microseconds % 1_000_000 == 0 ? String(microseconds / 1_000_000) : String(seconds)
    }
}
