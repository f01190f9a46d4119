/// One test of the pygif suite, read from its `.conf` (an INI file).
struct PygifConf {
    /// `[section] key = value`, in order.
    var sections: [String: [String: String]] = [:]

    init(text: String) {
        var current = ""
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = String(line.dropFirst().dropLast())
                sections[current, default: [:]] = [:]
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[current, default: [:]][key] = value
        }
    }

    var config: [String: String] { sections["config"] ?? [:] }

    /// The expected frames, in order: their `.rgba` file and delay in centiseconds.
    var frames: [(pixels: String, delay: Int)] {
        (config["frames"] ?? "").split(separator: ",").compactMap { name in
            let section = sections[name.trimmingCharacters(in: .whitespaces)] ?? [:]
            guard let pixels = section["pixels"] else { return nil }
            return (pixels, Int(section["delay"] ?? "0") ?? 0)
        }
    }

    /// The frame names listed, even those without a section.
    var frameCount: Int {
        (config["frames"] ?? "").split(separator: ",").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.count
    }

    /// `loop-count` as ``GIFInfo/loopCount`` says it: `infinite` is 0 (a
    /// NETSCAPE2.0 count of 0), `0` is nil (no loop extension), n is n.
    var loopCount: Int? {
        guard let text = config["loop-count"], text != "0" else { return nil }
        return text == "infinite" ? 0 : Int(text)
    }

    /// `comment`, unquoted as pygif's runner does (`\xNN` is one character).
    var comment: String? {
        guard var value = config["comment"].map(Array.init), let quote = value.first, quote == "'" || quote == "\"" else {
            return config["comment"]
        }
        value.removeFirst()
        var result = ""
        while value.count > 1 {
            if value.count >= 4, value[0] == "\\", value[1] == "x", let code = Int(String(value[2...3]), radix: 16),
               let scalar = Unicode.Scalar(code) {
                result.unicodeScalars.append(scalar)
                value.removeFirst(4)
            } else {
                result.append(value.removeFirst())
            }
        }
        return result
    }

    var forceAnimation: Bool { config["force-animation"] == "yes" }
}
