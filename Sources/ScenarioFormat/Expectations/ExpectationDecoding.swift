import Documents
import Geofencing
import Time

/// Decoding of the `expect:` list into `EventExpectation`s, with every problem reported at its key path and line.
///
/// Grammar (one mapping per entry; unknown keys are errors):
/// - `kind` (required): an event kind of SEMANTICS §7: `enter`, `exit`, `visit`, `dwell`, `monitor-start`,
///   `monitor-stop`, `monitor-failed`.
/// - `device`, `region`, `rule` (optional filters): ids that must exist in the scenario; `rule` (a dwell
///   rule's name) only with `kind: dwell`.
/// - exactly one of `at`, `between`, `count`, `never`, `after`; `count` and `never` may also take `between`
///   (then only events in the window count):
///   - `at: TIME` and optional `within: DURATION` (default 0): some matching event within that of TIME;
///   - `between: [TIME, TIME]`: some matching event in the window, both ends included;
///   - `count: N` (an integer of 0 or more): exactly N matching events; `count: {atLeast: N, atMost: M}`
///     (one or both): from N to M of them;
///   - `never: true`: no matching event;
///   - `after: {atLeast: DURATION, atMost: DURATION}` (one or both): the first matching event comes that
///     long after the clock's start; with `since: KIND` (an event kind, or `start`, the default), that
///     long after the last event of that kind before it of the same device and region (`since: enter`:
///     "within 3 minutes of the enter").
/// - `probability: {atLeast: SHARE, atMost: SHARE}` (optional; one or both, from 0 to 1): the condition is
///   evaluated on each run of the Monte Carlo batch of `runs: N` (which it needs), and the share of runs in
///   which it holds must lie within the bounds.
/// - `delay: {since: TIME, median: {atLeast, atMost}, …}` and `distance: {median: {atLeast, atMost}, …}`
///   (optional; `ExpectationMeasure`): measured on the first matching event of each run (in the window of
///   `between`), with bounds on their p10, median, mean and p90 over the runs; they need `runs: N`, and
///   without another condition the expectation asks only for some matching event.
/// - A TIME is `"HH:MM:SS"` (fractions of a second allowed), on the UTC date of the clock's start (a time
///   of day earlier than the start's stays on that date: it is never moved to the next day), or a full
///   ISO 8601 time such as `2016-01-10T12:01:57Z`.
extension ScenarioLoader {
    static let expectationKeys = [
        "kind", "device", "region", "rule", "at", "within", "between", "count", "never",
        "after", "probability", "delay", "distance", "id",
    ]
    static let expectationShape =
        "an expectation: a mapping such as {kind: enter, region: ID, at: \"12:01:57\", within: 30s}"
    static let conditionKeys = ["at", "between", "count", "never", "after"]
    /// In the order SEMANTICS §7 lists them.
    static let kindNames = ["enter", "exit", "visit", "dwell", "monitor-start", "monitor-stop", "monitor-failed"]

    /// The known ids, or nil for a list that did not load completely (unknown ids are then not reported,
    /// as they may name what failed to load).
    struct KnownIDs {
        var regions: [String]?
        var devices: [String]?
        var rules: [String]?
    }

    /// `runs`: the scenario's `runs:` (nil when absent), which `probability` needs.
    /// Times without a zone are in `zone` (the scenario's `timezone:`), else UTC.
    func expectations(
        _ list: [PlacedNode], clockStart: Timestamp, known: KnownIDs, runs: Int?,
        zone: LocalTimeZone? = nil
    ) -> [EventExpectation] {
        let clock = ExpectationClock(start: clockStart, zone: zone)
        // An `outcome:` entry is `outcomeExpectations(…)`'s.
        let decoded = list.compactMap {
            $0.mappingHasKey("outcome") ? nil : expectation($0, clock: clock, known: known, runs: runs)
        }
        clock.readAsUTC.warn()
        return decoded
    }

    private func expectation(_ c: PlacedNode, clock: ExpectationClock, known: KnownIDs, runs: Int?) -> EventExpectation? {
        guard let f = c.mapping(Self.expectationShape, allowed: Self.expectationKeys) else { return nil }
        let kindNames = Self.kindNames
        let kind = f.required("kind", "an event kind: one of \(kindNames.joined(separator: ", "))").flatMap { k in
            if let text = k.scalarText, let kind = GeofenceEvent.Kind(name: text) { return kind }
            k.expected("one of \(kindNames.joined(separator: ", "))")
            return nil
        }
        var ok = kind != nil
        let device = f["device"].flatMap { id($0, "device", known.devices, &ok) }
        let region = f["region"].flatMap { id($0, "region", known.regions, &ok) }
        let rule = f["rule"].flatMap { id($0, "rule", known.rules, &ok) }
        if let ruleCursor = f["rule"], let kind, kind != .dwell {
            ruleCursor.fail("a rule filter needs kind: dwell (only dwell events have a rule), got kind: \(kind)")
            ok = false
        }

        let present = Self.conditionKeys.filter { f[$0] != nil }
        let combined =
            present.count == 2 && present.contains("between")
            && (present.contains("count") || present.contains("never"))
        let measured = f["delay"] != nil || f["distance"] != nil
        if present.isEmpty && !measured {
            if f.misspelt.isDisjoint(with: Self.conditionKeys) {
                c.fail("expected one of at, between, count, never or after, got none of them")
            }
            return nil
        }
        if present.count > 1 && !combined {
            c.fail(
                "expected exactly one of at, between, count, never or after (count and never may go with between), got \(present.joined(separator: " and "))"
            )
            return nil
        }
        if let within = f["within"], !present.contains("at") {
            within.fail("within goes with at only; use between for a window")
            ok = false
        }
        let window = f["between"].map { self.window($0, clock: clock) }
        if window == .some(nil) { ok = false }

        let condition: EventExpectation.Condition?
        if let at = f["at"] {
            let time = self.time(at, clock: clock)
            let within = f["within"].map { $0.duration(.nonNegative) } ?? .zero
            if let time, let within { condition = .at(time, within: within) } else { condition = nil }
        } else if let count = f["count"] {
            condition = self.count(count).map { .count($0, in: window ?? nil) }
        } else if let never = f["never"] {
            if let text = never.scalarText, ["true", "True", "TRUE"].contains(text) {
                condition = .never(in: window ?? nil)
            } else {
                never.expected("true (leave never out to expect nothing of the kind)")
                condition = nil
            }
        } else if let after = f["after"] {
            condition = self.after(after)
        } else if let window = window ?? nil {
            condition = .between(window)
        } else if measured && window == nil {
            condition = .count(CountBounds(atLeast: 1), in: nil)  // some matching event, measured
        } else {
            condition = nil
        }
        var measures: [ExpectationMeasure] = []
        for (key, node) in [("delay", f["delay"]), ("distance", f["distance"])] {
            guard let node else { continue }
            let measure = key == "delay" ? delayMeasure(node, clock: clock) : distanceMeasure(node)
            if let measure { measures.append(measure) } else { ok = false }
            if runs == nil {
                node.fail(
                    "a \(key) is measured over a Monte Carlo batch: add runs: N (say 200) at the top of the scenario, with noise:"
                )
                ok = false
            }
        }
        var probability: ProbabilityBounds?
        if let node = f["probability"] {
            probability = self.probability(node)
            if probability == nil { ok = false }
            if probability != nil && runs == nil {
                node.fail(
                    "a probability is measured over a Monte Carlo batch: add runs: N (say 100) at the top of the scenario, with noise:"
                )
                ok = false
            }
        }
        let named = f["id"].map { expectationID($0, &ok) } ?? nil
        guard ok, let kind, let condition else { return nil }
        var expectation = EventExpectation(
            kind: kind, device: device, region: region, rule: rule, condition: condition,
            probability: probability, measures: measures, file: c.file, keyPath: c.path,
            line: c.line, column: c.column)
        expectation.id = named
        return expectation
    }

    /// An expectation's `id:`: a non-empty string of one line.
    func expectationID(_ c: PlacedNode, _ ok: inout Bool) -> String? {
        let what = "an expectation's id: a name of one line for its JUnit testcase, such as welcome-enter"
        guard let text = c.text(what), !text.contains(where: \.isNewline) else {
            if c.scalarText?.contains(where: \.isNewline) == true { c.expected(what) }
            ok = false
            return nil
        }
        return text
    }

    /// A device or region id, or a rule name, checked against the scenario's.
    func id(_ c: PlacedNode, _ what: String, _ known: [String]?, _ ok: inout Bool) -> String? {
        let noun = what == "rule" ? "a dwell rule's name" : "a \(what) id"
        guard let text = c.text("\(noun), a non-empty string") else {
            ok = false
            return nil
        }
        guard let known, !known.contains(text) else { return text }
        var message = what == "rule" ? "unknown rule \"\(text)\"" : "unknown \(what) id \"\(text)\""
        message += closestKey(to: text, in: known).map { "; did you mean \"\($0)\"?" } ?? "."
        let listed = known.prefix(10).joined(separator: ", ") + (known.count > 10 ? ", ..." : "")
        message += known.isEmpty ? " The scenario has no \(what)s." : " The scenario's \(what)s are: \(listed)."
        c.fail(message)
        ok = false
        return nil
    }

    private func timeHelp(_ clock: ExpectationClock) -> String {
        "a time: \"HH:MM:SS\" (on \(clock.day), the \(clock.zone?.identifier ?? "UTC") date of the clock's start) "
            + "or ISO 8601 such as 2016-01-10T12:01:57Z"
    }

    func time(_ c: PlacedNode, clock: ExpectationClock) -> Timestamp? {
        if let text = c.scalarText {
            if let (reading, hadZone) = Timestamp.read(iso8601: text, localZone: clock.zone) {
                if !hadZone { clock.noteZoneless(text, reading: reading, at: c) }
                return reading.instant
            }
            if let reading = clock.timeOfDay(text) {
                if let zone = clock.zone {
                    ZonelessTimes.warnIfUnclear("\(text) on \(clock.day)", reading: reading, on: zone, at: c)
                }
                return reading.instant
            }
        }
        c.expected(timeHelp(clock))
        return nil
    }

    /// `H:MM:SS` or `HH:MM:SS[.fraction]` on the UTC date of `day`.
    static func timeOfDay(_ text: String, on day: Timestamp) -> Timestamp? {
        let parts = text.trimmingSpaces.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts[0].allSatisfy(\.isASCIIDigitCharacter), parts[1].allSatisfy(\.isASCIIDigitCharacter),
            let hours = Int64(parts[0]), let minutes = Int64(parts[1]), hours <= 23, minutes <= 59
        else { return nil }
        let secondParts = parts[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard secondParts[0].count == 2, secondParts[0].allSatisfy(\.isASCIIDigitCharacter),
            let seconds = Int64(secondParts[0]), seconds <= 59
        else { return nil }
        var micros: Int64 = 0
        if secondParts.count == 2 {
            let fraction = secondParts[1]
            guard (1...6).contains(fraction.count), fraction.allSatisfy(\.isASCIIDigitCharacter),
                let value = Int64(fraction)
            else { return nil }
            micros = value
            for _ in fraction.count..<6 { micros *= 10 }
        }
        let dayMicros: Int64 = 86_400_000_000
        let t = day.microsecondsSince1970
        let midnight = (t >= 0 ? t / dayMicros : (t - dayMicros + 1) / dayMicros) * dayMicros
        return Timestamp(microsecondsSince1970: midnight + ((hours * 60 + minutes) * 60 + seconds) * 1_000_000 + micros)
    }

    private func window(_ c: PlacedNode, clock: ExpectationClock) -> TimeWindow? {
        guard let ends = c.list("a window [START, END] of two times") else { return nil }
        guard ends.count == 2 else {
            c.expected("a window [START, END] of two times")
            return nil
        }
        guard let start = time(ends[0], clock: clock), let end = time(ends[1], clock: clock)
        else { return nil }
        guard start <= end else {
            c.fail("the window ends before it starts: \(end.iso8601) is earlier than \(start.iso8601)")
            return nil
        }
        return TimeWindow(start, end)
    }

    /// `count: N`, or `count: {atLeast: N, atMost: M}` (one or both).
    private func count(_ c: PlacedNode) -> CountBounds? {
        let what = "a number of events, an integer"
        if c.scalarText != nil {
            return c.integer(.nonNegative, what).flatMap { Int(exactly: $0) }.map(CountBounds.exactly)
        }
        let shape = "{atLeast: N, atMost: M} (one or both, integers of 0 or more), or an integer N for exactly N"
        return bounds(c, shape) { $0.integer(.nonNegative, what).flatMap { Int(exactly: $0) } }
            .map { CountBounds(atLeast: $0.atLeast, atMost: $0.atMost) }
    }

    func probability(_ c: PlacedNode) -> ProbabilityBounds? {
        let shape = "{atLeast: SHARE, atMost: SHARE} (one or both, from 0 to 1)"
        return bounds(c, shape) { $0.number("a share of runs from 0 to 1", in: 0...1) }
            .map { ProbabilityBounds(atLeast: $0.atLeast, atMost: $0.atMost) }
    }

    /// `{atLeast: X, atMost: Y}` (one or both), each read by `read`; nil, with the problem reported, when
    /// neither is given, one cannot be read, or atMost is less than atLeast.
    func bounds<Value: Comparable>(
        _ c: PlacedNode, _ shape: String, _ read: (PlacedNode) -> Value?
    )
        -> (atLeast: Value?, atMost: Value?)?
    {
        guard let f = c.mapping(shape, allowed: ["atLeast", "atMost"]) else { return nil }
        let least = f["atLeast"].map(read)
        let most = f["atMost"].map(read)
        if least == nil && most == nil {
            if f.misspelt.isEmpty { c.expected(shape) }
            return nil
        }
        if least == .some(nil) || most == .some(nil) { return nil }
        if let l = least ?? nil, let m = most ?? nil, m < l {
            c.fail("atMost (\(m)) is less than atLeast (\(l))")
            return nil
        }
        return (least ?? nil, most ?? nil)
    }

    private func after(_ c: PlacedNode) -> EventExpectation.Condition? {
        let shape =
            "{atLeast: DURATION, atMost: DURATION, since: KIND} (one or both bounds; since: an event kind such as enter, or start, the default)"
        guard let f = c.mapping(shape, allowed: ["atLeast", "atMost", "since"]) else { return nil }
        let least = f["atLeast"].map { $0.duration(.nonNegative) }
        let most = f["atMost"].map { $0.duration(.nonNegative) }
        var since: GeofenceEvent.Kind?? = .some(nil)
        if let node = f["since"] {
            if let text = node.scalarText, text == "start" {
                since = .some(nil)
            } else if let text = node.scalarText, let kind = GeofenceEvent.Kind(name: text) {
                since = .some(kind)
            } else {
                node.expected("an event kind (\(Self.kindNames.joined(separator: ", "))) or start")
                since = nil
            }
        }
        if least == nil && most == nil {
            if f.misspelt.isDisjoint(with: ["atLeast", "atMost"]) { c.expected(shape) }
            return nil
        }
        if least == .some(nil) || most == .some(nil) { return nil }
        guard let anchor = since else { return nil }
        if let l = least ?? nil, let m = most ?? nil, m < l {
            c.fail("atMost (\(m) s) is less than atLeast (\(l) s)")
            return nil
        }
        if let kind = anchor { return .since(kind, atLeast: least ?? nil, atMost: most ?? nil) }
        return .after(atLeast: least ?? nil, atMost: most ?? nil)
    }
}

/// The day and zone an expectation's times of day are on: the date of the clock's start in the scenario's
/// `timezone:` (else UTC), a time of day read on it as the zone's clocks show it.
struct ExpectationClock {
    var start: Timestamp
    var zone: LocalTimeZone?
    /// The ISO times read as UTC for want of a zone, for the list's one warning.
    let readAsUTC = ZonelessTimes.Tally()

    /// An ISO time written without a zone: counted when read as UTC, checked against the zone's gaps
    /// when read on its clocks.
    func noteZoneless(_ text: String, reading: LocalReading, at c: PlacedNode) {
        guard let zone else { return readAsUTC.add(text, readAs: reading.instant, at: c) }
        ZonelessTimes.warnIfUnclear(text, reading: reading, on: zone, at: c)
    }

    /// The start as the zone's clocks show it (microseconds since 1970 as if UTC).
    private var wallClockStart: Timestamp {
        guard let zone else { return start }
        return Timestamp(microsecondsSince1970: start.microsecondsSince1970 + zone.secondsFromUTC(at: start) * 1_000_000)
    }

    /// `2016-01-10`.
    var day: Substring { wallClockStart.iso8601.prefix(10) }

    /// `HH:MM:SS[.fraction]` on that day, in the zone, with whether its clocks skip it or show it twice.
    func timeOfDay(_ text: String) -> LocalReading? {
        guard let local = ScenarioLoader.timeOfDay(text, on: wallClockStart) else { return nil }
        return zone.map { $0.reading(fromLocal: local.microsecondsSince1970) } ?? LocalReading(instant: local, change: nil)
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
