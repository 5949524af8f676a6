/// How sure a position of known accuracy is to lie inside a region (SEMANTICS §5).
public enum Confidence {
    /// The share of a disc of radius `accuracy` around the position that lies inside, the boundary taken
    /// as a straight line at signed distance `distance` (negative inside), both in metres. With
    /// `c = d / a` clamped to [-1, 1]: `(acos(c) − c·sqrt(1 − c²)) / π`, so 1 at `d ≤ −a`, 0.5 on the
    /// boundary, 0 at `d ≥ a`; with `a = 0`, 1 when `d ≤ 0`, else 0. O(1).
    @inlinable
    public static func inside(distance d: Meters, accuracy a: Meters) -> Double {
        guard a > 0 else { return d <= 0 ? 1 : 0 }
        let c = Swift.min(1, Swift.max(-1, d / a))
        return (_acos(c) - c * (1 - c * c).squareRoot()) / Double.pi
    }

    /// The least depth inside a straight boundary, in metres, at which a disc of radius `accuracy` has at
    /// least `share` of itself inside: the inverse of `inside(distance:accuracy:)` (at depth D the signed
    /// distance is −D), so 0 for a share of 0.5 and `accuracy` for 1; 0 whenever `accuracy` is 0 and the
    /// share at most 1. By bisection to about a micrometre: O(1).
    public static func depth(forShare share: Double, accuracy a: Meters) -> Meters {
        guard a > 0 else { return 0 }
        var low = -a, high = a  // inside(−low) ≤ share ≤ inside(−high) for every share in [0, 1]
        for _ in 0..<60 where high - low > 1e-6 {
            let middle = (low + high) / 2
            if inside(distance: -middle, accuracy: a) >= share { high = middle } else { low = middle }
        }
        return high
    }
}
