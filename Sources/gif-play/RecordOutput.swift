import ArgumentParser
import SposureCLI
import SposureKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes records to stdout, one whole line per write(2).
///
/// A closed stdout (`| head`) ends the run quietly with status 0; any other
/// write failure is fatal (status 2).
struct RecordOutput {
    /// Writes `record` and a newline; throws the exit status when stdout fails.
    func send(_ record: JSONRecord) throws {
        var line = record.serialized()
        line.append(0x0A)
        let failure: Int32? = line.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return nil }
            var done = 0
            while done < raw.count {
                let count = write(1, base + done, raw.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += count
            }
            return nil
        }
        guard let failure else { return }
        if failure == EPIPE { throw ExitCode.success }
        let message = "gif-play: cannot write stdout: \(String(cString: strerror(failure)))\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        throw ExitCode(2)
    }
}
