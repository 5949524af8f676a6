import Foundation
import Geodesy

/// Web Mercator (the projection of XYZ map tiles), in metres at the equator, shifted so that the map's
/// centre is the origin: SVG coordinates stay small enough for the browser's 32-bit floats, and `y` grows
/// southwards as SVG's does. A tile layer (`--tiles`) lines up with it. O(1) per point.
struct MapProjection: Sendable {
    /// The centre, in unshifted Mercator metres.
    let originX: Double
    let originY: Double
    /// The centre's latitude: one map unit is `cos(latitude)` metres on the ground there.
    let centreLatitude: Degrees

    init(centre: Coordinate) {
        centreLatitude = centre.latitude
        originX = Self.mercatorX(centre.longitude)
        originY = Self.mercatorY(centre.latitude)
    }

    /// Mercator x of a longitude, in metres at the equator.
    static func mercatorX(_ longitude: Degrees) -> Double { Earth.radius * longitude.radians }

    /// Mercator y of a latitude (clamped to the tiles' ±85.05°), in metres at the equator, north up.
    static func mercatorY(_ latitude: Degrees) -> Double {
        let phi = max(-85.051129, min(85.051129, latitude)).radians
        return Earth.radius * log(tan(.pi / 4 + phi / 2))
    }

    /// The SVG point of a coordinate.
    func point(_ c: Coordinate) -> (x: Double, y: Double) {
        (Self.mercatorX(c.longitude) - originX, originY - Self.mercatorY(c.latitude))
    }

    /// Ground metres per map unit at the centre.
    var metresPerUnit: Double { cos(centreLatitude.radians) }
}

/// Numbers for SVG attributes: one decimal (a decimetre of map), no `-0.0`.
func svgNumber(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    if rounded == rounded.rounded() { return String(Int64(rounded)) }
    return String(format: "%.1f", rounded)
}
