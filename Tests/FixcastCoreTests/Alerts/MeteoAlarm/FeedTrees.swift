import FixcastAdapters
import FixcastText

/// Recorded and written XML documents as trees, read as production reads them: the core has no XML
/// parser, so its tests use the adapters' (libxml2, `XMLDocumentReader`).
extension CoreFixtures {
    static func tree(_ name: String) throws -> XMLElement { try XMLDocumentReader.read(bytes(name)) }

    static func tree(text: String) throws -> XMLElement { try XMLDocumentReader.read(Array(text.utf8)) }
}
