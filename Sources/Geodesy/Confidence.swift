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
}
