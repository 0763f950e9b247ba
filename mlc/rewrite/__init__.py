"""Pattern rewriting: patterns and the rewriter, the greedy driver, dialect conversion."""

from mlc.rewrite.greedy import GreedyResult, GreedyRewriteConfig, apply_patterns_greedily
from mlc.rewrite.pattern import FrozenPatternSet, Listener, PatternRewriter, RewritePattern

__all__ = [
    "RewritePattern",
    "PatternRewriter",
    "Listener",
    "FrozenPatternSet",
    "GreedyRewriteConfig",
    "GreedyResult",
    "apply_patterns_greedily",
]
