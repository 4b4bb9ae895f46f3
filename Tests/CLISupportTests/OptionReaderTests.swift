import TestTurns
import Testing

@testable import CLISupport

/// One way to read options for every command of both tools.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct OptionReaderTests {
    private func read(_ arguments: [String]) throws(UsageError) -> [String] {
        var reader = OptionReader(arguments, command: "serve")
        var seen: [String] = []
        while let argument = reader.next() {
            switch argument {
            case .option("--port"):
                seen.append("port=\(try reader.value("a number from 0 to 65535") { UInt16($0) })")
            case .option("--limit"):
                let limit: Int? =
                    try reader.value("a whole number above 0") { Int($0).flatMap { $0 > 0 ? $0 : nil } } as Int
                seen.append("limit=\(limit!)")
            case .option("--name"): seen.append("name=\(try reader.value())")
            case .option("--watch"):
                try reader.flag()
                seen.append("watch")
            case .operand(let word): seen.append("operand \(word)")
            case .option: throw reader.unknown()
            }
        }
        return seen
    }

    @Test func valuesFollowTheOptionOrAnEqualsSign() throws {
        #expect(
            try read(["--port", "80", "--name=a=b", "--watch", "dir", "--limit=3", "--name", "-"])
                == ["port=80", "name=a=b", "watch", "operand dir", "limit=3", "name=-"])
    }

    @Test(arguments: [
        (["--port"], "--port needs a value"),
        (["--name", "--watch"], "--name needs a value"),
        (["--port", "99999"], "--port must be a number from 0 to 65535, not '99999'"),
        (["--port=-1"], "--port must be a number from 0 to 65535, not '-1'"),
        // Assigned to an optional: nil from the parser is still an error.
        (["--limit", "0"], "--limit must be a whole number above 0, not '0'"),
        (["--watch=yes"], "--watch takes no value"),
        (["--nope=1"], "unknown option '--nope'"),
        (["-x"], "unknown option '-x'"),
    ])
    func badArguments_sayWhatIsWrongForTheCommand(arguments: [String], message: String) {
        #expect(throws: UsageError(message, command: "serve")) { try read(arguments) }
    }

    @Test(arguments: [
        ([String](), "validate takes one fixtures folder"),
        (["a", "b"], "validate takes one fixtures folder"),
        (["--strict", "a"], "unknown option '--strict'"),
    ])
    func onlyOperand_takesExactlyOneAndNoOptions(arguments: [String], message: String) {
        var reader = OptionReader(arguments, command: "validate")
        #expect(throws: UsageError(message, command: "validate")) { try reader.onlyOperand("fixtures folder") }
    }

    @Test func onlyOperand_returnsIt() throws {
        var reader = OptionReader(["MockData"], command: "validate")
        #expect(try reader.onlyOperand("fixtures folder") == "MockData")
    }
}
