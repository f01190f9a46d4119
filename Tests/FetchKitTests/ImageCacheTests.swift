@testable import FetchKit
@testable import NetKit
import Foundation
import SposureKit
import Testing

func temporaryFolder() -> String {
    let path = NSTemporaryDirectory() + "sposure-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite struct ImageCacheTests {
    @Test func namesEntriesByTheHashOfTheKeyNeverByRemoteText() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = try ImageCache(root: root)
        let path = cache.path(forKey: "../../etc/passwd")
        let name = ImageCache.name(forKey: "../../etc/passwd")
        #expect(name.count == 64)
        #expect(path == "\(root)/images/\(name.prefix(2))/\(name).gif")
        #expect(!path.contains(".."))
        #expect(ImageCache.name(forKey: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func commitsAFileIntoPlaceAndReadsItBack() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = try ImageCache(root: root)
        let temporary = cache.temporaryPath()
        #expect(temporary.hasPrefix("\(root)/tmp/\(getpid())-"))
        try Data("GIF89a-rest".utf8).write(to: URL(fileURLWithPath: temporary))
        let path = cache.path(forKey: "k")
        #expect(cache.lookup(path: path) == nil)
        try cache.commit(temporary: temporary, to: path)
        #expect(!FileManager.default.fileExists(atPath: temporary))
        // sha256sum of "GIF89a-rest"
        let entry = try #require(cache.lookup(path: path))
        #expect(entry.bytes == 11)
        #expect(entry.sha256 == "755c7e296ab4b9623e4e69c085c2ff18e931ec9d27c687689272b4345c016856")
    }

    @Test func anEntryThatIsNotAGIFIsNotACacheHit() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = try ImageCache(root: root)
        let path = cache.path(forKey: "k")
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("<html>".utf8).write(to: URL(fileURLWithPath: path))
        #expect(cache.lookup(path: path) == nil)
    }

    @Test func removesTemporaryFilesOfRunsThatAreGone() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try ImageCache(root: root)
        let stale = "\(root)/tmp/999999999-1.part"  // no such process
        let mine = "\(root)/tmp/\(getpid())-77.part"
        try Data("x".utf8).write(to: URL(fileURLWithPath: stale))
        try Data("x".utf8).write(to: URL(fileURLWithPath: mine))
        _ = try ImageCache(root: root)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: mine))
    }

    @Test func failsClearlyWhenTheFolderCannotBeMade() {
        #expect(throws: FileError.self) { try ImageCache(root: "/proc/sposure-cannot-be-here") }
    }

    @Test func choosesTheDefaultFolderFromTheEnvironment() {
        #expect(ImageCache.defaultRoot(environment: ["SPOSURE_CACHE": "/a", "XDG_CACHE_HOME": "/b", "HOME": "/h"]) == "/a")
        #expect(ImageCache.defaultRoot(environment: ["XDG_CACHE_HOME": "/b", "HOME": "/h"]) == "/b/sposure")
        #expect(ImageCache.defaultRoot(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]) == "/h/.cache/sposure")
        #expect(ImageCache.defaultRoot(environment: ["HOME": "/h"]) == "/h/.cache/sposure")
    }
}

@Suite struct FetchPolicyTests {
    @Test func parsesSchemesAndHostsAsLibcurlDoes() {
        let parts = URLParts("HTTPS://Media.Giphy.com/a.gif?cid=1")
        #expect(parts?.scheme == "https")
        #expect(parts?.host == "media.giphy.com")
        #expect(URLParts("file:///etc/passwd")?.scheme == "file")
        #expect(URLParts("gopher://x/")?.scheme == "gopher")
        #expect(URLParts("no scheme here") == nil)
        #expect(URLParts("") == nil)
    }

    @Test func hidesTheAPIKeyInURLs() {
        #expect(redactedURL("https://api.giphy.com/v1/gifs/search?api_key=SECRET&q=x") == "https://api.giphy.com/v1/gifs/search?api_key=REDACTED&q=x")
        #expect(redactedURL("https://x/?q=1&API_KEY=s1&b=2&api_key=s2") == "https://x/?q=1&API_KEY=REDACTED&b=2&api_key=REDACTED")
        #expect(redactedURL("https://x/a.gif") == "https://x/a.gif")
        #expect(redactedURL("https://x/?api_kapi_key=s&Api_Key=t#api_key=") == "https://x/?api_kapi_key=REDACTED&Api_Key=REDACTED#api_key=REDACTED")
    }

    @Test func classifiesHTTPStatuses() {
        #expect(FetchFailure.http(404, url: "u").code == "http_404")
        #expect(FetchFailure.http(404, url: "u").transient == false)
        #expect(FetchFailure.http(503, url: "u").transient)
        #expect(FetchFailure.http(429, url: "u").code == "rate_limited")
        #expect(FetchFailure.http(429, url: "u").transient)
    }

    @Test func backsOffExponentiallyWithJitterUnderACap() {
        let backoff = Backoff(base: 0.5, cap: 4)
        #expect(backoff.delay(attempt: 1, unit: 0) == 0.25)
        #expect(backoff.delay(attempt: 1, unit: 1) == 0.5)
        #expect(backoff.delay(attempt: 3, unit: 1) == 2)
        #expect(backoff.delay(attempt: 10, unit: 1) == 4)
        #expect(backoff.delay(attempt: 10, unit: 0) == 2)
    }
}

/// Issue 29 #10: the failures the cache remembers for a day.
@Suite struct ImageCacheFailureTests {
    @Test func remembersOnlyWhatTryingAgainWillNotChange() {
        #expect(ImageCache.remembers(FetchFailure.http(404, url: "https://m.example/a.gif")))
        #expect(ImageCache.remembers(FetchFailure.http(410, url: "https://m.example/a.gif")))
        #expect(ImageCache.remembers(FetchFailure("not_gif", "body starts with \"<html\"")))
        for transient in [FetchFailure.http(429, url: "u"), FetchFailure.http(408, url: "u"), FetchFailure.http(503, url: "u"),
                          FetchFailure("timeout", "slow", transient: true), FetchFailure("too_large", "big"),
                          FetchFailure("cache_write", "disk full"), FetchFailure.interrupted, FetchFailure("dns", "no host")] {
            #expect(!ImageCache.remembers(transient), "\(transient.code)")
        }
    }

    @Test func recallsAFailureForADayThenForgetsIt() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = try ImageCache(root: root)
        let failure = FetchFailure.http(404, url: "https://m.example/a.gif")
        cache.rememberFailure(failure, forKey: "giphy:a:fixed_height", now: 1_000_000)
        let path = cache.failurePath(forKey: "giphy:a:fixed_height")
        #expect(path == "\(root)/failed/\(ImageCache.name(forKey: "giphy:a:fixed_height").prefix(2))/\(ImageCache.name(forKey: "giphy:a:fixed_height")).json")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == #"{"code":"http_404","error":"HTTP 404 from https://m.example/a.gif","at":1000000}"# + "\n",
                "its status, never its body")
        #expect(cache.recallFailure(forKey: "giphy:a:fixed_height", now: 1_000_000 + 86_399)
                == ImageCache.RememberedFailure(code: "http_404", message: "HTTP 404 from https://m.example/a.gif", at: 1_000_000))
        #expect(cache.recallFailure(forKey: "giphy:b:fixed_height", now: 1_000_000) == nil)
        #expect(cache.recallFailure(forKey: "giphy:a:fixed_height", now: 1_000_000 + 86_400) == nil, "a day later it is fetched again")
        #expect(!FileManager.default.fileExists(atPath: path), "and the stale entry is gone")
        cache.rememberFailure(failure, forKey: "k", now: 5)
        cache.forgetFailure(forKey: "k")
        #expect(cache.recallFailure(forKey: "k", now: 5) == nil)
        #expect(ImageCache.utcText(1_795_000_000) == "2026-11-18T11:06:40Z")
    }

    @Test func aDamagedOrFutureEntryIsNoFailure() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = try ImageCache(root: root)
        cache.rememberFailure(FetchFailure("not_gif", "html"), forKey: "k", now: 100)
        let path = cache.failurePath(forKey: "k")
        for bad in ["not json", #"{"code":"http_404","at":100}"#, #"{"code":"http_404","error":"x","at":"soon"}"#,
                    #"{"code":"http_404","error":"x","at":999999}"#] {
            try Data(bad.utf8).write(to: URL(fileURLWithPath: path))
            #expect(cache.recallFailure(forKey: "k", now: 100) == nil, "\(bad)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(bad) is removed")
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(cache.recallFailure(forKey: "k", now: 100) == nil, "a folder in its place")
    }
}

