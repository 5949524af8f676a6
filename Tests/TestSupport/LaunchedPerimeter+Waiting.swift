import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension LaunchedPerimeter {
    /// Waits until `perimeter` has read every byte written to `pipe` (its standard input) and waits for
    /// more: its main thread blocked in read(2) on standard input, or in poll(2), ppoll(2) or
    /// pselect(2), as /proc/PID/syscall tells on Linux (x86-64 and arm64 numbers). Probes every 10 ms;
    /// false when it is not waiting so within `limit`.
    public func awaitWaitingForInput(on pipe: Pipe, within limit: Duration = .seconds(30)) -> Bool {
        let deadline = ContinuousClock.now + limit
        let path = "/proc/\(process.processIdentifier)/syscall"
        while ContinuousClock.now < deadline && process.isRunning {
            var unread: Int32 = 0
            let drained = ioctl(pipe.fileHandleForReading.fileDescriptor, UInt(FIONREAD), &unread) == 0 && unread == 0
            if drained, let text = try? String(contentsOfFile: path, encoding: .utf8) {
                let words = text.split(separator: " ")
                if let number = words.first.flatMap({ Int($0) }), words.count > 1 {
                    let readsStandardInput = number == Self.readNumber && words[1] == "0x0"
                    if readsStandardInput || Self.waitNumbers.contains(number) { return true }
                }
            }
            usleep(10_000)
        }
        return false
    }

    /// Waits for the process to end, probing every 10 ms; false when it still runs after `limit`.
    public func awaitExit(within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
        return !process.isRunning
    }

    #if arch(x86_64)
        private static let readNumber = 0
        /// poll, pselect6, ppoll.
        private static let waitNumbers: Set = [7, 270, 271]
    #else
        private static let readNumber = 63
        /// pselect6, ppoll.
        private static let waitNumbers: Set = [72, 73]
    #endif
}
