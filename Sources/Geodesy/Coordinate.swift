/// A position on the Earth: latitude and longitude in degrees (WGS 84 values, spherical model).
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    /// North-positive latitude, in degrees; valid in [-90, 90].
    public var latitude: Degrees
    /// East-positive longitude, in degrees; valid in [-180, 180].
    public var longitude: Degrees

    @inlinable
    public init(latitude: Degrees, longitude: Degrees) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// True when both values are finite and within [-90, 90] and [-180, 180].
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    public var description: String { "(\(latitude), \(longitude))" }

    /// The great-circle distance to `other` by the haversine formula on `Earth.radius`, in metres. O(1).
    @inlinable
    public func distance(to other: Coordinate) -> Meters {
        let phi1 = latitude.radians, phi2 = other.latitude.radians
        let dPhi = phi2 - phi1
        let dLambda = (other.longitude - longitude).radians
        let sinPhi = _sin(dPhi / 2), sinLambda = _sin(dLambda / 2)
        let h = sinPhi * sinPhi + _cos(phi1) * _cos(phi2) * sinLambda * sinLambda
        return 2 * Earth.radius * _asin(Swift.min(1, h.squareRoot()))
    }

    /// The point `north` metres north and `east` metres east of this one, on the local tangent plane;
    /// the longitude is normalised to [-180, 180). For offsets of metres to kilometres (GPS noise).
    public func offset(northMeters north: Meters, eastMeters east: Meters) -> Coordinate {
        let dLat = (north / Earth.radius).degrees
        let cosLat = _cos(latitude.radians)
        let dLon = cosLat > 1e-12 ? (east / (Earth.radius * cosLat)).degrees : 0
        let lat = Swift.max(-90, Swift.min(90, latitude + dLat))
        return Coordinate(latitude: lat, longitude: normalizedLongitude(longitude + dLon))
    }
}
