/// The geometry of a region: a circle, or a (multi)polygon.
public enum Shape: Hashable, Sendable {
    case circle(Circle)
    case polygon(MultiPolygon)

    /// Signed distance d(p, shape) of SEMANTICS §3, in metres: negative inside, positive outside.
    @inlinable
    public func signedDistance(to point: Coordinate) -> Meters {
        switch self {
        case let .circle(circle): return circle.signedDistance(to: point)
        case let .polygon(polygon): return polygon.signedDistance(to: point)
        }
    }

    /// d(p, shape) from a point whose trigonometry is done once for many shapes; bit-identical.
    @inlinable
    public func signedDistance(to point: PreparedCoordinate) -> Meters {
        switch self {
        case let .circle(circle): return circle.signedDistance(to: point)
        case let .polygon(polygon): return polygon.signedDistance(to: point)
        }
    }

    public var bounds: BoundingBox {
        switch self {
        case let .circle(circle): return circle.bounds
        case let .polygon(polygon): return polygon.bounds
        }
    }
}
