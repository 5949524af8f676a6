import Documents
import FileSystem
import Geodesy
import Geofencing

extension ScenarioLoader {
    static let regionKeys =
        ["id", "name", "geojson", "idProperty", "skip", "circle", "polygon"] + MonitorField.keys(at: .region)
    /// Features a `skip: invalid` entry lists before counting the rest.
    static let skippedListed = 10
    static let regionShape = "a region: {geojson: PATH}, {id, circle: {lat, lon, radius}} or {id, polygon: GEOMETRY}"

    /// `regions:`, which must be there (an empty list is fine): every entry's regions in order, then their
    /// ids checked unique (a duplicate leaves the list complete: its ids are all known).
    func readRegions(_ d: inout ScenarioDraft, _ key: String) {
        let before = d.diagnostics.errors.count
        if let list = d.top.required(key, "a list of regions")?.list("a list of regions") {
            for entry in list { d.regions += regions(entry, diagnostics: d.diagnostics) }
        }
        d.regionsComplete = d.diagnostics.errors.count == before
        RegionFile.checkUniqueIDs(d.regions)
    }

    /// `rules:`, read after `regions:` (whose ids they name).
    func readRules(_ d: inout ScenarioDraft, _ key: String) {
        let before = d.diagnostics.errors.count
        let regionIDs = d.regionsComplete ? d.regions.map(\.region.id) : nil
        d.rules = d.top[key]?.list("a list of dwell rules").map { rules($0, regionIDs: regionIDs) } ?? []
        d.rulesComplete = d.diagnostics.errors.count == before
    }

    /// One `regions[i]` entry: a GeoJSON file's regions, or one inline circle or polygon.
    /// The entry's own settings (those the settings table allows a region) apply to each of its regions; a
    /// GeoJSON feature's own properties override them.
    func regions(_ c: PlacedNode, diagnostics: ProblemLog) -> [PlacedRegion] {
        guard let f = c.mapping(Self.regionShape, allowed: Self.regionKeys) else { return [] }
        let sources = ["geojson", "circle", "polygon"].filter { f[$0] != nil }
        guard sources.count == 1 else {
            // A misspelt `circel:` was reported already; saying that no shape was given would repeat it.
            if sources.isEmpty, !f.misspelt.isDisjoint(with: ["geojson", "circle", "polygon"]) { return [] }
            c.fail(
                sources.isEmpty
                    ? "expected \(Self.regionShape), got none of geojson, circle or polygon"
                    : "expected one of geojson, circle or polygon, got \(sources.joined(separator: " and "))")
            return []
        }
        let overrides = MonitorBlock.read(f, level: .region)
        if let file = f["geojson"] {
            if let id = f["id"] {
                id.fail(
                    "a geojson entry takes its region ids from the file's features (properties.id or the feature's id, or the property idProperty: names); remove this id"
                )
            }
            if let name = f["name"] {
                name.fail(
                    "a geojson entry takes its regions' names from the file's features (properties.name); remove this name")
            }
            guard let relative = file.text("the path of a GeoJSON file, relative to the scenario") else { return [] }
            let resolved = FileNames.resolve(relative, besideFile: c.file)
            if let refusal = diagnostics.refusal(reading: relative, resolved: resolved, naming: c.file) {
                file.fail("cannot read the GeoJSON file: \(refusal)")
                return []
            }
            diagnostics.reads(ScenarioInput(kind: .regions, written: relative, resolved: resolved))
            if let problem = FileCheck.problemReading(resolved) {
                file.fail("cannot read the GeoJSON file: \(problem)")
                return []
            }
            var skipped: RegionFile.SkippedFeatures?
            if let skip = f["skip"] {
                guard skip.scalarText == "invalid" else {
                    skip.expected("invalid (skip: invalid leaves out the features that cannot be read, with a warning)")
                    return []
                }
                skipped = RegionFile.SkippedFeatures()
            }
            let idProperty = f["idProperty"].flatMap { $0.text("the name of the property holding each feature's id") }
            if f["idProperty"] != nil && idProperty == nil { return [] }
            let regions = RegionFile.read(
                resolved, defaults: overrides, diagnostics: diagnostics, skipped: skipped, idProperty: idProperty)
            if let left = skipped?.features, !left.isEmpty, let skip = f["skip"] {
                let listed = left.prefix(Self.skippedListed).joined(separator: "; ")
                let more = left.count > Self.skippedListed ? "; and \(left.count - Self.skippedListed) more" : ""
                skip.warn(
                    "skipped \(left.count) feature\(left.count == 1 ? "" : "s") of \(relative) that cannot be read: "
                        + listed + more)
            }
            return regions
        }
        if let skip = f["skip"] {
            skip.fail("skip goes with geojson: it leaves out a file's features that cannot be read")
        }
        if let idProperty = f["idProperty"] {
            idProperty.fail("idProperty goes with geojson: it names the property each feature's id comes from")
        }
        let idCursor = f.required("id", "the region's id, a non-empty string")
        let id = idCursor?.text("the region's id, a non-empty string")
        let shape: Shape?
        if let circle = f["circle"] {
            shape = self.circle(circle)
        } else {
            shape = f["polygon"].flatMap { GeoJSON.polygon($0, foreignMembers: false) }
        }
        let name = f["name"]?.text("what people call the region, a non-empty string")
        guard let id, let idCursor, let shape else { return [] }
        return [PlacedRegion(region: Region(id: id, shape: shape, overrides: overrides, name: name), origin: idCursor)]
    }

    private func circle(_ c: PlacedNode) -> Shape? {
        guard let f = c.mapping("a circle {lat, lon, radius}", allowed: ["lat", "lon", "radius"]) else { return nil }
        let lat = f.required("lat", "the centre's latitude in degrees")?
            .number("a latitude in degrees, from -90 to 90", in: -90...90)
        let lon = f.required("lon", "the centre's longitude in degrees")?
            .number("a longitude in degrees, from -180 to 180", in: -180...180)
        let radius = f.required("radius", "a distance in metres greater than 0")?.distance(.positive)
        guard let lat, let lon, let radius else { return nil }
        do {
            return .circle(try Circle(center: Coordinate(latitude: lat, longitude: lon), radius: radius))
        } catch {
            c.fail("invalid circle: \(error)")
            return nil
        }
    }

    /// The `rules:` list. `regionIDs` is nil when some region failed to load: unknown ids are then not
    /// reported, as they may name the region that failed.
    func rules(_ list: [PlacedNode], regionIDs: [String]?) -> [DwellRule] {
        var rules: [DwellRule] = []
        var names: [String: PlacedNode] = [:]
        for c in list {
            guard let f = c.mapping("a dwell rule {name, dwell, regions}", allowed: ["name", "dwell", "regions"])
            else { continue }
            let nameCursor = f.required("name", "the rule's name")
            let name = nameCursor?.text("the rule's name, a non-empty string")
            let duration = f.required(
                "dwell", "how long a device stays inside before the rule fires, a duration of 0 or more")?
                .duration(.nonNegative)
            var regions: [String]?
            if let regionsCursor = f["regions"], let ids = regionsCursor.list("a list of region ids") {
                if ids.isEmpty {
                    regionsCursor.fail("expected at least one region id; leave regions out to cover every region")
                }
                regions = ids.compactMap { idCursor in
                    guard let id = idCursor.text("a region id") else { return nil }
                    if let known = regionIDs, !known.contains(id) {
                        var message = "unknown region id \"\(id)\""
                        if let guess = closestKey(to: id, in: known) { message += "; did you mean \"\(guess)\"?" }
                        let listed = known.prefix(10).joined(separator: ", ") + (known.count > 10 ? ", ..." : "")
                        idCursor.fail(
                            message
                                + (known.isEmpty
                                    ? " The scenario has no regions." : " The scenario's regions are: \(listed)."))
                        return nil
                    }
                    return id
                }
            }
            guard let name, let nameCursor, let duration else { continue }
            if let first = names[name] {
                nameCursor.fail(
                    "rule name \"\(name)\" is already used by \(first.path) at \(first.place); rule names must be unique")
                continue
            }
            names[name] = nameCursor
            rules.append(DwellRule(name: name, duration: duration, regions: regions))
        }
        return rules
    }
}
