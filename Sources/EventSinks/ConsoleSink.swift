import Geofencing
import ReadableText
import TextEscaping
import Time
import WireFormat

/// A readable timeline for a person: a date line whenever the UTC day changes, then one line per event
/// in aligned columns: time of day, device, kind, region, and a short detail.
///
/// ```
/// 2016-01-10 (UTC)
/// 12:00:00      phone  monitor-start   cafe  512.3 m outside
/// 12:03:10      phone  enter           cafe  crossed 12:03:05, 12.5 m inside
/// 12:03:20      phone  dwell           cafe  rule "customer" after 10 s, 20.1 m inside
/// 12:07:30.250  phone  exit            cafe  crossed 12:07:25, 3.0 m outside
/// 12:07:30.250  phone  visit           cafe  stayed 4 min 20 s, 12:03:05 to 12:07:25, 3.0 m outside
/// ```
///
/// Times are UTC, or the wall clock of a `zone` (`--timezone`, the date line then naming it):
/// `HH:MM:SS`, with `.mmm` only when the milliseconds are not zero (the column is as
/// wide as the longer form). Distances are rounded to 0.1 m. Control characters in ids and rule names
/// are shown escaped (`\n`, `\u001b`: `TerminalText.visible`), so that an id cannot break a line or
/// drive the terminal. The device and region columns are as wide as the longest id among the first
/// 1,000 events (held back until then or until `finish()`); a longer id later widens its column from
/// that line on. The output depends only on
/// the events, never on the terminal. Column widths count East Asian wide characters and emoji as two.
public final class ConsoleSink: LifecycleSink {
    /// How many events are held back to size the columns.
    public static let window = 1000

    private enum Writer {
        case file(OutputFile)
        case closure((String) -> Void)
    }

    private let writer: Writer
    private var pending: [GeofenceEvent] = []
    private var sized = false
    private var deviceWidth = 0
    private var regionWidth = 0
    private var day: String?
    /// Whose clocks the times are shown on; nil for UTC.
    private let zone: LocalTimeZone?
    /// What people call the regions that have a name (`properties.name`), shown after their id.
    private let regionNames: [String: String]

    /// Writes to `output` (standard output: `OutputFile(path: "-", spec: "console")`).
    public init(output: OutputFile, zone: LocalTimeZone? = nil, regionNames: [String: String] = [:]) {
        writer = .file(output)
        self.zone = zone
        self.regionNames = regionNames
    }

    /// Hands each line (with its `\n`) to `write`: a String, a log, a test.
    public init(write: @escaping (String) -> Void, zone: LocalTimeZone? = nil, regionNames: [String: String] = [:]) {
        writer = .closure(write)
        self.zone = zone
        self.regionNames = regionNames
    }

    /// `cafe`, or `cafe (Café Central)` when it has a name of its own; escaped for a terminal.
    private func label(_ region: String) -> String {
        guard let name = regionNames[region], name != region else { return TerminalText.visible(region) }
        return TerminalText.visible(region) + " (" + TerminalText.visible(name) + ")"
    }

    public func send(_ event: GeofenceEvent) throws {
        if sized {
            try emit(event)
        } else {
            pending.append(event)
            if pending.count >= Self.window { try flushPending() }
        }
    }

    public func finish() throws {
        try flushPending()
        if case let .file(output) = writer { try output.commit() }
    }

    public func cancel() {
        pending.removeAll()
        if case let .file(output) = writer { output.discard() }
    }

    /// The lines for `events` (without line ends), as the sink writes them.
    public static func lines(for events: [GeofenceEvent]) -> [String] {
        var text = ""
        let sink = ConsoleSink(write: { text += $0 })
        for event in events { try? sink.send(event) }
        try? sink.finish()
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    private func flushPending() throws {
        guard !sized else { return }
        sized = true
        for event in pending {
            deviceWidth = max(deviceWidth, Self.width(TerminalText.visible(event.device)))
            regionWidth = max(regionWidth, Self.width(label(event.region)))
        }
        let events = pending
        pending = []
        for event in events { try emit(event) }
    }

    private func emit(_ event: GeofenceEvent) throws {
        let (date, clock) = Self.dateAndClock(event.time, zone: zone)
        var text = ""
        if date != day {
            day = date
            text += date + " (\(zone?.identifier ?? "UTC"))\n"
        }
        let device = TerminalText.visible(event.device)
        let region = label(event.region)
        deviceWidth = max(deviceWidth, Self.width(device))
        regionWidth = max(regionWidth, Self.width(region))
        text += Self.padded(clock, 12) + "  " + Self.padded(device, deviceWidth) + "  "
        text += Self.padded(event.kind.description, 14) + "  " + Self.padded(region, regionWidth) + "  "
        text += Self.detail(event, day: date, zone: zone) + "\n"
        switch writer {
        case let .file(output): try output.write(text)
        case let .closure(write): write(text)
        }
    }

    /// The short human detail of an event.
    public static func detail(_ event: GeofenceEvent) -> String {
        detail(event, day: dateAndClock(event.time).date)
    }

    static func detail(_ event: GeofenceEvent, day: String, zone: LocalTimeZone? = nil) -> String {
        func at(_ time: Timestamp) -> String {
            let (date, clock) = dateAndClock(time, zone: zone)
            return date == day ? clock : date + " " + clock
        }
        var parts: [String] = []
        switch event.detail {
        case .monitorStart, .monitorStop, .monitorFailed:
            break
        case let .enter(crossedAt), let .exit(crossedAt):
            parts.append("crossed " + at(crossedAt))
        case let .visit(arrival, departure):
            parts.append("stayed " + (departure - arrival).readable)
            parts.append(at(arrival) + " to " + at(departure))
        case let .dwell(rule, _, span):
            parts.append("rule " + TerminalText.visible(JSONEscaping.string(rule)) + " after " + span.readable)
        }
        if let detectedAt = event.writtenDetectedAt { parts.append("decided " + at(detectedAt)) }  // delivered late
        parts.append(distance(event.distance))
        return parts.joined(separator: ", ")
    }

    /// `12.5 m inside`, `3.0 m outside`, `on the boundary`; rounded to 0.1 m, halves away from zero.
    public static func distance(_ meters: Double) -> String {
        guard meters.isFinite else { return "distance \(meters)" }
        if meters == 0 { return "on the boundary" }
        let side = meters < 0 ? "inside" : "outside"
        let magnitude = abs(meters)
        guard magnitude < 1e15 else { return "\(magnitude) m \(side)" }
        let tenths = Int64((magnitude * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) m \(side)"
    }

    /// `("2016-01-10", "12:00:05")`, or `"12:00:05.250"` when the milliseconds are not zero; on the
    /// wall clock of `zone` when given.
    static func dateAndClock(_ time: Timestamp, zone: LocalTimeZone? = nil) -> (date: String, clock: String) {
        let iso = (zone?.wallClock(time) ?? time).iso8601  // 2016-01-10T12:00:05.250Z
        let utf8 = Array(iso.utf8)
        let date = String(decoding: utf8[0..<10], as: UTF8.self)
        let millis = String(decoding: utf8[20..<23], as: UTF8.self)
        let clock = String(decoding: utf8[11..<19], as: UTF8.self)
        return (date, millis == "000" ? clock : clock + "." + millis)
    }

    private static func padded(_ text: String, _ columns: Int) -> String {
        let count = width(text)
        return count >= columns ? text : text + String(repeating: " ", count: columns - count)
    }

    /// Terminal columns of `text`: 2 for East Asian wide characters and emoji, 1 for the others
    /// (a character with combining marks counts once). An approximation of `wcswidth`, enough to
    /// keep columns aligned for ids in CJK or with emoji.
    static func width(_ text: String) -> Int {
        // ASCII without CR (which joins a following LF into one character) is one column a byte.
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { return text.utf8.count }
        var columns = 0
        for character in text {
            guard let first = character.unicodeScalars.first else { continue }
            let wide =
                first.properties.isEmojiPresentation
                || (first.properties.isEmoji && character.unicodeScalars.contains("\u{FE0F}"))
                || isEastAsianWide(first.value)
            columns += wide ? 2 : 1
        }
        return columns
    }

    private static func isEastAsianWide(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v)
    }
}

extension ConsoleSink {
    /// `console`: the readable timeline on standard output.
    public static let kind = SinkKind(schemes: ["console"], target: .standardOutput, form: "console") {
        spec, context throws(SinkError) in
        ConsoleSink(
            output: try OutputFile(path: "-", spec: spec.text), zone: context.displayZone,
            regionNames: context.regionNames)
    }
}
