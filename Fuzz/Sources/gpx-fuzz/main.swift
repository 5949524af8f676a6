// libFuzzer target: GPXTrack.load(path:) must never crash, hang or leak on any bytes; errors are fine.
// The reader has no memory-buffer entry point, so each input is written to one temporary file.
import Foundation
import GPX

let inputPath: String = {
    let dir = NSTemporaryDirectory() + "perimeter-gpx-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir + "/input.gpx"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    guard FileManager.default.createFile(atPath: inputPath, contents: bytes) else { fatalError("cannot write \(inputPath)") }
    do {
        let track = try GPXTrack.load(path: inputPath)
        // Touch the result: every point must be a valid coordinate (invalid ones are dropped with a warning).
        for segment in track.segments {
            for point in segment where !point.coordinate.isValid {
                fatalError("GPXTrack.load kept an invalid coordinate \(point.coordinate) at line \(point.line)")
            }
        }
    } catch {
        _ = error.description
    }
    return 0
}

// SwiftPM links an executable's `main` to this module's top-level code, so libFuzzer's own `main` is not
// used: the top-level code hands the command line to libFuzzer's driver instead (same flags, same output).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

var fuzzArgc = CommandLine.argc
var fuzzArgv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&fuzzArgc, &fuzzArgv) { data, size in
    var empty: UInt8 = 0
    return data.map { fuzz($0, size) } ?? fuzz(&empty, 0)
})
