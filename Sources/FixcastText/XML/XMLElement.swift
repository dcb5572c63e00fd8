/// An XML name as namespaces make it (Namespaces in XML 1.0): the URI its prefix, or the default
/// namespace, stands for, and the local name. `<cap:event>` under
/// `xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2"` and `<event>` under that default namespace are one
/// name: a prefix is the writer's choice, so it is not kept and never matched.
public struct XMLName: Sendable, Hashable, CustomStringConvertible {
    /// The namespace URI; "" for a name in no namespace.
    public var namespace: String
    public var local: String

    public init(namespace: String = "", _ local: String) {
        self.namespace = namespace
        self.local = local
    }

    /// Clark's notation, `{urn:…}event`, or the bare local name in no namespace.
    public var description: String { namespace.isEmpty ? local : "{\(namespace)}\(local)" }
}

/// One attribute of an element. An unprefixed attribute is in no namespace, whatever its element's.
public struct XMLAttribute: Sendable, Hashable {
    public var name: XMLName
    public var value: String

    public init(_ name: XMLName, value: String) {
        self.name = name
        self.value = value
    }
}

extension [XMLAttribute] {
    /// The value of the attribute with this local name, in no namespace unless one is given: an element's
    /// (`XMLElement.attribute`) or a streamed start tag's.
    public func value(of local: String, namespace: String = "") -> String? {
        first { $0.name.local == local && $0.name.namespace == namespace }?.value
    }
}

/// One element of an XML document as a plain value: its name, attributes, character data and child
/// elements. What a reader of data documents (feeds, CAP messages) needs and no more: comments,
/// processing instructions and prefixes are gone, entity and character references are decoded and
/// CDATA sections are text. The adapters' libxml2 reader (`XMLDocumentReader`) builds it; the core
/// reads it without a parser of its own.
public struct XMLElement: Sendable, Hashable {
    public var name: XMLName
    /// In document order; namespace declarations (`xmlns`, `xmlns:p`) are not attributes and are left out.
    public var attributes: [XMLAttribute]
    /// The element's own character data: its text and CDATA sections joined in document order,
    /// whitespace kept; not its children's (`<a>x<b>y</b>z</a>` is "xz").
    public var text: String
    public var children: [XMLElement]

    public init(_ name: XMLName, attributes: [XMLAttribute] = [], text: String = "", children: [XMLElement] = []) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    /// The value of the attribute with this local name, in no namespace unless one is given.
    public func attribute(_ local: String, namespace: String = "") -> String? {
        attributes.value(of: local, namespace: namespace)
    }

    /// The child elements named `name`, in document order.
    public func children(named name: XMLName) -> [XMLElement] {
        children.filter { $0.name == name }
    }

    /// The first child element named `name`.
    public func child(named name: XMLName) -> XMLElement? {
        children.first { $0.name == name }
    }

    /// The elements named `name` anywhere below this one (not itself), in document order, and no more
    /// than `limit`: the search stops there.
    public func descendants(named name: XMLName, limit: Int = .max) -> [XMLElement] {
        var found: [XMLElement] = []
        var pending = Array(children.reversed())
        while found.count < limit, let next = pending.popLast() {
            if next.name == name { found.append(next) }
            pending.append(contentsOf: next.children.reversed())
        }
        return found
    }
}
