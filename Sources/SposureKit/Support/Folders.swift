import Foundation

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

    /// `$SPOSURE_CONFIG`, else `$XDG_CONFIG_HOME/sposure` (when absolute), else
    /// `~/.config/sposure`; not necessarily made yet.
    public static func config(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment["SPOSURE_CONFIG"], !dir.isEmpty { return dir }
        if let dir = environment["XDG_CONFIG_HOME"], dir.hasPrefix("/") { return dir + "/sposure" }
        return home(environment) + "/.config/sposure"
    }

    private static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }
}
