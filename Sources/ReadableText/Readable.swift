import Geodesy
import Time

/// Times, durations and numbers as messages show them to people (`perimeter check`, `compare`, Monte Carlo).
public enum Readable {
    /// `12:01:57` (with `.250` when the time has milliseconds) when `time` is on the UTC date of `day`,
    /// else the full ISO 8601 time, so that a time on another day is never mistaken for one on this day.
    /// With a `zone` (`--timezone`), both as that zone's clocks show them, the full form with the zone's
    /// offset (`2016-01-10T13:01:57+01:00`).
    public static func time(_ time: Timestamp, day: Timestamp, zone: LocalTimeZone? = nil) -> String {
        if let zone {
            let iso = zone.wallClock(time).iso8601  // the zone's wall clock, written as if UTC
            let clock = iso.dropFirst(11).prefix(12)
            let shown = clock.hasSuffix(".000") ? String(clock.prefix(8)) : String(clock)
            guard iso.prefix(10) == zone.wallClock(day).iso8601.prefix(10) else {
                return String(iso.prefix(11)) + shown + offset(zone.secondsFromUTC(at: time))
            }
            return shown
        }
        let iso = time.iso8601
        guard iso.prefix(10) == day.iso8601.prefix(10) else { return iso }
        let clock = iso.dropFirst(11).prefix(12)  // hh:mm:ss.mmm
        return clock.hasSuffix(".000") ? String(clock.prefix(8)) : String(clock)
    }

    /// `+01:00`, `-05:30`: an offset from UTC in seconds, as ISO 8601 writes it.
    public static func offset(_ seconds: Int64) -> String {
        let minutes = abs(seconds) / 60
        let hh = minutes / 60, mm = minutes % 60
        return (seconds < 0 ? "-" : "+") + (hh < 10 ? "0" : "") + "\(hh):" + (mm < 10 ? "0" : "") + "\(mm)"
    }

    /// A signed duration: `+21 s`, `-1 min 5 s`, `+0 s`.
    public static func signed(_ span: TimeSpan) -> String {
        span.microseconds < 0 ? span.readable : "+" + span.readable
    }

    /// A number rounded to `decimals` places, in its shortest form (`-229.25`, `-231.0`).
    public static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return (rounded == 0 ? 0 : rounded).description
    }

    /// `1234567` as `1,234,567`.
    public static func grouped(_ n: Int64) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// A progress line's text: what is done, samples per second over `seconds`, and, when `fraction` (the
    /// share done, 0…1) is known, the share and an estimate of the time left:
    /// `312 of 1,000 devices · 1.4 M samples/s · 31 % · about 2 min 10 s left`.
    public static func progress(_ done: String, samples: Int, seconds: Double, fraction: Double?) -> String {
        let seconds = max(seconds, 1e-3)
        var parts = [done, rate(Double(samples) / seconds) + " samples/s"]
        if let fraction, fraction > 0, fraction <= 1 {
            parts.append("\(Int(fraction * 100)) %")
            let left = seconds * (1 - fraction) / fraction
            parts.append("about " + TimeSpan.seconds(Int64(left.rounded())).readable + " left")
        }
        return parts.joined(separator: " · ")
    }

    /// A rate for people: `850`, `12.5 k`, `1.4 M`.
    public static func rate(_ perSecond: Double) -> String {
        if perSecond >= 1e6 { return number(perSecond / 1e6, decimals: 1) + " M" }
        if perSecond >= 1e4 { return number(perSecond / 1e3, decimals: 1) + " k" }
        return grouped(Int64(perSecond.rounded()))
    }

    /// A number to a tenth, without a trailing `.0`: `85`, `62.5`, `11.7`.
    public static func tenths(_ value: Double) -> String {
        let text = number(value, decimals: 1)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// A distance for people to a tenth of a metre, in metres whatever its size: `11.7 m`, `200 m`.
    public static func metres(_ value: Meters) -> String { tenths(value) + " m" }

    /// A distance for people: `0.05 m`, `350 m`, `12.4 km`, `7,492 km`; past 10¹⁵ km in exponent form
    /// (`1e+19 km`), and `inf m` or `nan m` for what is no number: it never traps.
    public static func distance(_ meters: Meters) -> String {
        guard meters.isFinite else { return "\(meters) m" }
        if meters < 10 { return number(meters, decimals: 2) + " m" }
        if meters < 10_000 { return grouped(Int64(meters.rounded())) + " m" }
        if meters < 100_000 {
            let tenths = (meters / 100).rounded()
            return
                (tenths.truncatingRemainder(dividingBy: 10) == 0
                ? String(Int(tenths / 10)) : number(tenths / 10, decimals: 1)) + " km"
        }
        let kilometres = (meters / 1000).rounded()
        // Whole numbers of kilometres as far as a Double holds each exactly, and well within Int64.
        guard kilometres < 1e15 else { return kilometres.description + " km" }
        return grouped(Int64(kilometres)) + " km"
    }
}
