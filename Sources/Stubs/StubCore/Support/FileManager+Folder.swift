#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FileManager {
    /// Whether `path` names an existing folder (after following symbolic links).
    package func isFolder(atPath path: String) -> Bool {
        // Apple's Foundation: `fileExists(atPath:isDirectory: UnsafeMutablePointer<ObjCBool>?)`
        // (developer.apple.com/documentation/foundation/filemanager/fileexists(atpath:isdirectory:)).
        #if canImport(Darwin)
            var isDirectory: ObjCBool = false
            return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        #else
            var isDirectory = false
            return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
        #endif
    }
}
