import Analysis
import Documents
import Foundation
import Geodesy
import Geofencing
import ReadableText
import Runs
import ScenarioFormat
import TextEscaping
import Time

/// Builds a report's model: runs the scenario under each profile (and, with `runs`, a Monte Carlo batch
/// of each), compares the profiles with `ideal`, projects regions, tracks and events onto the map, and
/// lays out each device's timeline.
public struct ReportBuilder: Sendable {
    public let base: ScenarioRun
    public let profiles: [Profile]
    /// A Monte Carlo batch of this many runs for the spread bands; nil for none.
    public let runs: Int?
    public let seed: UInt64?
    /// An XYZ tile URL template (`https://tile.example/{z}/{x}/{y}.png`); nil: no base map.
    public let tiles: String?

    /// The kinds drawn as markers and ticks.
    static let drawnKinds: [GeofenceEvent.Kind] = [.enter, .exit, .dwell, .visit]
    /// Points per track, at most, once simplified for drawing.
    static let maxTrackPoints = 400

    /// Refuses (at `tick`, or at `noise` for `runs`) a profile the scenario cannot be run under.
    /// Whose clocks the page shows times on (`--timezone`, by the browser's own tz data); nil for UTC.
    public let timeZone: LocalTimeZone?
    /// One plain run of each profile: the events on the map.
    private let plain: ProfileBatch

    public init(
        _ base: ScenarioRun, profiles: [Profile], runs: Int? = nil, seed: UInt64? = nil,
        tiles: String? = nil, timeZone: LocalTimeZone? = nil
    ) throws(ScenarioErrors) {
        self.timeZone = timeZone
        plain = try ProfileBatch(base, profiles: profiles)
        _ = try ProfileBatch(base, profiles: [.ideal])
        if let runs {
            _ = try MonteCarlo(base, runs: runs, seed: seed)  // a scenario whose own runs are alike, as `run --runs`
            _ = try ProfileBatch(base, profiles: profiles, runs: runs, seed: seed)
        }
        self.base = base
        self.profiles = profiles
        self.runs = runs
        self.seed = seed
        self.tiles = tiles
    }

    /// The page's model. Each profile runs once for the map and, with `runs`, once per run of its
    /// Monte Carlo batch, whose runs give both the bands and the comparison (one `ProfileBatch`).
    func build(threads: Int) throws(ScenarioErrors) -> ReportModel {
        let scenario = base.scenario
        var runsByProfile: [[GeofenceEvent]] = []
        plain.forEachRun(threads: threads) { _, events in runsByProfile.append(events) }
        let compared = profiles.filter { $0 != .ideal }
        // The reference is the exact track (no noise), as compare's default: with noise, a run of its own.
        let exact = base.exact()
        // With noise or recorded tracks (SEMANTICS §9), the reference differs from a profile run of ideal.
        let noisy = base.simulation.noise != nil || base.simulation.hasRecordedDevices
        var comparison: ComparisonReport?
        var spreads: [EventSpread] = []
        // The devices that got each outcome, against the truth (`perimeter outcomes`).
        var outcomes = ScenarioOutcomes.tally(
            base, profiles: profiles, truth: ScenarioOutcomes.truth(of: base, threads: threads))
        if let runs {
            let crossings = exact.events(threads: threads).events
            spreads = profiles.map { _ in EventSpread(reference: crossings) }
            let spread = { (profile: Profile, events: [GeofenceEvent]) in
                if let index = profiles.firstIndex(of: profile) {
                    spreads[index].add(run: events)
                    outcomes.add(profile: index, events: events)
                }
            }
            if compared.isEmpty {
                try ProfileBatch(base, profiles: profiles, runs: runs, seed: seed)
                    .forEachRun(threads: threads) { run, events in spread(run.profile, events) }
            } else {
                comparison = try ScenarioComparison(base, profiles: compared, against: .ideal).compare(
                    runs: runs, seed: seed, threads: threads, alsoUnder: profiles.filter { $0 == .ideal },
                    observe: { profile, _, events in spread(profile, events) })
            }
        } else {
            for (index, events) in runsByProfile.enumerated() { outcomes.add(profile: index, events: events) }
        }
        if runs == nil && !compared.isEmpty {
            // The runs made for the map, paired as `perimeter compare` pairs them.
            let ideal =
                noisy
                ? exact.events(threads: threads).events
                : profiles.firstIndex(of: .ideal).map { runsByProfile[$0] } ?? exact.events(threads: threads).events
            comparison = ComparisonReport(
                scenario: scenario.name, reference: .ideal, referenceEvents: ideal,
                profiles: zip(profiles, runsByProfile).filter { $0.0 != .ideal }.map { ($0.0, $0.1) },
                day: base.simulation.clockStart, exactReference: noisy,
                truth: TrueDistance(base.simulation))
            comparison?.onTruePaths = base.simulation.hasRecordedDevices
        }

        let simulation = base.simulation
        let start = simulation.clockStart
        let tracks = simulation.devices.map { device in device.track.fixes(start: start) }
        var box = BoundingBox.empty
        for region in simulation.regions { box.extend(to: region.shape.bounds) }
        for segments in tracks { for segment in segments { for fix in segment { box.extend(to: fix.coordinate) } } }
        if box.minLatitude > box.maxLatitude {
            box = BoundingBox(minLatitude: 0, maxLatitude: 0, minLongitude: 0, maxLongitude: 0)
        }
        let centre = Coordinate(
            latitude: (box.minLatitude + box.maxLatitude) / 2,
            longitude: (box.minLongitude + box.maxLongitude) / 2)
        let projection = MapProjection(centre: centre)
        let corners = [
            projection.point(Coordinate(latitude: box.minLatitude, longitude: box.minLongitude)),
            projection.point(Coordinate(latitude: box.maxLatitude, longitude: box.maxLongitude)),
        ]
        let width = max(200, abs(corners[1].x - corners[0].x)), height = max(200, abs(corners[1].y - corners[0].y))
        let margin = 0.06 * max(width, height)
        let left = min(corners[0].x, corners[1].x) - margin, top = min(corners[0].y, corners[1].y) - margin
        let viewBox = [left, top, width + 2 * margin, height + 2 * margin].map(svgNumber).joined(separator: " ")
        // A fleet's tracks are drawn coarser: they are seen together, and they would outweigh the page.
        let tolerance = max(width, height) / (simulation.devices.count > 50 ? 1500 : 3000)

        let regions = simulation.regions.map { region in
            RegionShape(
                id: region.id, path: Self.path(of: region.shape, projection),
                label: (region.name.map { $0 + " · " } ?? "") + Self.describe(region.shape))
        }
        let trackLines = zip(simulation.devices, tracks).map { device, segments in
            TrackLine(
                device: device.id,
                path: segments.map { segment in
                    Self.polyline(segment.map { projection.point($0.coordinate) }, tolerance: tolerance)
                }.joined(separator: " "))
        }
        let layers = zip(profiles, runsByProfile).enumerated().map { index, pair in
            EventLayer(
                profile: pair.0.name, colourIndex: index,
                count: pair.1.filter { Self.drawnKinds.contains($0.kind) }.count)
        }
        let devices = simulation.devices.map { DeviceOption(id: $0.id) }
        let data = ReportData(
            profiles: profiles.map(\.name), devices: simulation.devices.map(\.id), regions: simulation.regions.map(\.id),
            rules: simulation.rules.map(\.name), events: runsByProfile,
            spans: tracks.map { segments in
                guard let first = segments.first?.first?.time, let last = segments.last?.last?.time else { return nil }
                return (first, last)
            },
            spreads: spreads, projection: projection)
        let compare = comparison.map(Self.compareRows) ?? []
        var notes: [String] = []
        if simulation.devices.count > 1 {
            notes.append(
                "Tracks are simplified for drawing (to \(Readable.distance(tolerance * projection.metresPerUnit))); markers are where each event's sample was."
            )
        }
        let settings = JSONText.object([
            ("metresPerUnit", JSONText.number(projection.metresPerUnit)), ("originX", JSONText.number(projection.originX)),
            ("originY", JSONText.number(projection.originY)), ("tiles", JSONText.string(tiles)),
            ("day", JSONText.integer(ReportData.millis(start))), ("timeZone", JSONText.string(timeZone?.identifier)),
        ])
        var model = ReportModel(
            title: scenario.name,
            subtitle:
                "\(profiles.map(\.name).joined(separator: ", ")) · \(simulation.devices.count) device\(simulation.devices.count == 1 ? "" : "s") · \(simulation.regions.count) region\(simulation.regions.count == 1 ? "" : "s") · clock from \(start.iso8601)\(timeZone.map { " · times on \($0.identifier) clocks" } ?? "")",
            viewBox: viewBox, regionCount: regions.count, trackCount: trackLines.count,
            eventCount: layers.reduce(0) { $0 + $1.count }, regions: regions, tracks: trackLines, layers: layers,
            devices: devices, manyDevices: devices.count > 1, compare: compare,
            hasCompare: !compare.isEmpty, reference: "ideal",
            monteCarlo: runs.map {
                "Bands: the p5–p95 spread of each event's time over \($0) Monte Carlo runs (noise seeds from \(seed ?? simulation.noise?.seed ?? 0))."
            },
            notes: notes, settingsJSON: JSONText.inScript(settings), dataJSON: data.json)
        var report = OutcomeReport(
            scenario: scenario.name, runs: runs ?? 1, seed: seed ?? simulation.noise?.seed ?? 0, day: start,
            outcomes: outcomes.outcomes)
        report.zone = timeZone
        Self.addOutcomes(report, to: &model)
        return model
    }

    /// The outcomes' table, caption and text alternative.
    private static func addOutcomes(_ report: OutcomeReport, to model: inout ReportModel) {
        model.outcomes = report.outcomes.flatMap { row in
            row.profiles.enumerated().map { i, outcome in
                OutcomeTableRow(
                    outcome: i == 0 ? row.key.description : "", truth: i == 0 ? String(row.truth) : "",
                    profile: outcome.profile, p5: outcome.devices.p5, median: outcome.devices.median,
                    p95: outcome.devices.p95, mean: Readable.number(outcome.devices.mean, decimals: 2),
                    fpMedian: outcome.falsePositives.median,
                    fpMean: Readable.number(outcome.falsePositives.mean, decimals: 2),
                    fnMedian: outcome.falseNegatives.median,
                    fnMean: Readable.number(outcome.falseNegatives.mean, decimals: 2),
                    first: i == 0)
            }
        }
        model.hasOutcomes = !model.outcomes.isEmpty
        (model.summary, model.summaryMore) = summaryLines(report)
        model.outcomesCaption =
            report.runs == 1
            ? "Devices that got each outcome in one run of each profile."
            : "Devices that got each outcome over \(report.runs) Monte Carlo runs of each profile (noise seeds from \(report.seed))."
        model.outcomesText = report.table
    }

    /// The outcomes' summary card (SEMANTICS §10), the first `summaryListed` outcomes: `rule "coupon"`,
    /// `truth 12 devices`, `ios 9 (7–11) · android 11 (10–12)`: each profile's median count of devices,
    /// with its p5–p95 when the runs are several and they differ. O(outcomes × profiles).
    static func summaryLines(_ report: OutcomeReport) -> (lines: [SummaryLine], more: String?) {
        let devices = { (n: Int) in "\(n) device\(n == 1 ? "" : "s")" }
        let lines = report.outcomes.prefix(summaryListed).map { row in
            SummaryLine(
                outcome: row.key.description, truth: "truth " + devices(row.truth),
                profiles: row.profiles.map { outcome in
                    let spread = outcome.devices
                    let range = spread.p5 == spread.p95 ? "" : " (\(spread.p5)–\(spread.p95))"
                    return "\(outcome.profile) \(spread.median)\(range)"
                }.joined(separator: " · "))
        }
        let left = report.outcomes.count - lines.count
        return (lines, left > 0 ? "and \(left) more outcome\(left == 1 ? "" : "s") in the table below" : nil)
    }

    /// Outcomes the summary card lists before leaving the rest to the table.
    static let summaryListed = 6

    /// `-12 m`, `63 m`: `Readable.distance` with the sign.
    static func signedDistance(_ metres: Meters) -> String { (metres < 0 ? "-" : "") + Readable.distance(Swift.abs(metres)) }

    private static func compareRows(_ report: ComparisonReport) -> [CompareRow] {
        report.profiles.flatMap { comparison in
            EventMatching.kinds.enumerated().map { index, kind in
                let tally = comparison.tally(kind)
                return CompareRow(
                    profile: comparison.profile.name, kind: kind.description, paired: tally.paired,
                    missed: tally.missed, spurious: tally.spurious, median: tally.median?.readable ?? "–",
                    p90: tally.p90?.readable ?? "–", max: tally.max?.readable ?? "–",
                    distanceMedian: tally.distanceMedian.map(Self.signedDistance) ?? "–",
                    distanceP90: tally.distanceP90.map(Self.signedDistance) ?? "–", first: index == 0)
            }
        }
    }
}
