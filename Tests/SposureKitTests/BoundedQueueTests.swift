import Foundation
import Testing
@testable import SposureKit

@Suite struct BoundedQueueTests {
    @Test func keepsOrderAndHonoursCapacity() {
        let queue = BoundedQueue<Int>(capacity: 2)
        #expect(queue.tryPush(1))
        #expect(queue.tryPush(2))
        #expect(queue.tryPush(3) == false)
        #expect(queue.tryPopBatch() == [1, 2])
        #expect(queue.tryPopBatch() == [])
    }

    @Test func aFullQueueBlocksItsProducerUntilTheConsumerTakes() {
        let queue = BoundedQueue<Int>(capacity: 3)
        let completed = Counter()
        let producer = Thread {
            for n in 0..<10 {
                queue.push(n)
                completed.increment()
            }
            queue.close()
        }
        producer.start()
        func pushes() -> Int { completed.value }
        while pushes() < 3 { usleep(1000) }
        usleep(50_000)  // ample time for a producer that does not block to run on
        #expect(pushes() == 3)
        var taken: [Int] = []
        while case let batch = queue.popBatch(max: 2), !batch.isEmpty { taken += batch }
        #expect(taken == Array(0..<10))
        #expect(pushes() == 10)
    }

    @Test func closingLetsTheConsumerDrainThenSeeTheEnd() {
        let queue = BoundedQueue<String>(capacity: 4)
        queue.push(contentsOf: ["a", "b"])
        queue.close()
        #expect(queue.push("c") == false)
        #expect(queue.popBatch() == ["a", "b"])
        #expect(queue.popBatch() == [])
        #expect(queue.isFinished)
    }

    @Test func pushingASequenceLargerThanTheCapacityWaitsForRoom() {
        let queue = BoundedQueue<Int>(capacity: 3)
        let producer = Thread {
            queue.push(contentsOf: 0..<50)
            queue.close()
        }
        producer.start()
        var taken: [Int] = []
        while case let batch = queue.popBatch(), !batch.isEmpty {
            #expect(batch.count <= 3)
            taken += batch
        }
        #expect(taken == Array(0..<50))
    }

    @Test func closeWakesAProducerBlockedOnAFullQueue() {
        let queue = BoundedQueue<Int>(capacity: 1)
        queue.push(0)
        let result = BoundedQueue<Bool>(capacity: 1)
        let producer = Thread { result.push(queue.push(1)) }
        producer.start()
        queue.close()
        #expect(result.pop() == false)
    }
}

@Suite struct ReorderBufferTests {
    @Test func handsResultsOnInInputOrder() {
        var buffer = ReorderBuffer<String>()
        buffer.put(2, "c")
        buffer.put(1, "b")
        #expect(buffer.takeReady() == [])
        #expect(buffer.count == 2)
        buffer.put(0, "a")
        #expect(buffer.takeReady() == ["a", "b", "c"])
        buffer.put(3, "d")
        #expect(buffer.takeReady() == ["d"])
        #expect(buffer.next == 4)
    }
}

/// A counter shared between threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
