import Time

extension MonitorField {
    /// A number of a setting that `calibrate` can fit (docs/CALIBRATE.md "Parameters"): the setting itself
    /// (`hysteresis`) or a part of it (`delivery.median`), with its unit, bounds and search resolution, what
    /// it needs of the field log, and when it is fitted without `--fit`. Values are plain numbers in the unit
    /// (metres, seconds, shares).
    public struct Fit: Sendable {
        /// The unit of a fitted number (`1`: a share or a probability in [0, 1]).
        public enum Unit: String, Hashable, Sendable {
            case meters = "m"
            case seconds = "s"
            case share = "1"

            /// An interval for people, with its unit (none for a share): `76.25 – 98.75 m`, `0.085 – 0.175`.
            public func interval(_ range: ClosedRange<Double>) -> String {
                "\(MonitorValue.plain(range.lowerBound)) – \(MonitorValue.plain(range.upperBound))"
                    + (self == .share ? "" : " " + rawValue)
            }
        }

        /// What a parameter needs of the field log to be identified: crossings of one kind, any crossings,
        /// or events with `detectedAt` (the delivery lag).
        public enum Evidence: Hashable, Sendable {
            case crossings(GeofenceEvent.Kind?)
            case decisionTimes
        }

        /// When `calibrate` fits it without `--fit`: never, always, or when the base (and whether the log
        /// has `detectedAt`) says so, with the words for `--help`.
        public enum Default: Sendable {
            case never
            case always
            case when(String, @Sendable (_ base: MonitorSettings, _ logHasDecisionTimes: Bool) -> Bool)
        }

        /// The part of the setting (`median` of `delivery`); nil for the setting itself.
        public let part: String?
        public let unit: Unit
        public let lower: Double
        public let upper: Double
        /// The search's step: values are lower + k × resolution.
        public let resolution: Double
        public let evidence: Evidence
        /// What it is, for --help and the docs.
        public let meaning: String
        /// Its place among calibrate's parameters (the order of --help, of the results and of the search's
        /// moves): kept as it was when the parameters had their own list.
        public let rank: Int
        public let byDefault: Default
        /// For a part of a setting the base may lack (`stationary`, `outliers`): how to say the base has none,
        /// and the setting to start from instead.
        public let needs: (lacking: String, example: String)?
        /// A part's value in settings, and how a fit sets it (`base`: the settings before the fit, `tick`:
        /// the clock's step); nil for the setting itself, read and set through its row.
        let partValue: (@Sendable (MonitorSettings) -> Double)?
        let setPart: (@Sendable (Double, inout MonitorSettings, _ base: MonitorSettings, _ tick: TimeSpan) -> Void)?

        /// The setting itself, fitted.
        init(
            rank: Int, _ unit: Unit, _ lower: Double, _ upper: Double, by resolution: Double, evidence: Evidence,
            byDefault: Default = .never, meaning: String
        ) {
            self.init(
                rank: rank, part: nil, unit, lower, upper, by: resolution, evidence: evidence, byDefault: byDefault,
                meaning: meaning, needs: nil, value: nil, set: nil)
        }

        /// A part of the setting, read by `value` and set by `set`.
        init(
            rank: Int, part: String?, _ unit: Unit, _ lower: Double, _ upper: Double, by resolution: Double,
            evidence: Evidence, byDefault: Default = .never, meaning: String,
            needs: (lacking: String, example: String)? = nil,
            value: (@Sendable (MonitorSettings) -> Double)?,
            set: (@Sendable (Double, inout MonitorSettings, _ base: MonitorSettings, _ tick: TimeSpan) -> Void)?
        ) {
            self.part = part
            self.unit = unit
            self.lower = lower
            self.upper = upper
            self.resolution = resolution
            self.evidence = evidence
            self.byDefault = byDefault
            self.meaning = meaning
            self.rank = rank
            self.needs = needs
            partValue = value
            setPart = set
        }

        /// A duration of `seconds`, to the microsecond.
        static func span(_ seconds: Double) -> TimeSpan {
            TimeSpan(microseconds: Int64((seconds * 1_000_000).rounded()))
        }

        /// `seconds` rounded to the nearest multiple of `tick`, at least `fewest` ticks.
        static func onTicks(_ seconds: Double, tick: TimeSpan, fewest: Int64 = 0) -> TimeSpan {
            let ticks = max(fewest, (span(seconds).microseconds + tick.microseconds / 2) / tick.microseconds)
            return TimeSpan(microseconds: ticks * tick.microseconds)
        }
    }

    /// The fit called `name` (`hysteresis`, `delivery.median`) and its row, or nil. O(rows).
    public static func fitted(named name: String) -> (field: MonitorField, fit: Fit)? {
        for field in all {
            for fit in field.fits where field.name(of: fit) == name { return (field, fit) }
        }
        return nil
    }

    /// The parameter name of `fit` (one of this row's): the key, and its part (`delivery.median`).
    public func name(of fit: Fit) -> String { key + (fit.part.map { "." + $0 } ?? "") }

    /// The value of `fit` (one of this row's) in `settings`, in its unit. O(1).
    public func value(of fit: Fit, in settings: MonitorSettings) -> Double {
        if let partValue = fit.partValue { return partValue(settings) }
        switch read(settings) {
        case let .meters(v), let .share(v): return v
        case let .span(span): return span.seconds
        default: return 0  // no other kind is fitted whole
        }
    }

    /// Sets `fit` (one of this row's) to `value` in `settings`, as a fit does: a duration on the ticks is
    /// rounded to a multiple of `tick`. O(1).
    public func set(
        _ fit: Fit, to value: Double, in settings: inout MonitorSettings, base: MonitorSettings, tick: TimeSpan
    ) {
        if let setPart = fit.setPart { return setPart(value, &settings, base, tick) }
        switch kind {
        case .distance: write(&settings, .meters(value))
        case .share: write(&settings, .share(value))
        case .duration(onTicks: true): write(&settings, .span(Fit.onTicks(value, tick: tick)))
        case .duration(onTicks: false): write(&settings, .span(Fit.span(value)))
        default: break  // no other kind is fitted whole
        }
    }
}
