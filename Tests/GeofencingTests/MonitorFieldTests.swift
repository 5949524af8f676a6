import Foundation
import Testing

@testable import Geofencing

/// The settings table (`MonitorField.all`) against the struct it describes, and the documents and the
/// Python reference that name the same settings: SEMANTICS §8's table, the scenario reference (docs/SCENARIO-REFERENCE.md) and
/// `Scripts/semantics_reference.py`. A setting added to one and not the others fails here.
struct MonitorFieldTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static let keys = MonitorField.all.map(\.key)
    static let regionKeys = MonitorField.keys(at: .region)

    @Test("every stored field of MonitorSettings has one row, in declaration order")
    func rowsAreTheStruct() {
        let stored = Mirror(reflecting: MonitorSettings.neutral).children.compactMap(\.label)
        #expect(Self.keys == stored)
        #expect(Set(Self.keys).count == Self.keys.count)
    }

    @Test("each row reads and sets its own field: every built-in is rebuilt from its rows' values")
    func rowsReadAndSetTheirField() {
        for profile in Profile.builtIns {
            var rebuilt = MonitorSettings(
                capacity: 1, selection: .static, refreshDistance: 1, hysteresis: 1, enterBuffer: 1,
                confirmation: .seconds(1), initialTrigger: .enter, accuracy: 1, enterConfidence: 0.1,
                exitConfidence: 0.1, interval: .seconds(1), phase: .random, stationary: nil, outliers: nil,
                delivery: nil, missEnter: 0.5, missExit: 0.5)
            for field in MonitorField.all { field.set(field.value(in: profile.settings), in: &rebuilt) }
            #expect(rebuilt == profile.settings, "\(profile.name)")
        }
    }

    @Test("overrides apply in table order, set and unset by key path, and merge over a lower level")
    func overrides() {
        var o = MonitorOverrides(\.missExit, 0.3)
        o.hysteresis = 40
        o.capacity = .some(nil)
        #expect(o.fieldsSet == ["capacity", "hysteresis", "missExit"])
        let applied = o.applied(to: Profile.ios.settings)
        #expect(applied.capacity == nil && applied.hysteresis == 40 && applied.missExit == 0.3)
        #expect(applied.confirmation == Profile.ios.settings.confirmation)
        o.hysteresis = nil
        #expect(o.fieldsSet == ["capacity", "missExit"] && o.hysteresis == nil)
        let merged = MonitorOverrides {
            $0.missExit = 0.1; $0.enterBuffer = -5
        }.over(o)
        #expect(merged.fieldsSet == ["capacity", "enterBuffer", "missExit"] && merged.missExit == 0.1)
        #expect(MonitorOverrides(\.delivery, nil).delivery == .some(nil))
    }

    @Test("a region may set exactly the thresholds of SEMANTICS §5, and a GeoJSON feature the same")
    func regionLevels() {
        #expect(
            Self.regionKeys == [
                "hysteresis", "enterBuffer", "confirmation", "enterConfidence", "exitConfidence", "missEnter", "missExit",
            ])
        #expect(MonitorField.keys(at: .geoJSON) == Self.regionKeys)
        #expect(MonitorField.keys(at: .monitor) == Self.keys && MonitorField.keys(at: .profile) == Self.keys)
    }

    @Test("each row's SEMANTICS section names it")
    func sectionsNameTheirSettings() throws {
        let semantics = try Self.text("docs/SEMANTICS.md")
        for field in MonitorField.all {
            let number = field.section.dropFirst()  // "§5" → "5"
            let start = try #require(semantics.range(of: "\n## \(number). "), "\(field.key): no section \(field.section)")
            let rest = semantics[start.upperBound...]
            let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
            #expect(section.contains(field.key), "\(field.key) is not in SEMANTICS \(field.section)")
        }
    }

    @Test("SEMANTICS §8's table has one row per setting, in table order")
    func semanticsTable() throws {
        let semantics = try Self.text("docs/SEMANTICS.md")
        let start = try #require(semantics.range(of: "| field | `ios` |"))
        let rows = semantics[start.lowerBound...].components(separatedBy: "\n").prefix { $0.hasPrefix("|") }
        let names = rows.dropFirst(3).map { $0.split(separator: "|")[0].trimmingCharacters(in: .whitespaces) }
        #expect(names == Self.keys)
    }

    @Test("The scenario reference (docs/SCENARIO-REFERENCE.md) names every monitor: key and the region keys in table order")
    func scenarioReference() throws {
        let reference = try Self.text("docs/SCENARIO-REFERENCE.md")
        let start = try #require(reference.range(of: "`monitor:` overrides of the profile"))
        let end = try #require(reference[start.upperBound...].range(of: "device `accuracy`"))
        let paragraph = reference[start.upperBound..<end.lowerBound]
        for key in Self.keys {  // `hysteresis`, or with its values: `selection: nearest|static`
            #expect(
                paragraph.contains("`\(key)`") || paragraph.contains("`\(key): "),
                "docs/SCENARIO-REFERENCE.md does not name `\(key)`")
        }
        let regionList = Self.regionKeys.map { "`\($0)`" }.joined(separator: "/")
        #expect(paragraph.contains("per-region\n" + regionList))
    }

    @Test("the Python reference's profiles hold every setting, and its per-region thresholds are the table's")
    func pythonReference() throws {
        let script = try Self.text("Scripts/semantics_reference.py")
        func names(after marker: String, until end: String) throws -> [String] {
            let start = try #require(script.range(of: marker), "no \(marker)")
            let stop = try #require(script[start.upperBound...].range(of: end))
            let text = script[start.upperBound..<stop.lowerBound]
            let pattern = /(\w+)=/
            return text.matches(of: pattern).map { String($0.output.1) }
        }
        let ideal = try names(after: "\"ideal\": dict(", until: "),\n}")
        let revision3 = try names(after: "REVISION3_ZERO = dict(", until: ")\n")
        #expect(ideal + revision3 == Self.keys)
        let start = try #require(script.range(of: "per_region = ("))
        let stop = try #require(script[start.upperBound...].range(of: ")"))
        let perRegion = script[start.upperBound..<stop.lowerBound].matches(of: /"(\w+)"/).map { String($0.output.1) }
        #expect(perRegion == Self.regionKeys)
    }
}
