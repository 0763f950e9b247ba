"""Affine dialect rules shared by its ops and passes: which values are valid dims and symbols
(MLIR's `isValidDim` / `isValidSymbol`), and the canonical form of a map with its operands
(composing `affine.apply` producers, promoting symbols, dropping unused/duplicate operands and
folding constant operands into the map).
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.interfaces import is_pure
from mlc.ir import attributes as A
from mlc.ir.affine import AffineExpr, AffineMap, IntegerSet, const, dim, sym
from mlc.ir.core import BlockArgument, Operation, OpResult, Region, Value
from mlc.ir.opdef import AffineScope, ConstantLike, IsolatedFromAbove

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1

# Ops whose result is the size of a dimension of their first operand (MLIR's
# ShapedDimOpInterface); they live in other dialects, so they are known by name.
_DIM_OPS = frozenset(("memref.dim", "tensor.dim"))
# Loop ops whose entry block arguments include induction variables.
_FOR = "affine.for"
_PARALLEL = "affine.parallel"


# ---------------------------------------------------------------------------------------------
# Scopes and induction variables


def affine_scope(op: Operation) -> Region | None:
    """The closest region around `op` held by an op with the AffineScope trait."""
    cur = op
    parent = cur.parent_op
    while parent is not None:
        if AffineScope in type(parent)._traits:
            return cur.parent_region
        cur = parent
        parent = cur.parent_op
    return None


def _defining_region(value: Value) -> Region | None:
    if type(value) is OpResult:
        block = value.op.parent
    elif type(value) is BlockArgument:
        block = value.block
    else:
        return None  # a placeholder (unresolved reference) is defined nowhere
    return block.parent if block is not None else None


def is_top_level_value(value: Value) -> bool:
    """Defined (as a result or block argument) directly in the region of an AffineScope op."""
    region = _defining_region(value)
    owner = region.parent if region is not None else None
    return owner is not None and AffineScope in type(owner)._traits


def induction_var_owner(value: Value) -> Operation | None:
    """The affine.for (its first block argument) or affine.parallel whose IV `value` is."""
    if type(value) is not BlockArgument:
        return None
    region = value.block.parent
    owner = region.parent if region is not None else None
    if owner is None:
        return None
    if owner.name == _FOR:
        return owner if value.index == 0 else None
    if owner.name == _PARALLEL:
        return owner
    return None


def for_induction_var_owner(value: Value) -> Operation | None:
    """The affine.for whose induction variable `value` is, else None."""
    owner = induction_var_owner(value)
    return owner if owner is not None and owner.name == _FOR else None


# ---------------------------------------------------------------------------------------------
# Valid dims and symbols


def _parent_region_unless_isolated(region: Region | None) -> Region | None:
    owner = region.parent if region is not None else None
    if owner is None or IsolatedFromAbove in type(owner)._traits:
        return None
    return owner.parent_region


def is_valid_symbol(value: Value, region: Region | None = None) -> bool:
    """MLIR's rule: an index value that is defined at the top level of `region` (the affine
    scope), a constant, a pure op's result whose operands are valid symbols, a dim of a
    top-level memref/tensor, or a value dominating the scope's (non-isolated) parent op.

    Without `region`, the affine scope of the value's own definition is used.
    """
    if value.type is not A.index:
        return False
    if region is None:
        if is_top_level_value(value):
            return True
        if type(value) is not OpResult:
            return False
        region = affine_scope(value.op)
    if region is not None and _defining_region(value) is region:
        return True
    if type(value) is not OpResult:
        outer = _parent_region_unless_isolated(region)
        return outer is not None and is_valid_symbol(value, outer)
    op = value.op
    traits = type(op)._traits
    if ConstantLike in traits:
        return True
    if is_pure(op) and all(is_valid_symbol(u.value, region) for u in op._operands):
        return True
    if op.name in _DIM_OPS and op._operands:
        return is_top_level_value(op._operands[0].value)
    outer = _parent_region_unless_isolated(region)
    return outer is not None and is_valid_symbol(value, outer)


def is_valid_dim(value: Value, region: Region | None = None) -> bool:
    """MLIR's rule: a valid symbol, an affine loop induction variable, an affine.apply of
    valid dims, or a dim of a top-level memref/tensor."""
    if value.type is not A.index:
        return False
    if region is None and type(value) is OpResult:
        region = affine_scope(value.op)
    elif region is None:
        if induction_var_owner(value) is not None:
            return True
        return is_top_level_value(value)
    if is_valid_symbol(value, region):
        return True
    if type(value) is not OpResult:
        return induction_var_owner(value) is not None
    op = value.op
    if op.name == "affine.apply":
        return all(is_valid_dim(u.value, region) for u in op._operands)
    if op.name in _DIM_OPS and op._operands:
        return is_top_level_value(op._operands[0].value)
    return False


def verify_dims_and_symbols(op: Operation, operands: Sequence[Value], num_dims: int) -> None:
    """Raise MLIR's error when an operand is not a valid dim (first `num_dims`) or symbol."""
    if not operands:
        return
    scope = affine_scope(op)
    for i, v in enumerate(operands):
        if i < num_dims:
            if not is_valid_dim(v, scope):
                raise op.error("operand cannot be used as a dimension id")
        elif not is_valid_symbol(v, scope):
            raise op.error("operand cannot be used as a symbol")


# ---------------------------------------------------------------------------------------------
# Map (or set) + operands canonicalization


def constant_index(value: Value) -> int | None:
    """The integer held by a constant-like producer of `value`, else None."""
    if type(value) is not OpResult:
        return None
    op = value.op
    if ConstantLike not in type(op)._traits:
        return None
    attr = op.get_attr("value")
    return attr.value if type(attr) is A.IntegerAttr else None  # type: ignore[union-attr]


def _promote_symbols(amap: AffineMap, operands: list[Value]) -> tuple[AffineMap, list[Value]]:
    """Dims whose operands are valid symbols become symbols (MLIR's canonicalizePromotedSymbols)."""
    nd, ns = amap.num_dims, amap.num_symbols
    dim_repl: list[AffineExpr] = []
    kept: list[Value] = []
    promoted: list[Value] = []
    for i in range(nd):
        v = operands[i]
        if is_valid_symbol(v):
            dim_repl.append(sym(ns + len(promoted)))
            promoted.append(v)
        else:
            dim_repl.append(dim(len(kept)))
            kept.append(v)
    if not promoted:
        return amap, operands
    new = amap.replace_dims_and_symbols(
        dim_repl, [sym(i) for i in range(ns)], len(kept), ns + len(promoted)
    )
    return new, kept + operands[nd:] + promoted


def _used_positions(exprs: Sequence[AffineExpr], nd: int, ns: int) -> tuple[list[bool], list[bool]]:
    dims = [any(e.is_function_of_dim(i) for e in exprs) for i in range(nd)]
    syms = [any(e.is_function_of_symbol(i) for e in exprs) for i in range(ns)]
    return dims, syms


# The dims and symbols each map uses (maps are uniqued and immutable): canonicalization asks
# again for every op it revisits.
_USED: dict[AffineMap, tuple[list[bool], list[bool]]] = {}


def canonicalize_map_and_operands(
    amap: AffineMap, operands: Sequence[Value]
) -> tuple[AffineMap, list[Value]]:
    """MLIR's canonicalizeMapAndOperands: promote symbol-valued dims to symbols, drop unused
    operands, merge duplicates and fold constant symbol operands into the map."""
    ops = list(operands)
    if not ops:
        return amap, ops
    amap, ops = _promote_symbols(amap, ops)
    nd, ns = amap.num_dims, amap.num_symbols
    used = _USED.get(amap)
    if used is None:
        used = _USED[amap] = _used_positions(amap.results, nd, ns)
    used_dims, used_syms = used
    result: list[Value] = []
    dim_repl: list[AffineExpr] = []
    seen: dict[Value, AffineExpr] = {}
    # Whether every input keeps its position (the common case: no substitution to make).
    identity = True
    for i in range(nd):
        if not used_dims[i]:
            dim_repl.append(const(0))
            identity = False
            continue
        v = ops[i]
        e = seen.get(v)
        if e is None:
            e = seen[v] = dim(len(result))
            result.append(v)
        else:
            identity = False
        dim_repl.append(e)
    n_dims = len(result)
    sym_repl: list[AffineExpr] = []
    seen = {}
    for i in range(ns):
        if not used_syms[i]:
            sym_repl.append(const(0))
            identity = False
            continue
        v = ops[nd + i]
        c = constant_index(v)
        if c is not None:
            sym_repl.append(const(c))
            identity = False
            continue
        e = seen.get(v)
        if e is None:
            e = seen[v] = sym(len(result) - n_dims)
            result.append(v)
        else:
            identity = False
        sym_repl.append(e)
    if identity:
        return amap, result
    new = amap.replace_dims_and_symbols(dim_repl, sym_repl, n_dims, len(result) - n_dims)
    return new, result


def _apply_producer(value: Value) -> Operation | None:
    if type(value) is OpResult and value.op.name == "affine.apply":
        return value.op
    return None


def _replace_dim_or_sym(
    amap: AffineMap, pos: int, dims: list[Value | None], syms: list[Value | None]
) -> AffineMap | None:
    """Substitute the affine.apply producing input `pos` (a dim, else a symbol) into `amap`;
    its operands are appended to `dims`/`syms` and the replaced entry set to None (MLIR's
    replaceDimOrSym, so operand order follows MLIR's)."""
    is_dim = pos < len(dims)
    group = dims if is_dim else syms
    index = pos if is_dim else pos - len(dims)
    v = group[index]
    producer = _apply_producer(v) if v is not None else None
    if producer is None:
        return None
    group[index] = None
    pmap = producer.get_attr("map").value  # type: ignore[union-attr]
    pmap, pops = canonicalize_map_and_operands(pmap, [u.value for u in producer._operands])
    pd, ps = pmap.num_dims, pmap.num_symbols
    nd, ns = len(dims), len(syms)
    repl = pmap.replace_dims_and_symbols(
        [dim(nd + i) for i in range(pd)], [sym(ns + i) for i in range(ps)], nd + pd, ns + ps
    ).results[0]
    dims.extend(pops[:pd])
    syms.extend(pops[pd:])
    dim_repl: list[AffineExpr] = [dim(i) for i in range(nd)]
    sym_repl: list[AffineExpr] = [sym(i) for i in range(ns)]
    (dim_repl if is_dim else sym_repl)[index] = repl
    return amap.replace_dims_and_symbols(dim_repl, sym_repl, len(dims), len(syms))


def compose_map_and_operands(
    amap: AffineMap, operands: Sequence[Value]
) -> tuple[AffineMap, list[Value]]:
    """Substitute the maps of `affine.apply` ops producing the operands (until none is left),
    then canonicalize and simplify: MLIR's composeAffineMapAndOperands."""
    ops = list(operands)
    if amap.num_results == 0:
        amap, ops = canonicalize_map_and_operands(amap, ops)
        return simplified(amap), ops
    if not any(_apply_producer(v) is not None for v in ops):
        amap, ops = canonicalize_map_and_operands(amap, ops)
        return simplified(amap), ops
    dims: list[Value | None] = list(ops[: amap.num_dims])
    syms: list[Value | None] = list(ops[amap.num_dims :])
    changed = True
    while changed:
        changed = False
        for pos in range(len(dims) + len(syms)):
            new = _replace_dim_or_sym(amap, pos, dims, syms)
            if new is not None:
                amap = new
                changed = True
                break
    # Drop the replaced (now unused) inputs.
    result: list[Value] = []
    dim_repl: list[AffineExpr] = []
    for v in dims:
        dim_repl.append(const(0) if v is None else dim(len(result)))
        if v is not None:
            result.append(v)
    n_dims = len(result)
    sym_repl: list[AffineExpr] = []
    for v in syms:
        sym_repl.append(const(0) if v is None else sym(len(result) - n_dims))
        if v is not None:
            result.append(v)
    amap = amap.replace_dims_and_symbols(dim_repl, sym_repl, n_dims, len(result) - n_dims)
    amap, result = canonicalize_map_and_operands(amap, result)
    return simplified(amap), result


# `AffineMap.simplify` of each map met (maps are uniqued and immutable, and live as long as the
# uniquing table that holds them): canonicalization asks it again for every op it revisits.
_SIMPLIFIED: dict[AffineMap, AffineMap] = {}


def simplified(amap: AffineMap) -> AffineMap:
    """`amap.simplify()`, computed once per map."""
    out = _SIMPLIFIED.get(amap)
    if out is None:
        out = _SIMPLIFIED[amap] = amap.simplify()
    return out


def canonicalize_set_and_operands(
    iset: IntegerSet, operands: Sequence[Value]
) -> tuple[IntegerSet, list[Value]]:
    """`compose_map_and_operands` for an integer set (its constraints viewed as a map)."""
    amap = AffineMap(iset.num_dims, iset.num_symbols, iset.constraints)
    if any(_apply_producer(v) is not None for v in operands):
        amap, ops = compose_map_and_operands(amap, operands)
    else:
        ops = list(operands)
    amap, ops = canonicalize_map_and_operands(amap, ops)
    return IntegerSet(amap.num_dims, amap.num_symbols, amap.results, iset.eq_flags), ops


def fold_map(amap: AffineMap, values: Sequence[int | None]) -> list[int | None]:
    """Each result's value when every input it uses is known (None: unknown or undefined)."""
    nd = amap.num_dims
    out: list[int | None] = []
    for e in amap.results:
        single = AffineMap(nd, amap.num_symbols, (e,))
        known = True
        for i in range(nd):
            if values[i] is None and e.is_function_of_dim(i):
                known = False
                break
        if known:
            for i in range(amap.num_symbols):
                if values[nd + i] is None and e.is_function_of_symbol(i):
                    known = False
                    break
        if not known:
            out.append(None)
            continue
        args = [0 if v is None else v for v in values]
        try:
            r = single.evaluate(args[:nd], args[nd:])[0]
        except ZeroDivisionError:
            out.append(None)
            continue
        out.append(r if _INT64_MIN <= r <= _INT64_MAX else None)
    return out
