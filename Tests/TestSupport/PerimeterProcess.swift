import Foundation

/// Runs the built `perimeter` executable as a user would, capturing its output and exit code; for every
/// test target that drives the command line.
public enum PerimeterProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The package's root folder (this file is Tests/TestSupport/PerimeterProcess.swift).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The executable beside the test bundle, in the same build folder.
    public static var executable: URL {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = here.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("perimeter").path),
            folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("perimeter")
    }

    /// Runs `perimeter` (or `executable`, with `prefix` before the arguments) and waits for it; its
    /// standard input is the file at `standardInput` when given.
    public static func run(
        _ arguments: [String], in directory: URL = root, executable path: String? = nil,
        prefix: [String] = [], standardInput: String? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = path.map { URL(fileURLWithPath: $0) } ?? executable
        process.arguments = prefix + arguments
        process.currentDirectoryURL = directory
        if let standardInput {
            guard let input = FileHandle(forReadingAtPath: standardInput) else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: standardInput])
            }
            process.standardInput = input
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so that a full pipe cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs `perimeter` as a user without privileges, to test permission errors even when the tests run
    /// as root (root bypasses permissions). As root: as `nobody` (setpriv), from a world-readable copy of
    /// the executable and of the restaurant scenario and its track, because the checkout itself may sit
    /// in a folder only root can enter; relative paths in `arguments` resolve in that copy. Otherwise: as
    /// the current user, in the package's root folder.
    public static func runUnprivileged(_ arguments: [String]) throws -> Result {
        guard geteuid() == 0 else { return try run(arguments) }
        let copy = try unprivilegedCopy.get()
        return try run(
            ["--reuid=65534", "--regid=65534", "--clear-groups", copy.appendingPathComponent("perimeter").path]
                + arguments, in: copy, executable: "/usr/bin/setpriv")
    }

    /// The executable in the world-readable copy of `runUnprivileged`, for other ways of running it as
    /// the user nobody.
    public static func worldReadableExecutable() throws -> URL {
        try unprivilegedCopy.get().appendingPathComponent("perimeter")
    }

    /// The world-readable copy of `runUnprivileged`, made once per process.
    private static let unprivilegedCopy = Swift.Result<URL, any Error> {
        let copy = try temporaryFolder()
        let manager = FileManager.default
        // A repository's root (`.git`), inside which the scenario reads its track.
        try manager.createDirectory(at: copy.appendingPathComponent(".git"), withIntermediateDirectories: true)
        for relative in ["Scenarios/lorrenzillos.yaml", "Tracks/lorrenzillos-visit.gpx"] {
            let target = copy.appendingPathComponent(relative)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: root.appendingPathComponent(relative), to: target)
        }
        try manager.copyItem(at: executable, to: copy.appendingPathComponent("perimeter"))
        for path in [copy.path, copy.appendingPathComponent("Scenarios").path, copy.appendingPathComponent("Tracks").path] {
            try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        return copy
    }

    /// A fresh temporary folder (`TemporaryFolders`).
    public static func temporaryFolder() throws -> URL {
        try TemporaryFolders.make("perimeter")
    }
}

/// A command line `perimeter` must refuse: its exit status and a sentence its standard error contains.
public struct CommandRefusal: Sendable, CustomStringConvertible {
    public let arguments: [String]
    public let status: Int32
    public let message: String

    public init(arguments: [String], status: Int32, message: String) {
        self.arguments = arguments
        self.status = status
        self.message = message
    }

    public var description: String { arguments.joined(separator: " ") }
}
