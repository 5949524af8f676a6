/// A circular region: a centre and a radius in metres on the spherical Earth.
public struct Circle: Hashable, Sendable {
    public let center: Coordinate
    /// The radius in metres; greater than zero.
    public let radius: Meters
    @usableFromInline let preparedCenter: PreparedCoordinate

    /// A circle, or `GeometryError` when the centre is invalid or the radius is not finite and > 0.
    public init(center: Coordinate, radius: Meters) throws(GeometryError) {
        guard center.isValid else { throw .invalidCoordinate(center, where: "the circle's centre") }
        guard radius.isFinite, radius > 0 else { throw .invalidRadius(radius) }
        self.center = center
        self.radius = radius
        self.preparedCenter = PreparedCoordinate(center)
    }

    public static func == (a: Circle, b: Circle) -> Bool { a.center == b.center && a.radius == b.radius }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(center)
        hasher.combine(radius)
    }

    /// `haversine(p, centre) - radius`, in metres: negative inside, zero on the edge. O(1).
    @inlinable
    public func signedDistance(to point: Coordinate) -> Meters {
        point.distance(to: center) - radius
    }

    /// The same signed distance from a point whose trigonometry is done; bit-identical. O(1).
    @inlinable
    public func signedDistance(to point: PreparedCoordinate) -> Meters {
        point.distance(to: preparedCenter) - radius
    }

    /// The latitude/longitude box holding the whole spherical cap.
    public var bounds: BoundingBox {
        let angular = radius / Earth.radius
        let minLat = center.latitude - angular.degrees
        let maxLat = center.latitude + angular.degrees
        if minLat <= -90 || maxLat >= 90 || angular >= .pi / 2 {
            return BoundingBox(
                minLatitude: max(-90, minLat), maxLatitude: min(90, maxLat),
                minLongitude: -180, maxLongitude: 180)
        }
        let ratio = _sin(angular) / _cos(center.latitude.radians)
        let dLon = ratio >= 1 ? 180 : _asin(ratio).degrees
        return BoundingBox(
            minLatitude: minLat, maxLatitude: maxLat,
            minLongitude: center.longitude - dLon, maxLongitude: center.longitude + dLon)
    }
}
