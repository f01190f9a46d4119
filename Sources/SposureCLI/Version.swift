/// The version of the Sposure tools: the one place it is written. Every
/// tool's `--version` prints it, and the pipelines scripts ask a tool for it.
public enum SposureVersion {
    /// `MAJOR.MINOR.PATCH`.
    public static let text = "0.7.0"
}
