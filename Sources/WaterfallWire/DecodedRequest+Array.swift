@_spi(Package) import WaterfallJSON

extension DecodedRequest {
    /// Whether the request gets a reply: anything but a notification (a notification's errors get none either).
    package var isAnswered: Bool {
        switch self {
        case .tooLarge: true
        case .failed(_, _, let isNotification, _), .call(_, let isNotification, _): !isNotification
        case .change(let change): !change.isNotification
        case .array(let elements): elements.contains { $0.isAnswered }
        }
    }

    /// The requests a line stands for: the elements of an array, one otherwise.
    package var requestCount: Int {
        if case .array(let elements) = self { elements.count } else { 1 }
    }

    /// A batch array: `[]` and an array over `maxBatchOps` elements are one `invalid_request` or `limit` error
    /// (no element runs); otherwise each element is decoded from its own bytes, as a line of its own would be.
    ///
    /// `document` is `bytes` parsed; it is let go before the elements are parsed, so that `reader` reuses its
    /// buffers. An element is parsed twice (as part of the array and alone): arrays are rare, and an element then
    /// goes through exactly the path of a line.
    static func batchArray(
        _ document: consuming JSONDocument, _ bytes: ArraySlice<UInt8>, reader: inout JSONReader, maxBatchOps: Int
    ) -> DecodedRequest {
        let count = document.unsafeRoot.count
        guard count > 0 else {
            return .failed(
                .none, ProtocolError(.invalidRequest, "request: an empty batch array"), isNotification: false,
                method: nil)
        }
        guard count <= maxBatchOps else {
            let error = ProtocolError(
                .limit, "request: a batch array of \(count) requests, over the limit of \(maxBatchOps) (maxBatchOps)")
            return .failed(.none, error, isNotification: false, method: nil)
        }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(count)
        for element in document.unsafeRoot.elements {
            let start = bytes.startIndex + element.byteOffset
            ranges.append(start..<(start + element.rawBytes.count))
        }
        // The views above point into `document`: it must outlive their last read.
        withExtendedLifetime(document) {}
        return .array(
            ranges.map { range in
                DecodedRequest(.line(bytes[range]), reader: &reader, maxBatchOps: maxBatchOps, allowsArray: false)
            })
    }
}
