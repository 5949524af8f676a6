import Geofencing

/// The exit threshold as a fit coordinate. An exit starts beyond h + e⁻ (SEMANTICS §5, e⁻ = max(0, −e)),
/// so with `hysteresis` and `enterBuffer` both fitted, exits alone cannot tell h = 75, e = −25 from
/// h = 90, e = −10: the pair slides along a valley, and an interval on one line with the other held would
/// be far too narrow. The search therefore moves T = h + e⁻ (the `hysteresis` parameter's steps are T's)
/// and e, and h = max(0, T − e⁻). Exits pin T; enters pin e, as well as they can; each bootstrap replicate
/// gives its h from its own T and e, so that h's interval carries e's uncertainty. O(1).
extension Calibration {
    /// The indices of `hysteresis` and `enterBuffer` in `parameters`, when both are fitted.
    var exitThresholdPair: (hysteresis: Int, enterBuffer: Int)? {
        let hysteresis = MonitorField.row(at: \MonitorSettings.hysteresis)
        let enterBuffer = MonitorField.row(at: \MonitorSettings.enterBuffer)
        guard let h = parameters.firstIndex(where: { $0.field != nil && $0.field == hysteresis }),
            let e = parameters.firstIndex(where: { $0.field != nil && $0.field == enterBuffer })
        else { return nil }
        return (h, e)
    }

    /// Parameter j's search coordinate in `settings`: T = h + e⁻ for `hysteresis` in the pair, else its value.
    func coordinate(_ j: Int, in settings: MonitorSettings, noise: Noise?) -> Double {
        let value = parameters[j].value(in: settings, noise: noise)
        guard let pair = exitThresholdPair, j == pair.hysteresis else { return value }
        return value + max(0, -settings.enterBuffer)
    }

    /// Parameter j's value at `steps`: h = max(0, T − e⁻) for `hysteresis` in the pair, else its step's value.
    func fittedValue(_ j: Int, at steps: [Int]) -> Double {
        let value = parameters[j].value(steps[j])
        guard let pair = exitThresholdPair, j == pair.hysteresis else { return value }
        return max(0, value - max(0, -parameters[pair.enterBuffer].value(steps[pair.enterBuffer])))
    }
}
