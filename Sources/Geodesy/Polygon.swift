/// A polygon of GeoJSON (RFC 7946): an outer ring and holes, positions in (lon, lat) degrees.
///
/// Edges are straight lines in (lon, lat) (RFC 7946 §3.1.1). Rings are closed (first position equals
/// the last) and hold at least four positions; no edge spans more than 180° of longitude.
public struct Polygon: Hashable, Sendable {
    /// The rings, outer first; each closed, as `Coordinate`s.
    public let rings: [[Coordinate]]

    /// A validated polygon, or a `GeometryError` naming the ring and position at fault.
    public init(rings: [[Coordinate]]) throws(GeometryError) {
        guard !rings.isEmpty else { throw .emptyPolygon }
        for (r, ring) in rings.enumerated() {
            guard ring.count >= 4 else { throw .tooFewPositions(ring: r, count: ring.count) }
            for (i, position) in ring.enumerated() where !position.isValid {
                throw .invalidCoordinate(position, where: "ring \(r), position \(i)")
            }
            guard ring.first == ring.last else { throw .unclosedRing(ring: r) }
            for i in 1..<ring.count where abs(ring[i].longitude - ring[i - 1].longitude) > 180 {
                throw .antimeridianEdge(ring: r, position: i)
            }
        }
        self.rings = rings
    }

    /// The box of all positions (never wraps: no edge crosses the antimeridian).
    public var bounds: BoundingBox {
        var box = BoundingBox.empty
        for ring in rings { for position in ring { box.extend(to: position) } }
        return box
    }
}

/// One or more polygons; a point is inside when it is inside any of them (SEMANTICS §3).
public struct MultiPolygon: Hashable, Sendable {
    public let polygons: [Polygon]

    public init(_ polygons: [Polygon]) throws(GeometryError) {
        guard !polygons.isEmpty else { throw .emptyPolygon }
        self.polygons = polygons
    }

    public var bounds: BoundingBox {
        polygons.reduce(into: BoundingBox.empty) { $0.extend(to: $1.bounds) }
    }
}

/// A shape that went wrong, said so a person can find it.
public enum GeometryError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidCoordinate(Coordinate, where: String)
    case invalidRadius(Double)
    case emptyPolygon
    case tooFewPositions(ring: Int, count: Int)
    case unclosedRing(ring: Int)
    case antimeridianEdge(ring: Int, position: Int)

    public var description: String {
        switch self {
        case let .invalidCoordinate(c, place):
            return
                "\(place) has an invalid position \(c): latitude must be in [-90, 90] and longitude in [-180, 180], both finite."
        case let .invalidRadius(r):
            return "A circle's radius must be a finite number of metres greater than 0; got \(r)."
        case .emptyPolygon:
            return "A polygon needs at least one ring (and a MultiPolygon at least one polygon)."
        case let .tooFewPositions(ring, count):
            return "Ring \(ring) has \(count) positions; a closed ring needs at least 4 (RFC 7946 §3.1.6)."
        case let .unclosedRing(ring):
            return "Ring \(ring) is not closed: its first and last positions must be equal (RFC 7946 §3.1.6)."
        case let .antimeridianEdge(ring, position):
            return
                "Ring \(ring), edge ending at position \(position), spans more than 180° of longitude; split the polygon at the antimeridian (RFC 7946 §3.1.9)."
        }
    }
}
