import SposureKit

extension GIFAPI {
    /// A key, as Giphy and Klipy need.
    public var needsKey: Bool { true }
    /// As many requests at once as `--concurrency` allows.
    public var maxConcurrency: Int? { nil }
    /// Every result is a GIF the player shows.
    public func unplayable(_ item: JSONRecord) -> String? { nil }
}
