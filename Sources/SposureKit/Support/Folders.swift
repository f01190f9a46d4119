import FoundationEssentials
import Glibc

/// Where Sposure keeps what lasts across runs (the data folder: history,
/// ratings, call budget) and what a person edits (the config folder: ladders).
///
/// One finder for every tool, so `score`, `giphy-pages` and `gif-play` agree.
public enum Folders {
    /// `$SPOSURE_DATA`, else `$XDG_DATA_HOME/sposure` (when absolute), else
    /// `~/.local/share/sposure`; not necessarily made yet.
    public static func data(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment["SPOSURE_DATA"], !dir.isEmpty { return dir }
        if let dir = environment["XDG_DATA_HOME"], dir.hasPrefix("/") { return dir + "/sposure" }
        return home(environment) + "/.local/share/sposure"
    }

    /// The cache: `$SPOSURE_CACHE`, else `$XDG_CACHE_HOME/sposure` (when
    /// absolute), else `~/.cache/sposure`; not necessarily made yet. The
    /// image cache and the API cache live under it.
    public static func cache(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment["SPOSURE_CACHE"], !dir.isEmpty { return dir }
        if let dir = environment["XDG_CACHE_HOME"], dir.hasPrefix("/") { return dir + "/sposure" }
        return home(environment) + "/.cache/sposure"
    }

    /// `$SPOSURE_CONFIG`, else `$XDG_CONFIG_HOME/sposure` (when absolute), else
    /// `~/.config/sposure`; not necessarily made yet.
    public static func config(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment["SPOSURE_CONFIG"], !dir.isEmpty { return dir }
        if let dir = environment["XDG_CONFIG_HOME"], dir.hasPrefix("/") { return dir + "/sposure" }
        return home(environment) + "/.config/sposure"
    }

    /// `$HOME`, else the home folder the password database gives, else `/`.
    public static func home(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment["HOME"], !dir.isEmpty { return dir }
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return "/" }
        return String(cString: dir)
    }

    /// Creates `folder` and the parents it lacks (`mode`, 0700 by default:
    /// what Sposure keeps is a person's own); returns whether any was made.
    /// Fails with `create` and the errno, ENOTDIR when a part is a file.
    @discardableResult
    public static func make(_ folder: String, mode: mode_t = 0o700) throws(FileError) -> Bool {
        var info = stat()
        if stat(folder, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw FileError("create", path: folder, code: ENOTDIR) }
            return false
        }
        let parent = Paths.parent(folder)
        if !parent.isEmpty && parent != folder { try make(parent, mode: mode) }
        if mkdir(folder, mode) != 0 && errno != EEXIST { throw FileError("create", path: folder, code: errno) }
        return true
    }
}
