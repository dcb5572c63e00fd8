import FixcastText
import Testing

/// The XML tree's lookups: by namespace and local name, in document order.
@Suite struct XMLElementTests {
    static let a = XMLName(namespace: "urn:a", "x")
    static let b = XMLName(namespace: "urn:b", "x")

    static let tree = XMLElement(
        XMLName("root"),
        children: [
            XMLElement(
                Self.a, text: "1", children: [XMLElement(Self.a, text: "1.1"), XMLElement(Self.b, text: "1.2")]),
            XMLElement(Self.b, text: "2"),
            XMLElement(
                XMLName("y"), children: [XMLElement(Self.a, text: "3.1", children: [XMLElement(Self.a, text: "3.1.1")])]
            ),
            XMLElement(Self.a, text: "4"),
        ])

    @Test func childrenAreMatchedByNamespaceAndLocalName() {
        #expect(Self.tree.children(named: Self.a).map(\.text) == ["1", "4"])
        #expect(Self.tree.child(named: Self.b)?.text == "2")
        #expect(Self.tree.child(named: XMLName("x")) == nil, "no namespace is a namespace of its own")
    }

    @Test func descendantsAreInDocumentOrderAndStopAtTheLimit() {
        #expect(Self.tree.descendants(named: Self.a).map(\.text) == ["1", "1.1", "3.1", "3.1.1", "4"])
        #expect(Self.tree.descendants(named: Self.a, limit: 3).map(\.text) == ["1", "1.1", "3.1"])
        #expect(Self.tree.descendants(named: Self.b).map(\.text) == ["1.2", "2"])
        #expect(Self.tree.descendants(named: XMLName("root")).isEmpty, "not the element itself")
    }

    @Test func attributesAreInNoNamespaceUnlessNamed() {
        let element = XMLElement(
            Self.a,
            attributes: [
                XMLAttribute(XMLName(namespace: "urn:p", "k"), value: "p"), XMLAttribute(XMLName("k"), value: "plain"),
            ])
        #expect(element.attribute("k") == "plain")
        #expect(element.attribute("k", namespace: "urn:p") == "p")
        #expect(element.attribute("missing") == nil)
        #expect(Self.a.description == "{urn:a}x" && XMLName("y").description == "y")
    }
}
