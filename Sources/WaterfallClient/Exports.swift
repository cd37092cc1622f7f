// The client's API takes and returns the model's value types (`LayoutSpec`, `Item`, `Rect`…), the wire's requests
// and results (`MethodRequest`, `ItemsGetRequest`…) and JSON values (`call`'s `JSONValue`): an app names them all
// with `import WaterfallClient`.
@_exported import WaterfallJSON
@_exported import WaterfallModel
@_exported import WaterfallWire
