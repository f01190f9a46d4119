import Foundation

/// What a drainer thread read, handed over once: the tests that run a
/// process read its pipes on threads of their own, and wait for the bytes here.
public final class Drained: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    /// An empty drain, not yet handed over.
    public init() {}

    /// Hands `value` over.
    public func set(_ value: Data) {
        data = value
        done.signal()
    }

    /// Waits for what was handed over.
    public func wait() -> Data {
        done.wait()
        return data
    }
}

extension Process {
    /// Runs the process with stdin from /dev/null and both pipes drained while
    /// it runs (never only after exit: a big output would deadlock); returns
    /// its exit status, stdout and stderr.
    public func runDrained() throws -> (status: Int32, out: String, err: String) {
        let out = Pipe(), err = Pipe()
        standardOutput = out
        standardError = err
        standardInput = FileHandle.nullDevice
        try run()
        let errText = Drained()
        let drainer = Thread { errText.set(err.fileHandleForReading.readDataToEndOfFile()) }
        drainer.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        waitUntilExit()
        return (terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errText.wait(), as: UTF8.self))
    }
}
