import Documents
import Geofencing
import TextEscaping

/// Where a region file's features take their region ids from, and what was seen of them: a
/// `geojson:` entry's `idProperty: store_code` (the id from that property of each feature), and the
/// features whose id is a number given as the feature's own `id` (geojson.io numbers features 0, 1, 2…),
/// said once a file. One a file read; O(1) a feature.
final class FeatureIDs {
    /// The property each feature's id comes from (`idProperty:`), or nil for `properties.id`, else the
    /// feature's `id`.
    let idProperty: String?
    /// The features whose region id is the feature's numeric `id`: the first's place, and their ids in order.
    private(set) var numericFirst: PlacedNode?
    private(set) var numericIDs: [String] = []
    /// The properties the numbered features have, in the order first seen: what `idProperty:` could name.
    private(set) var propertyNames: [String] = []
    /// Whether some feature's number was not its index: the numbers are someone's own, not geojson.io's.
    private var ownNumbers = false
    /// The first feature without the `idProperty:` property, and how many more lack it.
    private var withoutProperty: (first: PlacedNode?, count: Int) = (nil, 0)

    /// The file's own log, where what is said of the whole file goes.
    private let diagnostics: ProblemLog?
    /// How the person names the property: a command's option (`--id-property`), or nil for a scenario's
    /// `geojson:` entry's `idProperty:`.
    private let option: String?

    init(idProperty: String? = nil, diagnostics: ProblemLog? = nil, option: String? = nil) {
        self.idProperty = idProperty
        self.diagnostics = diagnostics
        self.option = option
    }

    /// `idProperty:` or the option, for "the feature has no property "x" (…)".
    private var setting: String { option ?? "idProperty:" }

    /// What to give to take the ids from `property`: `the scenario's geojson: entry idProperty: code`, or
    /// `--id-property code`.
    private func naming(_ property: String) -> String {
        option.map { "\($0) \(property)" } ?? "the scenario's geojson: entry idProperty: \(property)"
    }

    /// The keys of a mapping node, in its order (none for anything else).
    static func keys(of node: PlacedNode?) -> [String] {
        guard let node, case let .mapping(mapping, _) = node.node.expanded else { return [] }
        return mapping.compactMap { $0.key.text }
    }

    /// The id cursor of one feature: `properties[idProperty]` when an `idProperty:` is given (an error
    /// listing the feature's properties when it lacks it), else `properties.id`, else the feature's `id`
    /// (a number there is noted for `warning`); nil, with an error naming the properties the feature has,
    /// when it has no id.
    func idCursor(feature c: PlacedNode, fields: Fields, properties: PlacedNode?) -> PlacedNode? {
        let names = Self.keys(of: properties)
        let had = names.isEmpty ? "it has no properties" : "its properties are: \(Self.listed(names))"
        if let idProperty {
            if let cursor = properties?.entry(idProperty), !cursor.isNull { return cursor }
            // The first feature without it is named with its properties; the others are counted (`warn`).
            if let first = withoutProperty.first {
                withoutProperty = (first, withoutProperty.count + 1)
                return nil
            }
            withoutProperty = (c, 0)
            var message = "the feature has no property \"\(TerminalText.visible(idProperty))\" (\(setting)); \(had)"
            if let guess = closestKey(to: idProperty, in: names) { message += "; did you mean \"\(guess)\"?" }
            c.fail(message)
            return nil
        }
        if let cursor = properties?.entry("id"), !cursor.isNull { return cursor }
        guard let cursor = fields["id"] else {
            c.fail(
                "the feature has no id; give it properties.id or a feature \"id\" (a string or a number), or "
                    + "name the property that holds it: give \(naming("NAME")); \(had)")
            return nil
        }
        if cursor.jsonNumber != nil, let text = cursor.scalarText {
            if numericFirst == nil { numericFirst = cursor }
            numericIDs.append(text)
            for name in names where !propertyNames.contains(name) { propertyNames.append(name) }
        }
        return cursor
    }

    /// Notes a feature read straight from its bytes whose id is a number other than its index.
    func noteOtherNumber() { ownNumbers = true }

    /// The count of the other features without the `idProperty:` property, as an error at the first; then
    /// one warning at the first numbered feature: `12 features of stores.geojson have a number as their
    /// id ("0" … "11"), as geojson.io numbers them: …`. Nothing when none had.
    func warn() {
        if let first = withoutProperty.first, withoutProperty.count > 0, let idProperty {
            let more = withoutProperty.count
            // The first feature's own log was read already (`RegionFile.readFeature`): the file's takes it.
            diagnostics?.error(
                ScenarioError(
                    file: first.file, keyPath: first.path, line: first.line, column: first.column,
                    message:
                        "and \(more) more feature\(more == 1 ? "" : "s") of the file \(more == 1 ? "has" : "have") no property "
                        + "\"\(TerminalText.visible(idProperty))\" either"))
        }
        // geojson.io numbers the features 0, 1, 2… in order; numbers of one's own choosing are ids meant.
        guard let first = numericFirst, let low = numericIDs.first, let high = numericIDs.last, !ownNumbers,
            numericIDs.elementsEqual((0..<numericIDs.count).lazy.map(String.init))
        else { return }
        let count = numericIDs.count
        let span = count == 1 ? "\"\(low)\"" : "\"\(low)\" … \"\(high)\""
        var message =
            "\(count) feature\(count == 1 ? " has" : "s have") a number as \(count == 1 ? "its" : "their") id, "
            + "so \(count == 1 ? "its region is" : "their regions are") named \(span) (geojson.io numbers features "
            + "0, 1, 2…, and they change when the file is edited); "
        let candidates = propertyNames.filter {
            $0 != "name" && $0 != "radius" && !MonitorField.keys(at: .geoJSON).contains($0)
        }
        if let pick = candidates.first ?? propertyNames.first {
            message +=
                "to take the ids from a property, give \(naming(TerminalText.visible(pick))) "
                + "(the features' properties: \(Self.listed(propertyNames)))"
        } else {
            message += "give each feature properties.id, or name the property that holds it with \(setting)"
        }
        first.warn(message)
    }

    /// Names for people, at most ten and a count of the rest.
    static func listed(_ names: [String]) -> String {
        names.prefix(10).map { TerminalText.visible($0) }.joined(separator: ", ")
            + (names.count > 10 ? ", and \(names.count - 10) more" : "")
    }
}
