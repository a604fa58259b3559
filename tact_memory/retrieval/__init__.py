"""Retrieval, pure: the lexer (terms, folding, previews) and BM25 ranking.

No I/O and no third-party imports: property-tested with hypothesis. May import only ``limits``.
"""
