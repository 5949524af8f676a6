import Draws
import Foundation
import Geodesy
import Time

/// A field study made up, for the recovery tests, the benchmark and examples: `fences` circular stores in
/// a row 600 m apart (radius 40 to 60 m), and `walks` walkers, each walking east from 300 m before one
/// store into it, staying 2 to 4 minutes, on into the next store, staying again, and 300 m past it, at
/// 1.2 to 1.6 m/s with a fix every 2 s. Two enters and two exits a walk. The same seed gives the same
/// files. O(walks × their fixes).
public struct SyntheticFieldStudy: Sendable {
    public var fences = 8
    public var walks = 40
    public var seed: UInt64 = 1
    /// The scenario's profile and noise (its sigma in metres, its seed).
    public var profile = "ios-gps"
    public var noise: Meters = 5
    public var noiseSeed: UInt64 = 7

    public init(fences: Int = 8, walks: Int = 40, seed: UInt64 = 1) {
        self.fences = max(2, fences)
        self.walks = walks
        self.seed = seed
    }

    static let origin = Coordinate(latitude: 48.8566, longitude: 2.3522)
    static let start = Timestamp(microsecondsSince1970: 1_791_190_800_000_000)  // 2026-10-05T09:00:00Z

    /// The stores' centres and radii, west to east.
    var stores: [(id: String, center: Coordinate, radius: Meters)] {
        (0..<fences).map { f in
            ("store-\(f + 1)", Self.origin.offset(northMeters: 0, eastMeters: Double(f) * 600), 40 + Double(f % 3) * 10)
        }
    }

    /// Walker `w`'s fixes: (time, position).
    func walk(_ w: Int) -> [(Timestamp, Coordinate)] {
        var random = SplitMix64(seed: SplitMix64.mix(seed &+ UInt64(w)))
        let a = w % (fences - 1), lateral = random.nextUnit() * 40 - 20, speed = 1.2 + random.nextUnit() * 0.4
        let stays = [120 + random.nextUnit() * 120, 120 + random.nextUnit() * 120]
        // Legs: east positions (metres from the origin) and how long to stand at the end of each.
        let west = Double(a) * 600 - 300
        let legs: [(to: Double, stay: Double)] = [
            (Double(a) * 600, stays[0]), (Double(a + 1) * 600, stays[1]), (Double(a + 1) * 600 + 300, 0),
        ]
        var fixes: [(Timestamp, Coordinate)] = []
        var t = 0.0, x = west
        let begin = Self.start + .seconds(Int64(w) * 60)
        func add() {
            fixes.append(
                (
                    begin + TimeSpan(microseconds: Int64(t * 1_000_000)),
                    Self.origin.offset(northMeters: lateral, eastMeters: x)
                ))
        }
        add()
        for leg in legs {
            while x < leg.to {
                t += 2
                x = min(leg.to, x + speed * 2)
                add()
            }
            let until = t + leg.stay
            while t + 2 <= until { t += 2; add() }
        }
        return fixes
    }

    /// Writes `study.yaml` and `walks.csv` into `folder` and returns the scenario's path.
    public func write(into folder: String) throws -> String {
        var csv = "device,time,lat,lon\n"
        for w in 0..<walks {
            for (time, c) in walk(w) {
                csv +=
                    "walker-\(w + 1),\(time.iso8601),\(String(format: "%.7f", c.latitude)),\(String(format: "%.7f", c.longitude))\n"
            }
        }
        var yaml = """
            # A made-up field study (Calibration/SyntheticFieldStudy.swift): \(walks) walks through \(fences) stores.
            name: Synthetic field study
            start: \(Self.start.iso8601)
            profile: \(profile)
            noise: {sigma: \(noise), seed: \(noiseSeed)}
            regions:

            """
        for store in stores {
            yaml +=
                "  - {id: \(store.id), circle: {lat: \(String(format: "%.7f", store.center.latitude)), "
                + "lon: \(String(format: "%.7f", store.center.longitude)), radius: \(Int(store.radius))}}\n"
        }
        yaml += "devices:\n  - fixes: walks.csv\n"
        let scenario = (folder as NSString).appendingPathComponent("study.yaml")
        try csv.write(toFile: (folder as NSString).appendingPathComponent("walks.csv"), atomically: true, encoding: .utf8)
        try yaml.write(toFile: scenario, atomically: true, encoding: .utf8)
        return scenario
    }
}
