import Geodesy

/// Times, durations and numbers as the messages of `perimeter check` show them to people.
public enum Readable {
    /// `12:01:57` (with `.250` when the time has milliseconds) when `time` is on the UTC date of `day`,
    /// else the full ISO 8601 time, so that a time on another day is never mistaken for one on this day.
    public static func time(_ time: Timestamp, day: Timestamp) -> String {
        let iso = time.iso8601
        guard iso.prefix(10) == day.iso8601.prefix(10) else { return iso }
        let clock = iso.dropFirst(11).prefix(12)   // hh:mm:ss.mmm
        return clock.hasSuffix(".000") ? String(clock.prefix(8)) : String(clock)
    }

    /// `34 s`, `3 min`, `4 min 10 s`, `1 h 2 min`, `0.5 s`; negative spans get a `-`.
    public static func duration(_ span: TimeSpan) -> String {
        let micros = span.microseconds
        if micros < 0 { return "-" + duration(TimeSpan(microseconds: -micros)) }
        let wholeSeconds = micros / 1_000_000
        let fraction = micros % 1_000_000
        let hours = wholeSeconds / 3600, minutes = wholeSeconds / 60 % 60, seconds = wholeSeconds % 60
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours) h") }
        if minutes > 0 { parts.append("\(minutes) min") }
        if seconds > 0 || fraction > 0 || parts.isEmpty {
            parts.append(fraction == 0 ? "\(seconds) s" : "\(Double(seconds) + Double(fraction) / 1e6) s")
        }
        return parts.joined(separator: " ")
    }

    /// A signed duration: `+21 s`, `-1 min 5 s`, `+0 s`.
    public static func signed(_ span: TimeSpan) -> String {
        span.microseconds < 0 ? duration(span) : "+" + duration(span)
    }

    /// A number rounded to `decimals` places, in its shortest form (`-229.25`, `-231.0`).
    public static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return (rounded == 0 ? 0 : rounded).description
    }
}
