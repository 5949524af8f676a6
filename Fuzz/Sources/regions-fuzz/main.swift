// libFuzzer target: RegionFile.load(path:) must never crash or hang on any bytes; errors are fine.
import Foundation
import ScenarioFormat

let inputPath: String = {
    let dir = NSTemporaryDirectory() + "perimeter-regions-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir + "/input.geojson"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard FileManager.default.createFile(atPath: inputPath, contents: Data(bytes: data, count: size)) else {
        fatalError("cannot write \(inputPath)")
    }
    do {
        let regions = try RegionFile.load(path: inputPath)
        var ids = Set<String>()
        for region in regions where !ids.insert(region.id).inserted {
            fatalError("RegionFile.load returned the id \(region.id) twice")
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
