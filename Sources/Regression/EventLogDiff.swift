import Geofencing
import ReadableText
import TextEscaping
import Time
import WireFormat

/// How a run's events differ from a golden log, as a person would read it rather than a line diff.
///
/// Events are matched by (kind, device, region, rule), the i-th old event of a key with the i-th new one.
/// A matched pair whose time differs has `moved`; one with the same time but other fields different has
/// `changed`; old events left over have `vanished`, new ones `appeared`.
public struct EventLogDiff: Hashable, Sendable {
    public enum Change: Hashable, Sendable {
        case moved(old: WireEvent, new: WireEvent)
        case appeared(WireEvent)
        case vanished(WireEvent)
        /// Same key and time; `fields` are the wire keys that differ, in wire order.
        case changed(old: WireEvent, new: WireEvent, fields: [String])

        /// The time the change is listed by: the old time, or the new one for an event that appeared.
        var time: Timestamp {
            switch self {
            case let .moved(old, _), let .vanished(old), let .changed(old, _, _): return old.time
            case let .appeared(new): return new.time
            }
        }
    }

    /// In time order (then in the order found).
    public var changes: [Change]

    public var isEmpty: Bool { changes.isEmpty }

    public init(old: [WireEvent], new: [WireEvent]) {
        struct Key: Hashable {
            var kind: GeofenceEvent.Kind, device: String, region: String, rule: String?
            init(_ e: WireEvent) { kind = e.kind; device = e.device; region = e.region; rule = e.rule }
        }
        var newByKey: [Key: [WireEvent]] = [:]
        for event in new { newByKey[Key(event), default: []].append(event) }
        var used: [Key: Int] = [:]
        var found: [Change] = []
        for event in old {
            let key = Key(event)
            let index = used[key, default: 0]
            used[key] = index + 1
            guard let candidates = newByKey[key], index < candidates.count else {
                found.append(.vanished(event))
                continue
            }
            let match = candidates[index]
            if match.time != event.time {
                found.append(.moved(old: event, new: match))
            } else if match != event {
                // Fields that differ; none when the only difference is NaN (`null`) against NaN.
                let fields = Self.differingFields(event, match)
                if !fields.isEmpty { found.append(.changed(old: event, new: match, fields: fields)) }
            }
        }
        for (key, events) in newByKey {
            let taken = used[key, default: 0]
            if events.count > taken { for event in events[taken...] { found.append(.appeared(event)) } }
        }
        // By time; then changes to old events before appeared ones, each in its log's order.
        let position = Dictionary(new.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let oldPosition = Dictionary(old.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        func rank(_ c: Change) -> (Timestamp, Int, Int) {
            switch c {
            case let .appeared(e): return (e.time, 1, position[e] ?? 0)
            case let .moved(o, _), let .vanished(o), let .changed(o, _, _): return (o.time, 0, oldPosition[o] ?? 0)
            }
        }
        changes = found.sorted { a, b in
            let (ta, ka, pa) = rank(a), (tb, kb, pb) = rank(b)
            if ta != tb { return ta < tb }
            if ka != kb { return ka < kb }
            return pa < pb
        }
    }

    /// The wire fields (`WireField`, in wire order) whose values differ, NaN (`null`) equal to NaN: of a
    /// matched pair, whose key (kind, device, region, rule) and time are equal. O(fields).
    static func differingFields(_ a: WireEvent, _ b: WireEvent) -> [String] {
        WireField.allCases.filter { !$0.same(a, b) }.map(\.name)
    }

    /// Counts, e.g. `1 moved, 2 appeared`; kinds of change that did not happen are left out.
    public var summary: String {
        var moved = 0, appeared = 0, vanished = 0, changed = 0
        for change in changes {
            switch change {
            case .moved: moved += 1
            case .appeared: appeared += 1
            case .vanished: vanished += 1
            case .changed: changed += 1
            }
        }
        return [(moved, "moved"), (appeared, "appeared"), (vanished, "vanished"), (changed, "changed")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    /// One line per change, at most `limit`, then `… and N more differences`. Times are shown on the
    /// date of `day` (the clock's start), on `zone`'s clock (UTC when nil).
    public func lines(day: Timestamp, zone: LocalTimeZone? = nil, limit: Int = 20) -> [String] {
        var out = changes.prefix(limit).map { Self.line($0, day: day, zone: zone) }
        if changes.count > limit {
            let more = changes.count - limit
            out.append("… and \(more) more difference\(more == 1 ? "" : "s")")
        }
        return out
    }

    /// `enter lorrenzillos phone: 12:01:57 → 12:02:18 (+21 s)`, `+ exit lorrenzillos phone at 12:05:00`,
    /// `- dwell lorrenzillos phone "Thanks for visiting" at 12:02:07`,
    /// `enter lorrenzillos phone at 12:01:57: distance -229.25 → -231.0`.
    public static func line(_ change: Change, day: Timestamp, zone: LocalTimeZone? = nil) -> String {
        let show = { (t: Timestamp) in Readable.time(t, day: day, zone: zone) }
        switch change {
        case let .moved(old, new):
            return "\(label(old)): \(show(old.time)) → \(show(new.time)) (\(Readable.signed(new.time - old.time)))"
        case let .appeared(new):
            return "+ \(label(new)) at \(show(new.time))"
        case let .vanished(old):
            return "- \(label(old)) at \(show(old.time))"
        case let .changed(old, new, fields):
            let parts = fields.map { field -> String in
                let (a, b) = values(field, old, new, day: day, zone: zone)
                return "\(field) \(a) → \(b)"
            }
            return "\(label(old)) at \(show(old.time)): " + parts.joined(separator: ", ")
        }
    }

    /// `enter lorrenzillos phone`, `dwell lorrenzillos phone "Thanks for visiting"`.
    static func label(_ e: WireEvent) -> String {
        // Ids from a golden log are input: their controls escaped, so that none forges a line of the diff.
        ["\(e.kind)", e.region, e.device].map(TerminalText.visible).joined(separator: " ")
            + (e.rule.map { " " + TerminalText.quoted($0) } ?? "")
    }

    /// A field's old and new values (`field`: a `WireField`'s name), rounded for reading (distance to the
    /// centimetre, lat/lon to 1e-7°), or in full when the rounded texts would be equal; a duration as one.
    static func values(
        _ field: String, _ a: WireEvent, _ b: WireEvent, day: Timestamp, zone: LocalTimeZone? = nil
    ) -> (String, String) {
        guard let field = WireField(rawValue: field) else { return ("none", "none") }
        if field == .duration {
            return (a.duration.map(\.readable) ?? "none", b.duration.map(\.readable) ?? "none")
        }
        func shown(_ value: WireField.Value) -> String {
            switch value {
            case let .time(t): return Readable.time(t, day: day, zone: zone)
            case let .text(text): return TerminalText.visible(text)
            case let .number(x): return x.description
            case .absent: return "none"
            }
        }
        switch (field.value(of: a), field.value(of: b)) {
        case let (.number(x), .number(y)):
            let decimals = field == .distance ? 2 : 7
            let (rx, ry) = (Readable.number(x, decimals: decimals), Readable.number(y, decimals: decimals))
            return rx != ry ? (rx, ry) : (x.description, y.description)
        case let (x, y):
            return (shown(x), shown(y))
        }
    }
}
