import RecordKit
import SposureKit

/// When a still comes closer (`gif-play --approach on|off|auto`).
public enum ApproachMode: String, Sendable, CaseIterable {
    /// Every still.
    case on
    /// None.
    case off
    /// The stills of a rung that asks (its records say `"approach": true`).
    case auto

    /// The record field a ladder rung sets to ask for it.
    public static let field = LadderTag.Field.approach

    /// The zoom a picture of `record` gets, if any.
    public func zoom(for record: JSONRecord, displayMs: Int = ApproachZoom().displayMs) -> ApproachZoom? {
        switch self {
        case .on: return ApproachZoom(displayMs: displayMs)
        case .off: return nil
        case .auto: return record.bool(Self.field) == true ? ApproachZoom(displayMs: displayMs) : nil
        }
    }
}
