import Geodesy

/// The device profiles of SEMANTICS §8: labelled approximations of iOS and Android (in the foreground, and
/// under Android 8's background limits), and ground truth.
public enum Profile: String, Hashable, Sendable, CaseIterable {
    case ios, android
    case androidBackground = "android-background"
    case ideal

    /// The profile's defaults (SEMANTICS §8 table).
    public var settings: MonitorSettings {
        switch self {
        case .ios:
            return MonitorSettings(capacity: 20, selection: .nearest, refreshDistance: 500, hysteresis: 200,
                                   enterBuffer: 0, confirmation: .seconds(20), initialTrigger: .none)
        case .android:
            return MonitorSettings(capacity: 100, selection: .nearest, refreshDistance: 500, hysteresis: 0,
                                   enterBuffer: 0, confirmation: .zero, initialTrigger: .enter,
                                   accuracy: 20, enterConfidence: 0.85, exitConfidence: 0.15)
        case .androidBackground:
            return MonitorSettings(capacity: 100, selection: .nearest, refreshDistance: 500, hysteresis: 0,
                                   enterBuffer: 0, confirmation: .zero, initialTrigger: .enter,
                                   accuracy: 20, enterConfidence: 0.85, exitConfidence: 0.15, interval: .seconds(120))
        case .ideal:
            return MonitorSettings(capacity: nil, selection: .nearest, refreshDistance: 500, hysteresis: 0,
                                   enterBuffer: 0, confirmation: .zero, initialTrigger: .none)
        }
    }
}
