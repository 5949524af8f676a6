import NumberText

/// ISO 8601 / RFC 3339 reading and writing for `Timestamp`, without Foundation's formatters:
/// exact to the microsecond, any year from 0000 to 9999, the same on every platform.
extension Timestamp {
    /// Parses `YYYY-MM-DDThh:mm:ss[.fraction][Z|±hh:mm|±hhmm|±hh]`; `t`/`z` and a space separator are
    /// accepted. Fraction digits beyond six are truncated; no zone means UTC (`parse(iso8601:localZone:)`
    /// reads it in a zone). Returns nil for anything
    /// else, including impossible dates (month 13, February 30, hour 24 and the like).
    public init?(iso8601 text: some StringProtocol) {
        guard let parts = Self.wallClock(iso8601: text) else { return nil }
        self.init(microsecondsSince1970: parts.local - (parts.offsetMinutes ?? 0) * 60_000_000)
    }

    /// Parses as `init(iso8601:)` does, a time without a zone in `localZone` when one is given (else UTC);
    /// `hadZone` says whether the text gave its own (`Z` or an offset).
    public static func parse(
        iso8601 text: some StringProtocol, localZone: LocalTimeZone?
    ) -> (instant: Timestamp, hadZone: Bool)? {
        read(iso8601: text, localZone: localZone).map { ($0.reading.instant, $0.hadZone) }
    }

    /// `parse(iso8601:localZone:)` with how `localZone`'s clocks read a time without a zone: whether they
    /// skip it or show it twice (`LocalTimeZone.reading(fromLocal:)`; never for a time with its own zone).
    public static func read(
        iso8601 text: some StringProtocol, localZone: LocalTimeZone?
    ) -> (reading: LocalReading, hadZone: Bool)? {
        guard let parts = wallClock(iso8601: text) else { return nil }
        if let offset = parts.offsetMinutes {
            return (
                LocalReading(instant: Timestamp(microsecondsSince1970: parts.local - offset * 60_000_000), change: nil), true
            )
        }
        guard let localZone else {
            return (LocalReading(instant: Timestamp(microsecondsSince1970: parts.local), change: nil), false)
        }
        return (localZone.reading(fromLocal: parts.local), false)
    }

    /// The wall-clock time written (microseconds since 1970 as if UTC) and the zone's offset in minutes,
    /// nil when the text gives no zone.
    private static func wallClock(iso8601 text: some StringProtocol) -> (local: Int64, offsetMinutes: Int64?)? {
        var p = ISOScanner(Array(text.utf8))
        p.skipSpaces()
        guard let year = p.digits(4), p.take(UInt8(ascii: "-")),
            let month = p.digits(2), p.take(UInt8(ascii: "-")),
            let day = p.digits(2)
        else { return nil }
        guard p.take(UInt8(ascii: "T")) || p.take(UInt8(ascii: "t")) || p.take(UInt8(ascii: " ")) else { return nil }
        guard let hour = p.digits(2), p.take(UInt8(ascii: ":")),
            let minute = p.digits(2), p.take(UInt8(ascii: ":")),
            let second = p.digits(2)
        else { return nil }
        var micros: Int64 = 0
        if p.take(UInt8(ascii: ".")) || p.take(UInt8(ascii: ",")) {
            var count = 0
            while let d = p.digit() {
                if count < 6 { micros = micros * 10 + Int64(d) }
                count += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 6) { micros *= 10 }
        }
        var offsetMinutes: Int64?
        if p.take(UInt8(ascii: "Z")) || p.take(UInt8(ascii: "z")) {
            offsetMinutes = 0
        } else if let sign = p.sign() {
            guard let oh = p.digits(2), oh <= 23 else { return nil }
            var om = 0
            if p.take(UInt8(ascii: ":")) {
                guard let m = p.digits(2) else { return nil }
                om = m
            } else {
                let start = p.index
                if let m = p.digits(2) { om = m } else if p.index != start { return nil }  // "+053": not "+05"
            }
            guard om <= 59 else { return nil }
            offsetMinutes = sign * Int64(oh * 60 + om)
        }
        p.skipSpaces()
        guard p.atEnd else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let days = daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
        let seconds = days * 86_400 + Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)
        return (seconds * 1_000_000 + micros, offsetMinutes)
    }

    /// `YYYY-MM-DDThh:mm:ss.mmmZ` in UTC, milliseconds truncated toward the past (SEMANTICS §7). One
    /// allocation, no Foundation: the 24 bytes are written in place (`write(iso8601Into:)`).
    public var iso8601: String {
        guard Self.writable.contains(self) else { return paddedISO8601 }
        return String(unsafeUninitializedCapacity: Self.iso8601Length) { write(iso8601Into: $0) }
    }

    /// The length of `iso8601` for a time in `writable`: 24 bytes.
    public static let iso8601Length = 24

    /// Writes `iso8601`'s 24 bytes at the start of `buffer` (which holds at least 24) and returns 24;
    /// for a time in `writable` (years 0000 to 9999). O(1), no allocation.
    @discardableResult
    public func write(iso8601Into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var memo = ISO8601DateMemo()
        return write(iso8601Into: buffer, memo: &memo)
    }

    /// `write(iso8601Into:)`, the date copied from `memo` when it holds this time's day (a writer of
    /// times in order, such as a sink's output, rarely changes day), else written and kept there.
    @discardableResult
    public func write(iso8601Into buffer: UnsafeMutableBufferPointer<UInt8>, memo: inout ISO8601DateMemo) -> Int {
        precondition(Self.writable.contains(self) && buffer.count >= Self.iso8601Length)
        let (day, microsOfDay) = dayAndRest
        // C interop: the buffer holds at least iso8601Length bytes (the precondition above).
        // swift-format-ignore: NeverForceUnwrap
        let out = buffer.baseAddress!
        /// Two decimal digits of `value` (0–99) at `offset`.
        func pair(_ value: UInt32, at offset: Int) { DecimalDigits.writePair(value, to: out + offset) }
        if day == memo.day {
            memo.copyDate(to: out)
        } else {
            // All small and never negative here: unsigned 32-bit divisions by constants.
            let (y, m, d) = civilFromDays(day)
            let year = UInt32(truncatingIfNeeded: y), century = year / 100
            pair(century, at: 0); pair(year - century * 100, at: 2); out[4] = 0x2D
            pair(UInt32(truncatingIfNeeded: m), at: 5); out[7] = 0x2D
            pair(UInt32(truncatingIfNeeded: d), at: 8); out[10] = 0x54
            memo.keep(day: day, dateFrom: out)
        }
        let second = UInt32(truncatingIfNeeded: microsOfDay / 1_000_000), minute = second / 60, hour = minute / 60
        let milli = UInt32(truncatingIfNeeded: microsOfDay % 1_000_000 / 1000), hundreds = milli / 100
        pair(hour, at: 11); out[13] = 0x3A
        pair(minute - hour * 60, at: 14); out[16] = 0x3A
        pair(second - minute * 60, at: 17); out[19] = 0x2E
        out[20] = 48 &+ UInt8(truncatingIfNeeded: hundreds)
        pair(milli - hundreds * 100, at: 21); out[23] = 0x5A
        return Self.iso8601Length
    }

    /// The day since 1970-01-01 and the microseconds into it (0 ..< 86,400,000,000), toward the past.
    private var dayAndRest: (day: Int64, microsOfDay: UInt64) {
        let micros = microsecondsSince1970
        if micros >= 0 {
            // From 1970 on, by unsigned division (no rounding toward the past to correct).
            let unsigned = UInt64(micros), day = unsigned / 86_400_000_000
            return (Int64(day), unsigned - day * 86_400_000_000)
        }
        // The remainder is in range although day · 86,400,000,000 may not be (near Int64.min): wrapping
        // arithmetic gives it exactly.
        let day = floorDiv(micros, 86_400_000_000)
        return (day, UInt64(bitPattern: micros &- day &* 86_400_000_000))
    }

    /// The UTC date (year, month, day), the second of the day and the millisecond, truncated toward the past.
    private var civilParts: (year: Int64, month: Int64, day: Int64, secondOfDay: Int64, millis: Int64) {
        let (day, microsOfDay) = dayAndRest
        let (y, m, d) = civilFromDays(day)
        return (y, m, d, Int64(microsOfDay / 1_000_000), Int64(microsOfDay % 1_000_000 / 1000))
    }

    /// `iso8601` for any time, years beyond 9999 included (padded to at least 4 digits).
    private var paddedISO8601: String {
        let (y, m, d, secondOfDay, millis) = civilParts
        var out = pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T"
        out += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        return out + "." + pad(millis, 3) + "Z"
    }
}

private struct ISOScanner {
    let bytes: [UInt8]
    var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var atEnd: Bool { index == bytes.count }
    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }
    mutating func digit() -> Int? {
        guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - 48)
    }
    mutating func digits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let d = digit() else { return nil }
            value = value * 10 + d
        }
        return value
    }
    mutating func sign() -> Int64? {
        if take(UInt8(ascii: "+")) { return 1 }
        if take(UInt8(ascii: "-")) { return -1 }
        return nil
    }
    mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 || bytes[index] == 10 || bytes[index] == 13 {
            index += 1
        }
    }
}

private func pad(_ value: Int64, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = floorDiv(y, 400)
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date (year, month, day) of a day count since 1970-01-01, for any day a
/// `Timestamp` holds (C. Neri and L. Schneider, "Euclidean affine functions and their application to
/// calendar algorithms", 2023). The days are first shifted by 800 cycles of 400 years, so that every one
/// is positive and the rest is unsigned 32-bit arithmetic with divisions by constants. O(1).
func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
    let cycles: Int64 = 800
    // From 0000-03-01 of the shifted calendar: at most 4 · 2.3 × 10⁸ + 3 below, within 32 bits.
    let n = UInt32(truncatingIfNeeded: days + 719_468 + 146_097 * cycles)
    let n1 = 4 &* n &+ 3
    let century = n1 / 146_097
    let dayOfCentury = n1 % 146_097 / 4
    let n2 = 4 &* dayOfCentury &+ 3
    let p2 = 2_939_745 &* UInt64(n2)
    let yearOfCentury = UInt32(truncatingIfNeeded: p2 >> 32)
    let dayOfYear = UInt32(truncatingIfNeeded: p2) / 2_939_745 / 4  // from March 1st
    let n3 = 2_141 &* dayOfYear &+ 197_913
    let month = n3 >> 16, day = (n3 & 0xFFFF) / 2_141 + 1
    let january = dayOfYear >= 306  // January and February are the shifted year's last months
    let year = Int64(100 &* century &+ yearOfCentury) - 400 * cycles + (january ? 1 : 0)
    return (year, Int64(january ? month - 12 : month), Int64(day))
}
