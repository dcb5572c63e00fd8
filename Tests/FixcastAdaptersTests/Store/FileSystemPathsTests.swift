import Testing

@testable import FixcastAdapters

struct FileSystemPathsTests {
    @Test(arguments: [
        ("/var/lib/fixcast/fixcast.db", "/var/lib/fixcast"),
        ("/fixcast.db", "/"),
        ("/", "/"),
        ("//", "/"),
        ("fixcast.db", "."),
        (".", "."),
        ("data/fixcast.db", "data"),
        ("/opt/fixcast/bin/", "/opt/fixcast"),
        ("/opt//fixcast", "/opt"),
        ("a//b///", "a"),
    ])
    func theParentIsWhatDirnameSays(path: String, parent: String) {
        #expect(FileSystemPaths.parent(of: path) == parent)
    }

    /// Every walk up (the data folders beside the executable, the folder that blocks the store)
    /// stops because the parent stops changing; a relative start must reach that too.
    @Test(arguments: ["/a/b/c", "a/b/c", "./a", "../x/y", "/", "."])
    func aWalkUpEnds(start: String) {
        var path = start
        var steps = 0
        while steps < 10 {
            let up = FileSystemPaths.parent(of: path)
            if up == path { break }
            path = up
            steps += 1
        }
        #expect(steps < 10)
        #expect(path == "/" || path == ".")
    }
}
