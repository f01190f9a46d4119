import Glibc

/// Everything left to read from `fd` (again after EINTR); nil on a read error,
/// with `errno` set.
public func readAll(_ fd: Int32) -> [UInt8]? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            return nil
        }
        if n == 0 { return bytes }
        bytes += chunk[..<n]
    }
}
