import Foundation

/// Runs `command` with /bin/sh in `folder`, for test inputs made with system tools (gzip, zip); fails
/// unless it exits 0.
public func shell(_ command: String, in folder: URL) throws {
    struct Failed: Error { let command: String; let status: Int32 }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = folder
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw Failed(command: command, status: process.terminationStatus) }
}
