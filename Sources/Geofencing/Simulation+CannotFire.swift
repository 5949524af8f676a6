import Geodesy
import ReadableText

/// A region that no fix of any device can ever enter under the run's monitor (SEMANTICS §5): an enter
/// needs a fix at least `neededDepth` metres inside (its `enterBuffer`, and the depth at which
/// `enterConfidence` of the fix's accuracy circle lies inside), and no point of the region is that deep.
public struct UnenterableRegion: Hashable, Sendable {
    /// The region's index in `Simulation.regions`.
    public var index: Int
    /// The depth an enter needs, in metres.
    public var neededDepth: Meters
    /// The smallest accuracy any fix plays with, in metres.
    public var accuracy: Meters
    public var enterConfidence: Double
    public var enterBuffer: Meters

    /// The region at `index`, whose enter needs `enter` with fixes of `accuracy` metres.
    public init(index: Int, accuracy: Meters, enter: EnterNeeds) {
        self.index = index
        self.neededDepth = enter.neededDepth
        self.accuracy = accuracy
        self.enterConfidence = enter.enterConfidence
        self.enterBuffer = enter.enterBuffer
    }

    /// Why, for people: `an enter needs a fix 11.7 m inside (85 % of a 20 m accuracy circle inside), and no
    /// point of it is that deep (its radius is 10.0 m)`.
    public func reason(shape: Shape) -> String {
        var needs: [String] = []
        if enterConfidence > 0.5 && accuracy > 0 {
            needs.append("\(percent(enterConfidence)) % of a \(Readable.distance(accuracy)) accuracy circle inside")
        }
        if enterBuffer > 0 { needs.append("enterBuffer \(Readable.distance(enterBuffer))") }
        var text =
            "an enter needs a fix \(metres(neededDepth)) inside (\(needs.joined(separator: ", "))), "
            + "and no point of it is that deep"
        if case let .circle(circle) = shape { text += " (its radius is \(metres(circle.radius)))" }
        return text
    }
}

extension Simulation {
    /// The regions that cannot get an enter under this monitor, whatever the tracks: by the smallest
    /// accuracy any fix plays with (its own, else its device's, else the monitor's, SEMANTICS §2) and each
    /// region's enter thresholds. A region the depth search cannot settle is not listed. Noise moves fixes,
    /// not the region's depth, so it changes nothing here. O(fixes + regions × the search); the fixes on
    /// `threads` threads.
    public func unenterableRegions(threads: Int = RunOptions.defaultThreads) -> [UnenterableRegion] {
        unenterableRegions(facts: trackFacts(threads: threads))
    }

    /// `unenterableRegions` from the tracks' `facts` (`trackFacts`), read once for several checks.
    /// O(devices + regions × the search).
    public func unenterableRegions(facts: [TrackFacts]) -> [UnenterableRegion] {
        guard let accuracy = facts.compactMap(\.smallestAccuracy).min() else { return [] }
        let settings = self.settings
        var found: [UnenterableRegion] = []
        var depths = ConfidenceDepths()
        for (index, region) in regions.enumerated() {
            let enter = settings.enterNeeds(region, accuracy: accuracy, depths: &depths)
            guard enter.neededDepth > 0, region.shape.reaches(depth: enter.neededDepth) == false else { continue }
            found.append(UnenterableRegion(index: index, accuracy: accuracy, enter: enter))
        }
        return found
    }

    /// The regions that can never get an exit under this monitor from these tracks (SEMANTICS §5): an exit
    /// needs a fix more than the region's `hysteresis` h (plus e⁻, an early enter's reach) outside it, and with at most `exitConfidence` of
    /// the smallest accuracy circle any fix plays with inside, and no device's track goes that far from it
    /// (iOS's 200 m past a café whose street the walk never leaves). Measured on each track's box, its
    /// corners and edges' midpoints with 2 % to spare, so a region listed surely cannot exit.
    /// O(fixes + regions × devices); the fixes on `threads` threads.
    public func unexitableRegions(threads: Int = RunOptions.defaultThreads) -> [UnexitableRegion] {
        unexitableRegions(facts: trackFacts(threads: threads))
    }

    /// `unexitableRegions` from the tracks' `facts` (`trackFacts`), read once for several checks.
    /// O(regions × devices).
    public func unexitableRegions(facts: [TrackFacts]) -> [UnexitableRegion] {
        guard let accuracy = facts.compactMap(\.smallestAccuracy).min() else { return [] }
        let settings = self.settings
        let boxes = facts.compactMap(\.box)
        guard !boxes.isEmpty else { return [] }
        // Every point of a box has a corner at least half its diagonal away, so no region is nearer than
        // that to the farthest fix: a quick answer for most regions of a fleet whose tracks span kilometres.
        let halfDiagonal =
            boxes.map {
                Coordinate(latitude: $0.minLatitude, longitude: $0.minLongitude)
                    .distance(to: Coordinate(latitude: $0.maxLatitude, longitude: $0.maxLongitude)) / 2
            }.max() ?? 0  // boxes is not empty
        var found: [UnexitableRegion] = []
        var depths = ConfidenceDepths()
        for (index, region) in regions.enumerated() {
            let exit = settings.exitNeeds(region, accuracy: accuracy, depths: &depths)
            let needed = exit.needed, h = exit.hysteresis
            guard needed > 0 else { continue }
            // A point whose distance to the boundary bounds d from above: d(p) ≤ |p − c| − r for a circle;
            // for a polygon, d(p) ≤ |p − v| for any of its vertices v.
            let (anchor, inset): (Coordinate, Meters)
            switch region.shape {
            case let .circle(circle): (anchor, inset) = (circle.center, circle.radius)
            case let .polygon(shape): (anchor, inset) = (shape.polygons[0].rings[0][0], 0)
            }
            guard halfDiagonal * 0.98 - inset < needed else { continue }
            let farthest =
                boxes.map { box in
                    (box.samplePoints.map { anchor.distance(to: $0) }.max() ?? .infinity) * 1.02 + 1 - inset
                }.max() ?? .infinity
            if farthest < needed {
                found.append(
                    UnexitableRegion(
                        index: index, needed: needed, hysteresis: h, accuracy: accuracy,
                        exitConfidence: exit.exitConfidence, farthest: farthest))
            }
        }
        return found
    }
}

/// What an enter of a region needs under a monitor (SEMANTICS §5): a fix `neededDepth` metres inside, the
/// larger of its `enterBuffer` and the depth at which `enterConfidence` of an `accuracy` circle lies inside.
public struct EnterNeeds: Hashable, Sendable {
    public var neededDepth: Meters
    public var enterConfidence: Double
    public var enterBuffer: Meters
}

/// What an exit of a region needs under a monitor (SEMANTICS §5): a fix more than `needed` metres
/// outside, the larger of its exit threshold (`hysteresis` h, plus e⁻, an early enter's reach) and the
/// distance at which at most `exitConfidence` of an accuracy circle is still inside.
public struct ExitNeeds: Hashable, Sendable {
    public var needed: Meters
    public var hysteresis: Meters
    public var exitConfidence: Double
}

/// The depth a share of an accuracy circle needs (`Confidence.depth`), kept for the last two asked: most
/// regions share the monitor's enter and exit shares. O(1) after the first of each.
public struct ConfidenceDepths {
    private var known: [(share: Double, accuracy: Meters, depth: Meters)] = []

    public init() {}

    mutating func depth(forShare share: Double, accuracy: Meters) -> Meters {
        if let hit = known.first(where: { $0.share == share && $0.accuracy == accuracy }) { return hit.depth }
        let depth = Confidence.depth(forShare: share, accuracy: accuracy)
        if known.count == 2 { known.removeFirst() }
        known.append((share, accuracy, depth))
        return depth
    }
}

extension MonitorSettings {
    /// What an enter of `region` needs with fixes of `accuracy` metres (the region's own thresholds over
    /// these settings): the arithmetic of `Simulation.unenterableRegions()`.
    public func enterNeeds(_ region: Region, accuracy: Meters, depths: inout ConfidenceDepths) -> EnterNeeds {
        let own = region.settings(under: self)
        let confidence = own.enterConfidence, buffer = own.enterBuffer
        let depth = depths.depth(forShare: confidence, accuracy: accuracy)
        return EnterNeeds(neededDepth: Swift.max(buffer, depth), enterConfidence: confidence, enterBuffer: buffer)
    }

    /// What an exit of `region` needs with fixes of `accuracy` metres: the arithmetic of
    /// `Simulation.unexitableRegions()`.
    public func exitNeeds(_ region: Region, accuracy: Meters, depths: inout ConfidenceDepths) -> ExitNeeds {
        // An exit starts beyond h + e⁻ (e⁻ = max(0, −e): a fence entered outside is left beyond that),
        // the threshold `observe` reads.
        let own = region.settings(under: self)
        let h = RegionMonitor.Thresholds(own).trigger(side: .inside, pending: false).level
        // conf(d) ≤ c_out exactly when conf(−d) ≥ 1 − c_out: as far outside as an enter is deep inside.
        let exitShare = own.exitConfidence
        let distance = depths.depth(forShare: 1 - exitShare, accuracy: accuracy)
        return ExitNeeds(needed: Swift.max(h, distance), hysteresis: h, exitConfidence: exitShare)
    }
}

/// A region no track goes far enough from to exit it (`Simulation.unexitableRegions()`).
public struct UnexitableRegion: Hashable, Sendable {
    /// The region's index in `Simulation.regions`.
    public var index: Int
    /// How far outside an exit needs a fix to be, in metres.
    public var needed: Meters
    /// Its hysteresis, and the accuracy rule's part: the smallest accuracy any fix plays with, and the
    /// share of its circle that may still be inside.
    public var hysteresis: Meters
    public var accuracy: Meters
    public var exitConfidence: Double
    /// The most any track's fix can be outside it, in metres (an upper bound).
    public var farthest: Meters

    /// `an exit needs a fix more than 200 m outside it (its hysteresis), and no track goes farther than
    /// 83 m from it`.
    public var reason: String {
        let why =
            needed <= hysteresis
            ? "its hysteresis"
            : "\(percent(exitConfidence)) % or less of a \(Readable.distance(accuracy)) accuracy circle inside"
        return "an exit needs a fix more than \(metres(needed)) outside it (\(why)), and no track goes "
            + "farther than \(metres(max(0, farthest))) from it"
    }
}

extension BoundingBox {
    /// Its corners and the midpoints of its edges: where the farthest point from a point outside a small
    /// box lies, near enough.
    var samplePoints: [Coordinate] {
        let midLatitude = (minLatitude + maxLatitude) / 2, midLongitude = (minLongitude + maxLongitude) / 2
        return [
            (minLatitude, minLongitude), (minLatitude, maxLongitude), (maxLatitude, minLongitude),
            (maxLatitude, maxLongitude),
            (minLatitude, midLongitude), (maxLatitude, midLongitude), (midLatitude, minLongitude),
            (midLatitude, maxLongitude),
        ]
        .map { Coordinate(latitude: $0.0, longitude: $0.1) }
    }
}

/// A share as a percentage for people, to a tenth: `85`, `15`, `62.5`.
private func percent(_ share: Double) -> String { Readable.tenths(share * 100) }

/// A distance for people, to a tenth of a metre: `11.7 m`, `200 m`.
private func metres(_ value: Meters) -> String { Readable.metres(value) }
