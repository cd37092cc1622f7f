import Testing
import WaterfallLayout
import WaterfallTestSupport
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// The size of `layout.css` on a photo feed over phone to desktop widths (320–1920 px): a piece repeats only
/// what changes, in a few bytes a change.
@Suite struct ResponsiveStylesheetSizeTests {
    static func sheet(items: Int) throws -> ResponsiveStylesheet {
        try StylesheetRequest(layout: "feed", minWidth: 320, maxWidth: 1920)
            .stylesheet(of: ResponsiveFeeds.photoFeed(count: items), columnLimit: 1024).sheet
    }

    @Test func aHundredPhotosTakeAtMostFortyKilobytes() throws {
        let sheet = try Self.sheet(items: 100)
        print("ResponsiveStylesheetSizeTests: 100 items, \(sheet.pieces) pieces, \(sheet.css.count) bytes")
        #expect(sheet.pieces >= 10)
        #expect(sheet.css.count <= 40_000)
    }

    @Test func aThousandPhotosTakeAtMost3400Kilobytes() throws {
        let sheet = try Self.sheet(items: 1000)
        print("ResponsiveStylesheetSizeTests: 1000 items, \(sheet.pieces) pieces, \(sheet.css.count) bytes")
        #expect(sheet.pieces >= 200)
        #expect(sheet.css.count <= 3_400_000)
    }
}
