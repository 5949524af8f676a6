import ArgumentParser
import Foundation
import GPX
import ScenarioFormat

/// `perimeter validate PATH...`: checks scenarios, region files and tracks without running them.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks scenarios, GeoJSON region files and GPX tracks without running them.",
        discussion: """
        Files are told apart by their extension: .yaml, .yml and .json are scenarios (with their region \
        files and tracks), or journeys for 'perimeter track synth' when they have a top-level 'route'; \
        .geojson region files, .gpx tracks. A folder is searched for all of them. \
        Every problem is listed, each with its file and place; the exit code is 2 if there was any.
        """
    )

    @Argument(help: "Files or folders to check.")
    var paths: [String]

    func run() throws {
        var problems = 0
        for file in try Self.files(in: paths) {
            let (found, warnings) = Self.check(file)
            for problem in found { Diagnostics.error(problem) }
            for warning in warnings { Diagnostics.warning(warning) }
            if found.isEmpty { print("ok: \(file)") }
            problems += found.count
        }
        if problems > 0 {
            Diagnostics.note("\(problems) problem\(problems == 1 ? "" : "s") found.")
            throw ExitCode(Exit.badInput)
        }
    }

    enum Kind { case scenario, journey, regions, track }

    static func kind(of path: String) -> Kind? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "yaml", "yml", "json": return isJourney(path) ? .journey : .scenario
        case "geojson": return .regions
        case "gpx": return .track
        default: return nil
        }
    }

    /// The files named, folders expanded (recursively, sorted), in the order given.
    static func files(in paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            if let unreachable = PathCheck.unreachable(path) {
                Diagnostics.error(unreachable + ".")
                throw ExitCode(Exit.badInput)
            }
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            guard isFolder.boolValue else { files.append(path); continue }
            let found = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
            files += found.sorted().filter { kind(of: $0) != nil && !$0.hasSuffix(".events.jsonl") }
                .map { (path as NSString).appendingPathComponent($0) }
        }
        return files
    }

    /// Every problem of one file, as `FILE:LINE:COLUMN: …` sentences, and its warnings; one load each.
    static func check(_ file: String) -> (problems: [String], warnings: [String]) {
        switch kind(of: file) {
        case .scenario:
            do { return ([], try ScenarioLoader.load(path: file).warnings) } catch { return (error.errors.map(\.description), []) }
        case .journey:
            do { _ = try JourneyLoader.load(path: file) } catch { return (error.errors.map(\.description), []) }
        case .regions:
            var warnings: [String] = []
            do { _ = try RegionFile.load(path: file, warnings: &warnings) } catch { return (error.errors.map(\.description), []) }
            return ([], warnings)
        case .track:
            do { return ([], try GPXTrack.load(path: file).warnings.map { "\(file):\($0)" }) } catch { return ([error.description], []) }
        case nil:
            return (["\(file): not a scenario (.yaml, .yml, .json), region file (.geojson) or track (.gpx)."], [])
        }
        return ([], [])
    }

    /// A journey has a top-level `route:` key, which no scenario has.
    static func isJourney(_ path: String) -> Bool {
        guard PathCheck.notRegularFile(path) == nil,  // reading a FIFO would wait for a writer
              let text = try? String(contentsOfFile: path, encoding: .utf8) else { return false }
        return text.split(separator: "\n").contains { $0.hasPrefix("route:") || $0.hasPrefix("\"route\":") }
    }
}
