import Foundation
import Geodesy
import Time

/// What every device's monitor shares, read-only: the regions with their resolved thresholds, the rules
/// that cover each region, the resolved settings, and the spatial index for nearest-set queries.
final class World: Sendable {
    let regions: [Region]
    /// `regions[i].id`, side by side: an event reads its region's id without copying the whole region
    /// (a region is a few cache lines; with 100,000 of them each copy missed the cache).
    let regionIDs: [String]
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

    convenience init(
        regions: [Region], rules: [DwellRule], settings: MonitorSettings, skipsQuietRegions: Bool = true
    ) {
        self.init(
            WorldGeometry(regions: regions, rules: rules), settings: settings, skipsQuietRegions: skipsQuietRegions)
    }

    /// The world of `geometry` (built once for every run of a batch) under `settings`: only the regions'
    /// thresholds are resolved here, O(regions).
    init(_ geometry: WorldGeometry, settings: MonitorSettings, skipsQuietRegions: Bool = true) {
        self.skipsQuietRegions = skipsQuietRegions
        regions = geometry.regions
        regionIDs = geometry.regionIDs
        shapes = geometry.shapes
        self.settings = settings
        // Most regions have no settings of their own: they share the monitor's thresholds.
        let shared = RegionMonitor.Thresholds(settings)
        thresholds = regions.map { $0.overrides.isEmpty ? shared : RegionMonitor.Thresholds($0.settings(under: settings)) }
        rulesByRegion = geometry.rulesByRegion
        ruleDurationsByRegion = geometry.ruleDurationsByRegion
        ruleNames = geometry.ruleNames
        index = geometry.index
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

/// The parts of a world that depend only on the regions and rules, not on the profile: the regions' ids and
/// shapes laid out flat, the R-tree, the rules by region. Building it is the costly part of a world
/// (O(regions log regions)); a batch of runs builds it once (`WorldGeometryCache`) and every run and
/// thread reads it.
final class WorldGeometry: Sendable {
    let regions: [Region]
    let regionIDs: [String]
    let shapes: ShapeTable
    let rulesByRegion: [[Int]]
    let ruleDurationsByRegion: [[TimeSpan]]
    let ruleNames: [String]
    let index: SpatialIndex

    init(regions: [Region], rules: [DwellRule]) {
        self.regions = regions
        regionIDs = regions.map { $0.id }
        shapes = ShapeTable(regions.map { $0.shape })
        (rulesByRegion, ruleDurationsByRegion) = Self.rulesByRegion(rules, regions: regions)
        ruleNames = rules.map(\.name)
        index = SpatialIndex(bounds: regions.map { $0.shape.bounds })
    }

    /// For each region, the indices of the rules covering it in rule order, and their durations. Without a
    /// rule that lists its regions, every region shares one array (nothing hashed, one allocation: a
    /// 100,000-region world used to hash every id here). O(regions + listed ids).
    private static func rulesByRegion(_ rules: [DwellRule], regions: [Region]) -> ([[Int]], [[TimeSpan]]) {
        guard rules.contains(where: { $0.regions != nil }) else {
            let all = Array(rules.indices)
            return (
                Array(repeating: all, count: regions.count),
                Array(repeating: rules.map(\.duration), count: regions.count)
            )
        }
        var byRegion = Array(repeating: [Int](), count: regions.count)
        let indexByID = Dictionary(regions.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (r, rule) in rules.enumerated() {
            let covered = rule.regions.map { $0.compactMap { indexByID[$0] } } ?? Array(regions.indices)
            for i in Set(covered) { byRegion[i].append(r) }  // rules in order: each region's list stays sorted
        }
        return (byRegion, byRegion.map { $0.map { rules[$0].duration } })
    }
}

/// A simulation's `WorldGeometry`, built by the first run that asks and shared by every copy of the
/// simulation (a Monte Carlo batch's runs, a profile batch's profiles, calibrate's candidates), on any
/// thread. `Simulation` replaces it whenever its regions or rules change.
///
/// An `NSLock` (a pthread mutex), not `Synchronization.Mutex`: on Linux the latter waits on raw futex
/// calls that ThreadSanitizer cannot see, so CI's TSan pass reported the first build and a later read as
/// a race (`Scripts/sanitizers.sh thread`).
final class WorldGeometryCache: @unchecked Sendable {
    private let lock = NSLock()
    private var built: WorldGeometry?  // guarded by `lock`

    init() {}

    /// The geometry of `regions` and `rules`: built on the first call, the same object after.
    func geometry(regions: [Region], rules: [DwellRule]) -> WorldGeometry {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let geometry = WorldGeometry(regions: regions, rules: rules)
        built = geometry
        return geometry
    }
}
