/// The ladders Sposure ships: ten common fears, each graded from symbolic to realistic.
///
/// Each is a ladder file in `Sources/LadderKit/Ladders/NAME.json`, embedded
/// in the program by SwiftPM (`resources: [.embedInCode(…)]` in
/// Package.swift: bytes compiled in, no bundle to find at run time), so
/// `score ladder NAME --copy` writes exactly that file for editing, and the
/// same checks read them (a test reads all). To extend a built-in ladder's
/// `"avoid"` list, edit its file; a new built-in is a new file, one line in
/// Package.swift and one in ``names``.
public enum BuiltInLadders {
    /// The names, in the order `score ladder` lists them.
    public static let names = ["spiders", "snakes", "dogs", "insects", "heights", "flying", "needles", "blood", "clowns", "deep-water"]

    /// The JSON text of the built-in ladder `name` (its file, byte for byte), when there is one.
    public static func text(_ name: String) -> String? {
        files[name].map { String(decoding: $0, as: UTF8.self) }
    }

    private static let files: [String: [UInt8]] = [
        "spiders": PackageResources.spiders_json,
        "snakes": PackageResources.snakes_json,
        "dogs": PackageResources.dogs_json,
        "insects": PackageResources.insects_json,
        "heights": PackageResources.heights_json,
        "flying": PackageResources.flying_json,
        "needles": PackageResources.needles_json,
        "blood": PackageResources.blood_json,
        "clowns": PackageResources.clowns_json,
        "deep-water": PackageResources.deep_water_json,
    ]
}
