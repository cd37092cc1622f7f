import WaterfallModel

/// A length that is linear in the container width `W`: `constant + slope × W`.
///
/// Within one piece of a responsive layout every coordinate is one of these: a column width is linear in `W`, an
/// aspect height is linear in its item's width, and spacings, insets and fixed heights are constants.
public struct LinearLength: Sendable, Hashable {
    public var constant: Double
    public var slope: Double

    public init(constant: Double, slope: Double = 0) {
        self.constant = constant
        self.slope = slope
    }

    public static let zero = LinearLength(constant: 0)

    /// The length at container width `width`.
    @inline(__always)
    public func at(_ width: Double) -> Double { constant + slope * width }

    static func + (l: LinearLength, r: LinearLength) -> LinearLength {
        LinearLength(constant: l.constant + r.constant, slope: l.slope + r.slope)
    }

    static func - (l: LinearLength, r: LinearLength) -> LinearLength {
        LinearLength(constant: l.constant - r.constant, slope: l.slope - r.slope)
    }

    static func + (l: LinearLength, r: Double) -> LinearLength {
        LinearLength(constant: l.constant + r, slope: l.slope)
    }

    static func * (k: Double, l: LinearLength) -> LinearLength {
        LinearLength(constant: k * l.constant, slope: k * l.slope)
    }

    /// Whether `self` and `other` differ by at most `tolerance` anywhere in `0...maxWidth`.
    func isClose(to other: LinearLength, within tolerance: Double, maxWidth: Double) -> Bool {
        (constant - other.constant).magnitude + (slope - other.slope).magnitude * maxWidth <= tolerance
    }
}

/// A frame whose every coordinate is a `LinearLength`.
public struct LinearRect: Sendable, Hashable {
    public var x: LinearLength
    public var y: LinearLength
    public var width: LinearLength
    public var height: LinearLength

    public init(x: LinearLength, y: LinearLength, width: LinearLength, height: LinearLength) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The frame at container width `width`, moved down by `dy`.
    public func at(_ width: Double, dy: Double = 0) -> Rect {
        Rect(x: x.at(width), y: dy + y.at(width), width: self.width.at(width), height: height.at(width))
    }

    /// Mirrored for right-to-left layouts in a container of width `W`: `x' = W - x - w`.
    func mirrored() -> LinearRect {
        var result = self
        result.x = LinearLength(constant: -x.constant - width.constant, slope: 1 - x.slope - width.slope)
        return result
    }

    func isClose(to other: LinearRect, within tolerance: Double, maxWidth: Double) -> Bool {
        x.isClose(to: other.x, within: tolerance, maxWidth: maxWidth)
            && y.isClose(to: other.y, within: tolerance, maxWidth: maxWidth)
            && width.isClose(to: other.width, within: tolerance, maxWidth: maxWidth)
            && height.isClose(to: other.height, within: tolerance, maxWidth: maxWidth)
    }
}
