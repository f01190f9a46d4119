// A pseudo-terminal pair for tests that need a real terminal: the master, the
// slave (/dev/pts/N) opened too, and its path.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum PseudoTerminalPair {
    /// Opens a new pty: (master, slave, the slave's path). Both descriptors are
    /// the caller's to close.
    public static func open() throws -> (master: Int32, slave: Int32, path: String) {
        let master = Glibc.open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw StageProcess.Failure.system("open /dev/ptmx", errno) }
        // grantpt, unlockpt and ptsname_r are not in the Glibc module map: take them from libc.
        guard grantpt(master) == 0, unlockpt(master) == 0 else {
            let code = errno
            close(master)
            throw StageProcess.Failure.system("grantpt/unlockpt", code)
        }
        var name = [CChar](repeating: 0, count: 256)
        guard ptsname_r(master, &name, name.count) == 0 else {
            let code = errno
            close(master)
            throw StageProcess.Failure.system("ptsname_r", code)
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let code = errno
            close(master)
            throw StageProcess.Failure.system("open \(path)", code)
        }
        return (master, slave, path)
    }

    private typealias PtyCall = @convention(c) (Int32) -> Int32
    private typealias PtsnameCall = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    private static func libc(_ name: String) -> UnsafeMutableRawPointer {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { fatalError("libc has no \(name)") }
        return symbol
    }

    nonisolated(unsafe) private static let grantpt = unsafeBitCast(libc("grantpt"), to: PtyCall.self)
    nonisolated(unsafe) private static let unlockpt = unsafeBitCast(libc("unlockpt"), to: PtyCall.self)
    nonisolated(unsafe) private static let ptsname_r = unsafeBitCast(libc("ptsname_r"), to: PtsnameCall.self)
}
