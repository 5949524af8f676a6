/// A latitude/longitude box in degrees. Longitudes may run past ±180 (a circle near the antimeridian);
/// a width of 360° or more covers every longitude.
public struct BoundingBox: Hashable, Sendable {
    public var minLatitude: Degrees
    public var maxLatitude: Degrees
    public var minLongitude: Degrees
    public var maxLongitude: Degrees

    public init(minLatitude: Degrees, maxLatitude: Degrees, minLongitude: Degrees, maxLongitude: Degrees) {
        self.minLatitude = minLatitude
        self.maxLatitude = maxLatitude
        self.minLongitude = minLongitude
        self.maxLongitude = maxLongitude
    }

    /// The box holding nothing; extending it by a point gives that point's box.
    public static let empty = BoundingBox(
        minLatitude: .infinity, maxLatitude: -.infinity,
        minLongitude: .infinity, maxLongitude: -.infinity)

    public mutating func extend(to point: Coordinate) {
        minLatitude = min(minLatitude, point.latitude)
        maxLatitude = max(maxLatitude, point.latitude)
        minLongitude = min(minLongitude, point.longitude)
        maxLongitude = max(maxLongitude, point.longitude)
    }

    public mutating func extend(to box: BoundingBox) {
        minLatitude = min(minLatitude, box.minLatitude)
        maxLatitude = max(maxLatitude, box.maxLatitude)
        minLongitude = min(minLongitude, box.minLongitude)
        maxLongitude = max(maxLongitude, box.maxLongitude)
    }

    /// The latitude gap from `point` to the box, in degrees (0 when within its latitudes).
    @inlinable
    func latitudeGap(from point: Coordinate) -> Degrees {
        max(0, minLatitude - point.latitude, point.latitude - maxLatitude)
    }

    /// The longitude gap from `point` to the box the short way round, in degrees, in [0, 180].
    @inlinable
    func longitudeGap(from point: Coordinate) -> Degrees {
        let width = maxLongitude - minLongitude
        if width >= 360 { return 0 }
        var d = point.longitude - minLongitude
        if !(0..<360).contains(d) {  // the remainder (a call into the C library) only where it changes d
            d = d.truncatingRemainder(dividingBy: 360)
            if d < 0 { d += 360 }
        }
        if d <= width { return 0 }
        return min(d - width, 360 - d)
    }

    /// A lower bound, in metres, of both the haversine distance and the local-plane distance at `point`
    /// (SEMANTICS §3) from `point` to anything inside the box. O(1).
    public func lowerBoundDistance(from point: Coordinate) -> Meters {
        lowerBoundDistance(from: point, cosLatitude: _cos(point.latitude.radians))
    }

    /// `lowerBoundDistance(from:cosLatitude:)` lowered a little (1e-9 relative and 1 µm; 0 for NaN), so that
    /// rounding, in the bound of a box holding others or in a distance computed another way, can never make
    /// it exceed a distance it bounds. O(1).
    @inline(__always)
    public func safeLowerBoundDistance(from point: Coordinate, cosLatitude: Double) -> Meters {
        let bound = lowerBoundDistance(from: point, cosLatitude: cosLatitude)
        guard bound.isFinite else { return bound.isNaN ? 0 : bound }
        return max(0, bound * (1 - 1e-9) - 1e-6)
    }

    /// The same bound, with the cosine of the point's latitude (`_cos(point.latitude.radians)`) done once by
    /// the caller for many boxes. O(1).
    @inline(__always)
    public func lowerBoundDistance(from point: Coordinate, cosLatitude cosLat: Double) -> Meters {
        let gapLat = latitudeGap(from: point).radians
        let gapLon = longitudeGap(from: point).radians
        if gapLon == 0 { return Earth.radius * gapLat }
        // Local plane: x = R·Δlon·cos(lat_p), y = R·Δlat.
        let plane = Earth.radius * ((gapLon * cosLat) * (gapLon * cosLat) + gapLat * gapLat).squareRoot()
        // Great circle: at least the distance to the lune of the box's longitudes, and to its latitudes.
        let toLune = gapLon >= .pi / 2 ? (.pi / 2 - abs(point.latitude.radians)) : _asin(min(1, cosLat * _sin(gapLon)))
        let sphere = Earth.radius * max(gapLat, max(0, toLune))
        return max(0, min(plane, sphere))
    }
}
