import BenchmarkSupport
import GPX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// gpx-benchmark generate N FILE   writes a Garmin-style GPX of N track points
/// gpx-benchmark read FILE         streams FILE with GPXReader: points, seconds, points/s, peak RSS (the
///                                 read inside `measured` for callgrind, then `measured: POINTS point`)
/// gpx-benchmark load FILE         the same through GPXTrack.load (which keeps the points)
/// gpx-benchmark inspect FILE      GPXTrack.load and its TrackSummary: what `perimeter inspect` does with a GPX
///                                 file besides printing (inside `measured`, then `measured: POINTS point`)
let arguments = CommandLine.arguments
func usage() -> Never {
    print("usage: gpx-benchmark generate N FILE | read FILE | load FILE | inspect FILE")
    exit(64)
}
guard arguments.count >= 3 else { usage() }

switch arguments[1] {
case "generate":
    guard arguments.count == 4, let count = Int(arguments[2]) else { usage() }
    let bytes = try generateGarminStyleGPX(points: count, path: arguments[3])
    print("wrote \(count) points, \(bytes / 1_000_000) MB to \(arguments[3])")
case "read":
    let start = monotonicSeconds()
    var points = 0, segments = 0
    measured {
        do throws(GPXError) {
            let reader = try GPXReader(path: arguments[2])
            while let item = try reader.next() {
                switch item {
                case .point: points += 1
                case .segmentStart: segments += 1
                }
            }
        } catch {
            print("error: \(error)")
            exit(2)
        }
    }
    report("GPXReader", points: points, seconds: monotonicSeconds() - start)
    reportMeasured(points, "point")
case "load":
    let start = monotonicSeconds()
    do throws(GPXError) {
        let track = try GPXTrack.load(path: arguments[2])
        report("GPXTrack.load", points: track.segments.reduce(0) { $0 + $1.count }, seconds: monotonicSeconds() - start)
    } catch {
        print("error: \(error)")
        exit(2)
    }
case "inspect":
    let start = monotonicSeconds()
    var summary: TrackSummary?
    do throws(GPXError) {
        try measured { () throws(GPXError) in summary = TrackSummary(try GPXTrack.load(path: arguments[2])) }
    } catch {
        print("error: \(error)")
        exit(2)
    }
    report("GPXTrack.load + TrackSummary", points: summary!.points, seconds: monotonicSeconds() - start)
    reportMeasured(summary!.points, "point")
default:
    usage()
}

func report(_ what: String, points: Int, seconds: Double) {
    let rate = Double(points) / seconds
    print(
        "\(what): \(points) points in \(format(seconds)) s, \(Int(rate)) points/s, peak RSS \(peakResidentKilobytes() / 1024) MB"
    )
}

func format(_ x: Double) -> String {
    let hundredths = Int((x * 100).rounded())
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// VmHWM from /proc/self/status, in kilobytes (0 where there is no /proc).
func peakResidentKilobytes() -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, 256, file) != nil {
        let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        if text.hasPrefix("VmHWM:") {
            return Int(text.dropFirst(6).trimmingCharacters(in: " \t\nkB")) ?? 0
        }
    }
    return 0
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
