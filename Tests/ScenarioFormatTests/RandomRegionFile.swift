import Draws
import Foundation
import Geodesy

/// Seeded random GeoJSON region files for comparing the direct and node readings: FeatureCollections of
/// circles and polygons (now and then a MultiPolygon, a hole, a ring that crosses itself), with members
/// in any order, ids of every kind, overrides as numbers and as strings, foreign members, nulls, numbers
/// written every way JSON allows, pretty-printed or on one line, and now and then a value out of range,
/// a repeated id or a repeated key.
enum RandomRegionFile {
    static func make(_ random: inout SplitMix64) -> String {
        var r = Draw(random: random)
        let count = r.int(1...6)
        var features: [String] = []
        var ids: [String] = []
        for index in 0..<count { features.append(feature(&r, index: index, ids: &ids)) }
        let separator = r.chance(0.3) ? ",\n  " : ", "
        var members = ["\"type\": \"FeatureCollection\"", "\"features\": [" + features.joined(separator: separator) + "]"]
        if r.chance(0.2) { members.append("\"bbox\": [0, 0, 1, 1]") }
        if r.chance(0.3) { members.shuffle(using: &r.random) }
        random = r.random
        return "{" + members.joined(separator: r.chance(0.3) ? ",\n" : ", ") + "}"
    }

    /// A random source with the draws the generator needs.
    struct Draw {
        var random: SplitMix64
        mutating func chance(_ p: Double) -> Bool { random.nextUnit() < p }
        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
        mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...choices.count - 1)] }
    }

    /// A number as JSON may write it: plain, with an exponent, with many digits, as an integer. (Over 18
    /// significant digits, which JSON allows and the loaders refuse, is one of the faults below.)
    static func number(_ value: Double, _ r: inout Draw) -> String {
        switch r.int(0...9) {
        case 0: return String(format: "%.6e", value)
        case 1: return String(format: "%.14f", value)
        case 2: return value == 0 ? "-0.0" : String(value)
        case 3: return String(format: "%.0f", value.rounded())
        default: return String(format: "%.6f", value)
        }
    }

    static func feature(_ r: inout Draw, index: Int, ids: inout [String]) -> String {
        // One feature in five may hold a problem; the others vary only in how valid JSON is written.
        let faulty = r.chance(0.2)
        func valid(_ good: [String], _ bad: [String]) -> String { r.pick(faulty && r.chance(0.5) ? bad : good) }
        var members: [String] = ["\"type\": " + (valid(["\"Feature\""], ["\"feature\"", "null", "1"]))]
        var properties: [String] = []
        // The id: in the properties, on the feature, both, or neither; a string, a number or something else.
        var id: String
        if faulty, r.chance(0.3), let used = ids.last {
            id = "\"" + used + "\""
        } else {
            id = valid(
                [
                    "\"z\(index)\"", "\"z\(index)\"", "\"z\(index)\"", "\(index + 100)", "1.5e\(index)",
                    "\"caf\u{e9}\(index)\"",
                    "\"z\\u00\(40 + index)\"", "true",
                ], ["\"\"", "null", "[\(index)]"])
            ids.append("z\(index)")
        }
        switch r.int(0...9) {
        case 0...4: properties.append("\"id\": " + id)
        case 5...7: members.append("\"id\": " + id)
        case 8: properties.append("\"id\": " + id); members.append("\"id\": \"other\(index)\"")
        default: if faulty { break } else { members.append("\"id\": " + id) }
        }
        let lon = r.double(-179...179), lat = r.double(-80...80)
        let circle = r.chance(0.5)
        if circle, !faulty || r.chance(0.8) {
            properties.append(
                "\"radius\": " + valid([number(r.double(1...500), &r), "\"300m\"", "\"1.5km\""], ["0", "-5", "null"]))
        }
        if r.chance(0.4) {
            properties.append("\"hysteresis\": " + valid([number(r.double(0...50), &r), "\"20m\"", "null"], ["-1"]))
        }
        if r.chance(0.2) {
            properties.append("\"enterBuffer\": " + valid([number(r.double(0...50), &r), "-3"], ["\"3 parsecs\""]))
        }
        if r.chance(0.2) {
            properties.append("\"confirmation\": " + valid(["5", "1.5", "\"5s\"", "2e1"], ["-1", "0.0000001"]))
        }
        if r.chance(0.2) {
            properties.append("\"enterConfidence\": " + valid(["0.9", "0.5", "1", "0.3"], ["1.2", "-0.1"]))
        }
        if r.chance(0.1) { properties.append("\"missEnter\": " + valid(["0", "0.25", "1"], ["1.5"])) }
        if r.chance(0.1) { properties.append("\"missExit\": " + valid(["0.5"], ["-1"])) }
        if r.chance(0.2) { properties.append("\"exitConfidence\": " + valid(["0.1", "0", "0.5"], ["0.7"])) }
        if r.chance(0.3) {
            properties.append("\"name\": " + r.pick(["\"Caf\u{e9}\"", "{\"a\": [1, {\"b\": null}]}", "null", "\"x\\ny\""]))
        }
        if faulty, r.chance(0.1), let first = properties.first { properties.append(first) }  // a repeated key
        properties.shuffle(using: &r.random)
        if !properties.isEmpty || r.chance(0.5) {
            members.append(
                "\"properties\": " + (faulty && r.chance(0.1) ? "null" : "{" + properties.joined(separator: ", ") + "}"))
        }
        var geometry: [String]
        if circle {
            var position = [number(lon, &r), number(faulty && r.chance(0.2) ? 95 : lat, &r)]
            if r.chance(0.2) { position.append(number(r.double(0...100), &r)) }
            if faulty, r.chance(0.2) {
                position = [r.pick(["\"13\"", "null", "[1]", "13.123456789012345678901"]), number(lat, &r)]
            }
            geometry = ["\"type\": \"Point\"", "\"coordinates\": [" + position.joined(separator: ", ") + "]"]
        } else {
            var polygon = "[" + ring(&r, faulty: faulty, lon: lon, lat: lat, size: 0.01)
            if r.chance(0.15) { polygon += ", " + ring(&r, faulty: faulty, lon: lon, lat: lat, size: 0.003) }
            polygon += "]"
            if r.chance(0.1) {
                geometry = [
                    "\"type\": \"MultiPolygon\"",
                    "\"coordinates\": [" + polygon + ", [" + ring(&r, faulty: faulty, lon: lon + 0.5, lat: lat, size: 0.01)
                        + "]]",
                ]
            } else {
                geometry = ["\"type\": \"Polygon\"", "\"coordinates\": " + polygon]
            }
        }
        if r.chance(0.15) { geometry.append("\"bbox\": [0, 0, 1, 1]") }
        if r.chance(0.3) { geometry.shuffle(using: &r.random) }
        if faulty, r.chance(0.1) { geometry[0] = "\"type\": \"LineString\"" }
        members.append("\"geometry\": {" + geometry.joined(separator: ", ") + "}")
        if r.chance(0.1) { members.append("\"foreign\": {\"deep\": [[1, 2], {\"x\": \"caf\u{e9}\"}]}") }
        members.shuffle(using: &r.random)
        return "{" + members.joined(separator: r.chance(0.2) ? ",\n   " : ", ") + "}"
    }

    /// A closed ring of 3 to 10 positions around a point; now and then crossing itself, left open, too
    /// short, out of range, or with a position that is not one.
    static func ring(_ r: inout Draw, faulty: Bool, lon: Double, lat: Double, size: Double) -> String {
        let count = r.int(3...10)
        var positions: [String] = []
        for k in 0..<count {
            let angle = Double(k) / Double(count) * 2 * .pi
            positions.append("[" + number(lon + size * cos(angle), &r) + ", " + number(lat + size * sin(angle), &r) + "]")
        }
        if r.chance(0.1), count >= 4 { positions.swapAt(1, 2) }  // crosses itself
        if faulty, r.chance(0.2) {
            positions[r.int(0...count - 1)] = r.pick(["[1]", "[\"1\", 2]", "[200, 10]", "null", "[1, 2, null]"])
        }
        if !faulty || r.chance(0.8) { positions.append(positions[0]) }
        if faulty, r.chance(0.2) { positions = Array(positions.prefix(2)) }
        return "[" + positions.joined(separator: r.chance(0.2) ? ",\n     " : ", ") + "]"
    }
}
