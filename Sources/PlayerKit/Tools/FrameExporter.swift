import FoundationEssentials
import Glibc
import GIFEngine
import SposureKit

/// Scales frames, hashes them and writes them to files: the work of
/// `gif-play frames`, kept here so tests can call it without the command.
public struct FrameExporter: Sendable {
    /// The folder frames are written to; nil writes none.
    public var directory: String?
    /// The file format.
    public var format: FrameFormat
    /// Resamples each frame first, when set.
    public var scaler: Scaler?
    /// What transparency is laid over in PPM files.
    public var background: RGBColor

    /// One frame done.
    public struct Exported: Sendable {
        /// The frame as written (scaled when there is a scaler).
        public var frame: Frame
        /// The SHA-256 of its RGBA bytes, in hex.
        public var sha256: String
        /// The file written, when there is a directory.
        public var path: String?
    }

    /// An exporter with the given settings.
    public init(directory: String? = nil, format: FrameFormat = .pam, scaler: Scaler? = nil, background: RGBColor = .black) {
        self.directory = directory
        self.format = format
        self.scaler = scaler
        self.background = background
    }

    /// Creates the output folder (and its parents) when it is missing.
    public func prepare() throws(FileError) {
        guard let directory, !directory.isEmpty else { return }
        try Folders.make(directory, mode: 0o755)
    }

    /// The path frame `index` is written to.
    public func path(forFrame index: Int) -> String? {
        guard let directory else { return nil }
        var number = String(index)
        if number.count < 4 { number = String(repeating: "0", count: 4 - number.count) + number }
        let folder = directory.hasSuffix("/") ? directory : directory + "/"
        return "\(folder)frame-\(number).\(format.fileExtension)"
    }

    /// Scales, hashes and writes `frame`.
    public func export(_ frame: Frame) throws(FileError) -> Exported {
        let output = scaler.map { $0.scale(frame) } ?? frame
        let path = path(forFrame: frame.index)
        // Renamed into place whole: no reader ever sees half a frame.
        if let path { try writeAtomically(format.encode(output, background: background), to: path, as: .person, durable: false) }
        return Exported(frame: output, sha256: output.sha256, path: path)
    }

}
