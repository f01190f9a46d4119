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

    /// Defect 2 of "Hostile input, third pass": a budget file dated in the
    /// future never drained (a spent budget wrote nothing back, so the time
    /// stayed ahead: "allowed again in 36s", and 45 s later the same), and
    /// `"at":99999999999` spent the allowance for good; a clock stepping
    /// back did the same. The time is taken as now, written back, and said once.
    @Test func aBudgetDatedInTheFutureIsRepairedOnceAndDrains() throws {
        let now = 1_000_000.0
        for at in [now + 3600, 99_999_999_999] {
            let folder = scratchFolder()
            let path = folder + "/budget-klipy.json"
            try #"{"kind":"budget","provider":"klipy","used":2,"at":\#(at)}"#.write(toFile: path, atomically: true, encoding: .utf8)
            var said: [String] = []
            let budget = CallBudget(provider: .klipy, calls: 2, period: 3600, folder: folder)
            budget.report = { said.append($0) }
            let wait = budget.take(now: now)
            #expect(wait > 1799 && wait <= 1800, "at \(at): \(wait)")
            #expect(budget.take(now: now + 45) > 1754, "still spent, draining")
            #expect(said.count == 1, "said once: \(said)")
            #expect(said.first?.contains("dated") == true && said.first?.contains("repaired") == true, "\(said)")
            // Another run, later: the file drains from the time it was repaired.
            let later = CallBudget(provider: .klipy, calls: 2, period: 3600, folder: folder)
            var laterSaid: [String] = []
            later.report = { laterSaid.append($0) }
            #expect(later.take(now: now + 1801) == 0, "at \(at): drained since the repair")
            #expect(laterSaid.isEmpty, "the file was written back whole: \(laterSaid)")
        }

        // The clock stepping back an hour after a call.
        let folder = scratchFolder()
        let budget = CallBudget(provider: .giphy, calls: 1, period: 60, folder: folder)
        var said: [String] = []
        budget.report = { said.append($0) }
        #expect(budget.take(now: now) == 0)
        let back = now - 3600
        let wait = budget.take(now: back)
        #expect(wait > 59 && wait <= 60, "\(wait)")
        #expect(budget.take(now: back + 61) == 0, "drains on the stepped-back clock")
        #expect(said.count == 1, "\(said)")
    }

    /// Defect 3 of "Hostile input, third pass": a data folder that takes no
    /// file (read-only; sysfs refuses even root) turned the budget into one
    /// of the run without a word, and a budget file that could not be
    /// written (a folder in its place) turned it off altogether: every take
    /// said yes. Said once; the budget is then kept in memory for the run.
    @Test func aDataFolderThatCannotKeepTheBudgetSaysSoAndKeepsItForTheRun() throws {
        var sys = stat()
        try #require(stat("/sys", &sys) == 0, "sysfs is mounted (a folder root cannot write in)")
        let inAFolder = scratchFolder()
        try FileManager.default.createDirectory(atPath: inAFolder + "/budget-klipy.json", withIntermediateDirectories: true)
        for folder in ["/sys", "/sys/sposure-test", inAFolder] {
            let budget = CallBudget(provider: .klipy, calls: 2, period: 3600, folder: folder)
            var said: [String] = []
            budget.report = { said.append($0) }
            #expect(budget.take(now: 0) == 0)
            #expect(budget.take(now: 0) == 0)
            #expect(budget.take(now: 0) > 0, "\(folder): the run's own calls are still counted")
            #expect(!budget.isPersistent)
            let unusable = said.filter { $0.contains("cannot be kept in the data folder") && $0.contains("this run's calls only") }
            #expect(unusable.count == 1, "\(folder): said once: \(said)")
        }
    }

    /// Defect 3 of "Hostile input, third pass", its second half: garbage in
    /// the budget file reset it to nothing used without a word. Said once,
    /// and the file is written whole again.
    @Test func aBudgetFileThatIsNoBudgetIsSaidAndWrittenAgain() throws {
        for garbage in ["garbage", #"{"used":-4,"at":1}"#, #"{"used":"2"}"#, "[1,2]"] {
            let folder = scratchFolder()
            let path = folder + "/budget-giphy.json"
            try garbage.write(toFile: path, atomically: true, encoding: .utf8)
            let budget = CallBudget(provider: .giphy, calls: 3, period: 3600, folder: folder)
            var said: [String] = []
            budget.report = { said.append($0) }
            #expect(budget.take(now: 100) == 0)
            #expect(budget.take(now: 100) == 0)
            #expect(said.count == 1 && said.first?.contains("is not a budget") == true && said.first?.contains(path) == true, "\(garbage): \(said)")
            let kept = try String(contentsOfFile: path, encoding: .utf8)
            #expect(kept.contains(#""used":2.0"#), "\(garbage): \(kept)")
        }
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
