import Geodesy
import Time

/// One device's monitor: which regions it watches, and each one's `RegionMonitor` (SEMANTICS §4–§6).
///
/// Reduces the device's samples to events. Per sample it evaluates only the monitored regions
/// (at most `capacity`), plus one nearest-set query from the spatial index at a refresh.
struct DeviceMonitor: Sendable {
    let deviceID: String
    /// The monitored regions with their state, by ascending region index.
    private(set) var monitors: [MonitoredRegion] = []
    /// `quiets[slot]`: the window in which the exact distance to `monitors[slot]`'s region need not be
    /// computed (`QuietWindow`). Kept apart, 16 bytes a region: looking at a group reads its windows side by
    /// side, not one from each monitor's record.
    private(set) var quiets: [QuietWindow] = []
    /// Metres travelled between observed samples, bounded above for every local plane (`QuietWindow.step`).
    private(set) var odometer: Meters = 0
    /// No later than every monitored region's window (their earliest limits): while it holds, the sample
    /// looks at no region.
    private(set) var nextWake = QuietWindow.none
    /// For each run of `groupSize` consecutive slots of `monitors`, the earliest of their windows: when
    /// `nextWake` has passed, only the groups whose own wake has passed are looked at (about 16 comparisons
    /// and a few group checks instead of one per region, where 100 regions are monitored). Rebuilt exactly
    /// whenever the set changes.
    private(set) var groupWakes: [QuietWindow] = []
    static let groupSize = 16
    /// The last observed sample's position, with an upper bound on the cosine of its latitude: exact
    /// where the sample was prepared, else the previous bound grown by the latitude moved (cosine is
    /// 1-Lipschitz). A sample that evaluates nothing then needs no trigonometry at all.
    private var lastObserved: (coordinate: Coordinate, cosLatitudeAtMost: Double)?
    /// Where the last refresh happened; nil before the first sample.
    private var lastRefresh: PreparedCoordinate?
    /// Announced stays (an enter was reported) whose region left the monitored set before an exit: the
    /// app never hears that the device left (SEMANTICS §4). Each as the region index and the time.
    private(set) var stoppedStays: [(region: Int, time: Timestamp)] = []
    /// Crossings the phone decided but a miss draw kept from the app (SEMANTICS §5 "Misses"): the region,
    /// the sample's time and the probability drawn against. Appended only on a miss (rare), for `run` and
    /// `check` to say why an event is absent.
    private(set) var drawnMisses: [(enter: Bool, region: Int, time: Timestamp, probability: Double)] = []

    /// The regions with an announced stay still open: an enter was reported and no exit yet.
    var openStays: [Int] { monitors.filter { $0.state.stayBegan != nil }.map(\.region) }

    /// The misses and delivery delays of the device's reports (SEMANTICS §5, §7).
    private var reports: ReportDraws

    /// The monitor of device `deviceID` (its key `DrawStream.deviceKey`) under `settings`.
    init(deviceID: String, deviceKey: UInt64 = 0, settings: MonitorSettings? = nil) {
        self.deviceID = deviceID
        reports = ReportDraws(deviceKey: deviceKey, delivery: settings?.delivery)
    }

    /// Whether the device's enters, exits and dwells reach the app late (SEMANTICS §7 "Delivery").
    var delivers: Bool { reports.delivery != nil }

    /// Delays the events the last sample (tick `k`) appended to `events` from `first` on (`ReportDraws.deliver`).
    mutating func deliver(_ events: inout [GeofenceEvent], from first: Int, tickIndex k: Int64) {
        reports.deliver(&events, from: first, tickIndex: k)
    }

    /// Applies one sample, appending its events (in no particular order) to `events`.
    mutating func observe(_ sample: Sample, in world: World, into events: inout [GeofenceEvent]) {
        let position = sample.coordinate
        // The sample's trigonometry, done the first time an exact distance needs it.
        var prepared = LazyPreparedCoordinate(position)
        // The emitter appends to the lane's events themselves, swapped in and out (no copy, no reference counted).
        let before = events.count
        var emit = EventEmitter(sample: sample, world: world)
        swap(&emit.events, &events)
        var cosLatitudeAtMost = 1.0
        if let last = lastObserved {
            cosLatitudeAtMost = min(1, last.cosLatitudeAtMost + abs((position.latitude - last.coordinate.latitude).radians))
            if world.skipsQuietRegions {
                let cosLatitudes = last.cosLatitudeAtMost * cosLatitudeAtMost
                odometer += QuietWindow.step(last.coordinate.distanceBound(to: position, cosLatitudes: cosLatitudes))
            }
        }
        defer {
            swap(&emit.events, &events)
            for index in before..<events.count { events[index].device = deviceID }
            lastObserved = (position, prepared.made?.cosLatitude ?? cosLatitudeAtMost)
            checkInvariants()
        }

        guard let refreshedAt = lastRefresh else {
            let p = prepared.get()
            lastRefresh = p
            let chosen: [Int]
            switch world.settings.selection {
            case .nearest:
                chosen = world.nearestSet(to: p)
            case .static:
                chosen = Array(0..<world.capacity)
                for failed in world.capacity..<world.regions.count {
                    emit(.monitorFailed, region: failed, distance: world.distance(failed, p))
                }
            }
            for region in chosen.sorted() { start(region, at: p, in: world, emit: &emit) }
            rebuildWakes()
            return
        }

        var joining: [Int]?  // nil unless the set was refreshed: a sample without a refresh holds no array
        if world.settings.selection == .nearest, !world.monitorsAll,
            Self.mayHaveMoved(world.settings.refreshDistance, from: refreshedAt, to: position, cosLatitudeAtMost),
            prepared.get().distance(to: refreshedAt) >= world.settings.refreshDistance
        {
            let p = prepared.get()
            lastRefresh = p
            // The new set against the old, both by ascending region: who stays, leaves and joins.
            let chosen = world.nearestSet(to: p).sorted()
            var next = 0, kept = 0
            var joined: [Int] = []
            for slot in monitors.indices {
                let region = monitors[slot].region
                while next < chosen.count, chosen[next] < region {
                    joined.append(chosen[next])
                    next += 1
                }
                if next < chosen.count, chosen[next] == region {  // stays
                    next += 1
                    if kept != slot {
                        monitors[kept] = monitors[slot]
                        quiets[kept] = quiets[slot]
                    }
                    kept += 1
                } else {
                    emit(.monitorStop, region: region, distance: world.distance(region, p))
                    if monitors[slot].state.stayBegan != nil { stoppedStays.append((region, sample.time)) }
                }
            }
            joined.append(contentsOf: chosen[next...])
            if !joined.isEmpty { joining = joined }  // (iterating an empty array still retains it)
            monitors.removeLast(monitors.count - kept)
            quiets.removeLast(quiets.count - kept)
            rebuildWakes()
        }

        // While every monitored region's window holds, none is looked at: one comparison, not one a region.
        if !nextWake.holds(odometer: odometer, at: sample.time) {
            var wake = QuietWindow.never
            for group in groupWakes.indices {
                if !groupWakes[group].holds(odometer: odometer, at: sample.time) {
                    evaluateDue(inGroup: group, sample, &prepared, in: world, emit: &emit)
                }
                wake = wake.earliest(with: groupWakes[group])
            }
            nextWake = wake
        }
        if let joining {
            for region in joining { start(region, at: prepared.get(), in: world, emit: &emit) }
            let order = monitors.indices.sorted { monitors[$0].region < monitors[$1].region }
            monitors = order.map { monitors[$0] }
            quiets = order.map { quiets[$0] }
            rebuildWakes()
        }
    }

    /// Evaluates the regions of group `group` whose window has closed (within its quiet window nothing this
    /// sample could do to a region matters), and renews the group's wake. Out of line: `observe`'s loop over
    /// the groups then stays a few instructions a group, its registers not spilled for this. O(groupSize).
    @inline(never)
    private mutating func evaluateDue(
        inGroup group: Int, _ sample: Sample, _ prepared: inout LazyPreparedCoordinate,
        in world: World, emit: inout EventEmitter
    ) {
        let slots = slots(inGroup: group)
        var due = dueSlots(slots, at: sample.time)
        while due != 0 {
            evaluate(slots.lowerBound + due.trailingZeroBitCount, sample, prepared.get(), in: world, emit: &emit)
            due &= due - 1
        }
        groupWakes[group] = earliestWindow(of: slots)
    }

    /// The exact distance to the region in `monitors[slot]` at this sample, its monitor's step (SEMANTICS §5)
    /// and events, and its next quiet window.
    @inline(__always)
    private mutating func evaluate(
        _ slot: Int, _ sample: Sample, _ p: PreparedCoordinate, in world: World,
        emit: inout EventEmitter
    ) {
        let region = monitors[slot].region
        // Outside a polygon's box, waiting outside: if even the box's nearest point is beyond −e, so is d,
        // and the monitor cannot act (no candidate starts). Its window then comes from the bounds, without
        // the edges' exact distance.
        if world.skipsQuietRegions, monitors[slot].state.waitsOutside,
            let box = world.shapes.distanceBounds(region, from: p), monitors[slot].state.trigger.margin(from: box.lower) > 0
        {
            quiets[slot] = monitors[slot].quietWindow(
                distanceAtLeast: box.lower, atMost: box.upper,
                latitude: p.coordinate.latitude, odometer: odometer)
            return
        }
        let d = world.distance(region, p)
        let thresholds = monitors[slot].state.thresholds, k = sample.tickIndex
        switch monitors[slot].state.observe(distance: d, accuracy: sample.accuracy, at: sample.time) {
        case .entered? where reports.misses(.enter, region: region, tickIndex: k, probability: thresholds.missEnter):
            monitors[slot].state.missEnter()  // never reported: inside all the same, an unannounced stay
            drawnMisses.append((true, region, sample.time, thresholds.missEnter))
        case let .entered(crossedAt)?:
            emit(.enter(crossedAt: crossedAt), region: region, distance: d)
        case .exited? where reports.misses(.exit, region: region, tickIndex: k, probability: thresholds.missExit):
            drawnMisses.append((false, region, sample.time, thresholds.missExit))  // the stay ends unannounced
        case let .exited(crossedAt, arrival)?:
            emit(.exit(crossedAt: crossedAt), region: region, distance: d)
            if let arrival {
                emit(.visit(arrival: arrival, departure: sample.time), region: region, distance: d)
            }
        case nil:
            break
        }
        emitDwells(slot, distance: d, in: world, emit: &emit)
        quiets[slot] = quietWindow(slot, distance: d, at: p, in: world)
    }

    /// Whether the device may be `metres` or more from `refresh` at `position` (whose latitude's cosine is at
    /// most `cosLatitudeAtMost`): false only when an upper bound on the haversine distance, with a micrometre
    /// of room for the haversine's rounding (nanometres), is short of it, so that the exact distance need
    /// not be computed. O(1), no trigonometry.
    private static func mayHaveMoved(
        _ metres: Meters, from refresh: PreparedCoordinate, to position: Coordinate,
        _ cosLatitudeAtMost: Double
    ) -> Bool {
        let bound = refresh.coordinate.distanceBound(to: position, cosLatitudes: refresh.cosLatitude * cosLatitudeAtMost)
        return bound * (1 + 1e-9) + 1e-6 >= metres
    }

    /// A region joins the set: `monitor-start`, its state from this sample, and with
    /// `initialTrigger: enter` an enter (and any dwell of D = 0) when it starts inside.
    private mutating func start(_ region: Int, at p: PreparedCoordinate, in world: World, emit: inout EventEmitter) {
        let d = world.distance(region, p)
        emit(.monitorStart, region: region, distance: d)
        let announce = world.settings.initialTrigger == .enter
        monitors.append(
            MonitoredRegion(
                region: region,
                state: RegionMonitor(
                    distance: d, at: emit.sample.time, thresholds: world.thresholds[region],
                    ruleCount: world.rulesByRegion[region].count, announce: announce)))
        if announce, d <= 0 {
            emit(.enter(crossedAt: emit.sample.time), region: region, distance: d)
            emitDwells(monitors.count - 1, distance: d, in: world, emit: &emit)
        }
        quiets.append(quietWindow(monitors.count - 1, distance: d, at: p, in: world))
    }

    /// The slots of `monitors` in group `group` of `groupWakes`.
    func slots(inGroup group: Int) -> Range<Int> {
        group * Self.groupSize..<min(monitors.count, (group + 1) * Self.groupSize)
    }

    /// `groupWakes` and `nextWake` from the monitors' windows, after the set has changed. O(monitors).
    private mutating func rebuildWakes() {
        let groups = (monitors.count + Self.groupSize - 1) / Self.groupSize
        groupWakes.removeAll(keepingCapacity: true)
        var wake = QuietWindow.never
        for group in 0..<groups {
            let groupWake = earliestWindow(of: slots(inGroup: group))
            groupWakes.append(groupWake)
            wake = wake.earliest(with: groupWake)
        }
        nextWake = wake
    }

    /// The slots among `slots` (at most `groupSize`) whose window has closed at `time`, as bits from
    /// `slots.lowerBound`. A tight read of the windows side by side. O(slots).
    @inline(__always)
    private func dueSlots(_ slots: Range<Int>, at time: Timestamp) -> UInt32 {
        quiets.withUnsafeBufferPointer { windows in
            var due: UInt32 = 0
            for slot in slots where !windows[slot].holds(odometer: odometer, at: time) {
                due |= 1 << UInt32(slot - slots.lowerBound)
            }
            return due
        }
    }

    /// The earliest of the windows of `slots`. O(slots).
    @inline(__always)
    func earliestWindow(of slots: Range<Int>) -> QuietWindow {
        quiets.withUnsafeBufferPointer { windows in
            var wake = QuietWindow.never
            for slot in slots { wake = wake.earliest(with: windows[slot]) }
            return wake
        }
    }

    /// The quiet window of `monitors[slot]` after its exact distance `d` at `p`; `.none` on the plain path
    /// (`World.skipsQuietRegions` false), so that no window ever holds there.
    private mutating func quietWindow(
        _ slot: Int, distance d: Meters, at p: PreparedCoordinate, in world: World
    ) -> QuietWindow {
        guard world.skipsQuietRegions else { return .none }
        return monitors[slot].quietWindow(
            distance: d, latitude: p.coordinate.latitude, odometer: odometer,
            durations: world.ruleDurationsByRegion)
    }

    /// The dwells due for the region in `monitors[slot]`.
    private mutating func emitDwells(_ slot: Int, distance d: Meters, in world: World, emit: inout EventEmitter) {
        guard !monitors[slot].state.firedRules.isEmpty else { return }  // no rule covers the region
        let region = monitors[slot].region
        let durations = world.ruleDurationsByRegion[region]
        for i in monitors[slot].state.dueDwells(at: emit.sample.time, durations: durations) {
            let rule = world.rulesByRegion[region][i]
            guard let began = monitors[slot].state.stayBegan else { continue }  // dwells fall due only in a stay
            emit(
                .dwell(rule: world.ruleNames[rule], ruleIndex: rule, duration: emit.sample.time - began),
                region: region, distance: d)
        }
    }
}

/// A region a device monitors: its index and its monitor's state. A struct, not a tuple: a tuple's copies
/// go through the runtime's generic value witnesses.
struct MonitoredRegion: Sendable {
    let region: Int
    var state: RegionMonitor

    /// The region's quiet window while it waits outside (`RegionMonitor.waitsOutside`), from bounds on its
    /// d instead of d: the margin d + e is at least `lower + e`, and the plane's stretch grows with |d| ≤
    /// `upper`, so the window is never longer than the exact one's. No dwell or confirmation is due outside
    /// without a candidate, so there is no deadline. O(1); `mutating` for the reason below.
    mutating func quietWindow(
        distanceAtLeast lower: Meters, atMost upper: Meters, latitude: Degrees, odometer: Meters
    ) -> QuietWindow {
        QuietWindow(
            after: state.trigger.margin(from: lower), distance: upper, latitude: latitude, odometer: odometer,
            deadline: state.deadline(durations: []))
    }

    /// The region's quiet window after its exact distance `d` at a sample at `latitude` (`durations`: the
    /// rules' D by region). Changes nothing: `mutating` only so that `monitors[slot].quietWindow(…)` runs in
    /// place, where a non-mutating call works on a copy (retaining and releasing the fired rules). O(rules).
    mutating func quietWindow(
        distance d: Meters, latitude: Degrees, odometer: Meters, durations: [[TimeSpan]]
    ) -> QuietWindow {
        let deadline =
            state.firedRules.isEmpty ? state.deadline(durations: []) : state.deadline(durations: durations[region])
        return QuietWindow(
            after: state.quietMargin(distance: d), distance: d, latitude: latitude, odometer: odometer,
            deadline: deadline)
    }
}

/// A sample's `PreparedCoordinate` (its trigonometry), made the first time an exact distance needs it. A
/// value, not a closure over a variable: a captured variable is boxed and checked at run time at every
/// access.
struct LazyPreparedCoordinate {
    let coordinate: Coordinate
    private(set) var made: PreparedCoordinate?

    init(_ coordinate: Coordinate) { self.coordinate = coordinate }

    mutating func get() -> PreparedCoordinate {
        if let made { return made }
        let prepared = PreparedCoordinate(coordinate)
        made = prepared
        return prepared
    }
}

/// Builds the events of one sample with its common fields but the device, which `DeviceMonitor.observe`
/// writes in after the sample: a sample without events then retains no id. (The monitor's
/// own steps take the world as a parameter, borrowed: a strong local copy of `world` here would retain
/// it at every region looked at.)
struct EventEmitter {
    let sample: Sample
    // The run keeps the world alive; not retaining it here spares the threads a shared reference count.
    unowned(unsafe) let world: World
    /// The events of the device's lane, swapped in for the sample and out after it (a sample that emits
    /// nothing counts no reference); the sample's own are appended.
    var events: [GeofenceEvent] = []

    init(sample: Sample, world: World) {
        self.sample = sample
        self.world = world
    }

    mutating func callAsFunction(_ detail: GeofenceEvent.Detail, region: Int, distance: Meters) {
        events.append(
            GeofenceEvent(
                time: sample.time, device: "", region: world.regionIDs[region],
                regionIndex: region, coordinate: sample.coordinate, distance: distance,
                detail: detail))
    }
}
