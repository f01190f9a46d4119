import Foundation
import Testing
@testable import GiphyKit

private func scratchFolder() -> String {
    let path = NSTemporaryDirectory() + "sposure-budget-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite struct CallBudgetTests {
    @Test func allowsTheRateThenSaysHowLongToWait() {
        let budget = CallBudget(provider: .klipy, calls: 3, period: 3600, folder: scratchFolder())
        #expect(budget.isPersistent)
        for _ in 0..<3 { #expect(budget.take(now: 1000) == 0) }
        // One call drains back every 1200 s.
        let wait = budget.take(now: 1000)
        #expect(wait > 1199 && wait <= 1200)
        #expect(budget.take(now: 2200) == 0)
    }

    @Test func lastsAcrossRunsInTheDataFolder() {
        let folder = scratchFolder()
        let first = CallBudget(provider: .giphy, calls: 2, period: 86400, folder: folder)
        #expect(first.take(now: 50) == 0)
        #expect(first.take(now: 50) == 0)
        let later = CallBudget(provider: .giphy, calls: 2, period: 86400, folder: folder)
        #expect(later.take(now: 60) > 0)
        // Each provider has its own allowance.
        #expect(CallBudget(provider: .klipy, calls: 2, period: 86400, folder: folder).take(now: 60) == 0)
    }

    @Test func withoutAFolderItLastsForTheRunOnly() {
        let budget = CallBudget(provider: .klipy, calls: 1, period: 60, folder: nil)
        #expect(!budget.isPersistent)
        #expect(budget.take(now: 0) == 0)
        #expect(budget.take(now: 0) > 0)
        #expect(CallBudget(provider: .klipy, calls: 1, period: 60, folder: nil).take(now: 0) == 0)
    }

    @Test func theSpentMessageSaysWhenAndHowToReplay() {
        let budget = CallBudget(provider: .klipy, calls: 100, period: 86400, folder: nil)
        let failure = CallBudget.spent(budget, wait: 840, now: Date(timeIntervalSince1970: 0))
        #expect(failure.code == "rate_limited")
        #expect(failure.message.contains("--rate 100/day"))
        #expect(failure.message.contains("again in 14m (at 1970-01-01T00:14:00Z)"))
        #expect(failure.message.contains("--retry-errors"))
    }
}

@Suite struct APICacheTests {
    @Test func keepsAnAnswerForTheTTLAndNoLonger() throws {
        let cache = try #require(APICache(root: scratchFolder(), ttl: 10))
        let url = "/api/v1/REDACTED/gifs/search?q=spiders&page=1"
        #expect(cache.read(provider: .klipy, url: url) == nil)
        try cache.write(provider: .klipy, url: url, body: Array("{}".utf8))
        let now = Date().timeIntervalSince1970
        #expect(cache.read(provider: .klipy, url: url, now: now) == Array("{}".utf8))
        #expect(cache.read(provider: .klipy, url: url, now: now + 11) == nil)
        // Keyed by provider too.
        #expect(cache.read(provider: .giphy, url: url, now: now) == nil)
    }

    @Test func aTTLOfZeroIsNoCache() {
        #expect(APICache(root: scratchFolder(), ttl: 0) == nil)
    }
}
