// Fuzz/run.sh compiles StubAdmin with swiftc, outside SwiftPM, which is what embeds the control page's files
// (`resources: [.embedInCode(...)]` in Package.swift): the fuzz targets serve no page, so its parts are empty.
// The names are SwiftPM's, spelled after the files.
// swift-format-ignore-file
enum PackageResources {
    static let control_html: [UInt8] = []
    static let control_css: [UInt8] = []
    static let control_js: [UInt8] = []
    static let icon_svg: [UInt8] = []
}
