// libFuzzer target: GPXTrack.load(path:) must never crash, hang or leak on any bytes; errors are fine.
// The reader has no memory-buffer entry point, so each input is written to one temporary file.
import Foundation
import FuzzSupport
import GPX

let inputPath = scratchFolder("gpx-fuzz") + "/input.gpx"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    writeInput(data, size, to: inputPath)
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

runLibFuzzer(fuzz)
