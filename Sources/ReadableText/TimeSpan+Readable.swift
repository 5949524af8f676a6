import Time

extension TimeSpan {
    /// The span for people: `10 s`, `0.25 s`, `4 min 20 s`, `1 h 5 s`, `2 d 3 h`, `-1 min 30 s`; zero parts
    /// left out, milliseconds kept (microseconds below them dropped). The one form every message and the
    /// console sink use. O(1).
    public var readable: String {
        var millis = microseconds / 1000
        let sign = millis < 0 ? "-" : ""
        millis = abs(millis)
        let days = millis / 86_400_000, hours = millis / 3_600_000 % 24, minutes = millis / 60_000 % 60
        let secondMillis = millis % 60_000
        var parts: [String] = []
        if days > 0 { parts.append("\(days) d") }
        if hours > 0 { parts.append("\(hours) h") }
        if minutes > 0 { parts.append("\(minutes) min") }
        if secondMillis > 0 || parts.isEmpty {
            var seconds = "\(secondMillis / 1000)"
            if secondMillis % 1000 != 0 {
                var fraction = String(secondMillis % 1000)
                fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
                while fraction.hasSuffix("0") { fraction.removeLast() }
                seconds += "." + fraction
            }
            parts.append(seconds + " s")
        }
        return sign + parts.joined(separator: " ")
    }
}
