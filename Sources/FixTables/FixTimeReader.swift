import Foundation
import NumberText
import TextEscaping
import Time

/// Reads a table's time field as `FixTableColumns` says: an ISO 8601 time (one without a zone read in
/// `localZone`, else as UTC, and counted), or a number of `timeUnit` since 1970 read exactly; a time
/// outside the years 0000 to 9999 is no time. The one reader of times behind fix tables (`FixRowCheck`)
/// and field logs (`calibrate --observed`). O(length of the field); nothing allocated for a time whose
/// date and zone are the last one's (`ISO8601Cache`).
public struct FixTimeReader {
    private var times: ISO8601Cache
    /// `timeUnit.microsecondDigits`, read at every numeric time.
    private let unitDigits: Int

    public init(_ columns: FixTableColumns) {
        unitDigits = columns.timeUnit.microsecondDigits
        times = ISO8601Cache(localZone: columns.localZone)
    }

    /// Whether the field is written as a number (an ISO 8601 time always has a colon, hh:mm:ss; a number
    /// never does).
    @inline(__always)
    static func isNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return memchr(base, Int32(UInt8(ascii: ":")), bytes.count) == nil
    }

    /// The instant the field names, or nil when it names none within the years 0000 to 9999
    /// (`problem(_:named:shown:columns:)` says why).
    @inline(__always)
    public mutating func instant(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        let instant: Timestamp?
        if let same = times.sameMinute(bytes) {  // the last time's minute: ISO 8601 (it has colons)
            instant = same
        } else if Self.isNumber(bytes) {
            instant = DecimalText.microseconds(bytes, unitDigits: unitDigits).map(Timestamp.init(microsecondsSince1970:))
        } else {
            instant = times.time(bytes)
        }
        guard let instant, Timestamp.writable.contains(instant) else { return nil }
        return instant
    }

    /// Why the field the column `name` holds is no time, as a sentence: `"time" is "x", which is neither
    /// an ISO 8601 time nor a number of seconds since 1970`, or outside the years, with the unit's advice
    /// when a smaller unit would place the number within them. `shown`: the field, quoted for a message.
    public func problem(
        _ bytes: UnsafeBufferPointer<UInt8>, named name: String, shown: String, columns: FixTableColumns
    ) -> String {
        let isNumber = Self.isNumber(bytes)
        let read: Timestamp? =
            isNumber
            ? DecimalText.microseconds(bytes, unitDigits: unitDigits).map(Timestamp.init(microsecondsSince1970:))
            : Timestamp.parse(iso8601: String(decoding: bytes, as: UTF8.self), localZone: columns.localZone)?.instant
        let hint = isNumber ? Self.unitHint(bytes, columns: columns) : ""
        guard read != nil || !hint.isEmpty else {  // a number too large for 64 bits of µs is outside too
            return
                "\"\(name)\" is \(shown), which is neither an ISO 8601 time nor a number of \(columns.timeUnit.name) since 1970\(hint)"
        }
        return "\"\(name)\" is \(shown), outside the years 0000 to 9999\(hint)"
    }

    /// For a number of `columns.timeUnit` outside the years a time can have: `; it looks like
    /// milliseconds since 1970: give timeUnit: ms` when a smaller unit places it within them, else nothing.
    static func unitHint(_ bytes: UnsafeBufferPointer<UInt8>, columns: FixTableColumns) -> String {
        for unit in FixTimeUnit.allCases where unit.microsecondDigits < columns.timeUnit.microsecondDigits {
            if let micros = DecimalText.microseconds(bytes, unitDigits: unit.microsecondDigits),
                Timestamp.writable.contains(Timestamp(microsecondsSince1970: micros))
            {
                return "; it looks like \(unit.name) since 1970: give \(columns.setting(.timeUnit, unit.rawValue))"
            }
        }
        return ""
    }

    /// ISO times read so far that had no zone (read in `localZone`, else as UTC).
    public var zonelessTimes: Int { times.zonelessCount }

    /// Whether the zone's clocks skip the last ISO time read or show it twice (`ISO8601Cache.lastChange`);
    /// ask only after `instant` read an ISO time (one with a colon).
    public var lastChange: LocalReading.Change? { times.lastChange }

    /// Forgets the count of the last time read, one with a `lastChange`, to read it again. O(1).
    public mutating func uncountLast() { times.uncountLast() }
}
