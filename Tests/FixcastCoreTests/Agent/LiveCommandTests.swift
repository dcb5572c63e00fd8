import FixcastCore
import Testing

@Suite struct LiveCommandTests {
    @Test(arguments: [
        (UInt8(ascii: "r"), LiveCommand.refresh), (UInt8(ascii: "R"), .refresh), (UInt8(ascii: "q"), .quit),
        (UInt8(ascii: "Q"), .quit), (UInt8(4), .quit),
    ])
    func keys(key: UInt8, command: LiveCommand) {
        #expect(LiveCommand(key: key) == command)
    }

    @Test func otherKeysDoNothing() {
        for key in [UInt8(ascii: "x"), 0x1B, UInt8(ascii: "["), UInt8(ascii: "A"), 3] {
            #expect(LiveCommand(key: key) == nil)
        }
    }
}
