import FixcastText
import Foundation
import Testing

/// A suggested argument must read back, in a real shell, as the one word it stands for.
@Suite struct ShellWordTests {
    @Test(arguments: [
        "Berlin", "St. Gallen", "-x", "--help", "O'Higgins", "Новосибирск", "", "a$b`c`", "*", "~user", "x;rm",
    ])
    func aShellReadsItBackAsOneWord(text: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        // printf prints each argument between < and >: exactly one, equal to the text, after any "--".
        p.arguments = ["-c", "set -- \(ShellWord.quoted(text)); printf '%s|' \"$#\" \"$1\""]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        let got = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(got == "1|\(text)|")
    }

    @Test func plainWordsStayAsTheyAre() {
        #expect(ShellWord.quoted("Berlin") == "Berlin")
        #expect(ShellWord.quoted("Новосибирск") == "Новосибирск")
        #expect(ShellWord.quoted("St. Gallen") == "'St. Gallen'")
        #expect(ShellWord.quoted("O'Higgins") == "'O'\\''Higgins'")
    }

    @Test func aLeadingDashComesAfterDoubleDash() {
        #expect(ShellWord.argument("-x") == "-- -x")
        #expect(ShellWord.argument("Berlin") == "Berlin")
        #expect(ShellWord.argument("- x") == "-- '- x'")
    }
}
