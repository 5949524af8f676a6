/// Reads ISO 8601 times in a stream (GPX `<time>`s, fix-table `time` columns) with `Timestamp(iso8601:)`,
/// calling it once per distinct minute.
///
/// Consecutive times share `YYYY-MM-DDThh:mm:` and the zone; only the seconds and the fraction
/// differ. After a full parse of one text, a text with the same prefix and zone is the same minute's
/// start plus its seconds and fraction (truncated to microseconds, as `Timestamp(iso8601:)` does). Anything else
/// (other punctuation, whitespace, second 60, a new minute or zone) goes to `Timestamp(iso8601:)`.
/// O(length of the text); no allocation on a hit.
public struct ISO8601Cache {
    /// `YYYY-MM-DDThh:mm:` of the last text parsed in full, as its bytes 0..<8, 8..<16 and 16.
    private var prefix: (UInt64, UInt64, UInt8) = (0, 0, 0)
    /// Its zone: empty, or from a `Z`, `z`, `+` or `-` to the end.
    private var zone: [UInt8] = []
    /// The instant of `prefix` + `00` + `zone`.
    private var minuteStart: Timestamp?

    private static let prefixLength = 17

    /// The zone of times written without one (a scenario's `timezone:`); nil reads them as UTC.
    public var localZone: LocalTimeZone?
    /// How many times were written without a zone, for the warning that says how they were read.
    public private(set) var zonelessCount = 0
    /// Whether `localZone`'s clocks skip the last time read or show it twice (`LocalReading.Change`), for
    /// the warning that says so; nil for every other time. A minute in a gap is never cached (its times
    /// are all read as the gap's end), so a cached minute's change is the one of each of its times.
    public private(set) var lastChange: LocalReading.Change?

    public init() {}

    public init(localZone: LocalTimeZone?) { self.localZone = localZone }

    /// Forgets the count of the last time read, one with a `lastChange` (so without a zone), as it is read
    /// again (a fix table's plain row handed on to the general path, which places the warning). O(1).
    public mutating func uncountLast() { zonelessCount -= 1 }

    /// The instant `text` names when it is the last minute's `…:ss` (whole seconds, 00 to 59) in its zone,
    /// the common case of a table at a fix a second: the prefix and the zone compared as words, no
    /// fraction to read. Nil otherwise, having changed nothing (`time` then reads it). O(1).
    @inline(__always)
    public mutating func sameMinute(_ text: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        let zoneStart = Self.prefixLength + 2
        guard let minuteStart, text.count == zoneStart + zone.count, Self.prefix(of: text) == prefix else { return nil }
        let tens = text[Self.prefixLength] &- 48, ones = text[Self.prefixLength + 1] &- 48
        guard tens < 6, ones < 10 else { return nil }
        for i in zone.indices where zone[i] != text[zoneStart + i] { return nil }
        if zone.isEmpty { zonelessCount += 1 }
        return Timestamp(microsecondsSince1970: minuteStart.microsecondsSince1970 + Int64(tens &* 10 &+ ones) * 1_000_000)
    }

    /// The instant `text` names, or nil when it is not an ISO 8601 time.
    public mutating func time(_ text: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        if let same = sameMinute(text) { return same }
        let split = ISO8601Cache.split(text)
        if let split, let minuteStart, text.count >= ISO8601Cache.prefixLength, Self.prefix(of: text) == prefix,
            zone.elementsEqual(text[split.zoneStart...])
        {
            if zone.isEmpty { zonelessCount += 1 }
            return Timestamp(microsecondsSince1970: minuteStart.microsecondsSince1970 + split.micros)
        }
        guard let (reading, hadZone) = Timestamp.read(iso8601: String(decoding: text, as: UTF8.self), localZone: localZone)
        else { return nil }
        let full = reading.instant
        if !hadZone { zonelessCount += 1 }
        lastChange = reading.change
        if let split, reading.change != .skipped {
            prefix = Self.prefix(of: text)
            zone = Array(text[split.zoneStart...])
            minuteStart = Timestamp(microsecondsSince1970: full.microsecondsSince1970 - split.micros)
        } else {
            minuteStart = nil
        }
        return full
    }

    /// The first `prefixLength` bytes of `text` (at least that long), read as two words and a byte.
    @inline(__always)
    private static func prefix(of text: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64, UInt8) {
        // C interop: the text is at least a date long, so it has an address.
        // swift-format-ignore: NeverForceUnwrap
        let raw = UnsafeRawPointer(text.baseAddress!)
        return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self), text[16])
    }

    /// Splits `...:ss[.fraction]zone` after the 17-byte prefix: the microseconds past the minute and
    /// where the zone starts. Nil unless the shape is exactly that, with ss in 00...59.
    private static func split(_ t: UnsafeBufferPointer<UInt8>) -> (micros: Int64, zoneStart: Int)? {
        var i = prefixLength
        guard t.count >= i + 2, isDigit(t[i]), isDigit(t[i + 1]) else { return nil }
        let seconds = Int64(t[i] - 48) * 10 + Int64(t[i + 1] - 48)
        guard seconds <= 59 else { return nil }
        i += 2
        var micros: Int64 = 0
        if i < t.count, t[i] == UInt8(ascii: ".") {
            i += 1
            var count = 0
            while i < t.count, isDigit(t[i]) {
                if count < 6 { micros = micros * 10 + Int64(t[i] - 48) }
                count += 1
                i += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 6) { micros *= 10 }
        }
        if i < t.count {
            let z = t[i]
            guard z == UInt8(ascii: "Z") || z == UInt8(ascii: "z") || z == UInt8(ascii: "+") || z == UInt8(ascii: "-") else {
                return nil
            }
        }
        return (seconds * 1_000_000 + micros, i)
    }

    @inline(__always)
    private static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
}
