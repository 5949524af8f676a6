import Geodesy

/// What every device's monitor shares, read-only: the regions with their resolved thresholds, the rules
/// that cover each region, the resolved settings, and the spatial index for nearest-set queries.
final class World: Sendable {
    let regions: [Region]
    /// `regions[i].shape`, laid out flat: the per-sample loop copies no region and counts no reference.
    let shapes: ShapeTable
    let settings: MonitorSettings
    let thresholds: [RegionMonitor.Thresholds]
    /// For region i: the indices (into the scenario's rules) of the rules covering it, in rule order.
    let rulesByRegion: [[Int]]
    /// For region i: the durations of those rules.
    let ruleDurationsByRegion: [[TimeSpan]]
    let ruleNames: [String]
    let index: SpatialIndex
    /// Whether monitors skip the samples at which a region's exact distance cannot matter
    /// (`QuietWindow`); false evaluates every monitored region at every sample (the plain path).
    let skipsQuietRegions: Bool

    init(regions: [Region], rules: [DwellRule], settings: MonitorSettings, skipsQuietRegions: Bool = true) {
        self.skipsQuietRegions = skipsQuietRegions
        self.regions = regions
        shapes = ShapeTable(regions.map(\.shape))
        self.settings = settings
        thresholds = regions.map {
            RegionMonitor.Thresholds(hysteresis: $0.hysteresis ?? settings.hysteresis,
                                     enterBuffer: $0.enterBuffer ?? settings.enterBuffer,
                                     confirmation: $0.confirmation ?? settings.confirmation,
                                     enterConfidence: $0.enterConfidence ?? settings.enterConfidence,
                                     exitConfidence: $0.exitConfidence ?? settings.exitConfidence)
        }
        var byRegion = Array(repeating: [Int](), count: regions.count)
        let indexByID = Dictionary(regions.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (r, rule) in rules.enumerated() {
            let covered = rule.regions.map { $0.compactMap { indexByID[$0] } } ?? Array(regions.indices)
            for i in Set(covered) { byRegion[i].append(r) }
        }
        rulesByRegion = byRegion.map { $0.sorted() }
        ruleDurationsByRegion = rulesByRegion.map { $0.map { rules[$0].duration } }
        ruleNames = rules.map(\.name)
        index = SpatialIndex(bounds: regions.map(\.shape.bounds))
    }

    /// The number of regions a device monitors at once.
    var capacity: Int { min(settings.capacity ?? regions.count, regions.count) }

    /// True when every region fits: the set never changes, and refreshes can be skipped.
    var monitorsAll: Bool { capacity >= regions.count }

    /// The regions of the nearest set at `point`, by ranking distance then index (SEMANTICS §4).
    func nearestSet(to point: PreparedCoordinate) -> [Int] {
        if monitorsAll { return Array(regions.indices) }
        return index.nearest(capacity, to: point.coordinate) { max(0, distance($0, point)) }
    }

    /// d(p, region i) of SEMANTICS §3, in metres, read in place (`ShapeTable`): no reference is counted on
    /// what every thread shares.
    @inline(__always)
    func distance(_ region: Int, _ point: PreparedCoordinate) -> Meters { shapes.signedDistance(region, to: point) }
}
