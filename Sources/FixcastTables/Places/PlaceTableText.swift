/// The place table's text form (places.tsv, made by scripts/build-places.py, the source places.bin is
/// encoded from), version 1: a "fixcast-places\t1" header, then "#countries N" (code, name per line),
/// "#regions N" (a name per line) and "#places N": group lines ("@" country code, region index, and
/// optionally an area: a number the rows of one second-level division share) each followed by its
/// places (lat E4, lon E4, name, population, ASCII name), tab-separated.
package enum PlaceTableText {
    /// The table's countries, regions and rows; throws on anything that is not the version-1 format
    /// (with the line it stopped at).
    package static func parse(_ bytes: [UInt8]) throws(TableFormatError)
        -> (countries: [PlaceTableImage.Country], regions: [String], rows: [PlaceTableImage.Row])
    {
        var p = Parser(bytes: bytes)
        guard p.field() == "fixcast-places", p.field() == "1" else {
            throw TableFormatError(line: 1, reason: "the header is not \"fixcast-places 1\"")
        }
        p.endLine()
        let countryCount = try p.section("#countries")
        var countries: [PlaceTableImage.Country] = []
        var countryByCode: [UInt16: UInt16] = [:]
        countries.reserveCapacity(min(countryCount, 1000))
        for _ in 0..<countryCount {
            guard let code = p.field(), code.utf8.count == 2 else { throw p.failure("a country line has no code") }
            let name = p.field() ?? ""
            p.endLine()
            countryByCode[Parser.packCode(code)] = UInt16(truncatingIfNeeded: countries.count)
            countries.append(.init(code: code, name: name))
        }
        let regionCount = try p.section("#regions")
        var regions: [String] = []
        for _ in 0..<regionCount {
            // An empty name is a region too, but the end of the text is not: a count of 999999999999
            // appended empty names until memory ran out.
            guard !p.atEnd else {
                throw p.failure("the table announces \(regionCount) regions but has \(regions.count)")
            }
            regions.append(p.field() ?? "")
            p.endLine()
        }
        let placeCount = try p.section("#places")
        var rows: [PlaceTableImage.Row] = []
        rows.reserveCapacity(min(placeCount, 1 << 20))
        var groupRegion: Int16 = -1
        var groupArea = PlaceTableImage.noArea
        var groupCountry: UInt16? = nil
        while !p.atEnd {
            if p.peek == UInt8(ascii: "@") {
                p.skip(1)
                guard let code = p.field(), code.utf8.count == 2, let c = countryByCode[Parser.packCode(code)] else {
                    throw p.failure("a group names an unknown country")
                }
                let r = p.integerField()
                if let r, r < 0 || r >= regions.count || r > Int(Int16.max) {
                    throw p.failure("a group names an unknown region")
                }
                let area = p.integerField()
                if let area, area < 0 || area >= Int(PlaceTableImage.noArea) {
                    throw p.failure("a group names an impossible area")
                }
                groupCountry = c
                groupRegion = r.map { Int16($0) } ?? -1
                groupArea = area.map { UInt16($0) } ?? PlaceTableImage.noArea
                p.endLine()
                continue
            }
            guard let country = groupCountry else { throw p.failure("a place comes before any group line") }
            guard let lat = p.integerField(), let lon = p.integerField(),
                (-900_000...900_000).contains(lat), (-1_800_000...1_800_000).contains(lon)
            else { throw p.failure("a place has no valid coordinates") }
            let name = p.rawField()
            guard name.lowerBound < name.upperBound else { throw p.failure("a place has no name") }
            let population = p.integerField()
            let alt = p.rawField()
            p.endLine()
            rows.append(
                PlaceTableImage.Row(
                    latE4: Int32(lat), lonE4: Int32(lon), name: bytes[name], alt: bytes[alt],
                    population: population.map { Int32(clamping: $0) } ?? -1, region: groupRegion, country: country,
                    area: groupArea))
        }
        guard rows.count == placeCount else {
            throw p.failure("the table announces \(placeCount) places but has \(rows.count)")
        }
        return (countries, regions, rows)
    }
}

/// A cursor over the table's bytes: fields end at a tab or a newline.
private struct Parser {
    let bytes: [UInt8]
    var i = 0
    var line = 1

    init(bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { i >= bytes.count }
    var peek: UInt8 { bytes[i] }

    mutating func skip(_ n: Int) { i += n }

    /// The bytes up to the next tab or newline (consuming a tab, not the newline); empty at a line's end.
    mutating func rawField() -> Range<Int> {
        let start = i
        while i < bytes.count, bytes[i] != 0x09, bytes[i] != 0x0A { i += 1 }
        let range = start..<i
        if i < bytes.count, bytes[i] == 0x09 { i += 1 }
        return range
    }

    mutating func field() -> String? {
        let r = rawField()
        return r.isEmpty ? nil : String(decoding: bytes[r], as: UTF8.self)
    }

    /// A decimal integer field; nil when empty or not a number.
    mutating func integerField() -> Int? {
        let r = rawField()
        guard !r.isEmpty else { return nil }
        var k = r.lowerBound
        var negative = false
        if bytes[k] == UInt8(ascii: "-") {
            negative = true
            k += 1
        }
        guard k < r.upperBound else { return nil }
        var value = 0
        while k < r.upperBound {
            let d = Int(bytes[k]) - 48
            guard d >= 0, d <= 9, value < Int.max / 10 - 10 else { return nil }
            value = value * 10 + d
            k += 1
        }
        return negative ? -value : value
    }

    /// Skips what is left of the line and its newline.
    mutating func endLine() {
        while i < bytes.count, bytes[i] != 0x0A { i += 1 }
        if i < bytes.count { i += 1 }
        line += 1
    }

    mutating func section(_ name: String) throws(TableFormatError) -> Int {
        guard field() == name, let n = integerField(), n >= 0 else { throw failure("the section \(name) is missing") }
        endLine()
        return n
    }

    func failure(_ reason: String) -> TableFormatError {
        TableFormatError(line: line, reason: reason)
    }

    static func packCode(_ code: String) -> UInt16 {
        let u = Array(code.utf8)
        return UInt16(u[0]) << 8 | UInt16(u[1])
    }
}
