import Documents
import Geofencing

/// Decoding of the `outcome:` entries of the `expect:` list into `OutcomeExpectation`s, every problem at
/// its key path and line.
///
/// Grammar: an entry `{outcome: {...}}` (no other key beside `outcome`), whose mapping has
/// - `rule: NAME` (a dwell rule of the scenario), or `region: ID` with `kind: enter` or `kind: visit`;
/// - `devices:` how many devices get it in one run: `{atLeast: N}`, `{atMost: M}`, both, `{exactly: N}`,
///   or an integer N for exactly N;
/// - `probability:` the share of runs in which that count holds: `">= 0.9"`, `"<= 0.1"`, `"== 1"`, or
///   `{atLeast: SHARE, atMost: SHARE}` (one or both, from 0 to 1); it needs `runs: N` at the top.
extension ScenarioLoader {
    static let outcomeKeys = ["rule", "region", "kind", "devices", "probability"]
    static let outcomeShape =
        "an outcome: a mapping such as {rule: coupon, devices: {atLeast: 10}, probability: \">= 0.9\"}"
    static let outcomeDevicesShape =
        "a number of devices: {atLeast: N}, {atMost: M}, both, {exactly: N}, or an integer N (integers of 0 or more)"
    static let outcomeProbabilityShape =
        "a share of runs from 0 to 1: \">= 0.9\", \"<= 0.1\", \"== 1\", or {atLeast: SHARE, atMost: SHARE}"

    /// The `outcome:` entries of `list` (the others are `expectations(…)`'s).
    func outcomeExpectations(_ list: [PlacedNode], known: KnownIDs, runs: Int?) -> [OutcomeExpectation] {
        list.compactMap { entry in
            guard entry.mappingHasKey("outcome"),
                let f = entry.mapping(
                    "an outcome expectation: {outcome: {...}} and nothing beside it but an id:",
                    allowed: ["outcome", "id"]),
                let node = f.required("outcome", Self.outcomeShape)
            else { return nil }
            var ok = true
            let id = f["id"].map { expectationID($0, &ok) } ?? nil
            var expectation = outcomeExpectation(node, known: known, runs: runs)
            expectation?.id = id
            return ok ? expectation : nil
        }
    }

    private func outcomeExpectation(_ c: PlacedNode, known: KnownIDs, runs: Int?) -> OutcomeExpectation? {
        guard let f = c.mapping(Self.outcomeShape, allowed: Self.outcomeKeys) else { return nil }
        var ok = true
        var key: OutcomeKey?
        switch (f["rule"], f["region"]) {
        case let (rule?, nil):
            if let kind = f["kind"] {
                kind.fail("kind goes with region; a rule's outcome is its dwell: leave kind out")
                ok = false
            }
            key = id(rule, "rule", known.rules, &ok).map { .rule($0) }
        case let (nil, region?):
            let id = id(region, "region", known.regions, &ok)
            let kind = f.required("kind", "enter or visit").flatMap { node -> GeofenceEvent.Kind? in
                if let text = node.scalarText, text == "enter" || text == "visit" { return GeofenceEvent.Kind(name: text) }
                node.expected("enter or visit")
                return nil
            }
            if let id, let kind { key = .region(id, kind: kind) }
        case (_?, _?):
            c.fail("expected rule or region, got both: an outcome is one rule, or one region's enter or visit")
        case (nil, nil):
            if f.misspelt.isDisjoint(with: ["rule", "region"]) {
                c.fail("expected rule: NAME (a dwell rule), or region: ID with kind: enter or visit; got neither")
            }
        }
        let devices = f.required("devices", Self.outcomeDevicesShape).flatMap(outcomeDevices)
        let probabilityNode = f.required("probability", Self.outcomeProbabilityShape)
        let probability = probabilityNode.flatMap(outcomeProbability)
        if let probabilityNode, probability != nil, runs == nil {
            probabilityNode.fail(
                "an outcome's probability is measured over a Monte Carlo batch: add runs: N (say 100) at the top of the scenario, with noise:"
            )
            ok = false
        }
        guard ok, let key, let devices, let probability else { return nil }
        return OutcomeExpectation(
            key: key, devices: devices, probability: probability, file: c.file, keyPath: c.path, line: c.line,
            column: c.column)
    }

    /// `devices: N`, `{exactly: N}`, or `{atLeast: N, atMost: M}` (one or both).
    private func outcomeDevices(_ c: PlacedNode) -> CountBounds? {
        let what = "a number of devices, an integer"
        if c.scalarText != nil {
            return c.integer(.nonNegative, what).flatMap { Int(exactly: $0) }.map(CountBounds.exactly)
        }
        if c.mappingHasKey("exactly") {
            guard let f = c.mapping(Self.outcomeDevicesShape, allowed: ["exactly", "atLeast", "atMost"]) else { return nil }
            if f.given("atLeast") != nil || f.given("atMost") != nil {
                c.fail("exactly goes alone: give {exactly: N}, or {atLeast: N, atMost: M}")
                return nil
            }
            return f.required("exactly", what).flatMap { $0.integer(.nonNegative, what) }.flatMap { Int(exactly: $0) }
                .map(CountBounds.exactly)
        }
        return bounds(c, Self.outcomeDevicesShape) { $0.integer(.nonNegative, what).flatMap { Int(exactly: $0) } }
            .map { CountBounds(atLeast: $0.atLeast, atMost: $0.atMost) }
    }

    /// `">= 0.9"`, `"<= 0.1"`, `"== 1"`, or `{atLeast, atMost}`.
    private func outcomeProbability(_ c: PlacedNode) -> ProbabilityBounds? {
        guard let text = c.scalarText else { return probability(c) }
        let trimmed = text.trimmingSpaces
        for op in [">=", "<=", "=="] where trimmed.hasPrefix(op) {
            let rest = String(trimmed.dropFirst(op.count).trimmingSpaces)
            guard let value = Self.share(rest) else { break }
            switch op {
            case ">=": return ProbabilityBounds(atLeast: value)
            case "<=": return ProbabilityBounds(atMost: value)
            default: return ProbabilityBounds(atLeast: value, atMost: value)
            }
        }
        c.expected(Self.outcomeProbabilityShape)
        return nil
    }

    /// A plain decimal from 0 to 1.
    private static func share(_ text: String) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(text),
            (0...1).contains(value)
        else { return nil }
        return value
    }
}
