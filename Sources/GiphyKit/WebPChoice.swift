import RecordKit
import SposureKit

/// The lighter of a rendition's two files the player decodes, GIF and
/// WebP, as the API states their sizes (Giphy's `size` and `webp_size`,
/// Klipy's `gif.size` and `webp.size`): `giphy-pages list --formats gif,webp`.
///
/// A WebP record is the GIF's with the WebP's `url` and `size`, `"mime":
/// "image/webp"` (after the record's own fields) and a `cache_key` of its
/// own (`…:fixed_height.webp`), so the two files never share a cache entry.
enum WebPChoice {
    /// The WebP of `rendition` when the API states it smaller than the GIF
    /// (both sizes known) at an http(s) URL; nil: keep the GIF.
    static func lighter(url: String?, size: Int?, than rendition: GIFRecord.Rendition) -> GIFRecord.Rendition? {
        guard let url, let size, size > 0, let gifSize = rendition.size, size < gifSize else { return nil }
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
        let path = lower.split(separator: "?", maxSplits: 1).first ?? ""
        guard path.hasSuffix(".webp") else { return nil }
        var webp = rendition
        webp.url = url
        webp.size = size
        webp.cacheKey += ".webp"
        return webp
    }

    /// `record` with `"mime":"image/webp"` when it is a WebP's; unchanged otherwise.
    static func typed(_ record: JSONRecord, webp: Bool) -> JSONRecord {
        if webp { record.set("mime", "image/webp") }
        return record
    }
}
