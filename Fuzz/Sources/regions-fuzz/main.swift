// libFuzzer target: RegionFile.load(path:) must never crash or hang on any bytes; errors are fine.
import Foundation
import FuzzSupport
import ScenarioFormat

let inputPath = scratchFolder("regions-fuzz") + "/input.geojson"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    writeInput(data, size, to: inputPath)
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

runLibFuzzer(fuzz)
