import SposureKit

extension RoundScreen {
    /// The Errors row in a person's words (issue 29 #9): the GIFs that could
    /// not be shown, by what went wrong, then any other errors by code.
    ///
    /// ```
    ///   Errors        2 GIFs could not be shown (1 gone, 1 not a GIF)
    ///   Errors        1 GIF could not be shown (1 too slow); 1 other error: list_ended ×1
    /// ```
    static func errorsText(_ round: Round) -> String {
        guard round.errors > 0 else { return "none" }
        var parts: [String] = []
        let gifs = round.gifErrorCodes.values.reduce(0, +)
        if gifs > 0 {
            var words: [(word: String, count: Int)] = []
            for (code, count) in round.gifErrorCodes.sorted(by: { $0.key < $1.key }) {
                let word = gifFailureWord(code)
                if let at = words.firstIndex(where: { $0.word == word }) { words[at].count += count } else { words.append((word, count)) }
            }
            let why = words.sorted { $0.count != $1.count ? $0.count > $1.count : $0.word < $1.word }
                .map { "\($0.count) \($0.word)" }.joined(separator: ", ")
            parts.append("\(gifs) GIF\(gifs == 1 ? "" : "s") could not be shown (\(why))")
        }
        let others = round.errorsByCode.compactMap { entry -> (code: String, count: Int)? in
            let count = entry.count - (round.gifErrorCodes[entry.code] ?? 0)
            return count > 0 ? (entry.code, count) : nil
        }
        if !others.isEmpty {
            let total = others.reduce(0) { $0 + $1.count }
            let codes = others.map { "\(RemoteText.clean($0.code, limit: 30)) ×\($0.count)" }.joined(separator: ", ")
            parts.append("\(total) \(gifs > 0 ? "other " : "")error\(total == 1 ? "" : "s"): \(codes)")
        }
        return parts.joined(separator: "; ")
    }

    /// What a GIF's error code means to a person, in a word or two.
    static func gifFailureWord(_ code: String) -> String {
        switch code {
        case "http_404", "http_410", "not_found": return "gone"
        case "not_gif": return "not a GIF"
        case "decode_failed": return "damaged"
        case "too_large": return "too large"
        case "timeout": return "too slow"
        case "rate_limited", "http_429": return "refused (too many requests)"
        case "connect", "dns", "tls", "transfer", "truncated", "too_many_redirects": return "network trouble"
        case "read_failed", "cache_write": return "unreadable"
        case "bad_url", "bad_record", "not_allowed", "bad_json": return "bad records"
        case "interrupted": return "stopped"
        default:
            if code.hasPrefix("http_5") { return "server error" }
            if code.hasPrefix("http_") { return "refused by the server" }
            return "other"
        }
    }
}
