/// ISO 8601 / RFC 3339 reading and writing for `Timestamp`, without Foundation's formatters:
/// exact to the microsecond, any year from 0000 to 9999, the same on every platform.
extension Timestamp {
    /// Parses `YYYY-MM-DDThh:mm:ss[.fraction][Z|±hh:mm|±hhmm|±hh]`; `t`/`z` and a space separator are
    /// accepted. Fraction digits beyond six are truncated; no zone means UTC. Returns nil for anything
    /// else, including impossible dates (month 13, February 30, hour 24 and the like).
    public init?(iso8601 text: some StringProtocol) {
        var p = ISOScanner(Array(text.utf8))
        p.skipSpaces()
        guard let year = p.digits(4), p.take(UInt8(ascii: "-")),
              let month = p.digits(2), p.take(UInt8(ascii: "-")),
              let day = p.digits(2) else { return nil }
        guard p.take(UInt8(ascii: "T")) || p.take(UInt8(ascii: "t")) || p.take(UInt8(ascii: " ")) else { return nil }
        guard let hour = p.digits(2), p.take(UInt8(ascii: ":")),
              let minute = p.digits(2), p.take(UInt8(ascii: ":")),
              let second = p.digits(2) else { return nil }
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
        var offsetMinutes: Int64 = 0
        if p.take(UInt8(ascii: "Z")) || p.take(UInt8(ascii: "z")) {
        } else if let sign = p.sign() {
            guard let oh = p.digits(2), oh <= 23 else { return nil }
            var om = 0
            if p.take(UInt8(ascii: ":")) {
                guard let m = p.digits(2) else { return nil }
                om = m
            } else {
                let start = p.index
                if let m = p.digits(2) { om = m } else if p.index != start { return nil }   // "+053": not "+05"
            }
            guard om <= 59 else { return nil }
            offsetMinutes = sign * Int64(oh * 60 + om)
        }
        p.skipSpaces()
        guard p.atEnd else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        let days = daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
        let seconds = days * 86_400 + Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second) - offsetMinutes * 60
        self.init(microsecondsSince1970: seconds * 1_000_000 + micros)
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
        precondition(Self.writable.contains(self) && buffer.count >= Self.iso8601Length)
        let (y, m, d, secondOfDay, millis) = civilParts
        let out = buffer.baseAddress!
        /// Two decimal digits of `value` (0–99) at `offset`.
        func pair(_ value: Int64, at offset: Int) {
            let v = UInt8(truncatingIfNeeded: value)
            out[offset] = 48 &+ v / 10
            out[offset + 1] = 48 &+ v % 10
        }
        pair(y / 100, at: 0); pair(y % 100, at: 2); out[4] = 0x2D
        pair(m, at: 5); out[7] = 0x2D
        pair(d, at: 8); out[10] = 0x54
        pair(secondOfDay / 3600, at: 11); out[13] = 0x3A
        pair(secondOfDay / 60 % 60, at: 14); out[16] = 0x3A
        pair(secondOfDay % 60, at: 17); out[19] = 0x2E
        out[20] = 48 &+ UInt8(truncatingIfNeeded: millis / 100)
        pair(millis % 100, at: 21); out[23] = 0x5A
        return Self.iso8601Length
    }

    /// The UTC date (year, month, day), the second of the day and the millisecond, truncated toward the past.
    private var civilParts: (year: Int64, month: Int64, day: Int64, secondOfDay: Int64, millis: Int64) {
        let micros = microsecondsSince1970
        if micros >= 0 {
            // From 1970 on, the same parts by unsigned division (no rounding toward the past to correct).
            let unsigned = UInt64(micros)
            let totalSeconds = unsigned / 1_000_000
            let days = totalSeconds / 86_400
            let (y, m, d) = civilFromDays(Int64(days))
            return (y, m, d, Int64(totalSeconds - days * 86_400), Int64(unsigned % 1_000_000 / 1000))
        }
        let totalSeconds = floorDiv(micros, 1_000_000)
        let millis = floorDiv(micros - totalSeconds * 1_000_000, 1000)
        let days = floorDiv(totalSeconds, 86_400)
        let (y, m, d) = civilFromDays(days)
        return (y, m, d, totalSeconds - days * 86_400, millis)
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

private func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

private func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
private func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = floorDiv(y, 400)
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
private func civilFromDays(_ z0: Int64) -> (Int64, Int64, Int64) {
    let z = z0 + 719_468
    let era = floorDiv(z, 146_097)
    // The day of the era (0–146,096) and what follows from it are small and never negative: unsigned
    // 32-bit arithmetic, whose divisions by constants need no sign correction.
    let doe = UInt32(truncatingIfNeeded: z - era * 146_097)
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (Int64(yoe) + era * 400 + (m <= 2 ? 1 : 0), Int64(m), Int64(d))
}
