import Draws
import Foundation
import Parallel
import Time

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

    public init(
        threads: Int = RunOptions.defaultThreads, windowTicks: Int64 = 600,
        isCancelled: @escaping @Sendable () -> Bool = { false },
        progress: (@Sendable (RunProgress) -> Void)? = nil
    ) {
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
    /// Crossings decided but drawn as missed (SEMANTICS §5 "Misses"), in device order, then time.
    public var drawnMisses: [DrawnMiss] = []

    public var events: Int { eventsByKind.values.reduce(0, +) }

    /// The drawn misses as notes for people, each with the draw seed that drew them (the scenario's noise
    /// seed, else 0): `note: enter of flagship by phone at … not reported: drawn as missed, missEnter 0.06,
    /// seed 0`. A scenario for CI under a stochastic profile uses `probability:` expectations, or sets the
    /// miss probabilities to 0 in its `monitor:` block.
    /// At most `listed` are named; the rest are counted in one more note. `show` writes each time (as ISO
    /// 8601 in UTC unless given: `check` and `run` show it on the clock of the rest of their messages).
    public func missNotes(seed: UInt64, listed: Int = 5, showing show: (Timestamp) -> String = \.iso8601) -> [String] {
        let named = drawnMisses.prefix(listed).map { "note: \($0.sentence(showing: show)), seed \(seed)" }
        let rest = drawnMisses.count - named.count
        return named + (rest > 0 ? ["note: \(rest) more crossing\(rest == 1 ? "" : "s") drawn as missed, not reported"] : [])
    }
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
        let world = world(settings: settings, skipsQuietRegions: options.skipsQuietRegions)
        summary.start = start
        // a pass over each track
        let lanes = concurrentMap(devices.count, threads: options.threads) { [self] i in
            lane(for: devices[i], index: i, start: start)
        }
        try drive(
            DeviceLanes(lanes), world: world, into: sink,
            options: options, summary: &summary)
    }

    /// The moving parts of `device` (number `index` of `devices`, nil for another) on the clock that
    /// starts at `start`. Its samples are replayed when the simulation records them (`recordsSamples`).
    func lane(for device: Device, index: Int? = nil, start: Timestamp) -> DeviceLane {
        let fixes = device.track.fixes(start: start)
        let settings = settings
        let deviceKey = DrawStream.deviceKey(seed: noise?.seed ?? 0, device: device.id)
        var stream = SampleStream(
            segments: fixes, start: start, tick: tick, noise: noise,
            deviceID: device.id, accuracy: device.accuracy ?? settings.accuracy,
            outliers: settings.outliers, tracksExact: settings.stationary != nil)
        if let index, let recordings {
            let fresh = stream
            let bound = RecordedSamples.bytes(samples: stream.sampleBound, exact: settings.stationary != nil)
            let key = SampleStreamKey(settings, noise: noise)
            if let recorded = recordings.samples(
                key, device: index, bound: bound,
                record: { [fresh] in
                    var stream = fresh
                    return stream.recordAll()
                })
            {
                stream.replay(recorded)
            }
        }
        return DeviceLane(
            stream: stream,
            monitor: DeviceMonitor(deviceID: device.id, deviceKey: deviceKey, settings: settings),
            observation: Observation(settings, tick: tick, deviceKey: deviceKey),
            dropped: device.track.fixCount - fixes.reduce(0) { $0 + $1.count })
    }

    /// Advances `lanes` window by window to the end of their tracks, sending each window's events in the
    /// order of SEMANTICS §7; adds what happened to `summary`.
    func drive(
        _ lanes: DeviceLanes, world: World, into sink: EventSink, options: RunOptions,
        summary: inout RunSummary
    ) throws {
        let clock = summary.start, delays = world.settings.delivery != nil
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
        // A window's events are sent while the next window is simulated: the calling thread sends them, then
        // joins the other threads (`DeviceLanes.advance(before:world:threads:meanwhile:)`).
        // Delayed events leave with the first window whose limit passes their delivered time.
        var windowStart = first
        var windowLimit: Int64?  // the limit of the window whose events are set aside next
        while windowStart <= last {
            if options.isCancelled() {
                summary.interrupted = true
                break
            }
            let limit = min(last + 1, windowStart + options.windowTicks)
            lanes.setEventsAside(delays: delays, before: windowLimit.map { clock + tick * $0 })
            windowLimit = limit
            try lanes.advance(before: limit, world: world, threads: options.threads) {
                try lanes.sendEventsSetAside(ranks: ranks, to: sink, counting: &sentByKind)
            }
            // Straight to the next tick at which some device has a sample: years without fixes
            // between two tracks cost nothing.
            windowStart = max(limit, lanes.upcomingTick() ?? last + 1)
            if let progress = options.progress {
                progress(
                    RunProgress(
                        devicesDone: lanes.lanes.count { ($0.stream.tickRange?.upperBound ?? first) < windowStart },
                        devices: lanes.lanes.count, samples: lanes.lanes.reduce(0) { $0 + $1.samples },
                        fraction: Double(min(windowStart, last + 1) - first) / Double(last + 1 - first)))
            }
        }
        // The last window's, and every event held; a run stopped early keeps those delivered after the last
        // window simulated for a later window that never comes: what it sent is a prefix of the whole run's.
        lanes.setEventsAside(delays: delays, before: summary.interrupted ? windowLimit.map { clock + tick * $0 } : nil)
        try lanes.sendEventsSetAside(ranks: ranks, to: sink, counting: &sentByKind)
        if summary.interrupted { return }
        summary.samples += lanes.lanes.reduce(0) { $0 + $1.samples }
        for lane in lanes.lanes {
            let device = lane.monitor.deviceID
            summary.openStays += lane.monitor.openStays.map { "\(device) in \(regions[$0].id)" }
            summary.stoppedStays += lane.monitor.stoppedStays.map {
                "\(device) in \(regions[$0.region].id) at \($0.time.iso8601)"
            }
            summary.drawnMisses += lane.monitor.drawnMisses.map {
                DrawnMiss(
                    enter: $0.enter, region: regions[$0.region].id, device: device, time: $0.time,
                    probability: $0.probability)
            }
        }
    }
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

/// A crossing decided but drawn as missed (SEMANTICS §5 "Misses"): its kind, region, device, the time of
/// the sample that decided it, and the probability drawn against (`missEnter` or `missExit`).
public struct DrawnMiss: Sendable, Equatable {
    public var enter: Bool
    public var region: String
    public var device: String
    public var time: Timestamp
    public var probability: Double

    public init(enter: Bool, region: String, device: String, time: Timestamp, probability: Double) {
        self.enter = enter
        self.region = region
        self.device = device
        self.time = time
        self.probability = probability
    }

    /// `enter of REGION by DEVICE at TIME not reported: drawn as missed, missEnter P`, the time as `show`
    /// writes it.
    public func sentence(showing show: (Timestamp) -> String = \.iso8601) -> String {
        "\(enter ? "enter" : "exit") of \(region) by \(device) at \(show(time)) not reported: drawn as missed, "
            + "miss\(enter ? "Enter" : "Exit") \(probability)"
    }
}
