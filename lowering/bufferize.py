"""`bufferize`: tensors to memrefs, in destination-passing style.

What the pass does, per function (the body must be one block; anything else holding tensors is
reported as "not supported"):

- Signature: each tensor argument becomes a memref of the same shape with the identity layout;
  each tensor result k becomes a trailing out-parameter (its memref), so a public function
  `@f(tensor<?x4xf32>) -> tensor<?x4xf32>` becomes `@f(memref<?x4xf32>, memref<?x4xf32>)`.
  Non-tensor results stay results. The attribute `mlc.result_shapes` gets one map per tensor
  result (per out-parameter, in order): `()[s0, s1, ...] -> (sizes)`, whose symbols are all
  dims of all memref inputs in argument order, so callers (the runtime) can allocate the
  outputs first; a result dim that is not an affine function of the input dims is "not
  supported".
- `tensor.generic` becomes its buffer form (memref operands, no results), writing each output
  into a destination buffer chosen by these rules (correctness first):
  1. an output that is a `tensor.empty`, or whose current value the body never reads, gets a
     fresh buffer: the function's out-parameter k when the result is (through `tensor.cast`s
     and destination chains) the value returned as result k, else a `memref.alloc`;
  2. an output value is updated in place when neither it nor any view of the same buffer is
     used after the op, no other operand of the op shares the buffer, and the buffer is not a
     function argument or a global (the out-parameters qualify);
  3. otherwise its contents are copied (`memref.copy`) into a fresh buffer as in 1.
  `tensor.insert_slice` and `tensor.insert` choose their destination by the same rules.
- Views: `tensor.extract_slice` is a `memref.subview`, `tensor.cast` a `memref.cast`,
  `tensor.collapse_shape`/`expand_shape` a `memref.reinterpret_cast` of a contiguous buffer
  (a copy first when the source is a strided view); `tensor.pad` allocates, fills (a buffer
  `tensor.generic`) and copies the source into a subview; `tensor.splat` allocates and fills;
  `tensor.extract`/`insert` are `memref.load`/`store`; `tensor.dim` is `memref.dim`;
  dense tensor `arith.constant`s become private constant `memref.global`s (one per distinct
  value, named as MLIR's `__constant_<shape>`) read with `memref.get_global`.
- `func.call` passes memrefs (contiguous, copied first when a view) and allocates the callee's
  out-parameters (dynamic sizes from the callee's `mlc.result_shapes`).
- Every `memref.alloc` made (alignment 64) is freed by a `memref.dealloc` right after the last
  use of the buffer or of a view of it; function arguments, out-parameters and globals are
  never freed. A returned value whose buffer is not its out-parameter is copied into it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mlc.dialects import affine_ops, arith, func, memref, tensor
from mlc.lowering.index_arith import IndexArith

from mlc.diagnostics import Diagnostic, engine
from mlc.ir import attributes as A
from mlc.ir.affine import AffineExpr, AffineMap, const, sym
from mlc.ir.affine import dim as affine_dim
from mlc.ir.core import Block, Operation, Value
from mlc.pass_manager import Pass, PassContext, Statistic

__all__ = ["BufferizePass", "bufferize_module", "Unsupported"]

DYNAMIC = A.DYNAMIC
DYN_INDEX = tensor.DYNAMIC_INDEX
ALIGNMENT = 64
RESULT_SHAPES = "mlc.result_shapes"
_VIEW_OPS = frozenset(("memref.subview", "memref.reinterpret_cast", "memref.cast"))


class Unsupported(Exception):
    """Input this pass cannot bufferize; `op` is where to report it."""

    def __init__(self, op: Operation, what: str) -> None:
        super().__init__(f"not supported: {what}")
        self.op = op


def is_tensor(t: A.Type) -> bool:
    return type(t) is A.RankedTensorType or type(t) is A.UnrankedTensorType


def memref_of(t: A.Type, op: Operation) -> A.MemRefType:
    """The identity-layout memref type of a ranked tensor type."""
    if type(t) is not A.RankedTensorType:
        raise Unsupported(op, f"unranked tensor type {t}")
    if t.encoding is not None:  # type: ignore[attr-defined]
        raise Unsupported(op, f"tensor with an encoding ({t})")
    return A.MemRefType(t.shape, t.element_type)


# ---------------------------------------------------------------------------------------------
# Result shapes: each dim of a returned tensor as an affine function of the input dims


class ShapeAnalysis:
    """Symbolic sizes on the tensor IR of one function: symbol j is the j-th dim over all
    tensor/memref arguments in order. `dim(v, i)` is an AffineExpr or None (not affine).

    The entry block is analyzed once, in order (values are defined before their uses), so
    long chains need no recursion; `dim`/`index` then look the answers up.
    """

    def __init__(self, fn: func.FuncOp, result_maps: Any) -> None:
        self.arg_sym: dict[Value, int] = {}
        n = 0
        for a in fn.arguments:
            if type(a.type) in (A.RankedTensorType, A.MemRefType):
                self.arg_sym[a] = n
                n += a.type.rank  # type: ignore[attr-defined]
        self.num_symbols = n
        self.result_maps = result_maps  # callee name -> list of maps or None
        self.memo: dict[tuple[Value, int], AffineExpr | None] = {}
        self.index_memo: dict[Value, AffineExpr | None] = {}
        for op in fn.entry_block:
            for r in op.results:
                t = r.type
                if t is A.index:
                    self.index_memo[r] = self._index(r)
                elif type(t) is A.RankedTensorType:
                    for i, d in enumerate(t.shape):
                        if d == DYNAMIC:
                            self.memo[(r, i)] = self._dim(r, i)

    def dim(self, v: Value, i: int) -> AffineExpr | None:
        shape = getattr(v.type, "shape", None)
        if shape is not None and i < len(shape) and shape[i] != DYNAMIC:
            return const(shape[i])
        if v in self.arg_sym:
            return sym(self.arg_sym[v] + i)
        return self.memo.get((v, i))

    def _dim(self, v: Value, i: int) -> AffineExpr | None:
        if v in self.arg_sym:
            return sym(self.arg_sym[v] + i)
        op = v.defining_op()
        if op is None:
            return None
        t = type(op)
        if t is tensor.EmptyOp or t is tensor.SplatOp:
            return self._dynamic_operand(op, v.type, i, op.dynamicSizes)  # type: ignore[attr-defined]
        if t is tensor.ExpandShapeOp:
            return self._dynamic_operand(op, v.type, i, op.output_shape)  # type: ignore[attr-defined]
        if t is tensor.GenericOp:
            return self.dim(op.outputs[v.index], i)  # type: ignore[attr-defined]
        if t is tensor.CastOp:
            return self.dim(op.source, i)  # type: ignore[attr-defined]
        if t is tensor.InsertSliceOp or t is tensor.InsertOp:
            return self.dim(op.dest, i)  # type: ignore[attr-defined]
        if t is tensor.ExtractSliceOp:
            kept = [d for d in range(len(op.static_sizes.values)) if d not in op.dropped_dims()]  # type: ignore[attr-defined]
            return self._mixed(op.static_sizes.values, op.sizes, kept[i])  # type: ignore[attr-defined]
        if t is tensor.PadOp:
            src = self.dim(op.source, i)  # type: ignore[attr-defined]
            lo = self._mixed(op.static_low.values, op.low, i)  # type: ignore[attr-defined]
            hi = self._mixed(op.static_high.values, op.high, i)  # type: ignore[attr-defined]
            return None if src is None or lo is None or hi is None else src + lo + hi
        if t is tensor.CollapseShapeOp:
            e: AffineExpr | None = const(1)
            for d in op.reassociation_indices()[i]:  # type: ignore[attr-defined]
                f = self.dim(op.src, d)  # type: ignore[attr-defined]
                if e is None or f is None:
                    return None
                e = _affine_mul(e, f)
            return e
        if t is func.CallOp:
            maps = self.result_maps(op)
            if maps is None:
                return None
            m = maps[_tensor_index(op, v.index)]
            subs: list[AffineExpr] = []
            for a in op.operands:
                if type(a.type) in (A.RankedTensorType, A.MemRefType):
                    for d in range(a.type.rank):  # type: ignore[attr-defined]
                        s = self.dim(a, d)
                        if s is None:
                            return None
                        subs.append(s)
            return m.results[i].replace_dims_and_symbols([], subs)
        return None

    def _dynamic_operand(
        self, op: Operation, t: Any, i: int, operands: Sequence[Value]
    ) -> AffineExpr | None:
        k = sum(1 for d in t.shape[:i] if d == DYNAMIC)
        return self.index(operands[k])

    def _mixed(self, static: Sequence[int], dynamic: Sequence[Value], i: int) -> AffineExpr | None:
        if static[i] != DYN_INDEX:
            return const(static[i])
        k = sum(1 for s in static[:i] if s == DYN_INDEX)
        return self.index(dynamic[k])

    def index(self, v: Value) -> AffineExpr | None:
        """An `index` value as an affine expression of the symbols, or None."""
        return self.index_memo.get(v)

    def _index(self, v: Value) -> AffineExpr | None:
        op = v.defining_op()
        if op is None:
            return None
        name = op.name
        if name == "arith.constant":
            a = op.get_attr("value")
            return const(a.value) if type(a) is A.IntegerAttr else None  # type: ignore[union-attr]
        if name in ("tensor.dim", "memref.dim"):
            c = _constant_int(op.operands[1])
            return None if c is None else self.dim(op.operands[0], c)
        if name == "affine.apply":
            m = op.get_attr("map").value  # type: ignore[union-attr]
            args = [self.index(a) for a in op.operands]
            if any(a is None for a in args) or m.num_results != 1:
                return None
            return m.results[0].replace_dims_and_symbols(args[: m.num_dims], args[m.num_dims :])
        if name in _INDEX_BINARY:
            a, b = (self.index(x) for x in op.operands)
            if a is None or b is None:
                return None
            return _INDEX_BINARY[name](a, b)
        return None


def _affine_mul(a: AffineExpr, b: AffineExpr) -> AffineExpr | None:
    e = a * b
    return e if e.is_pure_affine() else None


def _affine_div(a: AffineExpr, b: AffineExpr, ceil: bool = False) -> AffineExpr | None:
    c = _as_int(b)
    if c is None or c <= 0:
        return None
    return a.ceildiv(c) if ceil else a // c  # type: ignore[attr-defined]


def _as_int(e: AffineExpr) -> int | None:
    return getattr(e, "value", None) if type(e).__name__ == "AffineConstantExpr" else None


_INDEX_BINARY: dict[str, Any] = {
    "arith.addi": lambda a, b: a + b,
    "arith.subi": lambda a, b: a - b,
    "arith.muli": _affine_mul,
    "arith.divui": _affine_div,
    "arith.floordivsi": _affine_div,
    "arith.ceildivsi": lambda a, b: _affine_div(a, b, True),
    "arith.ceildivui": lambda a, b: _affine_div(a, b, True),
}


def _constant_int(v: Value) -> int | None:
    op = v.defining_op()
    if op is None or op.name != "arith.constant":
        return None
    a = op.get_attr("value")
    return a.value if type(a) is A.IntegerAttr else None  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------------
# One function


class _Root:
    """A buffer: `kind` is "arg", "out", "alloc" or "global"; `members` the tensor values
    whose buffer is it or a view of it, `last_use` the position of their latest use."""

    __slots__ = ("kind", "members", "last_use")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.members: list[Value] = []
        self.last_use = -1  # the latest position where a member is used


class FuncBufferizer(IndexArith):
    """Rewrites the body of one function; see the module docstring for the rules."""

    def __init__(self, mod: ModuleBufferizer, fn: func.FuncOp) -> None:
        self.mod = mod
        self.fn = fn
        self.block = fn.entry_block
        self.buf: dict[Value, Value] = {}
        self.root: dict[Value, _Root] = {}
        self.whole_out: dict[Value, int] = {}  # tensor value -> k when its buffer is out k
        self.allocs: list[Operation] = []
        self.anchor: Operation | None = None
        self.pos: dict[Operation, int] = {}
        self.last_use: dict[Value, int] = {}
        self.hint: dict[Value, int] = {}
        self.outs: list[Value] = []
        self.out_used: set[int] = set()

    # -- analysis ---------------------------------------------------------------------------

    def analyze(self) -> None:
        block = self.block
        for i, op in enumerate(block):
            self.pos[op] = i
        for i, op in enumerate(block):
            for inner in op.walk():
                for v in inner.operands:
                    if is_tensor(v.type) and self.last_use.get(v, -1) < i:
                        self.last_use[v] = i
        ret = block.last
        for k, v in enumerate(self.tensor_return_values(ret)):
            if v is not None and v not in self.hint:
                self._propagate_hint(v, k)

    def tensor_return_values(self, ret: Operation | None) -> list[Value | None]:
        """Per tensor result k of the function, the returned value."""
        if ret is None:
            return []
        return [v for v in ret.operands if is_tensor(v.type)]

    def _propagate_hint(self, v: Value, k: int) -> None:
        """`v` (returned as result k) should be computed into out-parameter k; so should the
        destination it updates when that destination has no other use."""
        while True:
            self.hint[v] = k
            op = v.defining_op()
            if op is None:
                return
            t = type(op)
            if t is tensor.CastOp:
                nxt = op.source  # type: ignore[attr-defined]
            elif t is tensor.GenericOp:
                nxt = op.outputs[v.index]  # type: ignore[attr-defined]
            elif t is tensor.InsertSliceOp or t is tensor.InsertOp:
                nxt = op.dest  # type: ignore[attr-defined]
            else:
                return
            if not nxt.has_one_use() or nxt in self.hint:
                return
            v = nxt

    # -- building ---------------------------------------------------------------------------

    def insert(self, op: Operation) -> Operation:
        anchor = self.anchor
        assert anchor is not None
        op.location = anchor.location
        self.block.insert_before(op, anchor)
        return op

    def index(self, value: int) -> Value:
        return self.insert(arith.ConstantOp.from_int(value, A.index)).results[0]

    def arith_op(self, cls: Any, operands: list[Value]) -> Value:
        return self.insert(cls.build(operands)).results[0]

    def dim_of(self, m: Value, i: int) -> int | Value:
        """Dim `i` of memref `m`: an int when static, else a memref.dim."""
        d = m.type.shape[i]  # type: ignore[attr-defined]
        if d != DYNAMIC:
            return d
        return self.insert(memref.DimOp.build([m, self.index(i)])).results[0]

    def alloc(self, t: A.MemRefType, sizes: Sequence[int | Value]) -> Value:
        """A memref.alloc of `t`; `sizes[i]` gives dim i where `t` has `?`."""
        dyn = [self.size(s) for s, d in zip(sizes, t.shape) if d == DYNAMIC]
        attrs = {"alignment": A.IntegerAttr(ALIGNMENT, A.i64)}
        op = self.insert(memref.AllocOp.build([dyn, []], [t], attrs))
        self.allocs.append(op)
        return op.results[0]

    def cast(self, m: Value, shape: Sequence[int]) -> Value:
        """`m` as a memref of `shape` (a memref.cast when the static information differs)."""
        t = m.type
        if tuple(shape) == t.shape:  # type: ignore[attr-defined]
            return m
        nt = A.MemRefType(shape, t.element_type, t.layout, t.memory_space)  # type: ignore[attr-defined]
        return self.insert(memref.CastOp.build([m], [nt])).results[0]

    def copy(self, src: Value, dst: Value) -> None:
        src = self.cast(src, dst.type.shape)  # type: ignore[attr-defined]
        self.insert(memref.CopyOp.build([src, dst]))

    def subview(
        self,
        src: Value,
        static: tuple[Sequence[int], Sequence[int], Sequence[int]],
        dynamic: tuple[Sequence[Value], Sequence[Value], Sequence[Value]],
        result_shape: Sequence[int],
    ) -> Value:
        """A memref.subview of `src`; unit dims dropped so the shape is `result_shape`."""
        full = memref.infer_subview_type(src.type, *static)  # type: ignore[arg-type]
        dropped = tensor.rank_reduction_mask(full.shape, result_shape)
        if dropped is None:
            dropped = []
        layout = full.layout
        strides = [s for d, s in enumerate(layout.strides) if d not in dropped]  # type: ignore[union-attr]
        shape = [s for d, s in enumerate(full.shape) if d not in dropped]
        rt = A.MemRefType(
            shape,
            full.element_type,
            A.StridedLayoutAttr(strides, layout.offset),
            full.memory_space,  # type: ignore[union-attr]
        )
        attrs = {
            "static_offsets": tensor.i64_array(static[0]),
            "static_sizes": tensor.i64_array(static[1]),
            "static_strides": tensor.i64_array(static[2]),
        }
        groups = [src, list(dynamic[0]), list(dynamic[1]), list(dynamic[2])]
        return self.insert(memref.SubViewOp.build(groups, [rt], attrs)).results[0]

    def fill(self, dst: Value, value: Value | Operation) -> None:
        """A buffer tensor.generic writing `value` (a Value, or a constant op to clone into the
        body) to every element of `dst`."""
        rank = dst.type.rank  # type: ignore[attr-defined]

        def body(block: Block) -> list[Value]:
            if isinstance(value, Operation):
                return [block.append(value.clone()).results[0]]
            return [value]

        m = AffineMap(rank, 0, [affine_dim(i) for i in range(rank)])
        self.insert(tensor.GenericOp.of([], [dst], [m], [tensor.PARALLEL] * rank, body))

    # -- buffers of tensor values ------------------------------------------------------------

    def bind(self, v: Value, m: Value, root: _Root, whole_out: int | None = None) -> None:
        self.buf[v] = m
        self.root[v] = root
        root.members.append(v)
        last = self.last_use.get(v, -1)
        if last > root.last_use:
            root.last_use = last
        if whole_out is not None:
            self.whole_out[v] = whole_out

    def get(self, v: Value) -> Value:
        """The buffer of tensor value `v` (an unused-content `tensor.empty` gets an alloc)."""
        m = self.buf.get(v)
        if m is not None:
            return m
        op = v.defining_op()
        if type(op) is tensor.EmptyOp:
            m = self.alloc(memref_of(v.type, op), self.empty_sizes(op))
            self.bind(v, m, _Root("alloc"))
            return m
        raise Unsupported(op or self.fn, f"a tensor value without a buffer (of type {v.type})")

    def empty_sizes(self, op: Operation) -> list[int | Value]:
        dyn = iter(op.operands)
        return [next(dyn) if d == DYNAMIC else d for d in op.results[0].type.shape]  # type: ignore[attr-defined]

    def sizes_of(self, v: Value) -> list[int | Value]:
        """The sizes of tensor value `v` (from a tensor.empty's operands when it is one)."""
        op = v.defining_op()
        if type(op) is tensor.EmptyOp and v not in self.buf:
            return self.empty_sizes(op)
        m = self.get(v)
        return [self.dim_of(m, i) for i in range(m.type.rank)]  # type: ignore[attr-defined]

    def fresh(
        self, result: Value, sizes: Callable[[], Sequence[int | Value]]
    ) -> tuple[Value, _Root, int | None]:
        """A new buffer for `result`: its out-parameter when hinted and still free, else an
        alloc (of the sizes `sizes()` computes)."""
        t = memref_of(result.type, result.owner)  # type: ignore[arg-type]
        k = self.hint.get(result)
        if k is not None and k not in self.out_used:
            self.out_used.add(k)
            return self.cast(self.outs[k], t.shape), self.out_roots[k], k
        return self.alloc(t, sizes()), _Root("alloc"), None

    def can_reuse(self, v: Value, op: Operation, operand_index: int) -> bool:
        root = self.root.get(v)
        if root is None or root.kind not in ("alloc", "out"):
            return False
        if root.last_use > self.pos[op]:
            return False
        for i, u in enumerate(op.op_operands):
            if i != operand_index and self.root.get(u.value) is root:
                return False
        return True

    def destination(
        self, init: Value, result: Value, op: Operation, operand_index: int, reads: bool
    ) -> None:
        """Bind `result` (the updated `init`) to a buffer holding `init`'s contents when
        `reads` (rules 1-3 of the module docstring)."""
        init_op = init.defining_op()
        if type(init_op) is tensor.EmptyOp and init not in self.buf:
            reads = False
        if not reads:
            m, root, k = self.fresh(result, lambda: self.sizes_of(init))
            self.bind(result, m, root, k)
            return
        if self.can_reuse(init, op, operand_index):
            self.bind(result, self.buf[init], self.root[init], self.whole_out.get(init))
            return
        src = self.get(init)
        m, root, k = self.fresh(result, lambda: self.sizes_of(init))
        self.copy(src, m)
        self.bind(result, m, root, k)

    def contiguous(self, v: Value) -> tuple[Value, _Root]:
        """The buffer of `v` and its root, copied into a new contiguous buffer first when it
        is a strided view."""
        m = self.get(v)
        if m.type.layout is None:  # type: ignore[attr-defined]
            return m, self.root[v]
        t = memref_of(v.type, v.owner)  # type: ignore[arg-type]
        fresh = self.alloc(t, [self.dim_of(m, i) for i in range(t.rank)])
        self.copy(m, fresh)
        return fresh, _Root("alloc")

    # -- the rewrite -------------------------------------------------------------------------

    def run(self, out_types: list[A.MemRefType]) -> None:
        block = self.block
        self.analyze()
        # New arguments: the converted inputs, then the out-parameters.
        old_args = list(block.arguments)
        for a in old_args:
            if is_tensor(a.type):
                new = block.add_argument(memref_of(a.type, self.fn), a.location)
                self.bind(a, new, _Root("arg"))
            else:
                new = block.add_argument(a.type, a.location)
                a.replace_all_uses_with(new)
        self.outs = [block.add_argument(t) for t in out_types]
        self.out_roots = [_Root("out") for _ in out_types]
        converted: list[Operation] = []
        for op in list(block):
            self.anchor = op
            if self.rewrite(op):
                converted.append(op)
        for op in reversed(converted):
            op.erase(drop_uses=True)
        for _ in old_args:
            block.erase_argument(0)
        self.insert_deallocs()

    def rewrite(self, op: Operation) -> bool:
        """Rewrite one op of the body; True when the (tensor) op is to be erased."""
        name = op.name
        handler = _HANDLERS.get(name)
        if handler is not None and (name != "arith.constant" or is_tensor(op.results[0].type)):
            handler(self, op)
            return True
        if name == "func.return":
            _return(self, op)
            return True
        if name == "func.call" and any(is_tensor(v.type) for v in (*op.operands, *op.results)):
            _call(self, op)
            return True
        check_no_tensors(op)
        return False

    def insert_deallocs(self) -> None:
        """A memref.dealloc after the last use of each alloc made (or of a view of it)."""
        block = self.block
        pos = {op: i for i, op in enumerate(block)}
        for alloc in self.allocs:
            values = [alloc.results[0]]
            last: Operation = alloc
            i = 0
            while i < len(values):
                for user in values[i].users:
                    anc = user
                    while anc.parent is not block:
                        anc = anc.parent_op  # type: ignore[assignment]
                    if pos[anc] > pos[last]:
                        last = anc
                    if user.name in _VIEW_OPS and user.results:
                        values.append(user.results[0])
                i += 1
            if last.name == "func.return":
                raise Unsupported(last, "returning an allocated buffer")
            dealloc = memref.DeallocOp.build([alloc.results[0]])
            dealloc.location = last.location
            block.insert_after(dealloc, last)
            pos[dealloc] = pos[last]  # not a user of later allocs


def check_no_tensors(op: Operation, where: str = "") -> None:
    """Raise Unsupported when `op` (or anything nested) has tensor values."""
    for inner in op.walk():
        for v in (*inner.operands, *inner.results):
            if is_tensor(v.type):
                raise Unsupported(inner, f"'{inner.name}' on tensors{where}")
        for region in inner.regions:
            for b in region.blocks:
                for a in b.arguments:
                    if is_tensor(a.type):
                        raise Unsupported(
                            inner, f"'{inner.name}' with tensor block arguments{where}"
                        )


# -- per-op handlers ------------------------------------------------------------------------


def _generic(b: FuncBufferizer, op: Any) -> None:
    ins = [b.get(v) for v in op.inputs]
    n_in = len(ins)
    args = op.body.arguments
    outs = []
    taken: set[int] = set()
    for j, (init, res) in enumerate(zip(op.outputs, op.results)):
        reads = args[n_in + j].has_uses()
        i = None if reads or res in b.hint else _reusable_input(b, op, j, taken)
        if i is not None:
            taken.add(i)
            v = op.inputs[i]
            b.bind(res, b.buf[v], b.root[v])
        else:
            b.destination(init, res, op, n_in + j, reads)
        outs.append(b.buf[res])
    attrs = dict(op.attributes)
    attrs["operandSegmentSizes"] = tensor.segments(n_in, len(outs))
    new = tensor.GenericOp.create([*ins, *outs], [], attrs, 1)
    new.regions[0].take_body(op.regions[0])
    b.insert(new)


def _reusable_input(b: FuncBufferizer, op: Any, j: int, taken: set[int]) -> int | None:
    """An input whose buffer output `j` (whose current value is not read) may overwrite: all
    loops parallel, the same indexing map and type (each element is read in the iteration that
    writes it, before the write), and a buffer that may be updated in place (`can_reuse`)."""
    if any(k != tensor.PARALLEL for k in op.iterator_kinds()):
        return None
    maps = op.indexing_map_list()
    n_in = len(op.inputs)
    res = op.results[j]
    for i, v in enumerate(op.inputs):
        if i in taken or v.type is not res.type or maps[i] is not maps[n_in + j]:
            continue
        m = b.buf.get(v)
        if m is None or m.type.layout is not None:
            continue
        if b.can_reuse(v, op, i):
            return i
    return None


def _empty(b: FuncBufferizer, op: Any) -> None:
    """Buffers are made at each use (a destination gets its own; see `get`)."""


def _dim_op(b: FuncBufferizer, op: Any) -> None:
    src, idx = op.source, op.index
    c = _constant_int(idx)
    d = src.defining_op()
    if type(d) is tensor.EmptyOp and src not in b.buf and c is not None and c < src.type.rank:
        s = b.empty_sizes(d)[c]
        op.results[0].replace_all_uses_with(b.size(s))
        return
    new = b.insert(memref.DimOp.build([b.get(src), idx]))
    op.results[0].replace_all_uses_with(new.results[0])


def _cast(b: FuncBufferizer, op: Any) -> None:
    src = op.source
    m = b.get(src)
    res = op.results[0]
    b.bind(res, b.cast(m, memref_of(res.type, op).shape), b.root[src], b.whole_out.get(src))


def _extract_slice(b: FuncBufferizer, op: Any) -> None:
    src = b.get(op.source)
    res = op.results[0]
    static = (op.static_offsets.values, op.static_sizes.values, op.static_strides.values)
    m = b.subview(src, static, (op.offsets, op.sizes, op.strides), res.type.shape)
    b.bind(res, m, b.root[op.source])


def _insert_slice(b: FuncBufferizer, op: Any) -> None:
    res = op.results[0]
    b.destination(op.dest, res, op, 1, True)
    static = (op.static_offsets.values, op.static_sizes.values, op.static_strides.values)
    view = b.subview(b.buf[res], static, (op.offsets, op.sizes, op.strides), op.source.type.shape)
    b.copy(b.get(op.source), view)


def _insert(b: FuncBufferizer, op: Any) -> None:
    res = op.results[0]
    b.destination(op.dest, res, op, 1, True)
    b.insert(memref.StoreOp.build([op.scalar, b.buf[res], list(op.indices)]))


def _extract(b: FuncBufferizer, op: Any) -> None:
    load = b.insert(memref.LoadOp.build([b.get(op.tensor), list(op.indices)]))
    op.results[0].replace_all_uses_with(load.results[0])


def _splat(b: FuncBufferizer, op: Any) -> None:
    res = op.results[0]
    m, root, k = b.fresh(res, lambda: _splat_sizes(op))
    b.fill(m, op.input)
    b.bind(res, m, root, k)


def _splat_sizes(op: Any) -> list[int | Value]:
    dyn = iter(op.dynamicSizes)
    return [next(dyn) if d == DYNAMIC else d for d in op.results[0].type.shape]


def _pad(b: FuncBufferizer, op: Any) -> None:
    value = _pad_value(op)
    src = b.get(op.source)
    res = op.results[0]
    rank = res.type.rank
    lows = _mixed_values(op.static_low.values, op.low)
    highs = _mixed_values(op.static_high.values, op.high)
    src_sizes = [b.dim_of(src, i) for i in range(rank)]
    m, root, k = b.fresh(
        res,
        lambda: [
            d if d != DYNAMIC else b.add(b.add(src_sizes[i], lows[i]), highs[i])
            for i, d in enumerate(res.type.shape)
        ],
    )
    b.fill(m, value)
    offs_static = [lo if isinstance(lo, int) else DYN_INDEX for lo in lows]
    size_static = [s if isinstance(s, int) else DYN_INDEX for s in src_sizes]
    view = b.subview(
        m,
        (offs_static, size_static, [1] * rank),
        ([lo for lo in lows if not isinstance(lo, int)],
         [s for s in src_sizes if not isinstance(s, int)], []),
        src.type.shape,
    )  # fmt: skip
    b.copy(src, view)
    b.bind(res, m, root, k)


def _mixed_values(static: Sequence[int], dynamic: Sequence[Value]) -> list[int | Value]:
    it = iter(dynamic)
    return [next(it) if s == DYN_INDEX else s for s in static]


def _reshape(b: FuncBufferizer, op: Any) -> None:
    """collapse_shape/expand_shape: a reinterpret_cast of the (contiguous) source buffer."""
    src = op.src
    m, root = b.contiguous(src)
    res = op.results[0]
    shape = res.type.shape
    if type(op) is tensor.CollapseShapeOp:
        sizes: list[int | Value] = []
        for group in op.reassociation_indices():
            s: int | Value = 1
            for d in group:
                s = b.mul(s, b.dim_of(m, d))
            sizes.append(s)
    else:
        sizes = list(_mixed_values(op.static_output_shape.values, op.output_shape))
    sizes = [d if d != DYNAMIC else s for d, s in zip(shape, sizes)]
    strides: list[int | Value] = []
    acc: int | Value = 1
    for k, s in enumerate(reversed(sizes)):
        strides.append(acc)
        if k + 1 < len(sizes):
            acc = b.mul(acc, s)
    strides.reverse()
    rt = memref_of(res.type, op)
    canon, _ = rt.strides_and_offset()
    static_sizes = [d if d != DYNAMIC else DYN_INDEX for d in shape]
    static_strides = [c if c != DYNAMIC else DYN_INDEX for c in canon]
    dyn_sizes = [b.size(s) for s, d in zip(sizes, shape) if d == DYNAMIC]
    dyn_strides = [b.size(s) for s, c in zip(strides, canon) if c == DYNAMIC]
    attrs = {
        "static_offsets": tensor.i64_array([0]),
        "static_sizes": tensor.i64_array(static_sizes),
        "static_strides": tensor.i64_array(static_strides),
    }
    cast = b.insert(memref.ReinterpretCastOp.build([m, [], dyn_sizes, dyn_strides], [rt], attrs))
    b.bind(res, cast.results[0], root)


def _constant(b: FuncBufferizer, op: Any) -> None:
    res = op.results[0]
    value = op.get_attr("value")
    if type(value) is not A.DenseElementsAttr:
        raise Unsupported(op, f"tensor constant {type(value).__name__}")
    t = memref_of(res.type, op)
    name = b.mod.global_for(value, t)
    get = b.insert(memref.GetGlobalOp.create([], [t], {"name": A.SymbolRefAttr(name)}))
    b.bind(res, get.results[0], _Root("global"))


def _call(b: FuncBufferizer, op: Any) -> None:
    callee = b.mod.lookup(op)
    ftype = callee.func_type  # already converted
    args: list[Value] = []
    for v in op.operands:
        if is_tensor(v.type):
            m, _ = b.contiguous(v)
            args.append(b.cast(m, memref_of(v.type, op).shape))
        else:
            args.append(v)
    n_in = len(op.operands)
    out_bufs: list[tuple[Value, Value, _Root, int | None]] = []
    maps = b.mod.result_maps_of(callee)
    for i, r in enumerate(op.results):
        if not is_tensor(r.type):
            continue
        t = memref_of(r.type, op)
        k = b.hint.get(r)
        if k is not None and k not in b.out_used:
            b.out_used.add(k)
            m, root, whole = b.cast(b.outs[k], t.shape), b.out_roots[k], k
        else:
            sizes = [
                d if d != DYNAMIC else _call_size(b, op, maps, i, j, args)
                for j, d in enumerate(t.shape)
            ]
            m, root, whole = b.alloc(t, sizes), _Root("alloc"), None
        out_bufs.append((r, m, root, whole))
    want = list(ftype.inputs)
    out_args = [b.cast(m, want[n_in + j].shape) for j, (_, m, _, _) in enumerate(out_bufs)]
    call = func.CallOp.build_call(
        op.get_attr("callee").root, [*args, *out_args], list(ftype.results)
    )
    call.attributes = {**op.attributes, **call.attributes}
    b.insert(call)
    for r, m, root, whole in out_bufs:
        b.bind(r, m, root, whole)
    plain = [r for r in op.results if not is_tensor(r.type)]
    for r, new in zip(plain, call.results):
        r.replace_all_uses_with(new)


def _call_size(b: FuncBufferizer, op: Any, maps: Any, i: int, j: int, args: list[Value]) -> Value:
    if maps is None:
        raise Unsupported(op, "a call with dynamic result shapes to a function without a body")
    m: AffineMap = maps[_tensor_index(op, i)]
    syms: list[Value] = []
    for a in args:
        if type(a.type) is A.MemRefType:
            syms.extend(b.size(b.dim_of(a, d)) for d in range(a.type.rank))
    amap = AffineMap(0, len(syms), [m.results[j]])
    return b.insert(affine_ops.ApplyOp.build_apply(amap, syms)).results[0]


def _tensor_index(op: Operation, i: int) -> int:
    """The position of result `i` of `op` among its tensor results."""
    return sum(1 for r in op.results[:i] if is_tensor(r.type))


def _return(b: FuncBufferizer, op: Any) -> None:
    plain = []
    k = 0
    for v in op.operands:
        if not is_tensor(v.type):
            plain.append(v)
            continue
        if b.whole_out.get(v) != k:
            b.copy(b.get(v), b.outs[k])
        k += 1
    b.insert(func.ReturnOp.build_return(plain))


_HANDLERS: dict[str, Any] = {
    "tensor.generic": _generic,
    "tensor.empty": _empty,
    "tensor.dim": _dim_op,
    "tensor.cast": _cast,
    "tensor.extract_slice": _extract_slice,
    "tensor.insert_slice": _insert_slice,
    "tensor.insert": _insert,
    "tensor.extract": _extract,
    "tensor.splat": _splat,
    "tensor.pad": _pad,
    "tensor.collapse_shape": _reshape,
    "tensor.expand_shape": _reshape,
    "arith.constant": _constant,
}


# ---------------------------------------------------------------------------------------------
# The module


class ModuleBufferizer:
    """Bufferizes every function of a module: result shapes and signatures first (on the
    tensor IR), then the bodies."""

    def __init__(self, module: Operation) -> None:
        self.module = module
        self.block = module.regions[0].blocks[0]
        self.funcs: dict[str, func.FuncOp] = {}
        self.symbols: set[str] = set()
        for op in self.block:
            name = op.get_attr("sym_name")
            if name is not None:
                self.symbols.add(name.value)  # type: ignore[attr-defined]
            if type(op) is func.FuncOp:
                self.funcs[name.value] = op  # type: ignore[union-attr]
        self.maps: dict[func.FuncOp, list[AffineMap] | None] = {}
        self.in_progress: set[func.FuncOp] = set()
        self.globals: dict[tuple[A.Attribute, A.Type], str] = {}
        self.last_global: Operation | None = None

    def lookup(self, call: Operation) -> func.FuncOp:
        name = call.get_attr("callee").root  # type: ignore[union-attr]
        fn = self.funcs.get(name)
        if fn is None:
            raise Unsupported(call, f"a call to @{name}, which is not a func.func of the module")
        return fn

    def result_maps_of(self, fn: func.FuncOp) -> list[AffineMap] | None:
        """The `mlc.result_shapes` maps of `fn` (None for a declaration)."""
        if fn in self.maps:
            return self.maps[fn]
        if fn.is_declaration:
            self.maps[fn] = None
            return None
        if fn in self.in_progress:
            return None  # recursion: static results still work, dynamic ones are reported
        self.in_progress.add(fn)
        try:
            maps = self._compute_maps(fn)
        finally:
            self.in_progress.discard(fn)
        self.maps[fn] = maps
        return maps

    def _compute_maps(self, fn: func.FuncOp) -> list[AffineMap]:
        analysis = ShapeAnalysis(fn, lambda call: self.result_maps_of(self.lookup(call)))
        ret = fn.entry_block.last
        if ret is None or ret.name != "func.return":
            raise Unsupported(fn, "a function body not ending in func.return")
        maps = []
        n = analysis.num_symbols
        for k, (v, t) in enumerate(zip(ret.operands, fn.func_type.results)):
            if not is_tensor(t):
                continue
            memref_of(t, fn)
            exprs = []
            for i, d in enumerate(t.shape):  # type: ignore[attr-defined]
                e = const(d) if d != DYNAMIC else analysis.dim(v, i)
                if e is None:
                    raise Unsupported(
                        ret,
                        f"result #{k} dim {i} is not an affine function of the input dimensions "
                        "(mlc.result_shapes)",
                    )
                exprs.append(e)
            maps.append(AffineMap(0, n, exprs))
        return maps

    def global_for(self, value: A.Attribute, t: A.MemRefType) -> str:
        """The name of the private constant memref.global holding `value` (made once)."""
        key = (value, t)
        name = self.globals.get(key)
        if name is not None:
            return name
        shape = "x".join(str(d) for d in t.shape)
        base = f"__constant_{shape}x{t.element_type}" if shape else f"__constant_{t.element_type}"
        name, i = base, 0
        while name in self.symbols:
            name = f"{base}_{i}"
            i += 1
        self.symbols.add(name)
        self.globals[key] = name
        attrs = {
            "sym_name": A.StringAttr(name),
            "sym_visibility": A.StringAttr("private"),
            "type": A.TypeAttr(t),
            "initial_value": value,
            "constant": A.UnitAttr(),
            "alignment": A.IntegerAttr(ALIGNMENT, A.i64),
        }
        g = memref.GlobalOp.create([], [], attrs)
        if self.last_global is None:
            first = self.block.first
            if first is None:
                self.block.append(g)
            else:
                self.block.insert_before(g, first)
        else:
            self.block.insert_after(g, self.last_global)
        self.last_global = g
        return name

    def precheck(self, fn: func.FuncOp) -> None:
        """Report unsupported input before anything changes."""
        for t in (*fn.func_type.inputs, *fn.func_type.results):
            if is_tensor(t):
                memref_of(t, fn)
        if fn.is_declaration:
            return
        blocks = fn.regions[0].blocks
        if len(blocks) != 1:
            ft = fn.func_type
            if any(is_tensor(t) for t in (*ft.inputs, *ft.results)):
                raise Unsupported(
                    fn, "tensor arguments or results of a function with several blocks"
                )
            for block in blocks:
                for op in block:
                    check_no_tensors(op, " in a function with several blocks")
            return
        for op in blocks[0]:
            name = op.name
            if name in _HANDLERS or name in ("func.return", "func.call"):
                if name == "tensor.pad":
                    _pad_value(op)
                elif name == "func.call" and any(
                    is_tensor(v.type) for v in (*op.operands, *op.results)
                ):
                    self.lookup(op)
                for v in (*op.operands, *op.results):
                    if is_tensor(v.type):
                        memref_of(v.type, op)
                continue
            check_no_tensors(op)

    def run(self) -> int:
        funcs = list(self.funcs.values())
        for fn in funcs:
            self.precheck(fn)
        for fn in funcs:
            self.result_maps_of(fn)
        # Signatures (callers build their calls from the new function types).
        out_types: dict[func.FuncOp, list[A.MemRefType]] = {}
        for fn in funcs:
            ft = fn.func_type
            outs = [memref_of(t, fn) for t in ft.results if is_tensor(t)]
            out_types[fn] = outs
            inputs = [memref_of(t, fn) if is_tensor(t) else t for t in ft.inputs]
            results = [t for t in ft.results if not is_tensor(t)]
            fn.set_attr("function_type", A.TypeAttr(A.FunctionType([*inputs, *outs], results)))
            _fix_arg_attrs(fn, ft, len(outs))
            maps = self.maps.get(fn)
            if maps is not None:
                fn.set_attr(RESULT_SHAPES, A.ArrayAttr([A.AffineMapAttr(m) for m in maps]))
        count = 0
        for fn in funcs:
            if fn.is_declaration or len(fn.regions[0].blocks) != 1:
                continue
            FuncBufferizer(self, fn).run(out_types[fn])
            count += 1
        return count


def _fix_arg_attrs(fn: func.FuncOp, ft: A.FunctionType, n_outs: int) -> None:
    """Out-parameters get empty argument attributes; tensor results' attributes go away."""
    arg_attrs = fn.get_attr("arg_attrs")
    if arg_attrs is not None and n_outs:
        empty = A.DictionaryAttr({})
        fn.set_attr("arg_attrs", A.ArrayAttr([*arg_attrs, *([empty] * n_outs)]))  # type: ignore[misc]
    res_attrs = fn.get_attr("res_attrs")
    if res_attrs is not None:
        kept = [a for a, t in zip(res_attrs, ft.results) if not is_tensor(t)]  # type: ignore[call-overload]
        if kept:
            fn.set_attr("res_attrs", A.ArrayAttr(kept))
        else:
            fn.remove_attr("res_attrs")


def _pad_value(op: Any) -> Value | Operation:
    value = op.padding_value()
    if value is not None:
        return value  # type: ignore[no-any-return]
    term = op.pad_region.blocks[0].last
    d = term.operand(0).defining_op() if term is not None and term.operands else None
    if d is None or d.operands or d.regions or d.name != "arith.constant":
        raise Unsupported(op, "tensor.pad whose padding value depends on the indices")
    return d  # type: ignore[no-any-return]


def bufferize_module(module: Operation) -> int:
    """Bufferize `module` in place; returns the number of function bodies rewritten. Raises
    Unsupported (nothing changed when it is raised by the checks that run first)."""
    return ModuleBufferizer(module).run()


class BufferizePass(Pass):
    """Tensors to memrefs in destination-passing style.

    Function tensor arguments become identity-layout memrefs, tensor results trailing
    out-parameters (`mlc.result_shapes` gives their sizes from the input dims); tensor.generic
    takes its buffer form, writing into an out-parameter, a fresh `memref.alloc` or, when safe,
    its output's buffer in place; slices and reshapes become views, constants
    `memref.global`s; every allocation is freed after its last use. Unsupported input fails
    with a located "not supported: ..." error.
    """

    name = "bufferize"
    anchor = "builtin.module"
    num_functions = Statistic("num-functions", "Number of function bodies bufferized")

    def run(self, op: Operation, ctx: PassContext) -> None:
        try:
            n = bufferize_module(op)
        except Unsupported as e:
            engine.emit(Diagnostic("error", str(e), e.op.location))
            ctx.signal_failure()
            return
        self.num_functions += n
