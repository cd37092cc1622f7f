print("waterfall-bench: not yet written")
