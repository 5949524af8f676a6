import Geodesy
import Time

@testable import Geofencing

/// Helpers that make hand-computed cases readable: positions are metres east of (0, 0) on the equator,
/// where a great-circle distance is exactly R·Δlon, and times are seconds after `base`.
enum Walk {
    static let metersPerDegree = Earth.radius * .pi / 180
    static let base = Timestamp(iso8601: "2024-01-01T00:00:00Z")!

    /// The point `meters` east of (0, 0) (north of it with `north`).
    static func east(_ meters: Double, north: Double = 0) -> Coordinate {
        Coordinate(latitude: north / metersPerDegree, longitude: meters / metersPerDegree)
    }

    static func time(_ seconds: Double) -> Timestamp { base + TimeSpan(seconds: seconds)! }

    /// Fixes at 0, 1, … `seconds` s after `from` s, moving east from `x0` metres at `speed` m/s.
    static func line(from x0: Double, speed: Double, seconds: Int, from t0: Int = 0) -> [Fix] {
        (0...seconds).map { Fix(east(x0 + speed * Double($0)), at: time(Double(t0 + $0))) }
    }

    /// Two fixes only: a straight walk interpolated by the engine.
    static func leg(_ x0: Double, at t0: Double, to x1: Double, at t1: Double) -> [Fix] {
        [Fix(east(x0), at: time(t0)), Fix(east(x1), at: time(t1))]
    }

    /// One segment through `(metres east, seconds)` waypoints, interpolated by the engine.
    static func path(_ points: (Double, Double)...) -> [Fix] {
        points.map { Fix(east($0.0), at: time($0.1)) }
    }

    /// A circle centred `meters` east of (0, 0).
    static func circle(_ id: String, at meters: Double, radius: Double, north: Double = 0) -> Region {
        Region(id: id, shape: .circle(try! Circle(center: east(meters, north: north), radius: radius)))
    }

    /// A square polygon spanning [x0, x1] × [y0, y1] metres.
    static func square(_ id: String, x0: Double, x1: Double, y0: Double, y1: Double) -> Region {
        let ring = [east(x0, north: y0), east(x1, north: y0), east(x1, north: y1), east(x0, north: y1), east(x0, north: y0)]
        return Region(id: id, shape: .polygon(try! MultiPolygon([Polygon(rings: [ring])])))
    }
}

extension Simulation {
    /// The run's events, one compact line each: `SECONDS DEVICE KIND REGION [details]`, seconds after `Walk.base`.
    func eventLog(threads: Int = 1) throws -> [String] {
        let log = EventLog()
        try run(into: log, options: RunOptions(threads: threads, windowTicks: 7))
        return log.events.map(\.compact)
    }
}

extension GeofenceEvent {
    var compact: String {
        func s(_ t: Timestamp) -> String { seconds((t - Walk.base)) }
        func seconds(_ span: TimeSpan) -> String {
            span.microseconds % 1_000_000 == 0 ? String(span.microseconds / 1_000_000) : String(span.seconds)
        }
        var line = "\(s(time)) \(device) \(kind) \(region)"
        switch detail {
        case let .enter(c), let .exit(c): line += " crossed=\(s(c))"
        case let .visit(a, d): line += " \(s(a))-\(s(d))"
        case let .dwell(rule, _, duration): line += " \(rule)=\(seconds(duration))"
        default: break
        }
        if let detectedAt { line += " detected=\(s(detectedAt))" }
        return line
    }
}
