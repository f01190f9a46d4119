import FoundationEssentials

/// File paths as text, as Foundation's `NSString` path methods read them.
public enum Paths {
    /// The folder part of `path`: `a/b` → `a`, `/a` → `/`, `b` → `` (empty), `/` → `/`;
    /// trailing slashes are ignored.
    public static func parent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let folder = withoutTrailingSlashes(String(trimmed[..<slash]))
        return folder.isEmpty ? "/" : folder
    }

    /// `path` from the root: as it is when it starts with `/`, else under the
    /// current folder (not normalised: `a/../b` stays as written).
    public static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// `path` as one word a POSIX shell reads back as it is: as it stands
    /// when it holds only characters no shell treats specially, else in
    /// single quotes (a quote inside as `'\''`).
    public static func shellQuoted(_ path: String) -> String {
        let plain = !path.isEmpty && path.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "/._-+,:@%=".unicodeScalars.contains(scalar)
        }
        return plain ? path : "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The last part of `path`: `a/b/` → `b`, `/` → `/`, `` → ``.
    public static func lastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        let last = String(trimmed[trimmed.index(after: slash)...])
        return last.isEmpty ? "/" : last
    }

    /// `path` without the slashes it ends with (`/` stays `/`).
    private static func withoutTrailingSlashes(_ path: String) -> String {
        var text = Substring(path)
        while text.count > 1 && text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}
