extension String {
    /// The text without white space (`Character.isWhitespace`: spaces, tabs, line breaks, no-break
    /// spaces) at either end: what a person typed into a setting, or an API put around a name.
    public func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
