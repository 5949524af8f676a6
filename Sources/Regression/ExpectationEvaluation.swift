import Geofencing
import ReadableText
import ScenarioFormat
import Time
import WireFormat

extension EventExpectation {
    /// True when `event` is of this expectation's kind and matches each filter that is set.
    public func matches(_ event: WireEvent) -> Bool {
        event.kind == kind && (device.map { $0 == event.device } ?? true)
            && (region.map { $0 == event.region } ?? true) && (rule.map { $0 == event.rule } ?? true)
    }

    /// Nil when the expectation holds for `events` (a run's events, in output order), else one sentence
    /// saying what was expected and what happened, e.g.
    /// `expected enter of lorrenzillos by phone at 12:01:57 ± 30 s; the nearest was at 12:02:31 (+34 s)`.
    /// Times are shown on the clock's start date (`clockStart`), which `after` also measures from, on the
    /// clocks of `zone` (the scenario's `timezone:`) when given.
    public func failure(in events: [WireEvent], clockStart: Timestamp, zone: LocalTimeZone? = nil) -> String? {
        let matching = events.filter(matches).map(\.time)
        let show = { (t: Timestamp) in Readable.time(t, day: clockStart, zone: zone) }
        func inWindow(_ window: TimeWindow?) -> String {
            window.map { " between \(show($0.start)) and \(show($0.end))" } ?? ""
        }
        switch condition {
        case let .at(target, within):
            let expected =
                "expected \(subject()) at \(show(target))"
                + (within == .zero ? "" : " ± \(within.readable)")
            guard let nearest = matching.min(by: { abs($0 - target) < abs($1 - target) }) else {
                return expected + "; there was none"
            }
            if abs(nearest - target) <= within { return nil }
            return expected + "; the nearest was at \(show(nearest)) (\(Readable.signed(nearest - target)))"
        case let .between(window):
            let expected = "expected \(subject())\(inWindow(window))"
            if matching.contains(where: window.contains) { return nil }
            func gap(_ t: Timestamp) -> TimeSpan { t < window.start ? window.start - t : t - window.end }
            guard let nearest = matching.min(by: { gap($0) < gap($1) }) else { return expected + "; there was none" }
            let side = nearest < window.start ? "before" : "after"
            return expected + "; the nearest was at \(show(nearest)) (\(gap(nearest).readable) \(side) the window)"
        case let .count(bounds, window):
            let counted = matching.filter { window?.contains($0) ?? true }
            if bounds.contains(counted.count) { return nil }
            return "expected \(bounds.phrase) \(subject(plural: bounds.isPlural))\(inWindow(window)), got \(counted.count)"
                + (counted.first.map { " (first at \(show($0)))" } ?? "")
        case let .never(window):
            let counted = matching.filter { window?.contains($0) ?? true }
            guard let first = counted.first else { return nil }
            return "expected no \(subject())\(inWindow(window)), got \(counted.count) (first at \(show(first)))"
        case let .after(atLeast, atMost):
            let expected = "expected \(subject()) \(Self.range(atLeast, atMost)) after the start (\(show(clockStart)))"
            guard let first = matching.first else { return expected + "; there was none" }
            let elapsed = first - clockStart
            if (atLeast.map { elapsed >= $0 } ?? true) && (atMost.map { elapsed <= $0 } ?? true) { return nil }
            return expected + "; the first was at \(show(first)), \(elapsed.readable) after the start"
        case let .since(anchorKind, atLeast, atMost):
            let expected =
                "expected \(subject()) \(Self.range(atLeast, atMost)) after the \(anchorKind) of its device and region"
            guard let index = events.firstIndex(where: matches) else { return expected + "; there was none" }
            let first = events[index]
            guard
                let anchor = events[..<index].last(where: {
                    $0.kind == anchorKind && $0.device == first.device && $0.region == first.region
                })
            else {
                return expected
                    + "; the first, at \(show(first.time)), had no \(anchorKind) of \(first.region) by \(first.device) before it"
            }
            let elapsed = first.time - anchor.time
            if (atLeast.map { elapsed >= $0 } ?? true) && (atMost.map { elapsed <= $0 } ?? true) { return nil }
            return expected
                + "; the first was at \(show(first.time)), \(elapsed.readable) after the \(anchorKind) at \(show(anchor.time))"
        }
    }

    /// `between 1 min and 5 min`, `at least 1 min`, `at most 3 min`.
    static func range(_ atLeast: TimeSpan?, _ atMost: TimeSpan?) -> String {
        switch (atLeast, atMost) {
        case let (l?, m?): return "between \(l.readable) and \(m.readable)"
        case let (l?, nil): return "at least \(l.readable)"
        case let (nil, m?): return "at most \(m.readable)"
        case (nil, nil): return "any time"
        }
    }

    /// What the expectation asks, for people: `enter of cafe by phone at 12:01:57 ± 30 s`, `no exit of
    /// home between 12:00:00 and 13:00:00`, `2 dwells "delivered"`, `dwell of cafe at most 3 min after the start`.
    public func statement(clockStart: Timestamp, zone: LocalTimeZone? = nil) -> String {
        let show = { (t: Timestamp) in Readable.time(t, day: clockStart, zone: zone) }
        func inWindow(_ window: TimeWindow?) -> String {
            window.map { " between \(show($0.start)) and \(show($0.end))" } ?? ""
        }
        switch condition {
        case let .at(target, within):
            return "\(subject()) at \(show(target))" + (within == .zero ? "" : " ± \(within.readable)")
        case let .between(window): return subject() + inWindow(window)
        case let .count(bounds, window): return "\(bounds.phrase) \(subject(plural: bounds.isPlural))" + inWindow(window)
        case let .never(window): return "no \(subject())" + inWindow(window)
        case let .after(atLeast, atMost): return "\(subject()) \(Self.range(atLeast, atMost)) after the start"
        case let .since(kind, atLeast, atMost): return "\(subject()) \(Self.range(atLeast, atMost)) after its \(kind)"
        }
    }

    /// `enter of lorrenzillos by phone`, `dwell "Thanks for visiting"`, `exits of home`.
    public func subject(plural: Bool = false) -> String {
        var text = kind.description + (plural ? "s" : "")
        if let rule { text += " \"\(rule)\"" }
        if let region { text += " of \(region)" }
        if let device { text += " by \(device)" }
        return text
    }

    /// `expect[2], line 14` (or the key path alone for an expectation built in code).
    public var placeDescription: String {
        line > 0 ? "\(keyPath.isEmpty ? "expect" : keyPath), line \(line)" : keyPath
    }
}

private func abs(_ span: TimeSpan) -> TimeSpan { TimeSpan(microseconds: Swift.abs(span.microseconds)) }
