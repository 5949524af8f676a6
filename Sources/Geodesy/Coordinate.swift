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
        haversine(
            latitude.radians, _cos(latitude.radians), longitude,
            other.latitude.radians, _cos(other.latitude.radians), other.longitude)
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

/// A coordinate with its trigonometry done once, for many distance evaluations from the same point.
///
/// Distances from it are bit-identical to `Coordinate.distance(to:)`: the same expression, with the
/// same intermediate values.
public struct PreparedCoordinate: Sendable {
    public let coordinate: Coordinate
    @usableFromInline let latitudeRadians: Double
    /// cos φ, computed once.
    public let cosLatitude: Double

    @inlinable
    public init(_ coordinate: Coordinate) {
        self.coordinate = coordinate
        latitudeRadians = coordinate.latitude.radians
        cosLatitude = _cos(latitudeRadians)
    }

    /// The haversine distance to `other`, in metres; equals `coordinate.distance(to: other.coordinate)`.
    @inlinable
    public func distance(to other: PreparedCoordinate) -> Meters {
        haversine(
            latitudeRadians, cosLatitude, coordinate.longitude,
            other.latitudeRadians, other.cosLatitude, other.coordinate.longitude)
    }

    /// An upper bound on `distance(to:)`, in metres, without trigonometry (`Coordinate.distanceBound`).
    @inlinable
    public func distanceBound(to other: PreparedCoordinate) -> Meters {
        coordinate.distanceBound(to: other.coordinate, cosLatitudes: cosLatitude * other.cosLatitude)
    }
}

extension Coordinate {
    /// An upper bound on `distance(to:)`, in metres, without trigonometry for moves under 6,000 km, given
    /// `cosLatitudes` ≥ cos φ₁ · cos φ₂ (the exact product, or a bound on it: cosine is 1-Lipschitz, so
    /// cos φ₂ ≤ cos φ₁ + |φ₂ − φ₁|). R·√s·(1 + s/4) with s = Δφ² + cosLatitudes · Δλ² (radians): from
    /// sin x ≤ x, the haversine's h ≤ s/4; from asin y ≤ y / √(1 − y²), the distance 2R·asin √h ≤
    /// R·√s / √(1 − s/4); and 1 / √(1 − x) ≤ 1 + x for x ≤ 1/4. With exact cosines it is over by Δλ²/12
    /// at most (relative): under 10⁻⁵ for steps under 5 km up to 80° of latitude. O(1).
    @inlinable
    public func distanceBound(to other: Coordinate, cosLatitudes: Double) -> Meters {
        let bound = nearDistanceBound(to: other, cosLatitudes: cosLatitudes)
        return bound.isFinite ? bound : distance(to: other)
    }

    /// `distanceBound(to:cosLatitudes:)` where it needs no trigonometry, +∞ (an upper bound all the same)
    /// beyond: for a caller that only asks whether a point is near, such as a quiet window whose anchor may
    /// be half the globe away. O(1), never any trigonometry.
    @inlinable
    public func nearDistanceBound(to other: Coordinate, cosLatitudes: Double) -> Meters {
        let s = nearSpread(to: other, cosLatitudes: cosLatitudes)
        guard s <= 1 else { return .infinity }
        return Earth.radius * s.squareRoot() * (1 + s / 4)
    }

    /// The s of `nearDistanceBound`, Δφ² + cosLatitudes · Δλ² (radians²): the bound grows with it. The
    /// angles in one multiplication each (`roughRadians`): an ulp of them is 10⁻¹⁶ of the bound. O(1).
    @inlinable
    public func nearSpread(to other: Coordinate, cosLatitudes: Double) -> Double {
        let dPhi = (other.latitude - latitude).roughRadians
        let dLambda = (other.longitude - longitude).roughRadians
        return dPhi * dPhi + cosLatitudes * dLambda * dLambda
    }

    /// A spread below which `nearDistanceBound` is under `distance`, for a test without its square root:
    /// s < limit implies R·√s·(1 + s/4) < distance (−1 for a distance of 0 or less: no s is below it).
    /// With r = distance / R and q = r / (1 + r²/4): √s < q gives s < r², so √s·(1 + s/4) < q·(1 + r²/4) =
    /// r. The limit is q², less a billionth, which covers the rounding of both sides: at it the bound is
    /// r · (1 + q²/4) / (1 + r²/4), short of r by a billionth and r⁴/8 (relative; 10⁻¹⁶ at 100 km). O(1).
    @inlinable
    public static func nearSpreadLimit(below distance: Meters) -> Double {
        guard distance > 0 else { return -1 }
        guard distance.isFinite else { return 1 }  // the bound is finite up to s = 1
        let r = distance / Earth.radius
        let q = r / (1 + r * r / 4)
        return min(1, q * q * (1 - 1e-9))
    }
}

/// The haversine formula on `Earth.radius`, in metres, from latitudes in radians (with their cosines)
/// and longitudes in degrees. The one spelling of it in the project.
@inlinable
func haversine(
    _ phi1: Double, _ cosPhi1: Double, _ lon1: Degrees,
    _ phi2: Double, _ cosPhi2: Double, _ lon2: Degrees
) -> Meters {
    let dPhi = phi2 - phi1
    let dLambda = (lon2 - lon1).radians
    let sinPhi = _sin(dPhi / 2), sinLambda = _sin(dLambda / 2)
    let h = sinPhi * sinPhi + cosPhi1 * cosPhi2 * sinLambda * sinLambda
    return 2 * Earth.radius * _asin(Swift.min(1, h.squareRoot()))
}
