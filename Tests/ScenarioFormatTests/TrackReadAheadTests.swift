import Foundation
import GPX
import Geodesy
import Geofencing
import ScenarioFormat
import TestSupport
import Testing
import Time

/// The GPX tracks of `devices:` read ahead on the loader's threads (`PreloadedTracks`): the same scenario
/// whatever the threads, every entry's track read, one thread reading on the loading thread alone.
@Suite("Tracks read ahead")
struct TrackReadAheadTests {
    /// The tracks' reads: which file, on which thread.
    final class Reads: @unchecked Sendable {
        // Safety: `log` is read and written only under `lock`.
        private let lock = NSLock()
        private var log: [(path: String, thread: pthread_t)] = []

        func record(_ path: String) {
            lock.lock()
            log.append(((path as NSString).lastPathComponent, pthread_self()))
            lock.unlock()
        }
        var all: [(path: String, thread: pthread_t)] {
            lock.lock()
            defer { lock.unlock() }
            return log
        }
    }

    /// A scenario of `names.count` devices, device i on the file `names[i]` (empty files: the tracks come
    /// from `loader`), in a folder of its own.
    static func fleet(_ names: [String]) throws -> String {
        let folder = try TemporaryFolders.make("read-ahead")
        var yaml =
            "start: 2024-05-01T09:00:00Z\nregions:\n  - {id: r, circle: {lat: 52.5, lon: 13.4, radius: 100}}\ndevices:\n"
        for (i, name) in names.enumerated() {
            FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
            yaml += "  - {id: d\(i), track: \(name)}\n"
        }
        let path = folder.appendingPathComponent("fleet.yaml").path
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Track `t-N.gpx`: two fixes a minute apart at latitude 52.5 + N / 10,000; `bad-N.gpx` fails.
    static func loader(_ reads: Reads) -> ScenarioLoader.TrackLoader {
        { path in
            reads.record(path)
            let name = (path as NSString).lastPathComponent
            guard name.hasPrefix("t-"), let n = Int(name.dropFirst(2).dropLast(4)) else {
                throw GPXError(file: path, line: 3, column: 1, message: "not a GPX file")
            }
            let at = Coordinate(latitude: 52.5 + Double(n) / 10_000, longitude: 13.4)
            let points = [("2024-05-01T09:00:00Z", 0), ("2024-05-01T09:01:00Z", 1)].map { text, ordinal in
                TrackPoint(
                    coordinate: at, time: Timestamp(iso8601: text), elevation: nil, ordinal: ordinal, line: ordinal + 3,
                    column: 1)
            }
            return GPXTrack(file: path, kind: .trackPoint, timing: .timed, segments: [points], warnings: [])
        }
    }

    /// 150 devices (more than the look-ahead), the file of device 3 named again by device 140.
    static let names = (0..<150).map { $0 == 140 ? "t-3.gpx" : "t-\($0).gpx" }

    @Test("One, two and four threads load the same devices, every entry's track read", arguments: [1, 2, 4])
    func sameDevices(threads: Int) throws {
        let path = try Self.fleet(Self.names)
        let reads = Reads()
        var loader = ScenarioLoader(trackLoader: Self.loader(reads))
        loader.threads = threads
        let devices = try loader.load(path: path).simulation.devices
        #expect(devices.map(\.id) == (0..<150).map { "d\($0)" })
        // device i's track is its file's: N from the latitude of its first fix
        let start = Timestamp(iso8601: "2024-05-01T09:00:00Z") ?? .epoch
        let read = devices.map { device in
            device.track.fixes(start: start).first?.first.map { Int((($0.coordinate.latitude - 52.5) * 10_000).rounded()) }
        }
        #expect(read == Self.names.map { Int($0.dropFirst(2).dropLast(4)) })
        // each distinct file read once ahead; the one named twice read again for its second device
        #expect(reads.all.count == 150)
        #expect(Set(reads.all.map(\.path)) == Set(Self.names))
    }

    @Test("On one thread, every track is read on the loading thread")
    func oneThread() throws {
        let path = try Self.fleet(Self.names)
        let reads = Reads()
        var loader = ScenarioLoader(trackLoader: Self.loader(reads))
        loader.threads = 1
        _ = try loader.load(path: path)
        let me = pthread_self()
        #expect(reads.all.count == 150)
        #expect(reads.all.allSatisfy { pthread_equal($0.thread, me) != 0 })
    }

    @Test("A track that cannot be read is reported at its entry, whatever the threads", arguments: [1, 2])
    func badTrack(threads: Int) throws {
        let path = try Self.fleet((0..<100).map { $0 == 57 || $0 == 90 ? "bad-\($0).gpx" : "t-\($0).gpx" })
        var loader = ScenarioLoader(trackLoader: Self.loader(Reads()))
        loader.threads = threads
        var found: [String] = []
        do { _ = try loader.load(path: path) } catch { found = error.errors.map(\.keyPath) }
        #expect(found == ["devices[57].track", "devices[90].track"])
    }
}
