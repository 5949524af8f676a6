import Documents
import Geodesy
import Geofencing
import Parallel
import ReadableText
import Time

/// Warnings for what loads but is almost certainly a slip of the pen, which a run would otherwise take
/// silently: a radius in kilometres written as metres, latitude and longitude swapped, a dwell in
/// milliseconds written as seconds. Each names the region or rule, with the number, at its place in the
/// file; `validate` and `run` print them.
extension ScenarioLoader {
    /// The smallest radius a phone can tell apart: GPS fixes are rarely better than this.
    static let plausibleRadius: Meters = 5
    /// A circle larger than this is almost surely a slip of the unit (a country is a polygon).
    static let plausibleLargestRadius: Meters = 1_000_000
    /// A region farther than this from every device's track can never be reached.
    static let reachableDistance: Meters = 10_000
    /// Regions named one by one before the rest are counted.
    static let farRegionsListed = 10

    /// Records the warnings; O(regions × devices). `facts`: the tracks' (`Simulation.trackFacts`), which
    /// the run's size was checked with.
    /// `startCursor` is the scenario's `start:` (nil when the clock starts at the tracks' first fix),
    /// `devicesCursor` its `devices:`. `fixTables` are the tables the scenario read into `diagnostics`, its
    /// own log: a region read into a log of its own (a region file's feature) is not measured against them.
    func warnAboutLikelyMistakes(
        _ simulation: Simulation, facts: [TrackFacts], regions: [PlacedRegion], fixTables: [ReadFixTable],
        diagnostics: ProblemLog, list: PlacedNode?, rules: [PlacedNode],
        startCursor: PlacedNode? = nil, devicesCursor: PlacedNode? = nil
    ) {
        warnAboutTinyCircles(regions)
        warnAboutHugeCircles(regions)
        for unenterable in simulation.unenterableRegions(facts: facts) {
            let placed = regions[unenterable.index]
            placed.origin.warn(Self.neverEntered(placed.region, unenterable, profile: simulation.profile))
        }
        for unexitable in simulation.unexitableRegions(facts: facts) {
            let placed = regions[unexitable.index]
            placed.origin.warn(Self.neverExited(placed.region, unexitable, profile: simulation.profile))
        }
        let start = simulation.clockStart
        let tracks = zip(simulation.devices, facts).map { TrackExtent($1, id: $0.id) }
        warnAboutUnreachableRegions(tracks, regions: regions, fixTables: fixTables, diagnostics: diagnostics, list: list)
        warnAboutEndlessRules(simulation.rules, tracks: tracks, rules: rules)
        if let place = startCursor ?? devicesCursor { warnAboutTracksBeforeTheClock(tracks, start: start, at: place) }
        if let place = devicesCursor { warnAboutDevicesWithoutFixes(tracks, at: place) }
    }

    /// One warning for the devices whose track holds no fix at all (an empty GPX, every point dropped):
    /// they have no sample and no event.
    private func warnAboutDevicesWithoutFixes(_ tracks: [TrackExtent], at place: PlacedNode) {
        let empty = tracks.filter { $0.box == nil }
        guard !empty.isEmpty else { return }
        let listed =
            empty.prefix(Self.farRegionsListed).map { "\"\($0.id)\"" }.joined(separator: ", ")
            + (empty.count > Self.farRegionsListed ? ", and \(empty.count - Self.farRegionsListed) more" : "")
        place.warn(
            "\(empty.count) of \(tracks.count) devices have no fix in their track, so no sample and no event: \(listed)")
    }

    /// One warning when some tracks end before the clock starts (those devices have no sample), saying so
    /// more loudly when all do (the run has no events): a `start:` meant in another zone is the usual cause.
    private func warnAboutTracksBeforeTheClock(_ tracks: [TrackExtent], start: Timestamp, at place: PlacedNode) {
        let ended = tracks.filter { $0.end.map { $0 < start } ?? false }
        guard !ended.isEmpty else { return }
        let all = ended.count == tracks.count
        let listed =
            ended.prefix(Self.farRegionsListed).map { "\($0.id)'s at \($0.end?.iso8601 ?? "")" }.joined(separator: ", ")
            + (ended.count > Self.farRegionsListed ? ", and \(ended.count - Self.farRegionsListed) more" : "")
        let subject =
            all
            ? "every device's track ends before the clock starts at \(start.iso8601), so the run has no "
                + "sample and no event"
            : "\(ended.count) of \(tracks.count) devices' tracks end before the clock starts at "
                + "\(start.iso8601), so they have no sample"
        place.warn(subject + " (\(listed)); is start: a local time? Write it with its offset, or give timezone: NAME")
    }

    /// Where and when a device's track goes: its bounding box and the span of its times (nil without fixes).
    struct TrackExtent {
        var id: String
        var box: BoundingBox?
        var span: TimeSpan?
        /// The time of its last fix.
        var end: Timestamp?

        init(_ facts: TrackFacts, id: String) {
            self.id = id
            box = facts.box
            span = facts.span
            end = facts.last
        }
    }

    private func warnAboutTinyCircles(_ regions: [PlacedRegion]) {
        for placed in regions {
            guard case let .circle(circle) = placed.region.shape, circle.radius < Self.plausibleRadius else { continue }
            let radius = Readable.number(circle.radius, decimals: 3)
            var message =
                "region \"\(placed.region.id)\" has a radius of \(radius) m, less than a phone's GPS can tell "
                + "apart (\(Int(Self.plausibleRadius)) m at best): a device is almost never inside it"
            if circle.radius * 1000 >= Self.plausibleRadius {
                message += "; a radius without a unit is in metres: did you mean \"\(radius)km\"?"
            }
            placed.origin.warn(message)
        }
    }

    /// `region "cafe" can never get an enter under the android profile: …`, for the loader's warning and
    /// for a run under another profile (`ScenarioRun`).
    public static func neverEntered(_ region: Region, _ unenterable: UnenterableRegion, profile: Profile) -> String {
        "region \"\(region.id)\" can never get an enter under the \(profile.name) profile: "
            + unenterable.reason(shape: region.shape) + outlierCaveat(profile)
            + "; make the region larger, or lower its enterConfidence (or the monitor's) if your phones enter it"
    }

    /// `, but on an outlier episode's fix`: under a profile with outliers (SEMANTICS §2) any fence may fire,
    /// rarely, on a fix hundreds of metres off.
    private static func outlierCaveat(_ profile: Profile) -> String {
        profile.settings.outliers == nil ? "" : " (but on an outlier episode's fix, hundreds of metres off: rarely)"
    }

    /// `region "cafe" can never get an exit under the ios profile: …`.
    public static func neverExited(_ region: Region, _ unexitable: UnexitableRegion, profile: Profile) -> String {
        "region \"\(region.id)\" can never get an exit under the \(profile.name) profile from these tracks: "
            + unexitable.reason + outlierCaveat(profile) + "; a stay there never ends with an exit or a visit"
    }

    private func warnAboutHugeCircles(_ regions: [PlacedRegion]) {
        for placed in regions {
            guard case let .circle(circle) = placed.region.shape, circle.radius > Self.plausibleLargestRadius else {
                continue
            }
            placed.origin.warn(
                "region \"\(placed.region.id)\" has a radius of \(Readable.distance(circle.radius)), "
                    + "far larger than any geofence a phone monitors (tens of metres to a few kilometres): check its unit "
                    + "(a radius without one is in metres)")
        }
    }

    /// The least bound over the tracks' boxes (not empty): the point's cosine once, not once a box, and no
    /// array made (with 100,000 regions this check took a sixth of a run's instructions). O(boxes).
    private static func nearest(_ point: Coordinate, _ boxes: [BoundingBox]) -> Meters {
        let cosLatitude = PreparedCoordinate(point).cosLatitude
        var least = boxes[0].lowerBoundDistance(from: point, cosLatitude: cosLatitude)
        for box in boxes.dropFirst() {
            let bound = box.lowerBoundDistance(from: point, cosLatitude: cosLatitude)
            if bound < least { least = bound }
        }
        return least
    }

    /// Whether `point` is farther than `metres` from `union` (the box holding every track's), with room for
    /// rounding. O(1).
    private static func surelyBeyond(_ point: Coordinate, _ metres: Meters, _ union: BoundingBox) -> Bool {
        union.safeLowerBoundDistance(from: point, cosLatitude: PreparedCoordinate(point).cosLatitude) > metres
    }

    /// One warning for the regions no device comes near (a region with latitude and longitude swapped
    /// gets one of its own, saying so).
    private func warnAboutUnreachableRegions(
        _ tracks: [TrackExtent], regions: [PlacedRegion], fixTables: [ReadFixTable],
        diagnostics: ProblemLog, list: PlacedNode?
    ) {
        let boxes = tracks.compactMap(\.box)
        guard !boxes.isEmpty else { return }
        func nearest(_ point: Coordinate) -> Meters { Self.nearest(point, boxes) }
        // The box holding every track's: its bound is at most each box's (the gaps only shrink), so a point
        // beyond reach of it, with room for rounding, is beyond reach of them all without a bound a box.
        let union = boxes.reduce(into: BoundingBox.empty) { $0.extend(to: $1) }
        func surelyBeyond(_ point: Coordinate, _ metres: Meters) -> Bool { Self.surelyBeyond(point, metres, union) }
        /// The region's centre and how far it reaches from it.
        func extent(_ index: Int) -> (centre: Coordinate, reach: Meters) {
            let bounds = regions[index].region.shape.bounds
            return (
                Coordinate(
                    latitude: (bounds.minLatitude + bounds.maxLatitude) / 2,
                    longitude: (bounds.minLongitude + bounds.maxLongitude) / 2), halfDiagonal(bounds)
            )
        }
        /// Whether some region is within reach of the box holding `tables`' tracks. O(regions).
        func anyRegionNear(_ tables: [TrackExtent]) -> Bool {
            var box = BoundingBox.empty
            for track in tables { if let own = track.box { box.extend(to: own) } }
            guard box.minLatitude <= box.maxLatitude else { return false }
            return regions.indices.contains { index in
                let (centre, reach) = extent(index)
                return box.lowerBoundDistance(from: centre) - reach <= Self.reachableDistance
            }
        }
        // Which regions some track comes near (most of them), measured on the loader's threads, in chunks.
        let extents = regions.indices.map(extent)
        let chunk = 1024
        let near = concurrentMap((extents.count + chunk - 1) / chunk, threads: threads) { [boxes, union] c in
            extents[c * chunk..<min(extents.count, (c + 1) * chunk)].map { centre, reach in
                !Self.surelyBeyond(centre, Self.reachableDistance + reach, union)
                    && Self.nearest(centre, boxes) - reach <= Self.reachableDistance
            }
        }.joined()
        var far: [Int] = []  // their distances are measured for the ones listed only
        var tablesWarned: Set<String> = []
        for (index, isNear) in zip(regions.indices, near) where !isNear {
            let (centre, reach) = extents[index]
            let swapped = Coordinate(latitude: centre.longitude, longitude: centre.latitude)
            if abs(centre.longitude) <= 90, !surelyBeyond(swapped, Self.reachableDistance),
                nearest(swapped) <= Self.reachableDistance
            {
                let placed = regions[index]
                // Tracks of a fix table near the swapped centre, and no region near the table's fixes: the
                // table's columns are swapped, not the region.
                let near = tracks.filter {
                    $0.box.map { $0.lowerBoundDistance(from: swapped) <= Self.reachableDistance } ?? false
                }
                if placed.origin.diagnostics === diagnostics,
                    let table = fixTables.first(where: { table in near.contains { table.devices.contains($0.id) } }),
                    !anyRegionNear(tracks.filter { table.devices.contains($0.id) })
                {
                    if tablesWarned.insert(table.file).inserted {  // one warning a table
                        placed.origin.diagnostics.warning(
                            table.swappedColumnsWarning(region: placed.region.id, distance: nearest(centre) - reach))
                    }
                    continue
                }
                placed.origin.warn(
                    "region \"\(placed.region.id)\" is at least \(Readable.distance(nearest(centre) - reach)) "
                        + "from every device's track, and would be near them with latitude and longitude the other way "
                        + "round: are they swapped? (lat \(centre.latitude), lon \(centre.longitude))")
            } else {
                far.append(index)
            }
        }
        guard !far.isEmpty, let place = list ?? regions.first?.origin else { return }
        let named = far.prefix(Self.farRegionsListed).map { index in
            let (centre, reach) = extent(index)
            return "\(regions[index].region.id) (\(Readable.distance(nearest(centre) - reach)))"
        }
        let more = far.count > Self.farRegionsListed ? ", ..." : ""
        let all = far.count == regions.count
        let subject = all ? "every region is" : "\(far.count) of \(regions.count) regions \(far.count == 1 ? "is" : "are")"
        place.warn(
            "\(subject) more than "
                + "\(Readable.distance(Self.reachableDistance)) from every device's track, so no device can reach "
                + "\(far.count == 1 ? "it" : "them"): \(named.joined(separator: ", "))\(more)"
                + (all ? "; are the coordinates right?" : ""))
    }

    /// Half the box's diagonal, in metres along the meridian and the parallel: how far its shape reaches
    /// from its centre, at most.
    private func halfDiagonal(_ box: BoundingBox) -> Meters {
        let north = Earth.radius * (box.maxLatitude - box.minLatitude).radians / 2
        let east = Earth.radius * (box.maxLongitude - box.minLongitude).radians / 2
        return (north * north + east * east).squareRoot()
    }

    private func warnAboutEndlessRules(_ dwellRules: [DwellRule], tracks: [TrackExtent], rules: [PlacedNode]) {
        let spans: [(String, TimeSpan)] = tracks.compactMap { track in track.span.map { (track.id, $0) } }
        guard let longest = spans.max(by: { $0.1 < $1.1 }), rules.count == dwellRules.count else { return }
        for (rule, node) in zip(dwellRules, rules) where rule.duration > longest.1 {
            var message =
                "rule \"\(rule.name)\" needs \(rule.duration.readable) inside a region, longer than every track "
                + "(the longest, \(longest.0)'s, lasts \(longest.1.readable)): it can never fire"
            if rule.duration.microseconds % 1_000_000 == 0 && rule.duration.microseconds / 1000 <= longest.1.microseconds {
                message +=
                    "; a duration without a unit is in seconds: did you mean \"\(rule.duration.microseconds / 1_000_000)ms\"?"
            }
            (node.entry("dwell") ?? node).warn(message)
        }
    }
}
