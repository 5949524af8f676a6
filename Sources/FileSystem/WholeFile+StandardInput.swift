import SystemPackage

extension WholeFile {
    /// Everything on standard input until its end, refused past `limit` bytes (`tooLarge` with the bytes
    /// read so far as its size): for a command's `-` in place of a file. Memory: at most `limit` + 64 kB.
    /// O(bytes).
    public static func readStandardInput(limit: Int64 = defaultLimit) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        do {
            while true {
                let n = try chunk.withUnsafeMutableBytes { try FileDescriptor.standardInput.read(into: $0) }
                if n == 0 { return bytes }
                bytes.append(contentsOf: chunk[..<n])
                guard Int64(bytes.count) <= limit else { throw Failure.tooLarge(size: Int64(bytes.count), limit: limit) }
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .system(FileError(thrown: error, path: "standard input", action: "read"))
        }
    }
}
