import SposureKit

/// The one line of `<data>/budget-<provider>.json`: the calls of one API
/// used lately, as ``CallBudget`` left them, and when.
///
/// ```json
/// {"kind":"budget","provider":"giphy","used":3.5,"at":1795255200.25}
/// ```
public struct BudgetRecord: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "budget"

    /// The field names, spelled once, in the order they are written.
    public enum Field {
        public static let provider = "provider", used = "used", at = "at"
    }

    /// The API whose calls these are (its `GIFProvider` raw value); the file's
    /// name says it too, so a line without one is still read.
    public var provider: String?
    /// Calls used, draining at the rate since ``at`` (a fraction: it drains continuously).
    public var used: Double
    /// When `used` was counted, in seconds since 1970 (wall time).
    public var at: Double

    /// A budget line.
    public init(provider: String?, used: Double, at: Double) {
        self.provider = provider
        self.used = used
        self.at = at
    }

    /// Reads a budget line; nil without a finite `used` ≥ 0 and a finite
    /// `at`. Its `kind` is not looked at: the file holds nothing else.
    public init?(record: JSONRecord) {
        guard let used = record.double(Field.used), let at = record.double(Field.at),
              used.isFinite, at.isFinite, used >= 0 else { return nil }
        self.init(provider: record.string(Field.provider), used: used, at: at)
    }

    /// The record (numbers written as reals: `used` drains in fractions).
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set("kind", Self.kind)
        if let provider { record.set(Field.provider, provider) }
        record.set(Field.used, used)
        record.set(Field.at, at)
        return record
    }
}
