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
    /// computed (`QuietWindow`). Kept apart, 40 bytes a region: looking at a group reads its windows side by
    /// side, not one from each monitor's record.
    private(set) var quiets: [QuietWindow] = []
    /// The window in which every group's wake holds, anchored where it was last renewed: while it holds,
    /// the sample looks at no region.
    private(set) var nextWake = QuietWindow.none {
        didSet { nextWakeSpread = Coordinate.nearSpreadLimit(below: nextWake.reach) }
    }
    /// `nextWake`'s spread limit: a quiet sample is told from it without a square root.
    private var nextWakeSpread = Coordinate.nearSpreadLimit(below: QuietWindow.none.reach)
    /// For each run of `groupSize` consecutive slots of `monitors`, the window in which all of theirs hold,
    /// anchored where the group was last looked at: when `nextWake` has closed, only the groups whose own
    /// wake has closed are looked at (a few distance bounds instead of one per region, where 100 regions
    /// are monitored). Rebuilt whenever the set changes.
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

    /// Applies one sample, appending its events (in no particular order) to `events`. Most samples change
    /// nothing: no refresh may be due and the next wake holds. Such a sample only moves the device, here,
    /// before `observeAwake` sets anything up. O(1) then.
    @inline(__always)
    mutating func observe(_ sample: Sample, in world: World, into events: inout [GeofenceEvent]) {
        if let last = lastObserved, let refreshedAt = lastRefresh {
            let position = sample.coordinate
            let cosLatitudeAtMost = Self.cosLatitudeAtMost(at: position, after: last)
            if !mayRefresh(from: refreshedAt, to: position, cosLatitudeAtMost, in: world),
                nextWake.holds(
                    at: position, cosLatitudeAtMost: cosLatitudeAtMost, sample.time, spreadLimit: nextWakeSpread)
            {
                lastObserved = (position, cosLatitudeAtMost)
                checkInvariants()
                return
            }
        }
        observeAwake(sample, in: world, into: &events)
    }

    /// An upper bound on the cosine of `position`'s latitude from the last observed sample's: cosine is
    /// 1-Lipschitz (the step in `roughRadians`: its last bit is far inside the windows' micrometre). O(1).
    @inline(__always)
    private static func cosLatitudeAtMost(
        at position: Coordinate, after last: (coordinate: Coordinate, cosLatitudeAtMost: Double)
    ) -> Double {
        min(1, last.cosLatitudeAtMost + abs((position.latitude - last.coordinate.latitude).roughRadians))
    }

    /// `observe` for a sample that may change something. Out of line: the quiet samples' loop stays small.
    @inline(never)
    private mutating func observeAwake(_ sample: Sample, in world: World, into events: inout [GeofenceEvent]) {
        let position = sample.coordinate
        // The sample's trigonometry, done the first time an exact distance needs it.
        var prepared = LazyPreparedCoordinate(position)
        // The emitter appends to the lane's events themselves, swapped in and out (no copy, no reference counted).
        let before = events.count
        var emit = EventEmitter(sample: sample, world: world)
        swap(&emit.events, &events)
        let cosLatitudeAtMost = lastObserved.map { Self.cosLatitudeAtMost(at: position, after: $0) } ?? 1
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
            rebuildWakes(at: p.coordinate, cosLatitude: p.cosLatitude)
            return
        }

        var joining: [Int]?  // nil unless the set was refreshed: a sample without a refresh holds no array
        if mayRefresh(from: refreshedAt, to: position, cosLatitudeAtMost, in: world),
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
            rebuildWakes(at: p.coordinate, cosLatitude: p.cosLatitude)
        }

        // While every monitored region's window holds, none is looked at: one distance bound, not one a region.
        let cosLatitude = prepared.made?.cosLatitude ?? cosLatitudeAtMost
        if !nextWake.holds(distance: nextWake.distance(to: position, cosLatitudeAtMost: cosLatitude), at: sample.time) {
            var reach = Meters.infinity, timeLimit = Timestamp(microsecondsSince1970: .max)
            for group in groupWakes.indices {
                var distance = groupWakes[group].distance(to: position, cosLatitudeAtMost: cosLatitude)
                if !groupWakes[group].holds(distance: distance, at: sample.time) {
                    evaluateDue(inGroup: group, sample, &prepared, cosLatitude: cosLatitude, in: world, emit: &emit)
                    distance = groupWakes[group].distance(to: position, cosLatitudeAtMost: cosLatitude)
                }
                reach = min(reach, groupWakes[group].seen(from: distance))
                timeLimit = min(timeLimit, groupWakes[group].timeLimit)
            }
            nextWake = QuietWindow(anchor: position, cosLatitude: cosLatitude, reach: reach, timeLimit: timeLimit)
        }
        if let joining {
            let p = prepared.get()
            for region in joining { start(region, at: p, in: world, emit: &emit) }
            let order = monitors.indices.sorted { monitors[$0].region < monitors[$1].region }
            monitors = order.map { monitors[$0] }
            quiets = order.map { quiets[$0] }
            rebuildWakes(at: p.coordinate, cosLatitude: p.cosLatitude)
        }
    }

    /// Evaluates the regions of group `group` whose window has closed (within its quiet window nothing this
    /// sample could do to a region matters), and renews the group's wake, anchored at the sample
    /// (`cosLatitude`: an upper bound on its latitude's cosine). Out of line: `observe`'s loop over the
    /// groups then stays a few instructions a group, its registers not spilled for this. O(groupSize).
    @inline(never)
    private mutating func evaluateDue(
        inGroup group: Int, _ sample: Sample, _ prepared: inout LazyPreparedCoordinate, cosLatitude: Double,
        in world: World, emit: inout EventEmitter
    ) {
        let slots = slots(inGroup: group), position = sample.coordinate
        // The windows that hold, read side by side, give the group's reach; the others are evaluated.
        var reach = Meters.infinity, timeLimit = Timestamp(microsecondsSince1970: .max)
        var due: UInt32 = 0
        quiets.withUnsafeBufferPointer { windows in
            for slot in slots {
                let distance = windows[slot].distance(to: position, cosLatitudeAtMost: cosLatitude)
                if windows[slot].holds(distance: distance, at: sample.time) {
                    reach = min(reach, windows[slot].seen(from: distance))
                    timeLimit = min(timeLimit, windows[slot].timeLimit)
                } else {
                    due |= 1 << UInt32(slot - slots.lowerBound)
                }
            }
        }
        while due != 0 {
            let slot = slots.lowerBound + due.trailingZeroBitCount
            due &= due - 1
            evaluate(slot, sample, prepared.get(), in: world, emit: &emit)
            reach = min(reach, quiets[slot].seen(from: quiets[slot].distance(to: position, cosLatitudeAtMost: cosLatitude)))
            timeLimit = min(timeLimit, quiets[slot].timeLimit)
        }
        groupWakes[group] = QuietWindow(anchor: position, cosLatitude: cosLatitude, reach: reach, timeLimit: timeLimit)
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
            quiets[slot] = monitors[slot].quietWindow(distanceAtLeast: box.lower, atMost: box.upper, at: p)
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

    /// Whether the nearest set may be due for a refresh (SEMANTICS §4): it may change, and the device may be
    /// `refreshDistance` or more from `refresh` at `position` (whose latitude's cosine is at most
    /// `cosLatitudeAtMost`). False only when an upper bound on the haversine distance, with a micrometre of
    /// room for the haversine's rounding (nanometres), is short of it, so that the exact distance need not
    /// be computed. O(1), no trigonometry.
    @inline(__always)
    private func mayRefresh(
        from refresh: PreparedCoordinate, to position: Coordinate, _ cosLatitudeAtMost: Double, in world: World
    ) -> Bool {
        guard world.settings.selection == .nearest, !world.monitorsAll else { return false }
        let bound = refresh.coordinate.distanceBound(to: position, cosLatitudes: refresh.cosLatitude * cosLatitudeAtMost)
        return bound * (1 + 1e-9) + 1e-6 >= world.settings.refreshDistance
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

    /// `groupWakes` and `nextWake` from the monitors' windows, all anchored at `position` (`cosLatitude`: an
    /// upper bound on its latitude's cosine), after the set has changed. O(monitors).
    private mutating func rebuildWakes(at position: Coordinate, cosLatitude: Double) {
        let groups = (monitors.count + Self.groupSize - 1) / Self.groupSize
        groupWakes.removeAll(keepingCapacity: true)
        for group in 0..<groups {
            groupWakes.append(groupWake(group, anchoredAt: position, cosLatitude: cosLatitude))
        }
        nextWake = groupWakes.withUnsafeBufferPointer {
            QuietWindow(anchoredAt: position, cosLatitude: cosLatitude, covering: $0)
        }
    }

    /// The window of the slots of group `group` anchored at `position`. O(groupSize).
    func groupWake(_ group: Int, anchoredAt position: Coordinate, cosLatitude: Double) -> QuietWindow {
        quiets.withUnsafeBufferPointer { windows in
            QuietWindow(
                anchoredAt: position, cosLatitude: cosLatitude,
                covering: UnsafeBufferPointer(rebasing: windows[slots(inGroup: group)]))
        }
    }

    /// The quiet window of `monitors[slot]` after its exact distance `d` at `p`; `.none` on the plain path
    /// (`World.skipsQuietRegions` false), so that no window ever holds there.
    private mutating func quietWindow(
        _ slot: Int, distance d: Meters, at p: PreparedCoordinate, in world: World
    ) -> QuietWindow {
        guard world.skipsQuietRegions else { return .none }
        return monitors[slot].quietWindow(distance: d, at: p, durations: world.ruleDurationsByRegion)
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
