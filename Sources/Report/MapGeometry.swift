import Geodesy
import ReadableText

extension ReportBuilder {
    /// Points on a circle's edge: enough for a smooth outline at any zoom a page is read at.
    static let circlePoints = 72

    /// The SVG path of a region: a circle as the ring of points `radius` metres from its centre (a true
    /// circle on the ground, whatever the projection does to it), a polygon's rings as closed subpaths
    /// (holes drawn by the even–odd rule), a MultiPolygon's polygons one after the other.
    static func path(of shape: Shape, _ projection: MapProjection) -> String {
        switch shape {
        case let .circle(circle):
            let ring = (0..<circlePoints).map { i -> (x: Double, y: Double) in
                let bearing = Double(i) / Double(circlePoints) * 2 * .pi
                return projection.point(
                    circle.center.offset(
                        northMeters: circle.radius * _cos(bearing),
                        eastMeters: circle.radius * _sin(bearing)))
            }
            return closedPath(ring)
        case let .polygon(multi):
            return multi.polygons.flatMap(\.rings).map { ring in closedPath(ring.dropLast().map(projection.point)) }
                .joined(separator: " ")
        }
    }

    /// `circle, 300 m` or `polygon, 2 rings` for the region's tooltip.
    static func describe(_ shape: Shape) -> String {
        switch shape {
        case let .circle(circle): return "circle, radius \(Readable.distance(circle.radius))"
        case let .polygon(multi):
            let rings = multi.polygons.reduce(0) { $0 + $1.rings.count }
            return multi.polygons.count == 1
                ? "polygon, \(rings) ring\(rings == 1 ? "" : "s")"
                : "\(multi.polygons.count) polygons, \(rings) rings"
        }
    }

    static func closedPath(_ points: [(x: Double, y: Double)]) -> String {
        guard let first = points.first else { return "" }
        var path = "M\(svgNumber(first.x)) \(svgNumber(first.y))"
        for point in points.dropFirst() { path += "L\(svgNumber(point.x)) \(svgNumber(point.y))" }
        return path + "Z"
    }

    /// An open polyline, simplified to `tolerance` (and to `maxTrackPoints` at most).
    static func polyline(_ points: [(x: Double, y: Double)], tolerance: Double) -> String {
        var kept = simplified(points, tolerance: tolerance)
        var widened = tolerance
        while kept.count > maxTrackPoints, widened > 0 {
            widened *= 2
            kept = simplified(points, tolerance: widened)
        }
        guard let first = kept.first else { return "" }
        var path = "M\(svgNumber(first.x)) \(svgNumber(first.y))"
        if kept.count == 1 { path += "h0.1" }  // a track of one point still shows
        for point in kept.dropFirst() { path += "L\(svgNumber(point.x)) \(svgNumber(point.y))" }
        return path
    }
}
