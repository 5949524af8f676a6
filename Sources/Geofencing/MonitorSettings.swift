import Geodesy

/// How a device picks the regions it monitors (SEMANTICS §4).
public enum Selection: String, Hashable, Sendable, CaseIterable {
    /// The `capacity` nearest regions, refreshed every `refreshDistance` metres.
    case nearest
    /// The first `capacity` regions by index, for the whole run.
    case `static`
}

/// What a region that starts with the device inside it does (SEMANTICS §4).
public enum InitialTrigger: String, Hashable, Sendable, CaseIterable {
    /// The inside state is unannounced: no enter, dwell or visit; leaving still emits exit.
    case none
    /// An `enter` at once, and a stay begins.
    case enter
}

/// The monitor's numbers, resolved: a profile's defaults with the scenario's overrides applied.
public struct MonitorSettings: Hashable, Sendable {
    /// How many regions a device monitors at once; nil is unlimited.
    public var capacity: Int?
    public var selection: Selection
    /// How far a device moves, in metres, before the nearest set is chosen again.
    public var refreshDistance: Meters
    /// h: metres beyond the boundary a device must pass before an exit starts.
    public var hysteresis: Meters
    /// e: metres inside the boundary an enter needs; negative lets an enter start up to −e metres outside
    /// (revision 3).
    public var enterBuffer: Meters
    /// τ: how long a device must stay on its new side.
    public var confirmation: TimeSpan
    public var initialTrigger: InitialTrigger
    /// a: the accuracy of fixes that have none of their own and whose device has none, in metres.
    public var accuracy: Meters
    /// c_in: the confidence of being inside that an enter needs, in [0, 1] (SEMANTICS §5).
    public var enterConfidence: Double
    /// c_out: the confidence of being inside at or below which an exit starts, in [0, 0.5].
    public var exitConfidence: Double
    /// How often a device observes its position (revision 2 §2): a multiple of the tick, or zero for every
    /// sample. Samples it does not observe play no part in §4–§6.
    public var interval: TimeSpan
    /// p of the observation grid (revision 3 §2).
    public var phase: Phase
    /// The stationary slow-down (revision 3 §2), or none.
    public var stationary: Stationary?
    /// Outlier episodes (revision 3 §2), or none.
    public var outliers: Outliers?
    /// The delay before the app hears an enter, exit or dwell (revision 3 §7), or none.
    public var delivery: Delivery?
    /// The probabilities, in [0, 1], that the phone never reports a confirmed enter or exit (revision 3 §5).
    public var missEnter: Double
    public var missExit: Double

    public init(
        capacity: Int?, selection: Selection, refreshDistance: Meters, hysteresis: Meters,
        enterBuffer: Meters, confirmation: TimeSpan, initialTrigger: InitialTrigger,
        accuracy: Meters = 0, enterConfidence: Double = 0.5, exitConfidence: Double = 0.5,
        interval: TimeSpan = .zero, phase: Phase = .zero, stationary: Stationary? = nil,
        outliers: Outliers? = nil, delivery: Delivery? = nil, missEnter: Double = 0, missExit: Double = 0
    ) {
        self.interval = interval
        self.phase = phase
        self.stationary = stationary
        self.outliers = outliers
        self.delivery = delivery
        self.missEnter = missEnter
        self.missExit = missExit
        self.capacity = capacity
        self.selection = selection
        self.refreshDistance = refreshDistance
        self.hysteresis = hysteresis
        self.enterBuffer = enterBuffer
        self.confirmation = confirmation
        self.initialTrigger = initialTrigger
        self.accuracy = accuracy
        self.enterConfidence = enterConfidence
        self.exitConfidence = exitConfidence
    }
}

/// A scenario's `monitor:` block: each field, when set, replaces the profile's value.
public struct MonitorOverrides: Hashable, Sendable {
    /// `.some(nil)` sets capacity to unlimited.
    public var capacity: Int??
    public var selection: Selection?
    public var refreshDistance: Meters?
    public var hysteresis: Meters?
    public var enterBuffer: Meters?
    public var confirmation: TimeSpan?
    public var initialTrigger: InitialTrigger?
    public var accuracy: Meters?
    public var enterConfidence: Double?
    public var exitConfidence: Double?
    public var interval: TimeSpan?
    public var phase: Phase?
    /// `.some(nil)` turns the profile's slow-down off; likewise `outliers` and `delivery`.
    public var stationary: Stationary??
    public var outliers: Outliers??
    public var delivery: Delivery??
    public var missEnter: Double?
    public var missExit: Double?

    public init(
        capacity: Int?? = nil, selection: Selection? = nil, refreshDistance: Meters? = nil,
        hysteresis: Meters? = nil, enterBuffer: Meters? = nil, confirmation: TimeSpan? = nil,
        initialTrigger: InitialTrigger? = nil, accuracy: Meters? = nil, enterConfidence: Double? = nil,
        exitConfidence: Double? = nil, interval: TimeSpan? = nil, phase: Phase? = nil,
        stationary: Stationary?? = nil, outliers: Outliers?? = nil, delivery: Delivery?? = nil,
        missEnter: Double? = nil, missExit: Double? = nil
    ) {
        self.interval = interval
        self.phase = phase
        self.stationary = stationary
        self.outliers = outliers
        self.delivery = delivery
        self.missEnter = missEnter
        self.missExit = missExit
        self.accuracy = accuracy
        self.enterConfidence = enterConfidence
        self.exitConfidence = exitConfidence
        self.capacity = capacity
        self.selection = selection
        self.refreshDistance = refreshDistance
        self.hysteresis = hysteresis
        self.enterBuffer = enterBuffer
        self.confirmation = confirmation
        self.initialTrigger = initialTrigger
    }

    /// `base` with every field that is set here replaced.
    public func applied(to base: MonitorSettings) -> MonitorSettings {
        var s = base
        if let capacity { s.capacity = capacity }
        if let selection { s.selection = selection }
        if let refreshDistance { s.refreshDistance = refreshDistance }
        if let hysteresis { s.hysteresis = hysteresis }
        if let enterBuffer { s.enterBuffer = enterBuffer }
        if let confirmation { s.confirmation = confirmation }
        if let initialTrigger { s.initialTrigger = initialTrigger }
        if let accuracy { s.accuracy = accuracy }
        if let enterConfidence { s.enterConfidence = enterConfidence }
        if let exitConfidence { s.exitConfidence = exitConfidence }
        if let interval { s.interval = interval }
        if let phase { s.phase = phase }
        if let stationary { s.stationary = stationary }
        if let outliers { s.outliers = outliers }
        if let delivery { s.delivery = delivery }
        if let missEnter { s.missEnter = missEnter }
        if let missExit { s.missExit = missExit }
        return s
    }
}
