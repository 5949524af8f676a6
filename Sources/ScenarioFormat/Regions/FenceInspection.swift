import Geodesy
import Geofencing
import Parallel
import ReadableText
import TextEscaping

/// `perimeter inspect stores.geojson`: what each fence of a region file is, and what each profile can do
/// with it, before any run (issue 42 item 6). Per fence: its area, its inside depth (the largest
/// distance from a point inside to its boundary: a circle's radius), the radius of the smallest circle
/// holding it, the fences nearer than a profile's exit distance (standing in one of them, the phone
/// still has you inside this one), and per profile whether an enter can happen at all and how far
/// outside an exit needs a fix. The arithmetic is the small-fence warnings' (`MonitorSettings.enterNeeds`,
/// `exitNeeds`, SEMANTICS §5), with fixes of each profile's own accuracy.
/// O(fences² for the neighbours' boxes + fences × the depth search).
public struct FenceInspection: Sendable {
    /// One fence and what each profile does with it.
    public struct Fence: Sendable {
        public var region: Region
        /// Square metres.
        public var area: Double
        /// Metres: the deepest point's distance to the boundary.
        public var depth: Meters
        /// Metres: the smallest enclosing circle's radius.
        public var enclosingRadius: Meters
        /// The fences whose gap to this one is under some profile's exit distance, nearest first.
        public var neighbours: [(id: String, gap: Meters)]
        public var verdicts: [Verdict]
    }

    /// What one profile does with one fence.
    public struct Verdict: Sendable {
        public var profile: String
        /// The accuracy of the profile's fixes, metres.
        public var accuracy: Meters
        public var enter: EnterNeeds
        /// False when no point of the fence is as deep as an enter needs: it never gets an enter.
        public var canEnter: Bool
        public var exit: ExitNeeds
        /// The neighbours nearer than `exit.needed`: a device there is still inside this fence for the phone.
        public var neighboursWithin: [String]

        /// Whether an exit needs a fix farther out than the fence is wide (its enclosing radius): a walk
        /// past it rarely goes that far, so its stays end late or never.
        public func exitsLate(_ fence: Fence) -> Bool { exit.needed > fence.enclosingRadius }
    }

    public var file: String
    public var fences: [Fence]
    public var profiles: [Profile]

    /// Measures `regions` (from `file`) under `profiles`.
    public init(file: String, regions: [Region], profiles: [Profile]) {
        self.file = file
        self.profiles = profiles
        var depths = ConfidenceDepths()
        let reach =
            profiles.map { profile in
                regions.map { profile.settings.exitNeeds($0, accuracy: profile.settings.accuracy, depths: &depths).needed }
                    .max() ?? 0
            }.max() ?? 0
        // Each fence's box centre and how far the box reaches from it, on the ground: the gap between two
        // fences is at least their centres' distance less both reaches.
        let extents = regions.map { region -> (centre: Coordinate, reach: Meters) in
            let box = region.shape.bounds
            let corner = Coordinate(latitude: box.maxLatitude, longitude: box.maxLongitude)
            return (box.centre, box.centre.distance(to: corner) * 1.01 + 1)
        }
        let measured = concurrentMap(regions.count) { i in
            (area: regions[i].shape.area, depth: regions[i].shape.deepest(), radius: regions[i].shape.enclosingRadius)
        }
        fences = regions.indices.map { i in
            let region = regions[i]
            var neighbours: [(id: String, gap: Meters)] = []
            for j in regions.indices where j != i {
                // A box apart by more than the farthest exit distance cannot hold a neighbour that near.
                let apart = extents[i].centre.distance(to: extents[j].centre) - extents[i].reach - extents[j].reach
                guard apart < reach else { continue }
                let gap = region.shape.gap(to: regions[j].shape)
                if gap < reach { neighbours.append((regions[j].id, gap)) }
            }
            neighbours.sort { ($0.gap, $0.id) < ($1.gap, $1.id) }
            var fence = Fence(
                region: region, area: measured[i].area, depth: measured[i].depth,
                enclosingRadius: measured[i].radius, neighbours: neighbours, verdicts: [])
            fence.verdicts = profiles.map { profile in
                let accuracy = profile.settings.accuracy
                let enter = profile.settings.enterNeeds(region, accuracy: accuracy, depths: &depths)
                let exit = profile.settings.exitNeeds(region, accuracy: accuracy, depths: &depths)
                return Verdict(
                    profile: profile.name, accuracy: accuracy, enter: enter,
                    canEnter: enter.neededDepth <= 0 || region.shape.reaches(depth: enter.neededDepth) != false,
                    exit: exit, neighboursWithin: neighbours.filter { $0.gap < exit.needed }.map(\.id))
            }
            return fence
        }
    }

    /// The fences some profile can never enter, as the scenario's warnings say it (`ScenarioLoader.neverEntered`),
    /// each naming the file: what `validate --profile` adds for a region file.
    public var warnings: [String] {
        var out: [String] = []
        for fence in fences {
            for (verdict, profile) in zip(fence.verdicts, profiles) where !verdict.canEnter {
                let unenterable = UnenterableRegion(index: 0, accuracy: verdict.accuracy, enter: verdict.enter)
                out.append("\(file): " + ScenarioLoader.neverEntered(fence.region, unenterable, profile: profile))
            }
        }
        return out
    }
}
