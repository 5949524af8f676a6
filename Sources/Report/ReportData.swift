import Analysis
import Foundation
import Geofencing
import TextEscaping
import Time

/// The page's events, track spans and Monte Carlo bands as one compact JSON object, from which its
/// script makes the event markers (one `circle.event` per enter, exit, dwell and visit of each profile)
/// and each device's timeline: a fleet's tens of thousands of markers weigh a third of what the same
/// markers written out as SVG elements would. Ids are given once, in lists, and referred to by index;
/// times are milliseconds since 1970.
///
/// ```json
/// {"profiles":["ios"],"devices":["phone"],"regions":["cafe"],"rules":["welcome"],"kinds":["enter","exit","dwell","visit"],
///  "events":[[0,-12.5,40.1,0,0,0,1452427317000,-229.2,1452427297000,null]],
///  "spans":[[1452427200000,1452427560000]],"bands":[[0,0,0,0,1,1452427313000,1452427317000,1452427321000,1.0]]}
/// ```
///
/// `events`: profile, x, y, device, region, kind, time, distance (m), crossedAt (or null), rule (or null).
/// `spans`: each device's first and last fix. `bands`: profile, device, region, kind, n (for enter, exit and dwell: the crossing of the exact track the events paired with), p5, p50, p95, share.
struct ReportData {
    var profiles: [String]
    var devices: [String]
    var regions: [String]
    var rules: [String]
    var events: [[GeofenceEvent]]
    var spans: [(Timestamp, Timestamp)?]
    var spreads: [EventSpread]
    var projection: MapProjection

    /// The kinds drawn, in the order `kinds` lists them in the JSON.
    static let kinds = ReportBuilder.drawnKinds

    /// The JSON text, with `<` escaped so that it can stand inside a `<script>` element.
    var json: String {
        func list(_ values: [String]) -> String { JSONText.array(values.map(JSONText.string)) }
        let deviceIndex = Dictionary(uniqueKeysWithValues: devices.enumerated().map { ($1, $0) })
        let regionIndex = Dictionary(uniqueKeysWithValues: regions.enumerated().map { ($1, $0) })
        var rows: [String] = []
        for (p, log) in events.enumerated() {
            for event in log {
                guard let kind = Self.kinds.firstIndex(of: event.kind) else { continue }
                let point = projection.point(event.coordinate)
                rows.append(
                    JSONText.array([
                        JSONText.integer(p), svgNumber(point.x), svgNumber(point.y),
                        JSONText.integer(deviceIndex[event.device] ?? 0), JSONText.integer(regionIndex[event.region] ?? 0),
                        JSONText.integer(kind), JSONText.integer(Self.millis(event.time)),
                        event.distance.isFinite ? svgNumber(event.distance) : JSONText.null,
                        event.crossedAt.map { JSONText.integer(Self.millis($0)) } ?? JSONText.null,
                        event.rule.flatMap { rules.firstIndex(of: $0) }.map(JSONText.integer) ?? JSONText.null,
                    ]))
            }
        }
        let spanRows = spans.map { span in
            span.map { JSONText.array([JSONText.integer(Self.millis($0.0)), JSONText.integer(Self.millis($0.1))]) }
                ?? JSONText.null
        }
        var bands: [String] = []
        for (p, spread) in spreads.enumerated() {
            for entry in spread.entries {
                guard let kind = Self.kinds.firstIndex(of: entry.key.kind), let d = deviceIndex[entry.key.device],
                    let r = regionIndex[entry.key.region], entry.group != .spurious,
                    let p5 = entry.p5, let p50 = entry.p50, let p95 = entry.p95
                else { continue }
                bands.append(
                    JSONText.array(
                        [p, d, r, kind, entry.n].map(JSONText.integer)
                            + [p5, p50, p95].map { JSONText.integer(Self.millis($0)) }
                            + [JSONText.number(entry.share)]))
            }
        }
        let out = JSONText.object([
            ("profiles", list(profiles)), ("devices", list(devices)), ("regions", list(regions)), ("rules", list(rules)),
            ("kinds", list(Self.kinds.map(\.description))), ("events", JSONText.array(rows)),
            ("spans", JSONText.array(spanRows)), ("bands", JSONText.array(bands)),
        ])
        return JSONText.inScript(out)
    }

    static func millis(_ t: Timestamp) -> Int64 {
        let us = t.microsecondsSince1970
        return us >= 0 ? us / 1000 : (us - 999) / 1000
    }
}
