// The engine's API takes and returns the model's value types: users of the engine get them with `import
// WaterfallLayout`.
@_exported import WaterfallModel
