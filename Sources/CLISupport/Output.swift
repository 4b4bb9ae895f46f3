import Foundation

/// Writes whole lines to stdout and stderr, flushed, from any thread.
public enum Output {
    public static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    public static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
