import Documents
import Geodesy
import NumberText
import Time
import TrackSynthesis

/// Reads journey files (`perimeter track synth`) into `Journey`s, checked like scenarios: unknown keys and
/// bad values are errors with file, line, column and key path, all reported at once.
///
/// ```yaml
/// name: Walk to the pier           # optional: the GPX track's name
/// start: 2024-05-01T09:00:00Z      # time of the first fix (whole milliseconds)
/// seed: 7                          # noise seed, an integer of 0 or more (default 0)
/// interval: 1s                     # time between fixes (default 1 s; whole milliseconds)
/// noise: 5m                        # Gaussian sigma north and east (default 0), or
///                                  # {sigma: 5m, correlation: 30s}: the error wanders (as a scenario's)
/// route:
///   - at: [59.9343, 30.3351]        # [lat, lon]: where it starts (first, and only first)
///   - to: [59.9400, 30.3150]        # a move along the great circle…
///     speed: 12                     # …at m/s, or "12m/s", "40km/h"
///   - stop: 5m                      # stand still
///   - lost: 3m                      # no fixes for this long; the route goes on meanwhile
/// ```
public enum JourneyLoader {
    static let topKeys = ["name", "start", "seed", "interval", "noise", "route"]
    static let stepKeys = ["at", "to", "speed", "stop", "lost"]
    static let actions = ["at", "to", "stop", "lost"]

    public static func load(path: String) throws(ScenarioErrors) -> Journey {
        let d = ProblemLog()
        guard let root = YAMLDocument.compose(path, what: "a journey (a YAML or JSON mapping)", diagnostics: d),
            let top = PlacedNode(node: root, path: "", file: path, diagnostics: d, isOwnText: true)
                .mapping("a journey: a mapping of start, interval, route and the like", allowed: topKeys)
        else { throw ScenarioErrors(d.errors) }

        let name = top["name"]?.text("the track's name")
        let start = top.required("start", "the time of the first fix in ISO 8601, such as 2024-05-01T09:00:00Z")
            .flatMap { c -> Timestamp? in
                if let text = c.scalarText, let time = Timestamp(iso8601: text), time.microsecondsSince1970 % 1000 == 0 {
                    return time
                }
                c.expected("a time in ISO 8601 such as 2024-05-01T09:00:00Z, in whole milliseconds")
                return nil
            }
        let seed = top["seed"].map { $0.integer(.nonNegative, "a seed, an integer") } ?? 0
        let interval =
            top["interval"].map { c -> TimeSpan? in
                guard let span = c.duration(.positive) else { return nil }
                guard span.microseconds % 1000 == 0 else {
                    c.fail("expected whole milliseconds (GPX times have milliseconds), got \(c.got)")
                    return nil
                }
                return span
            } ?? .seconds(1)
        let (noise, correlation) = top["noise"].map(Self.noise) ?? (0, .zero)

        var origin: Coordinate?
        var steps: [Journey.Step] = []
        var here: Coordinate?
        var total: Double = 0  // seconds
        var tooLong = false
        if let list = top.required("route", "a list of steps starting with {at: [lat, lon]}")?
            .list("a list of steps starting with {at: [lat, lon]}")
        {
            if list.isEmpty {
                top["route"]?.fail("the route is empty; expected a list of steps starting with {at: [lat, lon]}")
            }
            for (index, c) in list.enumerated() {
                switch step(c, first: index == 0) {
                case let .origin(point)?:
                    origin = point
                    here = point
                case let .step(step, place)?:
                    steps.append(step)
                    // Durations add up only while every earlier step was read: a bad one is reported already.
                    guard !tooLong, let from = here else { break }
                    switch step {
                    case let .move(to, speed):
                        total += from.distance(to: to) / speed
                        here = to
                    case let .stop(span): total += span.seconds
                    case .lost: break
                    }
                    if total > longestRoute.seconds {
                        tooLong = true
                        place.fail(
                            "the route would take \(Int(total / 86_400)) days by here; a journey may last at most 366 days")
                    }
                case nil: here = nil
                }
            }
        }
        if !d.hasErrors, let interval, let route = top["route"] {
            let fixes = total / interval.seconds + 1
            if fixes > Double(mostFixes) {
                route.fail(
                    "the route takes \(TimeSpan(seconds: total.rounded()) ?? .zero) s, which at one fix every \(interval) s makes \(Int64(fixes)) fixes; at most \(mostFixes) are allowed: use a longer interval"
                )
            }
        }
        if d.hasErrors { throw ScenarioErrors(d.errors) }
        guard let start, let seed, let interval, let noise, let correlation, let origin else {
            throw ScenarioErrors(d.errors)
        }
        return Journey(
            name: name, start: start, seed: UInt64(seed), interval: interval, noise: noise,
            noiseCorrelation: correlation, origin: origin, steps: steps)
    }

    /// `noise: 5m`, or `noise: {sigma: 5m, correlation: 30s}` (the seed is the journey's `seed:`).
    private static func noise(_ c: PlacedNode) -> (Meters?, TimeSpan?) {
        if c.scalarText != nil { return (c.distance(.nonNegative), .zero) }
        guard
            let f = c.mapping(
                "GPS noise: a sigma such as 5m, or {sigma: 5m, correlation: 30s}",
                allowed: ["sigma", "correlation"])
        else { return (nil, nil) }
        let sigma = f.required("sigma", "a distance in metres of 0 or more")?.distance(.nonNegative)
        let correlation = f["correlation"].map { $0.duration(.nonNegative) } ?? .zero
        return (sigma, correlation)
    }

    private enum Parsed {
        case origin(Coordinate)
        case step(Journey.Step, PlacedNode)
    }

    /// The longest route a journey may describe, and the most fixes it may make: past these a typo
    /// (a speed of 0.0001) would make the tool run for hours or fill the disk.
    static let longestRoute = TimeSpan.seconds(366 * 86_400)
    static let mostFixes: Int64 = 10_000_000

    private static func step(_ c: PlacedNode, first: Bool) -> Parsed? {
        let what = "a step: {at: [lat, lon]}, {to: [lat, lon], speed: …}, {stop: DURATION} or {lost: DURATION}"
        guard let f = c.mapping(what, allowed: stepKeys) else { return nil }
        let present = actions.filter { key in f.keys.contains(key) }
        guard let action = present.first, let given = f.given(action) else {
            if f.misspelt.isEmpty { c.fail("expected one of at, to, stop or lost in each step, got none") }
            return nil
        }
        if present.count > 1, let second = f.given(present[1]) {
            second.fail(
                "one step per entry: \"\(present[0])\" and \"\(present[1])\" are both here; put them in separate entries")
            return nil
        }
        if action != "to", let speed = f.given("speed") {
            speed.fail("speed goes with \"to\" only, not with \"\(action)\"")
            return nil
        }
        switch action {
        case "at":
            let at = given
            guard first else {
                at.fail("only the first step may be \"at\" (where the route starts); use \"to\" to move")
                return nil
            }
            return coordinate(at).map(Parsed.origin)
        case "to":
            let to = given
            if first {
                to.fail("the route must start with {at: [lat, lon]}, where the device is at the start time")
                return nil
            }
            let target = coordinate(to)
            let speedCursor = f.required(
                "speed", "a speed greater than 0: metres per second, or a string like \"12m/s\" or \"40km/h\"")
            let speed = speedCursor.flatMap(speedValue)
            guard let target, let speed, let speedCursor else { return nil }
            return .step(.move(to: target, speed: speed), speedCursor)
        default:
            let value = given
            if first {
                value.fail("the route must start with {at: [lat, lon]}, where the device is at the start time")
                return nil
            }
            guard let span = value.duration(.positive) else { return nil }
            return .step(action == "stop" ? .stop(span) : .lost(span), value)
        }
    }

    private static func coordinate(_ c: PlacedNode) -> Coordinate? {
        let what = "a position [lat, lon] in degrees, latitude in [-90, 90] and longitude in [-180, 180]"
        guard case let .sequence(sequence, _) = c.node, sequence.count == 2 else {
            c.expected(what)
            return nil
        }
        let lat = c.element(0, sequence[0]).number("a latitude in degrees in [-90, 90]", in: -90...90)
        let lon = c.element(1, sequence[1]).number("a longitude in degrees in [-180, 180]", in: -180...180)
        guard let lat, let lon else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
    }

    private static func speedValue(_ c: PlacedNode) -> Double? {
        if let text = c.scalarText, let speed = JourneyUnits.speed(text), speed > 0 { return speed }
        c.expected("a speed greater than 0: metres per second, or a string like \"12m/s\" or \"40km/h\"")
        return nil
    }
}

/// Speeds in journey files.
public enum JourneyUnits {
    /// Metres per second: a number (`12`, `1.4`) or a number with `m/s` or `km/h` (`"12m/s"`, `"40 km/h"`).
    /// Nil when not of that form or not finite; the sign is kept for the caller to check.
    public static func speed(_ text: String) -> Double? {
        let trimmed = String(text.trimmingSpaces)
        for (unit, factor) in [("km/h", 1000.0 / 3600), ("m/s", 1.0), ("", 1.0)] {
            guard trimmed.hasSuffix(unit) else { continue }
            let number = String(trimmed.dropLast(unit.count).trimmingSpaces)
            guard !number.isEmpty, ExactDecimal(number) != nil, let value = Double(number) else { return nil }
            let speed = value * factor
            return speed.isFinite ? speed : nil
        }
        return nil
    }
}
