import Dispatch
import Foundation
import Geodesy

/// How a run is carried out; none of these changes what it emits.
public struct RunOptions: Sendable {
    /// Worker threads for devices; 1 runs everything on the calling thread.
    public var threads: Int
    /// Ticks simulated per window before the window's events are merged and sent.
    public var windowTicks: Int64
    /// Polled between windows; returning true stops the run cleanly (the summary says so).
    public var isCancelled: @Sendable () -> Bool
    /// Told after each window, on the calling thread: for a progress line.
    public var progress: (@Sendable (RunProgress) -> Void)?
    /// False computes every monitored region's exact distance at every sample, instead of skipping the
    /// samples at which it cannot matter: the same events, slower; for tests and measurements.
    public var skipsQuietRegions = true

    public init(threads: Int = RunOptions.defaultThreads, windowTicks: Int64 = 600,
                isCancelled: @escaping @Sendable () -> Bool = { false },
                progress: (@Sendable (RunProgress) -> Void)? = nil) {
        self.threads = max(1, threads)
        self.windowTicks = max(1, windowTicks)
        self.isCancelled = isCancelled
        self.progress = progress
    }

    /// One thread per active processor.
    public static var defaultThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}

/// How far a run has come: devices whose tracks have ended, samples made, and the share of the clock
/// (first to last tick) simulated.
public struct RunProgress: Sendable {
    public var devicesDone: Int
    public var devices: Int
    public var samples: Int
    /// 0…1.
    public var fraction: Double
}

/// What a run did, for the summary on standard error.
public struct RunSummary: Sendable, Equatable {
    public var devices = 0
    public var samples = 0
    public var eventsByKind: [GeofenceEvent.Kind: Int] = [:]
    /// Fixes the engine dropped because their time went back (readers usually drop them first).
    public var droppedFixes = 0
    public var start = Timestamp.epoch
    /// True when the run was stopped before the end of the tracks.
    public var interrupted = false
    /// Announced stays (an enter was reported, no exit) still open when their device's track ended: no
    /// exit and no visit was written for them. `device in region`, in device order, then region order.
    public var openStays: [String] = []
    /// Announced stays cut short because the nearest set moved on (SEMANTICS §4): the region got a
    /// `monitor-stop` while the device was inside, and the app never hears an exit. `device in region
    /// at TIME`, in device order.
    public var stoppedStays: [String] = []

    public var events: Int { eventsByKind.values.reduce(0, +) }
}

extension Simulation {
    /// Runs the scenario, sending every event to `sink` in the total order of SEMANTICS §7, then
    /// finishing it (also when `options.isCancelled` stopped it early: the summary says so). Memory
    /// stays flat in the run's length: events leave window by window.
    ///
    /// When `sink.send` throws, the run stops and rethrows without finishing the sink: the caller
    /// decides whether to keep (`finish()`) or abandon what it received.
    ///
    /// Output is byte-identical for any `options.threads`. Cost per sample is O(capacity) plus a
    /// nearest-set query at each refresh.
    @discardableResult
    public func run(into sink: EventSink, options: RunOptions = RunOptions()) throws -> RunSummary {
        var summary = RunSummary()
        try runWindows(into: sink, options: options, summary: &summary)
        try sink.finish()
        return summary
    }

    private func runWindows(into sink: EventSink, options: RunOptions, summary: inout RunSummary) throws {
        let start = clockStart
        let world = World(regions: regions, rules: rules, settings: settings,
                          skipsQuietRegions: options.skipsQuietRegions)
        summary.start = start
        let lanes = concurrentMap(devices.count) { [self] i in lane(for: devices[i], start: start) }  // a pass over each track
        try drive(DeviceLanes(lanes), world: world, into: sink,
                  options: options, summary: &summary)
    }

    /// The moving parts of `device` on the clock that starts at `start`.
    func lane(for device: Device, start: Timestamp) -> DeviceLane {
        let fixes = device.track.fixes(start: start)
        return DeviceLane(stream: SampleStream(segments: fixes, start: start, tick: tick, noise: noise,
                                               deviceID: device.id, accuracy: device.accuracy ?? settings.accuracy),
                          monitor: DeviceMonitor(deviceID: device.id),
                          observesEvery: max(1, settings.interval.microseconds / tick.microseconds),
                          dropped: device.track.fixCount - fixes.reduce(0) { $0 + $1.count })
    }

    /// Advances `lanes` window by window to the end of their tracks, sending each window's events in the
    /// order of SEMANTICS §7; adds what happened to `summary`.
    func drive(_ lanes: DeviceLanes, world: World, into sink: EventSink, options: RunOptions,
               summary: inout RunSummary) throws {
        summary.devices += lanes.lanes.count
        summary.droppedFixes += lanes.lanes.reduce(0) { $0 + $1.dropped }
        let ranges = lanes.lanes.compactMap(\.stream.tickRange)
        guard let first = ranges.map(\.lowerBound).min(), let last = ranges.map(\.upperBound).max() else { return }

        let ranks = lanes.deviceRanks()
        // Events sent, by kind (a dictionary's hashing per event would cost the serial part of a run),
        // added to the summary also when a sink's send throws.
        var sentByKind = [Int](repeating: 0, count: GeofenceEvent.Kind.allCases.count)
        defer {
            for kind in GeofenceEvent.Kind.allCases where sentByKind[kind.rawValue] > 0 {
                summary.eventsByKind[kind, default: 0] += sentByKind[kind.rawValue]
            }
        }
        var windowStart = first
        while windowStart <= last {
            if options.isCancelled() {
                summary.interrupted = true
                return
            }
            let limit = min(last + 1, windowStart + options.windowTicks)
            lanes.advance(before: limit, world: world, threads: options.threads)
            try lanes.sendEvents(ranks: ranks, to: sink, counting: &sentByKind)
            // Straight to the next tick at which some device has a sample: years without fixes
            // between two tracks cost nothing.
            windowStart = max(limit, lanes.upcomingTick() ?? last + 1)
            if let progress = options.progress {
                progress(RunProgress(devicesDone: lanes.lanes.count { ($0.stream.tickRange?.upperBound ?? first) < windowStart },
                                     devices: lanes.lanes.count, samples: lanes.lanes.reduce(0) { $0 + $1.samples },
                                     fraction: Double(min(windowStart, last + 1) - first) / Double(last + 1 - first)))
            }
        }
        summary.samples += lanes.lanes.reduce(0) { $0 + $1.samples }
        for lane in lanes.lanes {
            let device = lane.monitor.deviceID
            summary.openStays += lane.monitor.openStays.map { "\(device) in \(regions[$0].id)" }
            summary.stoppedStays += lane.monitor.stoppedStays.map { "\(device) in \(regions[$0.region].id) at \($0.time.iso8601)" }
        }
    }
}

/// One device's moving parts during a run.
struct DeviceLane: Sendable {
    var stream: SampleStream
    var monitor: DeviceMonitor
    /// The device observes the samples whose tick index is a multiple of this (SEMANTICS §2).
    var observesEvery: Int64 = 1
    var dropped: Int
    var samples = 0
    var events: [GeofenceEvent] = []
}

/// The devices of a run, advanced window by window, each lane by one thread at a time.
final class DeviceLanes: @unchecked Sendable {
    // Safety: during `advance`, lane i is touched only by the worker that owns chunk i / chunkSize;
    // outside it, only by the calling thread.
    var lanes: [DeviceLane]

    init(_ lanes: [DeviceLane]) { self.lanes = lanes }

    func advance(before limit: Int64, world: World, threads: Int) {
        let count = lanes.count
        let workers = min(threads, count)
        if workers <= 1 {
            for i in 0..<count { advanceLane(i, before: limit, world: world) }
            return
        }
        // Contiguous chunks, a few per worker, so that slow devices even out.
        let chunks = min(count, workers * 4)
        lanes.withUnsafeMutableBufferPointer { buffer in
            let base = UnsafeMutableBufferPointerBox(buffer)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let lower = chunk * count / chunks, upper = (chunk + 1) * count / chunks
                for i in lower..<upper { DeviceLanes.advance(&base.buffer[i], before: limit, world: world) }
            }
        }
    }

    private func advanceLane(_ i: Int, before limit: Int64, world: World) {
        DeviceLanes.advance(&lanes[i], before: limit, world: world)
    }

    private static func advance(_ lane: inout DeviceLane, before limit: Int64, world: World) {
        while let sample = lane.stream.next(before: limit) {
            lane.samples += 1
            guard sample.tickIndex % lane.observesEvery == 0 else { continue }  // noise still ran over it
            lane.monitor.observe(sample, in: world, into: &lane.events)
        }
    }

    /// The earliest tick at which some lane has a sample left, or nil when every track is over.
    func upcomingTick() -> Int64? {
        var earliest: Int64?
        for i in lanes.indices {
            if let k = lanes[i].stream.upcomingTick() { earliest = min(earliest ?? k, k) }
        }
        return earliest
    }

    /// Each lane's place in the UTF-8 order of the device ids (lanes with the same id share one), for
    /// `sendEvents(ranks:to:counting:)`. O(n log n) in the lanes, once a run.
    func deviceRanks() -> [Int32] {
        let order = lanes.indices.sorted {
            lanes[$0].monitor.deviceID.utf8.lexicographicallyPrecedes(lanes[$1].monitor.deviceID.utf8)
        }
        var ranks = [Int32](repeating: 0, count: lanes.count)
        var rank: Int32 = 0
        for (position, lane) in order.enumerated() {
            if position > 0, lanes[order[position - 1]].monitor.deviceID != lanes[lane].monitor.deviceID { rank += 1 }
            ranks[lane] = rank
        }
        return ranks
    }

    /// Sends every lane's events of the window to `sink` in the order of SEMANTICS §7 (`GeofenceEvent.precedes`,
    /// ties in lane order), counting them by kind in `sent`, then empties the lanes' events. Sorts compact keys
    /// (time, device rank, kind, region, rule, place) rather than the events: no string comparison, and each
    /// event is sent from its lane where it lies, never copied. O(e log e) in the window's events.
    func sendEvents(ranks: [Int32], to sink: EventSink, counting sent: inout [Int]) throws {
        var keys: [(time: Int64, device: Int32, kind: Int32, region: Int32, rule: Int32, lane: Int32, at: Int32)] = []
        keys.reserveCapacity(lanes.indices.reduce(0) { $0 + lanes[$1].events.count })
        for i in lanes.indices where !lanes[i].events.isEmpty {
            // Read in place: iterating the events would copy each one (and count references on its strings).
            lanes[i].events.withUnsafeBufferPointer { events in
                for at in events.indices {
                    keys.append((events[at].time.microsecondsSince1970, ranks[i], Int32(events[at].kind.rawValue),
                                 Int32(events[at].regionIndex), Int32(events[at].ruleIndex), Int32(i), Int32(at)))
                }
            }
        }
        guard !keys.isEmpty else { return }
        keys.sort { a, b in
            if a.time != b.time { return a.time < b.time }
            if a.device != b.device { return a.device < b.device }
            if a.kind != b.kind { return a.kind < b.kind }
            if a.region != b.region { return a.region < b.region }
            if a.rule != b.rule { return a.rule < b.rule }
            if a.lane != b.lane { return a.lane < b.lane }
            return a.at < b.at
        }
        try lanes.withUnsafeBufferPointer { lanes in
            for key in keys {
                try lanes[Int(key.lane)].events.withUnsafeBufferPointer { events in
                    try sink.send(events[Int(key.at)])
                }
                sent[Int(key.kind)] += 1
            }
        }
        for i in lanes.indices { lanes[i].events.removeAll(keepingCapacity: true) }
    }
}

private struct UnsafeMutableBufferPointerBox: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<DeviceLane>
    init(_ buffer: UnsafeMutableBufferPointer<DeviceLane>) { self.buffer = buffer }
}

extension Track {
    /// The number of points, before any is dropped.
    var fixCount: Int {
        switch self {
        case let .timed(segments): return segments.reduce(0) { $0 + $1.count }
        case let .paced(segments, _, _): return segments.reduce(0) { $0 + $1.count }
        }
    }
}

