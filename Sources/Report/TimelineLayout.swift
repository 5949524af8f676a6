import Analysis
import Geodesy
import Geofencing

/// One device's timeline, laid out in SVG units: a row per region and profile (regions the device has
/// an event with, in declaration order), the inside periods as bars, events as ticks and, with a Monte
/// Carlo batch, each event's p5–p95 spread as a band, on one time axis from its first fix to its last.
struct TimelineLayout {
    let device: String
    let fixes: [[Fix]]
    let profiles: [Profile]
    /// Each profile's events, all devices.
    let events: [[GeofenceEvent]]
    /// Each profile's Monte Carlo spread, or none.
    let spreads: [EventSpread]
    let regions: [String]
    /// The clock's start: times on its date are shown as times of day.
    let day: Timestamp

    static let labelWidth = 170.0
    static let plotWidth = 450.0
    static let width = 640
    static let rowHeight = 20

    func timeline(hidden: Bool) -> DeviceTimeline {
        let mine = events.map { $0.filter { $0.device == device && ReportBuilder.drawnKinds.contains($0.kind) } }
        let bands = spreads.map { $0.entries.filter { $0.key.device == device && ReportBuilder.drawnKinds.contains($0.key.kind) } }
        var times = fixes.flatMap { $0.map(\.time) } + mine.flatMap { $0.map(\.time) }
        times += bands.flatMap { $0.flatMap { [$0.p5, $0.p95] } }
        let t0 = times.min() ?? day, t1 = max(times.max() ?? day, t0 + .seconds(1))
        func x(_ t: Timestamp) -> Double { Self.labelWidth + Double((t - t0).microseconds) / Double((t1 - t0).microseconds) * Self.plotWidth }
        func show(_ t: Timestamp) -> String { Readable.time(t, day: day) }

        var rows: [TimelineRow] = []
        for region in regions {
            for (p, profile) in profiles.enumerated() {
                let here = mine[p].filter { $0.region == region }
                let spread = p < bands.count ? bands[p].filter { $0.key.region == region } : []
                guard !here.isEmpty || !spread.isEmpty else { continue }
                let y = 24 + rows.count * Self.rowHeight
                var bars: [TimelineSpan] = []
                var since: Timestamp?
                for event in here {
                    if event.kind == .enter { since = since ?? event.time }
                    if event.kind == .exit, let began = since {
                        bars.append(span(x(began), x(event.time), "inside \(show(began))–\(show(event.time))"))
                        since = nil
                    }
                }
                if let began = since { bars.append(span(x(began), x(t1), "inside from \(show(began)), still at the end")) }
                let ticks = here.map { event in
                    TimelineTick(x: svgNumber(x(event.time)), kind: event.kind.description,
                                 title: "\(event.kind)\(event.rule.map { " \"\($0)\"" } ?? "") at \(show(event.time)) (\(profile.rawValue))")
                }
                let bandSpans = spread.map { entry in
                    span(x(entry.p5), x(entry.p95), "\(entry.key.kind)\(entry.n > 1 ? " (\(entry.n))" : ""): p5 \(show(entry.p5)), p50 \(show(entry.p50)), p95 \(show(entry.p95)), in \(EventSpread.percent(entry.share)) of runs")
                }
                rows.append(TimelineRow(label: "\(region) · \(profile.rawValue)", y: y, labelY: y + 12, bars: bars,
                                        bands: bandSpans, ticks: ticks))
            }
        }
        let axis = (0...4).map { i -> AxisTick in
            let t = t0 + TimeSpan(microseconds: (t1 - t0).microseconds * Int64(i) / 4)
            return AxisTick(x: svgNumber(x(t)), label: show(t))
        }
        return DeviceTimeline(device: device, hidden: hidden, height: 40 + rows.count * Self.rowHeight, width: Self.width, rows: rows, axis: axis)
    }

    private func span(_ from: Double, _ to: Double, _ title: String) -> TimelineSpan {
        TimelineSpan(x: svgNumber(from), width: svgNumber(max(1.5, to - from)), title: title)
    }
}
