import Foundation
import Testing

@testable import FixcastCore

/// Issue 23 item 5: outside text is capped in UTF-8 bytes, cut on a grapheme boundary, marked with "…".
@Suite struct TextCapTests {
    @Test func textThatFitsIsUntouched() {
        #expect(TextCap.capped("Köln", maxBytes: 5) == "Köln")
        #expect(TextCap.capped("", maxBytes: 0) == "")
        #expect(TextCap.capped(nil, maxBytes: 10) == nil)
    }

    @Test func aLongTextIsCutWithinTheLimitAndEndsInAnEllipsis() {
        let cut = TextCap.capped(String(repeating: "x", count: 600_000), maxBytes: TextCap.placeName)
        #expect(cut.utf8.count <= TextCap.placeName)
        #expect(cut.utf8.count >= TextCap.placeName - 3)
        #expect(cut.hasSuffix("…"))
    }

    @Test func theCutFallsOnAGraphemeBoundaryNeverInsideAUTF8Sequence() {
        // "é" as e + U+0301 (3 bytes a grapheme), and a flag (8 bytes a grapheme).
        let accents = String(repeating: "e\u{301}", count: 100)
        let cut = TextCap.capped(accents, maxBytes: 20)
        #expect(cut == String(repeating: "e\u{301}", count: 5) + "…")
        let flags = String(repeating: "🇳🇴", count: 10)
        #expect(TextCap.capped(flags, maxBytes: 20) == "🇳🇴🇳🇴…")
        let multibyte = String(repeating: "東", count: 10)  // 3 bytes each
        #expect(TextCap.capped(multibyte, maxBytes: 10) == "東東…")
    }

    @Test func oneHugeGraphemeIsCutOnAScalarBoundary() {
        let pile = "e" + String(repeating: "\u{301}", count: 200_000)
        let cut = TextCap.capped(pile, maxBytes: 16)
        #expect(cut.utf8.count <= 16)
        #expect(cut.unicodeScalars.first == "e")
        #expect(cut.hasSuffix("…"))
        #expect(String(validating: Array(cut.utf8), as: UTF8.self) == cut)
    }

    @Test func aLimitSmallerThanTheEllipsisGivesNothing() {
        #expect(TextCap.capped("abcdef", maxBytes: 2) == "")
    }

    @Test func alertTextIsCappedInBytesAfterCleaning() throws {
        let line = try #require(AlertText.line(String(repeating: "東", count: 100_000)))
        #expect(line.utf8.count <= TextCap.alertLine && line.hasSuffix("…"))
        let paragraph = try #require(AlertText.paragraph(String(repeating: "a\n", count: 1_000_000)))
        #expect(paragraph.utf8.count <= TextCap.alertParagraph)
    }

    @Test func modelsCapWhatTheyAreGiven() {
        let huge = String(repeating: "y", count: 50_000)
        let place = Place(name: huge, region: huge, country: huge, countryCode: huge, source: .nominatim)
        for text in [place.name, place.region, place.country, place.countryCode] {
            #expect((text?.utf8.count ?? 0) <= TextCap.placeName)
        }
        let alert = Alert(
            id: huge, event: huge, headline: huge, severity: .minor, area: huge, description: huge + huge,
            instruction: huge)
        #expect(alert.id.utf8.count <= TextCap.alertID)
        #expect(alert.event.utf8.count <= TextCap.alertLine && (alert.headline?.utf8.count ?? 0) <= TextCap.alertLine)
        #expect((alert.description?.utf8.count ?? 0) <= TextCap.alertParagraph)
    }
}
