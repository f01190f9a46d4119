import Foundation
import Testing
@testable import SposureKit

/// Lock, Condition and Threads: the pthread pieces that stand in for
/// Foundation's NSLock, NSCondition and Thread in the tools.
@Suite struct ThreadingTests {
    @Test func aThreadRunsItsBodyUnderItsName() throws {
        let done = Condition()
        nonisolated(unsafe) var name = ""
        nonisolated(unsafe) var finished = false
        Threads.start("a-long-thread-name-cut") {
            var buffer = [CChar](repeating: 0, count: 32)
            prctlName(&buffer)
            done.withLock {
                name = String(cString: buffer)
                finished = true
                done.signal()
            }
        }
        done.withLock { while !finished { done.wait() } }
        // Linux keeps 15 bytes of a thread's name.
        #expect(name == "a-long-thread-n")
    }

    @Test func aLockKeepsCountsWhole() {
        let lock = Lock()
        let all = Condition()
        nonisolated(unsafe) var count = 0
        nonisolated(unsafe) var running = 4
        for _ in 0..<4 {
            Threads.start("adder") {
                for _ in 0..<10_000 { lock.withLock { count += 1 } }
                all.withLock {
                    running -= 1
                    all.broadcast()
                }
            }
        }
        all.withLock { while running > 0 { all.wait() } }
        #expect(count == 40_000)
    }

    @Test func aTimedWaitEndsFalseWhenNobodySignals() {
        let condition = Condition()
        let start = monotonicSeconds()
        // A wake-up without a signal (allowed) returns true early: wait again for the rest.
        var signalled = true
        condition.withLock {
            while signalled && monotonicSeconds() - start < 0.05 {
                signalled = condition.wait(seconds: 0.05 - (monotonicSeconds() - start))
            }
        }
        #expect(signalled == false)
        #expect(monotonicSeconds() - start >= 0.05)
        #expect(condition.withLock { condition.wait(seconds: 0) } == false)
        #expect(condition.withLock { condition.wait(until: Date(timeIntervalSinceNow: -1)) } == false)
    }

    /// Far-off deadlines too (2e9 s, .infinity, distantFuture): clamped, never
    /// an invalid time that returns at once or a crash.
    @Test(arguments: [30, 2e9, Double.infinity, Date.distantFuture.timeIntervalSinceNow])
    func aSignalWakesTheWaiterBeforeItsTime(_ seconds: Double) {
        let condition = Condition()
        nonisolated(unsafe) var ready = false
        Threads.start("signaller") {
            Threads.sleep(0.02)
            condition.withLock {
                ready = true
                condition.signal()
            }
        }
        let start = monotonicSeconds()
        var waits = 0
        var signalled = false
        condition.withLock {
            while !ready && waits < 1000 {
                waits += 1
                signalled = condition.wait(seconds: seconds)
            }
        }
        #expect(ready)
        // (No wait at all when the signaller was first: a loaded machine.)
        #expect(waits == 0 || signalled, "the last wait ended by the signal, not its time")
        // Each wait blocked (a wait that returned at once would spin many times).
        #expect(waits < 10)
        #expect(monotonicSeconds() - start < 10)
    }

    @Test func spansAreClampedToZeroAndThirtyOneYears() {
        let cases: [(Double, Int, Int)] = [(-1, 0, 0), (.nan, 0, 0), (0.25, 0, 250_000_000), (1.5, 1, 500_000_000),
                                           (2e9, 1_000_000_000, 0), (.infinity, 1_000_000_000, 0)]
        for (seconds, sec, nsec) in cases {
            let span = timespecSpan(seconds)
            #expect(span.tv_sec == sec && span.tv_nsec == nsec, "\(seconds)")
        }
        #expect(timespecSpan(0.999_999_999_9).tv_nsec <= 999_999_999)
    }

    @Test func sleepWaitsAtLeastItsTime() {
        let start = monotonicSeconds()
        Threads.sleep(0.03)
        Threads.sleep(-1)
        #expect(monotonicSeconds() - start >= 0.03)
    }
}

/// This thread's name, as `prctl(PR_GET_NAME)` gives it (through /proc).
private func prctlName(_ buffer: inout [CChar]) {
    let path = "/proc/thread-self/comm"
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    let bytes = Array(text.utf8.prefix(while: { $0 != 0x0A })).map { CChar(bitPattern: $0) }
    buffer = bytes + [0]
}
