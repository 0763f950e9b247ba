"""Custom-syntax helpers of the affine dialect (MLIR's): dim-and-symbol operand lists
`(%d0)[%s0]`, subscripts over SSA names `%A[%i + 1, symbol(%n)]`, loop bounds
(`0`, `%n`, `max #map(%a)[%s]`) and affine.parallel's grouped `max(...)`/`min(...)` bounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mlc.ir import attributes as A
from mlc.ir.affine import AffineConstantExpr, AffineExpr, AffineMap, AffineSymbolExpr, dim, sym
from mlc.ir.core import Value

# ---------------------------------------------------------------------------------------------
# Parsing


def parse_dim_and_symbol_list(parser: Any) -> tuple[list[Any], int]:
    """`(%d0, ..)[%s0, ..]` (the square part optional): the unresolved operands and #dims."""
    operands = parser.parse_operand_list("paren")
    num_dims = len(operands)
    if parser.parse_optional_punct("["):
        if not parser.parse_optional_punct("]"):
            operands += parser.parse_operand_list("none")
            parser.parse_punct("]")
    return operands, num_dims


def resolve_indices(parser: Any, operands: Sequence[Any]) -> list[Value]:
    return [parser.resolve_operand(u, A.index) for u in operands]


def parse_map_and_operands(parser: Any, what: str = "map") -> tuple[AffineMap, list[Value]]:
    """`#map(%d..)[%s..]` as affine.apply/min/max write it; counts are checked."""
    pos = parser.pos()
    attr = parser.parse_attribute()
    if type(attr) is not A.AffineMapAttr:
        raise parser.error("invalid kind of attribute specified", pos)
    operands, num_dims = parse_dim_and_symbol_list(parser)
    amap = attr.value
    if amap.num_dims != num_dims or num_dims + amap.num_symbols != len(operands):
        raise parser.error("dimension or symbol index mismatch", pos)
    return amap, resolve_indices(parser, operands)


def parse_subscripts(parser: Any) -> tuple[AffineMap, list[Any]]:
    """`[%i + 1, symbol(%n)]`: the map and its (unresolved) dim then symbol operands."""
    amap, dims, syms = parser.parse_affine_map_of_ssa_ids("[")
    return amap, dims + syms


def parse_loop_bound(parser: Any, is_lower: bool) -> tuple[AffineMap, list[Value]]:
    """One affine.for bound: `%n`, an integer, or `[max|min] #map(%d..)[%s..]`."""
    has_prefix = parser.parse_optional_keyword("max" if is_lower else "min") is not None
    pos = parser.pos()
    ssa = parser.parse_optional_operand()
    if ssa is not None:
        if parser.parse_optional_punct(","):
            raise parser.error("expected only one loop bound operand", pos)
        return AffineMap(0, 1, (sym(0),)), [parser.resolve_operand(ssa, A.index)]
    attr = parser.parse_attribute(A.index)
    if type(attr) is A.IntegerAttr:
        return AffineMap.constant(attr.value), []
    if type(attr) is not A.AffineMapAttr:
        raise parser.error("expected valid affine map representation for loop bounds", pos)
    operands, num_dims = parse_dim_and_symbol_list(parser)
    amap = attr.value
    if amap.num_dims != num_dims:
        raise parser.error("dim operand count and affine map dim count must match", pos)
    if num_dims + amap.num_symbols != len(operands):
        raise parser.error("symbol operand count and affine map symbol count must match", pos)
    if amap.num_results > 1 and not has_prefix:
        which, kw = ("lower", "max") if is_lower else ("upper", "min")
        raise parser.error(
            f"{which} loop bound affine map with multiple results requires '{kw}' prefix", pos
        )
    return amap, resolve_indices(parser, operands)


def parse_parallel_bounds(parser: Any, keyword: str) -> tuple[AffineMap, list[int], list[Value]]:
    """affine.parallel's `(e0, max(e1, e2), ..)` over SSA names: the flat map, the size of each
    group, and the deduplicated dim then symbol operands."""
    parser.parse_punct("(")
    if parser.parse_optional_punct(")"):
        return AffineMap(0, 0, ()), [], []
    # Per result expression: the expression and its own dim/symbol operands.
    flat: list[tuple[AffineExpr, list[Any], list[Any]]] = []
    groups: list[int] = []

    def one() -> None:
        if parser.parse_optional_keyword(keyword) is not None:
            amap, dims, syms = parser.parse_affine_map_of_ssa_ids("(")
            for e in amap.results:
                flat.append((e, dims, syms))
            groups.append(amap.num_results)
        else:
            amap, dims, syms = parser.parse_affine_map_of_ssa_ids("")
            flat.append((amap.results[0], dims, syms))
            groups.append(1)

    parser.parse_comma_separated_list("none", one)
    parser.parse_punct(")")
    dim_values: list[Value] = []
    sym_values: list[Value] = []
    resolved = []
    for e, dims, syms in flat:
        dpos = [_position(dim_values, parser.resolve_operand(u, A.index)) for u in dims]
        spos = [_position(sym_values, parser.resolve_operand(u, A.index)) for u in syms]
        resolved.append((e, dpos, spos))
    nd, ns = len(dim_values), len(sym_values)
    exprs = [
        AffineMap(len(dpos), len(spos), (e,))
        .replace_dims_and_symbols([dim(i) for i in dpos], [sym(i) for i in spos], nd, ns)
        .results[0]
        for e, dpos, spos in resolved
    ]
    return AffineMap(nd, ns, exprs), groups, dim_values + sym_values


def _position(values: list[Value], v: Value) -> int:
    for i, x in enumerate(values):
        if x is v:
            return i
    values.append(v)
    return len(values) - 1


# ---------------------------------------------------------------------------------------------
# Printing


def ssa_names(p: Any, amap: AffineMap, operands: Sequence[Value]) -> tuple[list[str], list[str]]:
    """The names an expression over SSA ids prints for dims (`%i`) and symbols (`symbol(%n)`)."""
    nd = amap.num_dims
    dims = [p.value_name(v) for v in operands[:nd]]
    syms = [f"symbol({p.value_name(v)})" for v in operands[nd:]]
    return dims, syms


def subscripts_text(p: Any, amap: AffineMap, operands: Sequence[Value]) -> str:
    """`%i + 1, symbol(%n)` for a map over SSA operands (without the brackets)."""
    dims, syms = ssa_names(p, amap, operands)
    return ", ".join(e.format(dims, syms) for e in amap.results)


def print_dim_and_symbol_list(p: Any, operands: Sequence[Value], num_dims: int) -> None:
    p.write("(")
    p.print_operands(operands[:num_dims])
    p.write(")")
    if len(operands) > num_dims:
        p.write("[")
        p.print_operands(operands[num_dims:])
        p.write("]")


def print_map_and_operands(p: Any, amap: AffineMap, operands: Sequence[Value]) -> None:
    """` #map(%d..)[%s..]` (leading space included)."""
    p.write(" ")
    p.print_attribute(A.AffineMapAttr(amap))
    print_dim_and_symbol_list(p, operands, amap.num_dims)


def print_loop_bound(p: Any, amap: AffineMap, operands: Sequence[Value], prefix: str) -> None:
    """MLIR's affine.for bound: a constant, a lone symbol operand, or `[prefix] #map(..)[..]`."""
    if amap.num_results == 1:
        e = amap.results[0]
        if amap.num_dims == 0 and amap.num_symbols == 0 and type(e) is AffineConstantExpr:
            p.write(str(e.value))
            return
        if amap.num_dims == 0 and amap.num_symbols == 1 and type(e) is AffineSymbolExpr:
            p.print_operand(operands[0])
            return
    else:
        p.write(prefix + " ")
    p.print_attribute(A.AffineMapAttr(amap))
    print_dim_and_symbol_list(p, operands, amap.num_dims)


def print_parallel_bounds(
    p: Any, amap: AffineMap, groups: Sequence[int], operands: Sequence[Value], keyword: str
) -> None:
    """`(e0, max(e1, e2))`: each group of one result bare, larger groups under `keyword`."""
    dims, syms = ssa_names(p, amap, operands)
    parts = []
    start = 0
    for size in groups:
        texts = [e.format(dims, syms) for e in amap.results[start : start + size]]
        parts.append(texts[0] if len(texts) == 1 else f"{keyword}({', '.join(texts)})")
        start += size
    p.write("(" + ", ".join(parts) + ")")
