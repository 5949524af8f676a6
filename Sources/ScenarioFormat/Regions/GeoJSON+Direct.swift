import Documents
import FixTables
import Geodesy
import Geofencing
import NumberText

/// A Feature read straight from its bytes into a region (`JSONReader.directFeature`), with what is needed
/// to place its id in a message.
struct DirectFeature {
    var region: Region
    /// Where the feature's `{` is.
    var mark: DocumentMark
    /// Where the id is, and whether it is `properties.id` (with the properties' place) or the feature's `id`.
    var idMark: DocumentMark
    var propertiesMark: DocumentMark?
    /// Whether the id is the feature's own `id` given as a number (not its index: that is geojson.io's
    /// numbering, which the general way notes).
    var numberedID = false

    /// The region with its id placed, as `GeoJSON.feature` gives it for the same feature at `feature`.
    func placed(at feature: PlacedNode) -> PlacedRegion {
        let id = DocumentNode.scalar(.init(text: region.id, isNull: false, number: nil, mark: idMark))
        let origin =
            propertiesMark.map { feature.child("properties", .alias($0)).child("id", id) } ?? feature.child("id", id)
        return PlacedRegion(region: region, origin: origin)
    }
}

extension JSONReader {
    /// At a feature's `{`: the feature read straight into its region, with the reader moved past it, when
    /// it has the common shape and nothing to report: a Point with `properties.radius` or a Polygon, an id
    /// given as a string (ASCII, without escapes) or as a number in properties.id, overrides given as numbers, no null, no
    /// warning (a ring crossing itself). Otherwise nil with the reader unmoved, and the caller reads the
    /// feature as nodes through `GeoJSON.feature`, which gives the same region or places every problem.
    /// Keys other than the ones read (GeoJSON's foreign members, other properties) are skipped as
    /// `GeoJSON.feature` ignores them. O(the feature's bytes); no node, and a `String` only for the id.
    /// `index` is the feature's place in its collection.
    mutating func directFeature(defaults: MonitorOverrides, index: Int) -> DirectFeature? {
        guard direct else { return nil }
        let start = self
        if let feature = readDirectFeature(defaults: defaults, index: index) { return feature }
        self = start
        return nil
    }

    private mutating func readDirectFeature(defaults: MonitorOverrides, index: Int) -> DirectFeature? {
        skipSpace()
        let mark = mark
        var isFeature = false
        var featureID: (text: String, mark: DocumentMark)?
        var numbered = false
        var properties: DirectProperties?
        var geometry: DirectGeometry?
        let complete = readObject { reader, key in
            switch key {
            case "type":
                guard reader.plainString().map({ $0 == "Feature" }) == true else { return false }
                isFeature = true
            case "id":
                reader.skipSpace()
                // A number as the feature's id is noted: geojson.io's numbering is said once a file.
                numbered = reader.index < reader.bytes.count && reader.bytes[reader.index] != UInt8(ascii: "\"")
                guard let id = reader.idText() else { return false }
                featureID = id
            case "properties":
                guard let read = reader.directProperties() else { return false }
                properties = read
            case "geometry":
                guard let read = reader.directGeometry() else { return false }
                geometry = read
            default:
                return reader.skipValue(depth: 4)
            }
            return true
        }
        guard complete, isFeature, let geometry else { return nil }
        let id: (text: String, mark: DocumentMark)
        if let propertiesID = properties?.id {
            id = propertiesID
        } else if let featureID {
            // The feature's index as its number, geojson.io's numbering: the general way notes it.
            if numbered && featureID.text == String(index) { return nil }
            id = featureID
        } else {
            return nil
        }
        let shape: Shape
        switch geometry {
        case let .point(center):
            guard let radius = properties?.radius, radius > 0, radius <= Earth.farthest,
                let circle = try? Circle(center: center, radius: radius)
            else { return nil }
            shape = .circle(circle)
        case let .polygon(rings):
            guard let polygon = try? Polygon(rings: rings), polygon.firstSelfCrossing() == nil,
                let multi = try? MultiPolygon([polygon])
            else { return nil }
            shape = .polygon(multi)
        }
        let overrides = (properties?.overrides ?? MonitorOverrides()).over(defaults)
        return DirectFeature(
            region: Region(id: id.text, shape: shape, overrides: overrides, name: properties?.name), mark: mark,
            idMark: id.mark, propertiesMark: properties?.id == nil ? nil : properties?.mark,
            numberedID: numbered && properties?.id == nil)
    }

    /// A feature's `properties` as `GeoJSON.feature` reads them, when every one read is a number (the id
    /// a plain string or a number) in its range.
    private struct DirectProperties {
        var mark: DocumentMark
        var id: (text: String, mark: DocumentMark)?
        var radius: Double?
        var overrides = MonitorOverrides()
        /// `properties.name`, when a plain string.
        var name: String?
    }

    private enum DirectGeometry {
        case point(Coordinate)
        case polygon([[Coordinate]])
    }

    private mutating func directProperties() -> DirectProperties? {
        skipSpace()
        var properties = DirectProperties(mark: mark)
        let complete = readObject { reader, key in
            guard GeoJSON.propertyKeys.contains(key) else { return reader.skipValue(depth: 5) }
            if key == "id" {
                guard let id = reader.idText() else { return false }
                properties.id = id
                return true
            }
            if key == "name" {  // a string, escapes and all; anything else is for the node path to decide
                reader.skipSpace()
                guard reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: "\""),
                    let name = try? reader.string(build: true)
                else { return false }
                properties.name = name.isEmpty ? nil : name
                return true
            }
            guard let text = reader.plainNumberText(), let value = DecimalText.double(text), value.isFinite else {
                return false
            }
            if key == "radius" {
                properties.radius = value
                return true
            }
            // A region's own setting, by its kind, as `MonitorBlock.read` takes it; anything else goes the node
            // path, which places the problem.
            guard let field = MonitorField.named(key), field.levels.contains(.geoJSON) else { return false }
            switch field.kind {
            case .distance:
                guard field.kind.range?.contains(value) == true else { return false }
                properties.overrides[field] = .meters(value)
            case .duration(onTicks: false):
                guard let span = ScenarioUnits.duration(String(decoding: text, as: UTF8.self)), span.microseconds >= 0 else {
                    return false
                }
                properties.overrides[field] = .span(span)
            case .share:
                guard field.kind.range?.contains(value) == true else { return false }
                properties.overrides[field] = .share(value)
            default:
                return false
            }
            return true
        }
        return complete ? properties : nil
    }

    private mutating func directGeometry() -> DirectGeometry? {
        var type: String?
        var geometry: DirectGeometry?
        var coordinatesFirst: JSONReader?  // where the coordinates are, when they come before the type
        let complete = readObject { reader, key in
            switch key {
            case "type":
                guard let text = reader.plainString() else { return false }
                type = text
            case "coordinates":
                guard let type else {
                    reader.skipSpace()
                    coordinatesFirst = reader
                    return reader.skipValue(depth: 5)
                }
                guard let read = reader.directCoordinates(of: type) else { return false }
                geometry = read
            default:
                return reader.skipValue(depth: 5)
            }
            return true
        }
        guard complete, let type else { return nil }
        guard var reader = coordinatesFirst else { return geometry }
        return reader.directCoordinates(of: type)
    }

    /// The coordinates at the reader of a Point (a position) or a Polygon (rings of positions), all valid.
    private mutating func directCoordinates(of type: String) -> DirectGeometry? {
        switch type {
        case "Point":
            guard separator(UInt8(ascii: "[")), let longitude = nextNumber(), separator(UInt8(ascii: ",")),
                let latitude = nextNumber()
            else { return nil }
            while !separator(UInt8(ascii: "]")) {
                guard separator(UInt8(ascii: ",")), nextNumber() != nil else { return nil }
            }
            let center = Coordinate(latitude: latitude, longitude: longitude)
            return center.isValid ? .point(center) : nil
        case "Polygon":
            guard separator(UInt8(ascii: "[")) else { return nil }
            var rings: [[Coordinate]] = []
            repeat {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "["), let ring = readPositions() else { return nil }
                rings.append(ring)
            } while separator(UInt8(ascii: ","))
            return separator(UInt8(ascii: "]")) ? .polygon(rings) : nil
        default:
            return nil
        }
    }

    /// Reads the object at the reader, handing each key (a plain string) to `member`, which reads its
    /// value and says whether to go on. False where it stops: a key that is not plain, a repeated key
    /// (`KeySet`, as `value` refuses it), a syntax error.
    private mutating func readObject(_ member: (inout JSONReader, String) -> Bool) -> Bool {
        guard separator(UInt8(ascii: "{")) else { return false }
        skipSpace()
        if separator(UInt8(ascii: "}")) { return true }
        var seen = KeySet()
        repeat {
            skipSpace()
            let at = mark
            guard let key = plainString(), seen.insert(key, at: at) == nil, separator(UInt8(ascii: ":")) else {
                return false
            }
            guard member(&self, key) else { return false }
        } while separator(UInt8(ascii: ","))
        return separator(UInt8(ascii: "}"))
    }

    /// The string at the reader after white space when it is printable ASCII without escapes; nil otherwise.
    private mutating func plainString() -> String? {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            guard (0x20...0x7E).contains(bytes[end]), bytes[end] != UInt8(ascii: "\\") else { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        index = end + 1
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// A region id as `PlacedNode.text` reads it: a plain non-empty string, or a number as written.
    private mutating func idText() -> (text: String, mark: DocumentMark)? {
        skipSpace()
        let at = mark
        if let text = plainString() { return text.isEmpty ? nil : (text, at) }
        return plainNumberText().map { (String(decoding: $0, as: UTF8.self), at) }
    }

    /// The text of the number at the reader after white space when `ExactDecimal` reads it; nil otherwise.
    private mutating func plainNumberText() -> UnsafeBufferPointer<UInt8>? {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "-") || (0x30...0x39).contains(bytes[index]),
            let text = try? numberText(mark), Self.readsExactly(jsonNumber: text)
        else { return nil }
        return text
    }

    /// Skips the value at the reader, checking it as `value` does; false on a syntax error.
    private mutating func skipValue(depth: Int) -> Bool {
        (try? value(depth: depth, build: false)) != nil
    }
}
