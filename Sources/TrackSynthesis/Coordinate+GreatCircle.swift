import Geodesy

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Coordinate {
    /// The point a `fraction` (0…1) of the way from this point to `other` along the great circle
    /// (spherical linear interpolation), longitude normalised to [-180, 180). Its haversine distance
    /// from this point is `fraction × distance(to: other)`. Antipodal points have no unique great
    /// circle: the result then follows the meridian through this point.
    public func interpolated(to other: Coordinate, fraction: Double) -> Coordinate {
        if fraction <= 0 { return self }
        if fraction >= 1 { return other }
        let phi1 = latitude.radians, lambda1 = longitude.radians
        let phi2 = other.latitude.radians, lambda2 = other.longitude.radians
        let a = unitVector(phi1, lambda1), b = unitVector(phi2, lambda2)
        let delta = distance(to: other) / Earth.radius  // the central angle
        let s = sin(delta)
        let wa: Double, wb: Double
        if s < 1e-12 {
            guard delta < 1 else {
                // Antipodes: go along this point's meridian, over the north pole when south of it.
                let lat = latitude + fraction * 180 * (latitude <= 0 ? 1 : -1)
                return Coordinate(latitude: max(-90, min(90, lat)), longitude: longitude)
            }
            (wa, wb) = (1 - fraction, fraction)  // (almost) the same point
        } else {
            (wa, wb) = (sin((1 - fraction) * delta) / s, sin(fraction * delta) / s)
        }
        let x = wa * a.0 + wb * b.0, y = wa * a.1 + wb * b.1, z = wa * a.2 + wb * b.2
        let lat = atan2(z, (x * x + y * y).squareRoot()).degrees
        let lon = atan2(y, x).degrees
        return Coordinate(latitude: lat, longitude: normalizedLongitude(lon))
    }
}

private func unitVector(_ phi: Double, _ lambda: Double) -> (Double, Double, Double) {
    (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
}
