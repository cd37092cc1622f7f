// The client's API takes and returns the model's value types (`LayoutSpec`, `Item`, `Rect`…): an app gets them with
// `import WaterfallClient`.
@_exported import WaterfallModel
