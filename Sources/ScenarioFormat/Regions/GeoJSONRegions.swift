import Documents
import Geodesy
import Geofencing
import NumberText
import TextEscaping

/// A region and the place that declared its id, for duplicate-id messages.
struct PlacedRegion {
    var region: Region
    /// Where the id was given: a cursor on the id (or on the feature, for a bare geometry).
    var origin: PlacedNode
}

/// GeoJSON (RFC 7946) read into regions: a FeatureCollection, a Feature, or a bare Polygon or MultiPolygon.
/// A Point feature with `properties.radius` is a circle. GeoJSON's foreign members are allowed in files
/// (RFC 7946 §6.1), and properties other than the ones read here are ignored.
enum GeoJSON {
    static let featureKeys = ["type", "geometry", "properties", "id", "bbox"]
    static let propertyKeys = ["id", "name", "radius"] + MonitorField.keys(at: .geoJSON)
    static let geometryKeys = ["type", "coordinates", "bbox"]
    static let shapes = "a Point (with properties.radius), Polygon or MultiPolygon geometry"

    /// The regions of a GeoJSON document; `bareID` names a bare geometry, which has no id of its own.
    static func regions(
        root: PlacedNode, defaults: MonitorOverrides, bareID: String, ids: FeatureIDs = FeatureIDs()
    ) -> [PlacedRegion] {
        let what = "a GeoJSON FeatureCollection, Feature, Polygon or MultiPolygon"
        guard let type = root.peek("type")?.scalarText else {
            root.expected("\(what) (an object with a \"type\")")
            return []
        }
        switch type {
        case "FeatureCollection":
            guard let fields = root.mapping(what, allowed: ["type", "features", "bbox"], foreignMembers: true),
                let features = fields.required("features", "a list of Features")?.list("a list of Features")
            else { return [] }
            return features.compactMap { feature($0, defaults: defaults, ids: ids) }
        case "Feature":
            return feature(root, defaults: defaults, ids: ids).map { [$0] } ?? []
        case "Polygon", "MultiPolygon":
            guard let shape = polygon(root, foreignMembers: true) else { return [] }
            return [PlacedRegion(region: Region(id: bareID, shape: shape, overrides: defaults), origin: root)]
        default:
            root.child("type", root.node).fail("unsupported GeoJSON type \"\(type)\"; expected \(what)")
            return []
        }
    }

    /// A feature as a person names it: `"ATA" (Antarctica)`, by its id and `properties.name`, else its
    /// key path.
    static func label(of feature: PlacedNode) -> String {
        let properties = feature.peek("properties")
        let id = properties?.peek("id")?.scalarText ?? feature.peek("id")?.scalarText
        let name = properties?.peek("name")?.scalarText
        var text = id.map { "\"\(TerminalText.visible($0))\"" } ?? feature.path
        if let name, name != id { text += " (\(TerminalText.visible(name)))" }
        return text
    }

    /// One Feature as a region, or nil with its errors recorded.
    /// Its id is read as `ids` says (`FeatureIDs.idCursor`).
    static func feature(_ c: PlacedNode, defaults: MonitorOverrides, ids: FeatureIDs = FeatureIDs()) -> PlacedRegion? {
        guard let fields = c.mapping("a GeoJSON Feature", allowed: featureKeys, foreignMembers: true) else { return nil }
        if let type = fields.required("type", "\"Feature\""), type.scalarText != "Feature" { type.expected("\"Feature\"") }
        let properties = fields["properties"]?.mapping(
            "a mapping of properties", allowed: propertyKeys, foreignMembers: true)
        let overrides = MonitorBlock.read(properties, level: .geoJSON).over(defaults)
        let idCursor = ids.idCursor(feature: c, fields: fields, properties: fields["properties"])
        let id = idCursor?.text("a region id (a string or a number)")
        guard let geometry = fields.required("geometry", shapes) else { return nil }
        guard let gtype = geometry.peek("type") else {
            geometry.expected("\(shapes) (an object with a \"type\")")
            return nil
        }
        let shape: Shape?
        switch gtype.scalarText {
        case "Point":
            shape = circle(geometry, radius: properties?["radius"], feature: c)
        case "Polygon", "MultiPolygon":
            shape = polygon(geometry, foreignMembers: true)
        default:
            gtype.fail(
                "unsupported geometry type \(gtype.got) in the feature at \(c.path.isEmpty ? "the root" : c.path); expected \(shapes)"
            )
            return nil
        }
        guard let id, let shape, let idCursor else { return nil }
        // A name that is not a string (a number, null) is no label: left out, as other properties are.
        let name = properties?["name"]?.scalarText.flatMap { $0.isEmpty ? nil : $0 }
        return PlacedRegion(region: Region(id: id, shape: shape, overrides: overrides, name: name), origin: idCursor)
    }

    private static func circle(_ geometry: PlacedNode, radius: PlacedNode?, feature: PlacedNode) -> Shape? {
        guard let fields = geometry.mapping("a GeoJSON Point", allowed: geometryKeys, foreignMembers: true),
            let coordinates = fields.required("coordinates", "a position [longitude, latitude]")
        else { return nil }
        let center = position(coordinates)
        guard let radius else {
            feature.child("properties", feature.node).child("radius", feature.node)
                .fail(
                    "missing; a Point feature is a circle and needs properties.radius, its radius in metres greater than 0")
            return nil
        }
        guard let metres = radius.distance(.positive), let center else { return nil }
        do {
            return .circle(try Circle(center: center, radius: metres))
        } catch {
            coordinates.fail("invalid circle: \(error)")
            return nil
        }
    }

    /// A Polygon or MultiPolygon geometry object.
    static func polygon(_ g: PlacedNode, foreignMembers: Bool) -> Shape? {
        let what = "a GeoJSON Polygon or MultiPolygon geometry ({type: Polygon, coordinates: [[[lon, lat], ...]]})"
        guard let fields = g.mapping(what, allowed: geometryKeys, foreignMembers: foreignMembers),
            let type = fields.required("type", "\"Polygon\" or \"MultiPolygon\""),
            let coordinates = fields.required("coordinates", "the polygon's rings of [longitude, latitude] positions")
        else { return nil }
        switch type.scalarText {
        case "Polygon":
            return polygonValue(coordinates).flatMap { try? MultiPolygon([$0]) }.map(Shape.polygon)
        case "MultiPolygon":
            guard let polygons = coordinates.list("a list of polygons, each a list of rings") else { return nil }
            let values = polygons.map(polygonValue)
            guard !values.contains(where: { $0 == nil }) else { return nil }
            do {
                return .polygon(try MultiPolygon(values.compactMap { $0 }))
            } catch {
                coordinates.fail("invalid MultiPolygon: \(error)")
                return nil
            }
        default:
            type.expected("\"Polygon\" or \"MultiPolygon\"")
            return nil
        }
    }

    /// One polygon's rings, validated by Geodesy; its errors are placed on the ring or position at fault.
    /// A position is placed (given a cursor) only when a message needs it.
    private static func polygonValue(_ c: PlacedNode) -> Polygon? {
        guard case let .sequence(ringNodes, _) = c.node else {
            c.expected("a list of rings, each a list of [longitude, latitude] positions")
            return nil
        }
        var rings: [[Coordinate]] = []
        rings.reserveCapacity(ringNodes.count)
        var ok = true
        for (index, node) in ringNodes.enumerated() {
            if case let .positions(packed) = node {  // every position valid: nothing to place
                rings.append(packed.coordinates)
                continue
            }
            let ring = c.element(index, node)
            guard case let .sequence(positions, _) = ring.node else {
                ring.expected("a ring: a list of [longitude, latitude] positions")
                ok = false
                continue
            }
            var values: [Coordinate] = []
            values.reserveCapacity(positions.count)
            for (index, node) in positions.enumerated() {
                if let value = coordinate(of: node) ?? position(ring.element(index, node)) {
                    values.append(value)
                } else {
                    ok = false
                }
            }
            rings.append(values)
        }
        guard ok else { return nil }
        func ringCursor(_ ring: Int) -> PlacedNode { c.element(ring, ringNodes[ring]) }
        func placed(_ ring: Int, _ position: Int) -> PlacedNode {
            let cursor = ringCursor(ring)
            guard case let .sequence(positions, _) = cursor.node, positions.indices.contains(position) else { return cursor }
            return cursor.element(position, positions[position])
        }
        do {
            let polygon = try Polygon(rings: rings)
            if let crossing = polygon.firstSelfCrossing() {
                placed(crossing.ring, crossing.second).warn(
                    """
                    the ring crosses itself: its edge from position \(crossing.first) touches its edge from \
                    position \(crossing.second) (at \(placed(crossing.ring, crossing.first).place)); the even–odd \
                    rule decides what is inside (SEMANTICS §3), but positions out of order are the usual cause
                    """)
            }
            return polygon
        } catch {
            let at: PlacedNode
            switch error {
            case let .tooFewPositions(ring, _), let .unclosedRing(ring):
                at = ringCursor(ring)
            case let .antimeridianEdge(ring, position):
                at = placed(ring, position)
            default:
                at = c
            }
            at.fail("invalid polygon: \(error)")
            return nil
        }
    }

    /// How far past ±180° a longitude may lie and still be read as ±180 (with one warning a file, which
    /// says 1e-9°): the
    /// floating-point residue of borders computed in another projection (Natural Earth's Russia has
    /// 180.00000000000006).
    static let antimeridianResidue = 1e-9

    /// `[longitude, latitude]` or `[longitude, latitude, elevation]`, in range; nil, with an error, otherwise.
    /// A longitude past ±180 by less than `antimeridianResidue` is read as ±180, with a warning.
    static func position(_ c: PlacedNode) -> Coordinate? {
        if let coordinate = coordinate(of: c.node) { return coordinate }
        if let coordinate = coordinate(of: c.node, roundingResidue: true),
            case let .sequence(sequence, _) = c.node, let written = PlacedNode.plainNumber(sequence[0])
        {
            c.diagnostics.roundedLongitude(file: c.file, place: c.place + ": " + c.path, longitude: written)
            return coordinate
        }
        c.expected("a position [longitude, latitude] with longitude in [-180, 180] and latitude in [-90, 90]")
        return nil
    }

    /// The coordinate of a position node, or nil (without an error) when it is not one; with
    /// `roundingResidue`, a longitude within `antimeridianResidue` past ±180 is read as ±180.
    private static func coordinate(of node: DocumentNode, roundingResidue: Bool = false) -> Coordinate? {
        guard case let .sequence(sequence, _) = node.expanded, sequence.count >= 2,
            var lon = PlacedNode.plainNumber(sequence[0]), let lat = PlacedNode.plainNumber(sequence[1]),
            sequence.dropFirst(2).allSatisfy({ PlacedNode.plainNumber($0) != nil })
        else { return nil }
        if roundingResidue && abs(lon) > 180 && abs(lon) <= 180 + antimeridianResidue { lon = lon > 0 ? 180 : -180 }
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        return coordinate.isValid ? coordinate : nil
    }
}

extension PlacedNode {
    /// The value under `key` of a mapping, without checking the mapping's other keys.
    func peek(_ key: String) -> PlacedNode? {
        guard case let .mapping(mapping, _) = node,
            let value = mapping.first(where: { $0.key.text == key })?.value
        else { return nil }
        return child(key, value)
    }

    /// A plain decimal number (`ExactDecimal`'s form), finite; a JSON number's value is read once, by the
    /// JSON reader.
    static func plainNumber(_ node: DocumentNode) -> Double? {
        guard case let .scalar(scalar) = node.expanded, !scalar.isNull else { return nil }
        if let number = scalar.number { return number.isFinite ? number : nil }
        guard ExactDecimal(scalar.text) != nil, let value = Double(scalar.text), value.isFinite else { return nil }
        return value
    }
}
