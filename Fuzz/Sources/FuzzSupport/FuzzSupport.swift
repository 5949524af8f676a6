// What every fuzz target shares: handing the command line to libFuzzer, and writing an input to a file
// for the loaders, which read paths (none of them has a memory-buffer entry point).
import Foundation

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

nonisolated(unsafe) private var fuzzBody: (UnsafePointer<UInt8>, Int) -> CInt = { _, _ in 0 }

/// Runs libFuzzer's driver on the command line (same flags, same output) with `body` as the fuzz
/// function, then exits with its status. SwiftPM links an executable's `main` to the target's top-level
/// code, so libFuzzer's own `main` is not used: the top-level code calls this instead.
public func runLibFuzzer(_ body: @escaping (UnsafePointer<UInt8>, Int) -> CInt) -> Never {
    fuzzBody = body
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(
        LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            var empty: UInt8 = 0
            return data.map { fuzzBody($0, size) } ?? fuzzBody(&empty, 0)
        })
}

/// A fresh scratch folder for this process: `NAME-PID` in the temporary directory.
public func scratchFolder(_ name: String) -> String {
    let folder = NSTemporaryDirectory() + "perimeter-\(name)-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

/// Writes one input's bytes to `path`, replacing what was there.
public func writeInput(_ data: UnsafePointer<UInt8>, _ size: Int, to path: String) {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size)) else {
        fatalError("cannot write \(path)")
    }
}
