import Foundation
import Testing
import TestSupport

/// Runs `tool arguments` with stdout a pipe whose reading end is already
/// closed, so its first write meets a closed pipe; returns the exit status
/// (128 + signal when a signal ended it).
func statusWritingToAClosedPipe(_ tool: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = try StageProcess.executableURL(named: tool)
    process.arguments = arguments
    let stdout = Pipe()
    try stdout.fileHandleForReading.close()
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
}

/// Regression (issue 16 #11): `fetch-images --help | head -n1` exited 141
/// (SIGPIPE) when head closed the pipe before the help was written.
@Suite struct ClosedPipeTests {
    @Test(arguments: ["fetch-images", "score", "gif-play", "giphy-pages"])
    func helpToAClosedPipeEndsWithStatusZero(_ tool: String) throws {
        #expect(try statusWritingToAClosedPipe(tool, ["--help"]) == 0)
    }
}

// Issue 16 #12, every tool answers `--version` with the one version of the
// build: Tests/Fixtures/TOOL/version.
