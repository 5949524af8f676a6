/// A distance in metres.
public typealias Meters = Double

/// An angle in degrees.
public typealias Degrees = Double

/// The one Earth model of Perimeter: a sphere of mean radius R = 6,371,008.8 m (SEMANTICS §3).
///
/// Every distance in the project, haversine or local-plane, uses this radius and no other.
public enum Earth {
    /// The sphere's radius, in metres (the IUGG mean radius R1).
    public static let radius: Meters = 6_371_008.8

    /// The greatest distance between two points of the sphere, half its circumference (π R, about
    /// 20,015 km): the bound of every distance a scenario, profile or region file gives (a radius, an
    /// accuracy, a setting), past which a circle would cover the Earth.
    public static let farthest: Meters = .pi * radius
}

extension Double {
    /// This angle, taken in degrees, in radians.
    @inlinable public var radians: Double { self * .pi / 180 }
    /// This angle, taken in radians, in degrees.
    @inlinable public var degrees: Double { self * 180 / .pi }
    /// `radians` in one multiplication by π/180 (itself rounded once), with no division: within an ulp
    /// or two of `radians`, for bounds that have far more room than that (`nearDistanceBound`), not for
    /// exact distances, which keep `radians`. O(1).
    @inlinable public var roughRadians: Double { self * (Double.pi / 180) }
}

/// A longitude brought into [-180, 180), in degrees. Values already in range are returned unchanged.
@inlinable
public func normalizedLongitude(_ longitude: Degrees) -> Degrees {
    if longitude >= -180 && longitude < 180 { return longitude }
    let wrapped = longitude - 360 * ((longitude + 180) / 360).rounded(.down)
    return wrapped >= 180 ? wrapped - 360 : wrapped
}
