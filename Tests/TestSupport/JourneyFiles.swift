import Foundation

/// Journey files for the tests of `JourneyLoader` and of `perimeter track synth`.
public enum JourneyFiles {
    /// A journey with every kind of step, markup in its name, and two fix losses.
    public static let example = """
        name: Nevsky & <back> "quoted"
        start: 2024-05-01T09:00:00Z
        seed: 7
        interval: 1s
        noise: 5m
        route:
          - at: [59.9343, 30.3351]
          - to: [59.9400, 30.3150]
            speed: 12
          - stop: 5m
          - lost: 3m
          - to: [59.9500, 30.3100]
            speed: 1.4
          - lost: 30s
          - to: [59.9510, 30.3110]
            speed: 5 km/h

        """

    /// Writes `text` to a file in a fresh folder and returns its path.
    public static func write(_ text: String, name: String = "journey.yaml") throws -> String {
        let path = try PerimeterProcess.temporaryFolder().appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
