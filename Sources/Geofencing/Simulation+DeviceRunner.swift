import Time

/// Runs devices one at a time against one world, built once: for fleets that arrive device by device
/// (`perimeter stream`), whose devices are not known in advance. The clock's start is given, since one
/// device cannot tell the fleet's earliest fix (SEMANTICS §1); each device then emits exactly the events
/// it emits in a run of the whole fleet with that start (§2–§6 never mix two devices).
///
/// ```swift
/// let runner = simulation.deviceRunner(start: start)
/// for device in devices { try runner.run(device, into: sink) }
/// try sink.finish()
/// ```
public final class DeviceRunner {
    private let simulation: Simulation
    private let world: World
    /// The clock's start every device shares.
    public let start: Timestamp
    /// What the devices run so far did, added up.
    public private(set) var summary = RunSummary()

    init(_ simulation: Simulation, start: Timestamp) {
        self.simulation = simulation
        self.start = start
        world = simulation.world(settings: simulation.settings)
        summary.start = start
    }

    /// Runs `device` to the end of its track, sending its events to `sink` in the order of SEMANTICS §7;
    /// the sink is not finished. The simulation's own devices play no part. O(samples × capacity).
    public func run(
        _ device: Device, into sink: EventSink,
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) throws {
        let lanes = DeviceLanes([simulation.lane(for: device, start: start)])
        try simulation.drive(
            lanes, world: world, into: sink,
            options: RunOptions(threads: 1, isCancelled: isCancelled), summary: &summary)
    }
}

extension Simulation {
    /// A runner for devices that come one at a time, on the clock that starts at `start`.
    public func deviceRunner(start: Timestamp) -> DeviceRunner { DeviceRunner(self, start: start) }
}
