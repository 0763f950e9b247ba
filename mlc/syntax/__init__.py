"""MLIR's textual format: lexer, parser, printer and the declarative assembly format."""
