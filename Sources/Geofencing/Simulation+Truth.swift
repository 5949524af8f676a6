import Time

extension Simulation {
    /// Whether any device's track was recorded on a phone (SEMANTICS §9, revision 4).
    public var hasRecordedDevices: Bool { devices.contains(where: \.recorded) }

    /// This simulation with each recorded device's track replaced by its true path (SEMANTICS §9) on
    /// this simulation's clock, and no longer marked recorded. O(fixes × w) (`RecordedTrackRules.stays`).
    public func onTruePaths(recording: RecordedTrackRules = .standard) -> Simulation {
        guard hasRecordedDevices else { return self }
        var exact = self
        let start = clockStart
        exact.start = start
        exact.devices = devices.map { device in
            guard device.recorded else { return device }
            return Device(
                id: device.id, track: .timed(device.truePath(start: start, recording: recording)), accuracy: device.accuracy)
        }
        return exact
    }

    /// The truth (SEMANTICS §9): the events of this simulation without noise, its devices as they are,
    /// but for recorded devices `ideal` on their true paths with crossings settled: a side change counts
    /// only once the path has stayed on the new side for τ, and then at the time it crossed. Every event
    /// in §7's order. A run of each part (O(samples)), then a sort of the events.
    public func truth(
        recording: RecordedTrackRules = .standard, threads: Int = RunOptions.defaultThreads
    ) -> (events: [GeofenceEvent], summary: RunSummary) {
        var plain = self
        plain.noise = nil
        plain.start = clockStart
        guard hasRecordedDevices else { return plain.collect(threads: threads) }
        var settled = plain.onTruePaths(recording: recording)
        plain.devices = devices.filter { !$0.recorded }
        settled.devices = settled.devices.enumerated().filter { devices[$0.offset].recorded }.map(\.element)
        settled.profile = .ideal
        settled.overrides = MonitorOverrides(\.confirmation, recording.settle)
        settled.regions = regions.map { Region(id: $0.id, shape: $0.shape, name: $0.name) }
        var (events, summary) = settled.collect(threads: threads)
        events = Self.settledAtCrossings(events)
        if !plain.devices.isEmpty {
            let other = plain.collect(threads: threads)
            events += other.events
            events.sort(by: GeofenceEvent.precedes)
            summary.add(other.summary)
        }
        return (events, summary)
    }

    /// Every event of a run into memory, in §7's order.
    func collect(threads: Int) -> (events: [GeofenceEvent], summary: RunSummary) {
        let log = EventLog()
        do {
            let summary = try run(into: log, options: RunOptions(threads: threads))
            return (log.events, summary)
        } catch {
            preconditionFailure("an EventLog does not throw, yet the run did: \(error)")
        }
    }

    /// `events` of a run with confirmation τ, each side change moved back to when it crossed (§9): an
    /// enter or exit to its `crossedAt`, a visit's arrival and departure to its enter's and exit's, a
    /// dwell by as much as its stay's enter; then in §7's order again. O(events log events).
    static func settledAtCrossings(_ events: [GeofenceEvent]) -> [GeofenceEvent] {
        struct Key: Hashable {
            var device: String
            var region: Int
        }
        var enters: [Key: (crossedAt: Timestamp, shift: TimeSpan)] = [:]
        var exits: [Key: Timestamp] = [:]
        var settled = events
        for n in settled.indices {
            var event = settled[n]
            let key = Key(device: event.device, region: event.regionIndex)
            switch event.detail {
            case let .enter(crossedAt):
                enters[key] = (crossedAt, event.time - crossedAt)
                event.time = crossedAt
            case let .exit(crossedAt):
                exits[key] = crossedAt
                event.time = crossedAt
            case let .visit(arrival, _):
                let departure = exits[key] ?? event.time
                event.detail = .visit(arrival: enters[key]?.crossedAt ?? arrival, departure: departure)
                event.time = departure
            case .dwell:
                event.time = event.time - (enters[key]?.shift ?? .zero)
            case .monitorStart, .monitorStop, .monitorFailed:
                break
            }
            settled[n] = event
        }
        settled.sort(by: GeofenceEvent.precedes)
        return settled
    }
}

extension RunSummary {
    /// Adds another run's counts (of other devices) to these.
    mutating func add(_ other: RunSummary) {
        devices += other.devices
        samples += other.samples
        for (kind, count) in other.eventsByKind { eventsByKind[kind, default: 0] += count }
        droppedFixes += other.droppedFixes
        interrupted = interrupted || other.interrupted
        openStays += other.openStays
        stoppedStays += other.stoppedStays
    }
}
