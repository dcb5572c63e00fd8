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

    /// The walk up that the data folders beside the executable and the folder that blocks the store
    /// both take: it ends at "/" or, for a relative path, at ".".
    @Test(arguments: [
        ("/a/b/c", ["/a/b", "/a", "/"]),
        ("a/b/c", ["a/b", "a", "."]),
        ("./a", ["."]),
        ("../x/y", ["../x", "..", "."]),
        ("/", ["/"]),
        (".", ["."]),
    ])
    func theAncestorsEndAtTheRootOrTheWorkingFolder(path: String, ancestors: [String]) {
        #expect(FileSystemPaths.ancestors(of: path) == ancestors)
    }
}
