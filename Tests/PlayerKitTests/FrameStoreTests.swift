import Foundation
import GIFEngine
import Testing
@testable import PlayerKit
import SposureKit

/// A 1×1 picture of grey `level`.
private func picture(_ level: UInt8) -> CellPicture { CellPicture(width: 1, height: 1, rgb: [level, level, level]) }

/// Runs `body` on a thread of its own; returns a semaphore signalled when it is done.
private func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    Thread { body(); done.signal() }.start()
    return done
}

@Suite struct FrameStoreTests {
    @Test func keepsFramesAndDelaysInOrder() {
        let store = FrameStore(condition: Condition())
        store.append(picture(1), delay: 40)
        store.append(picture(2), delay: 100)
        #expect(store.decoded == 2)
        #expect(store.picture(1) == picture(2))
        #expect(store.delay(0) == 40 && store.delay(1) == 100)
        #expect(store.decodedYet(1) == true)
        #expect(store.decodedYet(2) == nil)  // may still come
        store.end(truncation: nil)
        #expect(store.decodedYet(2) == false)
        #expect(store.isEnded && store.truncation == nil)
    }

    @Test func asksForTheLookAheadInBurstsNotFrameByFrame() {
        let store = FrameStore(condition: Condition())
        store.lookAhead(frames: 9)
        // Nothing wanted yet: the decoder would wait.
        #expect(store.decodedYet(0) == nil)  // asks for frames 0 ..< 9
        for level in 0..<9 { store.append(picture(UInt8(level)), delay: 10) }
        let waiting = onThread { _ = store.waitForDemand() }
        // Frame 4 leaves 4 decoded past it, more than a third of 9: no new demand.
        _ = store.decodedYet(4)
        #expect(waiting.wait(timeout: .now() + 0.3) == .timedOut)
        // Frame 6 leaves 2 past it: the whole look-ahead is asked for again.
        _ = store.decodedYet(6)
        #expect(waiting.wait(timeout: .now() + 10) == .success)
    }

    @Test func theLookAheadIsAtLeastFourFrames() {
        let store = FrameStore(condition: Condition())
        store.lookAhead(frames: 1)
        _ = store.decodedYet(0)
        for level in 0..<3 { store.append(picture(UInt8(level)), delay: 10) }
        // Wanted 0 ..< 4: three decoded, one more still wanted.
        let demand = onThread { _ = store.waitForDemand() }
        #expect(demand.wait(timeout: .now() + 10) == .success)
    }

    @Test func hasWaitsForTheDecoderAndSeesTheEnd() {
        let store = FrameStore(condition: Condition())
        let answer = LockedFlag()
        let asked = onThread { answer.set(store.has(0)) }
        #expect(asked.wait(timeout: .now() + 0.2) == .timedOut)
        store.append(picture(7), delay: 10)
        #expect(asked.wait(timeout: .now() + 10) == .success)
        #expect(answer.value == true)
        let past = onThread { answer.set(store.has(1)) }
        store.end(truncation: GIFError(.truncated, "cut"))
        #expect(past.wait(timeout: .now() + 10) == .success)
        #expect(answer.value == false)
        #expect(store.truncation?.kind == .truncated)
    }

    @Test func aCancelledStoreWantsNothingMoreAndWakesItsWaiters() {
        // The decoder and the reader wait on stores of their own: a reader
        // asking for a frame is demand, which the decoder could see before the
        // cancel and rightly answer true.
        let decoderStore = FrameStore(condition: Condition())
        let decoder = LockedFlag()
        let decoding = onThread { decoder.set(decoderStore.waitForDemand()) }
        #expect(decoding.wait(timeout: .now() + 0.1) == .timedOut)
        decoderStore.cancel()
        #expect(decoding.wait(timeout: .now() + 10) == .success)
        #expect(decoder.value == false)
        #expect(decoderStore.decodedYet(0) == false)

        let readerStore = FrameStore(condition: Condition())
        let reader = LockedFlag()
        let reading = onThread { reader.set(readerStore.has(3)) }
        #expect(reading.wait(timeout: .now() + 0.1) == .timedOut)
        readerStore.cancel()
        #expect(reading.wait(timeout: .now() + 10) == .success)
        #expect(reader.value == false)
        // Cancelled, the store wants nothing more, even though frames were asked for.
        #expect(readerStore.waitForDemand() == false)
    }
}

/// A Bool set on one thread and read on another.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool?
    func set(_ value: Bool) { lock.withLock { stored = value } }
    var value: Bool? { lock.withLock { stored } }
}
