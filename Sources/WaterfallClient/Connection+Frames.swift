import WaterfallWire

/// `layout.get` replies read into frames as they come (`FramesStream`), on the connection's reading thread.
extension Connection {
    /// What is read of the line that a read left unfinished.
    enum LineStream {
        case none
        /// A `layout.get` reply for a call that reads its frames as they come.
        case reading(FramesStream)
        /// Another line: it is read when it ends.
        case skipping
    }

    /// The unfinished line at which `FramesStream` starts reading: one that takes more than a read.
    static let streamingBytes = 1 << 16

    /// After a read's lines: reads on into the unfinished line, if it is a `layout.get` reply for a call that takes
    /// its frames so, so that they are decoded while the daemon is still writing the rest.
    func readOn(_ stream: inout LineStream, _ framer: LineFramer) {
        guard framer.bufferedByteCount >= Self.streamingBytes, !framer.isDiscarding else { return }
        switch stream {
        case .skipping:
            return
        case .none:
            stream = .reading(FramesStream())
        case .reading:
            break
        }
        guard case .reading(var frames) = stream else { return }
        stream = .skipping
        let knewID = frames.id != nil
        framer.withUnfinishedLine { frames.advance($0) }
        // With a read's worth of the line at hand, an envelope it cannot read is not one it takes.
        guard let id = frames.id else { return }
        if !knewID, state.withLock({ $0.inFlight.call(of: id)?.quick }) != .frames { return }
        stream = .reading(frames)
    }

    /// Ends the call that a `layout.get` reply read as it came answers; false when the line is not one
    /// `FramesStream` takes to its end (it is then read the general way).
    func finish(_ frames: inout FramesStream, _ bytes: ArraySlice<UInt8>, _ resumes: inout [Wake]) -> Bool {
        guard let result = bytes.withUnsafeBufferPointer({ frames.finish($0) }), let id = frames.id else {
            return false
        }
        let pending = state.withLock { $0.inFlight.answer(id, ifItsCall: { $0.quick == .frames })?.call }
        guard let pending else { return false }
        if let resume = pending.complete(.frames(result)) { resumes.append(resume) }
        return true
    }
}
