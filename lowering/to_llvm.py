"""`convert-to-llvm`: lower func, arith, math, memref, vector and affine to the llvm dialect.

The conversion rebuilds every function as an `llvm.func` in one walk over its body, keeping a
map from each old value to its lowered value. Structured control flow becomes blocks:

- `affine.for`: a header block whose arguments are the induction variable and the iter_args,
  `llvm.cond_br` to the body or to an exit block whose arguments are the loop's results;
- `affine.parallel`: a sequential nest of such loops, or, with the unit attribute
  `mlc.parallel`, its outermost dimension outlined into `void body(i64, i64, ptr)` called
  through the runtime's `mlc_parallel_for`;
- `affine.if`: `llvm.cond_br` to then/else blocks joining in a block with the results.

Types: index is i64, a memref is MLIR's descriptor `!llvm.struct<(ptr, ptr, i64, array<R x
i64>, array<R x i64>)>`, a 1-D vector stays a builtin vector. Function signatures expand each
memref into its 3 + 2R fields (MLIR's default calling convention). The scalar ops (arith,
math, vector) live in `to_llvm_ops`.

An op that cannot be lowered fails the pass with MLIR's `failed to legalize operation 'x.y'`
at the op, with a note saying what is not supported.
"""

from __future__ import annotations

import platform
from collections.abc import Callable, Sequence
from typing import Any

from mlc.dialects import llvm
from mlc.dialects.llvm_ops_arith import (
    AddOp,
    ICmpOp,
    MulOp,
    SDivOp,
    SelectOp,
    SRemOp,
    SubOp,
    UDivOp,
    UndefOp,
    URemOp,
)
from mlc.dialects.llvm_ops_elements import ExtractValueOp, InsertValueOp
from mlc.dialects.llvm_types import (
    LLVMArrayType,
    LLVMFunctionType,
    LLVMPointerType,
    LLVMStructType,
    LLVMVoidType,
    LoopAnnotationAttr,
    LoopUnrollAttr,
    LoopVectorizeAttr,
)

from mlc.diagnostics import Diagnostic, engine
from mlc.interfaces import NoMemoryEffect
from mlc.ir import attributes as A
from mlc.ir.affine import AffineExpr, AffineMap
from mlc.ir.core import Block, Operation, Region, Value
from mlc.ir.opdef import Pure
from mlc.knobs import Bool, Site
from mlc.lowering.merge_bodies import merge_outlined_bodies
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic

__all__ = [
    "ConvertToLLVMPass",
    "Unsupported",
    "convert_type",
    "descriptor_type",
    "lower_module",
]

PTR = LLVMPointerType()
I64 = A.i64


def wrap_signed(value: int, width: int) -> int:
    """`value` modulo 2^width, read as a signed integer (two's complement)."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


DYNAMIC = A.DYNAMIC
ALLOC_ALIGNMENT = 64
ICMP = {n: i for i, n in enumerate(llvm.ICMP_PREDICATES)}
FCMP = {n: i for i, n in enumerate(llvm.FCMP_PREDICATES)}


class Unsupported(Exception):
    """An op (or type) this conversion cannot lower; the message says what."""


def unsupported(what: str) -> Unsupported:
    return Unsupported(f"not supported: {what}")


# ---------------------------------------------------------------------------------------------
# Types


def descriptor_type(rank: int) -> LLVMStructType:
    """MLIR's memref descriptor: allocated, aligned, offset, sizes, strides."""
    body: list[A.Type] = [PTR, PTR, I64]
    if rank:
        body += [LLVMArrayType(rank, I64), LLVMArrayType(rank, I64)]
    return LLVMStructType(body)


def convert_type(t: A.Type) -> A.Type:
    """The llvm-dialect type of a builtin type; raises Unsupported for the others."""
    tt = type(t)
    if t is A.index:
        return I64
    if tt is A.IntegerType:
        if t.signedness != A.SIGNLESS:  # type: ignore[attr-defined]
            raise unsupported(f"type {t} (signed and unsigned integers do not lower to LLVM)")
        return t
    if tt is A.FloatType:
        if t.kind not in ("f16", "bf16", "f32", "f64"):  # type: ignore[attr-defined]
            raise unsupported(f"type {t}")
        return t
    if tt is A.MemRefType:
        if t.layout is not None and type(t.layout) is not A.StridedLayoutAttr:  # type: ignore[attr-defined]
            raise unsupported(f"memref layout of {t} (only identity and strided layouts lower)")
        element_size(t.element_type)  # type: ignore[attr-defined]
        return descriptor_type(len(t.shape))  # type: ignore[attr-defined]
    if tt is A.VectorType:
        if t.rank != 1 or any(t.scalable):  # type: ignore[attr-defined]
            raise unsupported(f"type {t} (only fixed 1-D vectors lower)")
        return A.VectorType(t.shape, convert_type(t.element_type))  # type: ignore[attr-defined]
    if type(t).__module__.startswith("mlc.dialects.llvm"):
        return t
    raise unsupported(f"type {t}")


def element_size(t: A.Type) -> int:
    """Bytes per element of a memref of `t` (LLVM's alloc size)."""
    if t is A.index:
        return 8
    if type(t) is A.IntegerType:
        return max(1, (t.width + 7) // 8) if t.width <= 8 else _pow2((t.width + 7) // 8)  # type: ignore[attr-defined]
    if type(t) is A.FloatType and t.kind in ("f16", "bf16", "f32", "f64"):  # type: ignore[attr-defined]
        return t.width // 8  # type: ignore[attr-defined]
    if type(t) is A.VectorType and t.rank == 1 and not any(t.scalable):  # type: ignore[attr-defined]
        n = t.shape[0] * element_size(t.element_type)  # type: ignore[attr-defined]
        return _pow2(n)
    raise unsupported(f"memref element type {t}")


def natural_alignment(t: A.Type) -> int:
    """The alignment generated loads and stores assume: the scalar element's size."""
    if type(t) is A.VectorType:
        return element_size(t.element_type)  # type: ignore[attr-defined]
    return element_size(t)


def _pow2(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


# ---------------------------------------------------------------------------------------------
# Per-function lowering state


VECTORIZED_LOOP_HINTS = LoopAnnotationAttr(
    vectorize=LoopVectorizeAttr(disable=True), unroll=LoopUnrollAttr(disable=True)
)
"""The latch annotation of a loop that mlc vectorized (see `ModuleLowering.loop_hints`)."""


class ModuleLowering:
    """Module-level state: the new module body, external declarations, outlined bodies."""

    def __init__(self, module: Operation) -> None:
        self.module = module
        self.block = module.regions[0].blocks[0]
        self.declared: dict[str, Operation] = {}
        self.symbols: set[str] = set()
        for op in self.block:
            name = op.get_attr("sym_name")
            if name is not None:
                self.symbols.add(name.value)  # type: ignore[attr-defined]
        self.first_function: Operation | None = None
        self.outlined: list[tuple[str, Operation]] = []  # (enclosing function, body)
        self._last_decl: Operation | None = None
        self.func_types: dict[str, A.FunctionType] = {}
        # `loop_hints` knob at a loop op (an affine.for or affine.parallel) -> bool; None:
        # the default (True) everywhere.
        self.knob: Callable[[Operation], bool] | None = None

    def loop_hints(self, loop: Operation) -> A.Attribute | None:
        """The `loop_annotation` of the latch of `loop`, whose body was vectorized by mlc
        (vector-dialect ops), when its `loop_hints` knob says so: LLVM's loop vectorizer and
        unroller leave it as it is (they would mostly duplicate code that is vector already)."""
        if self.knob is not None and not self.knob(loop):
            return None
        return VECTORIZED_LOOP_HINTS

    def declare(self, name: str, result: A.Type | None, params: Sequence[A.Type]) -> str:
        """An external `llvm.func` declaration (malloc, free, libm, runtime), made once."""
        if name in self.declared:
            return name
        existing = self._find(name)
        if existing is not None and existing.name == "llvm.func":
            self.declared[name] = existing
            return name
        if existing is not None and name not in self.declared:
            raise unsupported(f"a symbol named '{name}' that is not the C function")
        decl = llvm.LLVMFuncOp.build_func(name, list(params), result, declaration=True)
        self._insert_front(decl)
        self.declared[name] = decl
        self.symbols.add(name)
        return name

    def _find(self, name: str) -> Operation | None:
        for op in self.block:
            a = op.get_attr("sym_name")
            if a is not None and a.value == name:  # type: ignore[attr-defined]
                return op
        return None

    def _insert_front(self, op: Operation) -> None:
        """Declarations go first, in the order they were made."""
        anchor = self._last_decl
        if anchor is not None and anchor.parent is not None:
            self.block.insert_after(op, anchor)
        elif len(self.block):
            self.block.insert_before(op, self.block.ops[0])
        else:
            self.block.append(op)
        self._last_decl = op

    def unique_name(self, base: str) -> str:
        name, k = base, 0
        while name in self.symbols:
            k += 1
            name = f"{base}_{k}"
        self.symbols.add(name)
        return name


# op class -> whether `FnLowering.v` reuses an equal op of a dominating block: no memory
# effects, as cse decides (the divisions declare theirs through an interface: none; an equal
# division in a dominating block has run whenever this one would).
_PURE: dict[type, bool] = {SDivOp: True, SRemOp: True, UDivOp: True, URemOp: True}


class FnLowering:
    """Builds one llvm.func body: the value map and the current insertion block."""

    def __init__(self, mod: ModuleLowering, region: Region, func_name: str) -> None:
        self.m = mod
        self.region = region
        self.func_name = func_name
        self.vmap: dict[Value, Any] = {}
        self.block: Block = region.blocks[0]
        self.loc: A.Location | None = None
        self._consts: dict[tuple[Any, ...], Value] = {}
        # Effect-free ops built so far, by structure, with their block; and each block's
        # dominators (itself included). Blocks are made by `new_block` in the block that
        # dominates them (the lowering is structured), so that is their immediate dominator.
        self._pure: dict[tuple[Any, ...], tuple[Value, Block]] = {}
        self._doms: dict[Block, frozenset[Block]] = {self.block: frozenset((self.block,))}
        self._last_const: Operation | None = None
        self.vector_ops = 0  # vector-dialect ops lowered so far (loops use the count)
        self.stack_bytes = 0  # bytes of the memref.alloc buffers given entry-block slots
        self.stack_slots: set[Value] = set()  # those buffers (their dealloc is a no-op)

    # -- building ------------------------------------------------------------------------------

    def op(
        self,
        cls: Any,
        operands: Sequence[Value] = (),
        result_types: Sequence[A.Type] = (),
        attrs: dict[str, A.Attribute] | None = None,
        successors: Sequence[Block] = (),
    ) -> Operation:
        new = cls.create(
            list(operands), list(result_types), dict(attrs) if attrs else None, (),
            list(successors), self.loc,
        )  # fmt: skip
        self.block.append(new)
        return new  # type: ignore[no-any-return]

    def v(
        self,
        cls: Any,
        operands: Sequence[Value],
        t: A.Type,
        attrs: dict[str, A.Attribute] | None = None,
    ) -> Value:
        pure = _PURE.get(cls)
        if pure is None:
            traits = cls._traits
            pure = (Pure in traits or NoMemoryEffect in traits) and not cls._is_terminator
            _PURE[cls] = pure
        if not pure:
            return self.op(cls, operands, [t], attrs).results[0]
        # An effect-free op equal to one built earlier in a block that dominates this one is
        # that op (what cse would make of it): index arithmetic repeats per access and per
        # loop level, and building it again costs an op creation here and an erasure in cse.
        key = (cls, t, tuple(attrs.items()) if attrs else None, *operands)
        block = self.block
        hit = self._pure.get(key)
        if hit is not None and (hit[1] is block or hit[1] in self._doms[block]):
            return hit[0]
        value = self.op(cls, operands, [t], attrs).results[0]
        self._pure[key] = (value, block)
        return value

    def const(self, value: int, t: A.Type = I64) -> Value:
        # iN arithmetic wraps: a folded value is kept as its signed reading modulo 2^N, so
        # folds that read it back (`_cval`: smax/smin, floordiv/mod) see LLVM's value.
        if t is A.i1:
            value = 1 if value else 0
        elif type(t) is A.IntegerType:
            value = wrap_signed(value, t.width)  # type: ignore[attr-defined]
        key = ("i", value, t)
        c = self._consts.get(key)
        if c is None:
            if t is A.i1:
                attr: A.Attribute = A.IntegerAttr(value, A.i1)
            else:
                attr = A.IntegerAttr(value, t)
            c = self._consts[key] = self._entry_constant(t, attr)
        return c

    def fconst(self, value: float, t: A.Type) -> Value:
        key = ("f", repr(value), t)
        c = self._consts.get(key)
        if c is None:
            if type(t) is A.VectorType:
                vt = A.VectorType(t.shape, t.element_type)  # type: ignore[attr-defined]
                attr: A.Attribute = A.DenseElementsAttr(vt, value)
            else:
                attr = A.FloatAttr(value, t)
            c = self._consts[key] = self._entry_constant(t, attr)
        return c

    def _entry_constant(self, t: A.Type, attr: A.Attribute) -> Value:
        """An llvm.mlir.constant at the top of the entry block, after the ones made before
        (one per value and type in the function, where canonicalize would hoist it anyway)."""
        c = llvm.ConstantOp.create((), [t], {"value": attr}, location=self.loc)
        last = self._last_const
        if last is not None:
            self.region.blocks[0].insert_after(c, last)
        else:
            entry = self.region.blocks[0]
            if entry.first is None:
                entry.append(c)
            else:
                entry.insert_before(c, entry.first)
        self._last_const = c
        return c.results[0]  # type: ignore[no-any-return]

    def entry_alloca(self, t: A.Type, alignment: int | None = None) -> Value:
        """A stack slot of type `t` allocated once, at the top of the entry block (so that a
        loop does not grow the stack)."""
        entry = self.region.blocks[0]
        one = llvm.ConstantOp.create((), [I64], {"value": A.IntegerAttr(1, I64)}, location=self.loc)
        attrs: dict[str, A.Attribute] = {"elem_type": A.TypeAttr(t)}
        if alignment is not None:
            attrs["alignment"] = A.IntegerAttr(alignment, I64)
        slot = llvm.AllocaOp.create([one.results[0]], [PTR], attrs, location=self.loc)
        first = entry.ops[0] if len(entry) else None
        if first is None:
            entry.append(one)
            entry.append(slot)
        else:
            entry.insert_before(one, first)
            entry.insert_before(slot, first)
        return slot.results[0]

    def new_block(self, arg_types: Sequence[A.Type] = ()) -> Block:
        """A block that the current one dominates (it is made where control reaches it from),
        to be added with `enter`."""
        block = Block(list(arg_types))
        self._doms[block] = self._doms[self.block] | {block}
        return block

    def enter(self, block: Block) -> None:
        """Append `block` to the function and continue building there."""
        self.region.add_block(block)
        self.block = block

    def br(self, dest: Block, args: Sequence[Value] = ()) -> Operation:
        return self.op(llvm.BrOp, list(args), [], None, [dest])

    def cond_br(
        self,
        cond: Value,
        t: Block,
        f: Block,
        targs: Sequence[Value] = (),
        fargs: Sequence[Value] = (),
    ) -> None:
        seg = A.DenseArrayAttr(A.i32, [1, len(targs), len(fargs)])
        self.op(llvm.CondBrOp, [cond, *targs, *fargs], [], {"operandSegmentSizes": seg}, [t, f])

    def extract(self, agg: Value, position: Sequence[int], t: A.Type) -> Value:
        # Read through the insertvalue chain that built a descriptor (keeps the IR small).
        pos = list(position)
        src = agg
        while True:
            d = src.defining_op()
            if type(d) is not InsertValueOp:
                break
            ins = list(d.get_attr("position").values)  # type: ignore[union-attr]
            if ins == pos:
                return d.operands[1]
            if ins[: len(pos)] == pos or pos[: len(ins)] == ins:
                break  # overlapping, not equal: a real extract
            src = d.operands[0]
        return self.v(ExtractValueOp, [agg], t, {"position": A.DenseArrayAttr(I64, pos)})

    def insert(self, agg: Value, value: Value, position: Sequence[int]) -> Value:
        attrs = {"position": A.DenseArrayAttr(I64, list(position))}
        return self.v(InsertValueOp, [agg, value], agg.type, attrs)

    def undef(self, t: A.Type) -> Value:
        return self.v(UndefOp, [], t)

    # int arithmetic on i64 with light constant folding (keeps index code readable)

    def _cval(self, v: Value) -> int | None:
        op = v.defining_op()
        if op is not None and type(op) is llvm.ConstantOp:
            a = op.get_attr("value")
            if type(a) is A.IntegerAttr:
                return a.value  # type: ignore[no-any-return]
        return None

    def add(self, a: Value, b: Value) -> Value:
        ca, cb = self._cval(a), self._cval(b)
        if ca is not None and cb is not None and a.type is I64:
            return self.const(ca + cb, a.type)
        if cb == 0:
            return a
        if ca == 0:
            return b
        return self.v(AddOp, [a, b], a.type)

    def sub(self, a: Value, b: Value) -> Value:
        ca, cb = self._cval(a), self._cval(b)
        if ca is not None and cb is not None and a.type is I64:
            return self.const(ca - cb, a.type)
        if cb == 0:
            return a
        return self.v(SubOp, [a, b], a.type)

    def mul(self, a: Value, b: Value) -> Value:
        ca, cb = self._cval(a), self._cval(b)
        if ca is not None and cb is not None and a.type is I64:
            return self.const(ca * cb, a.type)
        if cb == 1:
            return a
        if ca == 1:
            return b
        if ca == 0 or cb == 0:
            return self.const(0, a.type)
        return self.v(MulOp, [a, b], a.type)

    def icmp(self, pred: str, a: Value, b: Value) -> Value:
        return self.v(ICmpOp, [a, b], llvm_bool(a.type), {"predicate": _pred(ICMP[pred])})

    def select(self, c: Value, a: Value, b: Value) -> Value:
        return self.v(SelectOp, [c, a, b], a.type)

    def smax(self, a: Value, b: Value) -> Value:
        ca, cb = self._cval(a), self._cval(b)
        if ca is not None and cb is not None:
            return self.const(max(ca, cb), a.type)
        return self.select(self.icmp("sgt", a, b), a, b)

    def smin(self, a: Value, b: Value) -> Value:
        ca, cb = self._cval(a), self._cval(b)
        if ca is not None and cb is not None:
            return self.const(min(ca, cb), a.type)
        return self.select(self.icmp("slt", a, b), a, b)

    # -- value map -----------------------------------------------------------------------------

    def get(self, old: Value) -> Value:
        return self.vmap[old]  # type: ignore[no-any-return]

    def gets(self, olds: Sequence[Value]) -> list[Value]:
        return [self.vmap[v] for v in olds]

    # -- affine expressions --------------------------------------------------------------------

    def expr(self, e: AffineExpr, dims: Sequence[Value], syms: Sequence[Value]) -> Value:
        kind = e.kind
        if kind == "constant":
            return self.const(e.value)  # type: ignore[attr-defined]
        if kind == "dim":
            return dims[e.position]  # type: ignore[attr-defined]
        if kind == "symbol":
            return syms[e.position]  # type: ignore[attr-defined]
        lhs = self.expr(e.lhs, dims, syms)  # type: ignore[attr-defined]
        if kind in ("add", "mul"):
            rhs = self.expr(e.rhs, dims, syms)  # type: ignore[attr-defined]
            return self.add(lhs, rhs) if kind == "add" else self.mul(lhs, rhs)
        r = e.rhs  # type: ignore[attr-defined]
        if r.kind != "constant":
            raise unsupported(f"semi-affine expression '{e}' (division by a non-constant)")
        c = r.value
        if c <= 0:
            raise unsupported(f"affine expression '{e}' (division by a non-positive constant)")
        return self.divmod(kind, lhs, c)

    def divmod(self, kind: str, a: Value, c: int) -> Value:
        """MLIR's floordiv/ceildiv/mod of `a` by the positive constant `c` (exact on negatives)."""
        ca = self._cval(a)
        if ca is not None:
            if kind == "mod":
                return self.const(ca % c)
            if kind == "floordiv":
                return self.const(ca // c)
            return self.const(-(-ca // c))
        if c == 1:
            return self.const(0) if kind == "mod" else a
        cv = self.const(c)
        zero = self.const(0)
        if kind == "mod":
            rem = self.v(SRemOp, [a, cv], I64)
            neg = self.icmp("slt", rem, zero)
            return self.select(neg, self.add(rem, cv), rem)
        if kind == "floordiv":
            minus_one = self.const(-1)
            neg = self.icmp("slt", a, zero)
            dividend = self.select(neg, self.sub(minus_one, a), a)
            q = self.v(SDivOp, [dividend, cv], I64)
            return self.select(neg, self.sub(minus_one, q), q)
        one = self.const(1)
        nonpos = self.icmp("sle", a, zero)
        dividend = self.select(nonpos, self.sub(zero, a), self.sub(a, one))
        q = self.v(SDivOp, [dividend, cv], I64)
        return self.select(nonpos, self.sub(zero, q), self.add(q, one))

    def map_results(self, amap: AffineMap, operands: Sequence[Value]) -> list[Value]:
        dims, syms = operands[: amap.num_dims], operands[amap.num_dims :]
        return [self.expr(e, dims, syms) for e in amap.results]

    # -- memref descriptors --------------------------------------------------------------------

    def desc_field(self, desc: Value, k: int) -> Value:
        return self.extract(desc, [k], PTR if k < 2 else I64)

    def desc_size(self, t: A.MemRefType, desc: Value, k: int) -> Value:
        d = t.shape[k]
        if d != DYNAMIC:
            return self.const(d)
        return self.extract(desc, [3, k], I64)

    def desc_stride(self, t: A.MemRefType, desc: Value, k: int, strides: Sequence[int]) -> Value:
        s = strides[k]
        if s != DYNAMIC:
            return self.const(s)
        return self.extract(desc, [4, k], I64)

    def make_desc(
        self,
        allocated: Value,
        aligned: Value,
        offset: Value,
        sizes: Sequence[Value],
        strides: Sequence[Value],
    ) -> Value:
        d = self.undef(descriptor_type(len(sizes)))
        d = self.insert(d, allocated, [0])
        d = self.insert(d, aligned, [1])
        d = self.insert(d, offset, [2])
        for k, s in enumerate(sizes):
            d = self.insert(d, s, [3, k])
        for k, s in enumerate(strides):
            d = self.insert(d, s, [4, k])
        return d

    def element_ptr(self, t: A.MemRefType, desc: Value, indices: Sequence[Value]) -> Value:
        """The address of element `indices` of a memref: aligned + offset + sum(i_k * s_k)."""
        strides, offset = t.strides_and_offset()
        lin = self.extract(desc, [2], I64) if offset == DYNAMIC else self.const(offset)
        for k, idx in enumerate(indices):
            lin = self.add(lin, self.mul(idx, self.desc_stride(t, desc, k, strides)))
        base = self.desc_field(desc, 1)
        if self._cval(lin) == 0:
            return base
        elem = convert_type(t.element_type)
        attrs = {
            "rawConstantIndices": A.DenseArrayAttr(A.i32, [llvm.GEP_DYNAMIC_INDEX]),
            "elem_type": A.TypeAttr(elem),
            "noWrapFlags": A.IntegerAttr(3, A.i32),
        }
        return self.v(llvm.GEPOp, [base, lin], PTR, attrs)

    def num_elements(self, t: A.MemRefType, desc: Value) -> Value:
        n = self.const(1)
        for k in range(len(t.shape)):
            n = self.mul(n, self.desc_size(t, desc, k))
        return n

    # -- calls ---------------------------------------------------------------------------------

    def call(self, callee: str, args: Sequence[Value], result: A.Type | None) -> Value | None:
        ft = LLVMFunctionType(
            result if result is not None else LLVMVoidType(), [a.type for a in args]
        )
        call = llvm.CallOp.build_call(callee, list(args), ft)
        call.location = self.loc
        self.block.append(call)
        return call.results[0] if call.results else None

    # -- regions -------------------------------------------------------------------------------

    def lower_ops(self, block: Block) -> list[Value]:
        """Lower the ops of `block` (its arguments already mapped); return the mapped operands
        of its terminator when that is a yield (affine.yield)."""
        for op in block:
            if op.name == "affine.yield":
                return self.gets(op.operands)
            lower_op(self, op)
        return []


def llvm_bool(t: A.Type) -> A.Type:
    if type(t) is A.VectorType:
        return A.VectorType(t.shape, A.i1)  # type: ignore[attr-defined]
    return A.i1


def _pred(i: int) -> A.IntegerAttr:
    return A.IntegerAttr(i, I64)


# ---------------------------------------------------------------------------------------------
# Dispatch

Lowering = Callable[[FnLowering, Operation], None]
LOWERINGS: dict[str, Lowering] = {}


def lowering(*names: str) -> Callable[[Lowering], Lowering]:
    def deco(fn: Lowering) -> Lowering:
        for n in names:
            LOWERINGS[n] = fn
        return fn

    return deco


class LegalizeError(Exception):
    """`failed to legalize operation` for `op`, with the reason as a note."""

    def __init__(self, op: Operation, reason: str) -> None:
        super().__init__(reason)
        self.op = op
        self.reason = reason


_AFFINE_VECTOR_OPS = frozenset(("affine.vector_load", "affine.vector_store"))


def lower_op(fn: FnLowering, op: Operation) -> None:
    impl = LOWERINGS.get(op.name)
    if op.dialect_name == "vector" or op.name in _AFFINE_VECTOR_OPS:
        fn.vector_ops += 1  # the code was vectorized by mlc: see `loop_hints`
    if impl is None:
        if op.dialect_name == "llvm" and not op.regions and not op.successors:
            impl = _clone_llvm_op
        else:
            raise LegalizeError(op, "")
    saved = fn.loc
    fn.loc = op.location
    try:
        impl(fn, op)
    except Unsupported as e:
        raise LegalizeError(op, str(e)) from None
    finally:
        fn.loc = saved


def _clone_llvm_op(fn: FnLowering, op: Operation) -> None:
    """An llvm op already in a function body: kept, with its operands remapped."""
    if op._is_terminator:
        raise unsupported(f"'{op.name}' terminating a func.func body")
    new = op.clone({v: fn.get(v) for v in op.operands})
    fn.block.append(new)
    for old, res in zip(op.results, new.results):
        fn.vmap[old] = res


@lowering("builtin.unrealized_conversion_cast")
def _unrealized_cast(fn: FnLowering, op: Operation) -> None:
    """A cast between a type and its lowered form (as other conversions leave them) folds
    away; anything else is not supported."""
    if len(op.operands) != 1 or len(op.results) != 1:
        raise unsupported("unrealized_conversion_cast of several values")
    src = fn.get(op.operands[0])
    if src.type is not convert_type(op.results[0].type):
        raise unsupported(
            f"unrealized_conversion_cast from {op.operands[0].type} to {op.results[0].type}"
        )
    fn.vmap[op.results[0]] = src


# ---------------------------------------------------------------------------------------------
# Functions


def _expand(types: Sequence[A.Type]) -> list[A.Type]:
    """The llvm.func parameter types of builtin argument types (memrefs expanded)."""
    out: list[A.Type] = []
    for t in types:
        if type(t) is A.MemRefType:
            out += [PTR, PTR, I64] + [I64] * (2 * len(t.shape))
        else:
            out.append(convert_type(t))
    return out


def _result_type(types: Sequence[A.Type]) -> A.Type | None:
    if not types:
        return None
    conv = [convert_type(t) for t in types]
    return conv[0] if len(conv) == 1 else LLVMStructType(conv)


def llvm_function_type(ft: A.FunctionType) -> LLVMFunctionType:
    r = _result_type(ft.results)
    return LLVMFunctionType(r if r is not None else LLVMVoidType(), _expand(ft.inputs))


_CARRIED_ATTRS = ("mlc.result_shapes", "mlc.arg_names")


def lower_func(mod: ModuleLowering, func: Operation) -> Operation:
    """The llvm.func of a func.func (a declaration for a body-less one)."""
    name = func.get_attr("sym_name").value  # type: ignore[union-attr]
    ft = func.get_attr("function_type").value  # type: ignore[union-attr]
    try:
        lft = llvm_function_type(ft)
    except Unsupported as e:
        raise LegalizeError(func, str(e)) from None
    body = func.regions[0]
    new = llvm.LLVMFuncOp.build_func(
        name, lft.params, None if lft.returns_void else lft.result,
        declaration=not body.blocks, location=func.location,
    )  # fmt: skip
    vis = func.get_attr("sym_visibility")
    if vis is not None:
        new.set_attr("sym_visibility", vis)
    for key in _CARRIED_ATTRS:
        a = func.get_attr(key)
        if a is not None:
            new.set_attr(key, a)
    if func.get_attr("mlc.result_shapes") is not None and vis is None:
        _mark_entry_noalias(new, ft)
    if not body.blocks:
        return new
    if len(body.blocks) != 1:
        raise LegalizeError(func, "not supported: functions with several blocks")
    fn = FnLowering(mod, new.regions[0], name)
    fn.loc = func.location
    params = iter(fn.block.arguments)
    for arg in body.blocks[0].arguments:
        t = arg.type
        if type(t) is A.MemRefType:
            r = len(t.shape)
            fields = [next(params) for _ in range(3 + 2 * r)]
            fn.vmap[arg] = fn.make_desc(
                fields[0], fields[1], fields[2], fields[3 : 3 + r], fields[3 + r :]
            )
        else:
            fn.vmap[arg] = next(params)
    fn.lower_ops(body.blocks[0])
    drop_dead_constants(new)
    return new


def _mark_entry_noalias(func: Operation, ft: A.FunctionType) -> None:
    """An entry function (made by bufferize, called by mlc.runtime) gets `llvm.noalias` on the
    aligned pointer of each memref: the runtime passes outputs that alias nothing and inputs
    that the kernel never writes (docs/runtime.md), so no write is seen through two of them."""
    attrs: list[A.Attribute] = []
    empty = A.DictionaryAttr({})
    noalias = A.DictionaryAttr({"llvm.noalias": A.UnitAttr()})
    for t in ft.inputs:
        if type(t) is A.MemRefType:
            attrs += [empty, noalias] + [empty] * (1 + 2 * len(t.shape))
        else:
            attrs.append(empty)
    if any(a is noalias for a in attrs):
        func.set_attr("arg_attrs", A.ArrayAttr(attrs))


def drop_dead_constants(func: Operation) -> None:
    """Erase the pure ops left unused (constants that index arithmetic folded away, descriptor
    fields read through the insertvalue chain), last block first."""
    for block in reversed(func.regions[0].blocks):
        for op in list(block.reversed()):
            if op.has_trait(Pure) and not op._is_terminator and not op.has_uses():
                op.erase()


@lowering("func.return")
def _return(fn: FnLowering, op: Operation) -> None:
    vals = fn.gets(op.operands)
    if not vals:
        fn.op(llvm.ReturnOp)
    elif len(vals) == 1:
        fn.op(llvm.ReturnOp, vals)
    else:
        s = fn.undef(LLVMStructType([v.type for v in vals]))
        for k, v in enumerate(vals):
            s = fn.insert(s, v, [k])
        fn.op(llvm.ReturnOp, [s])


def expand_args(fn: FnLowering, olds: Sequence[Value]) -> list[Value]:
    """Call arguments: memref descriptors expanded into their fields."""
    out: list[Value] = []
    for old in olds:
        v = fn.get(old)
        t = old.type
        if type(t) is A.MemRefType:
            r = len(t.shape)
            out += [fn.desc_field(v, 0), fn.desc_field(v, 1), fn.desc_field(v, 2)]
            out += [fn.extract(v, [3, k], I64) for k in range(r)]
            out += [fn.extract(v, [4, k], I64) for k in range(r)]
        else:
            out.append(v)
    return out


@lowering("func.call")
def _call(fn: FnLowering, op: Operation) -> None:
    callee = op.get_attr("callee").root  # type: ignore[union-attr]
    args = expand_args(fn, op.operands)
    rt = _result_type([r.type for r in op.results])
    res = fn.call(callee, args, rt)
    if len(op.results) == 1:
        fn.vmap[op.results[0]] = res
    elif op.results:
        for k, r in enumerate(op.results):
            fn.vmap[r] = fn.extract(res, [k], convert_type(r.type))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# The pass


def lower_module(
    module: Operation,
    knob: Callable[[Operation], bool] | None = None,
    merge_bodies: bool = True,
    stats: dict[str, int] | None = None,
) -> bool:
    """Lower every func.func and memref.global of `module` in place; report failures as
    located `failed to legalize` errors. Returns success. `knob(loop)`: the `loop_hints`
    decision at a vectorized loop (default: True); `merge_bodies`: merge outlined parallel
    bodies that differ only in integer constants (`mlc.lowering.merge_bodies`), their count
    in `stats["merged"]`."""
    mod = ModuleLowering(module)
    mod.knob = knob
    block = module.regions[0].blocks[0]
    todo = list(block)
    # Every op must be lowerable before anything changes (no half-converted module).
    for op in todo:
        for inner in op.walk(post_order=False):
            if inner.dialect_name == "llvm" or inner.name == "builtin.module":
                continue
            if inner.name in ("func.func", "memref.global") and inner.parent is block:
                continue
            if inner.name not in LOWERINGS and inner.name != "affine.yield":
                _fail(inner, "")
                return False
    replacements: list[tuple[Operation, Operation]] = []
    try:
        for op in todo:
            if op.name == "func.func":
                replacements.append((op, lower_func(mod, op)))
            elif op.name == "memref.global":
                replacements.append((op, lower_global(op)))
            elif op.dialect_name == "llvm":
                continue
            else:
                _fail(op, "")
                return False
    except LegalizeError as e:
        _fail(e.op, e.reason)
        for _, new in replacements:
            new.erase(drop_uses=True)
        for decl in mod.declared.values():
            if decl.parent is not None and decl not in todo:
                decl.erase()
        return False
    for new in [n for _, n in replacements] + [b for _, b in mod.outlined]:
        fence_nontemporal_stores(mod, new)
    merged = 0
    if merge_bodies and len(mod.outlined) > 1:
        callers = [n for _, n in replacements] + [b for _, b in mod.outlined]
        merged = merge_outlined_bodies(mod.outlined, callers)
    if stats is not None:
        stats["merged"] = merged
    by_name = {}
    for old, new in replacements:
        block.insert_before(new, old)
        by_name[new.get_attr("sym_name").value] = new  # type: ignore[union-attr]
    for parent, body in mod.outlined:
        block.insert_before(body, by_name[parent])
    for old, _ in replacements:
        old.erase(drop_uses=True)
    return True


def _host_is_x86() -> bool:
    return platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")


def fence_nontemporal_stores(mod: ModuleLowering, func: Operation) -> None:
    """An `sfence` before each return of a function that makes non-temporal stores (x86):
    `movnt*` stores are weakly ordered, so without it another thread that learns of the
    function's end (the thread pool's join, the caller) could read stale memory. One fence
    per call (per chunk of a parallel body), not per store loop: a fence waits for the
    write-combining buffers to drain."""
    if not _host_is_x86() or not func.regions or not func.regions[0].blocks:
        return
    if not any(o.name == "llvm.store" and o.get_attr("nontemporal") is not None for o in func.walk()):
        return
    name = mod.declare("llvm.x86.sse.sfence", None, [])
    for block in func.regions[0].blocks:
        ret = block.last
        if ret is not None and type(ret) is llvm.ReturnOp:
            call = llvm.CallOp.build_call(name, [], LLVMFunctionType(LLVMVoidType(), []))
            call.location = ret.location
            block.insert_before(call, ret)


def _fail(op: Operation, reason: str) -> None:
    diag = Diagnostic("error", f"failed to legalize operation '{op.name}'", op.location)
    if reason:
        diag.attach_note(reason)
    engine.emit(diag)


# The site of the pass's module-level knobs.
SITE = "@/convert-to-llvm"


class ConvertToLLVMPass(Pass):
    """Lower func, arith, math, memref, vector and affine to the llvm dialect.

    A full conversion of a module: functions become llvm.func with MLIR's expanded memref
    calling convention, loops and conditionals become blocks, memrefs become descriptors,
    allocation calls malloc/free, math functions become LLVM intrinsics or libm calls. An op
    it cannot lower fails the pass with `failed to legalize operation 'x.y'` at the op.
    """

    name = "convert-to-llvm"
    anchor = "builtin.module"
    num_functions = Statistic("num-functions", "Number of functions lowered")
    num_hinted = Statistic("num-loop-hints", "Number of vectorized loops annotated")
    knobs = (
        KnobDecl(
            "loop_hints",
            "bool",
            "At a loop (affine.for, affine.parallel) whose body has vector ops: annotate its "
            "latch with `#llvm.loop_annotation<vectorize = <disable>, unroll = <disable>>` "
            "(default true), so that LLVM neither vectorizes nor unrolls it again",
        ),
        KnobDecl(
            "merge_bodies",
            "bool",
            "Module: outlined parallel bodies that differ only in integer constants share one "
            "function, the constants passed in its context (default true: LLVM compiles the "
            "code once)",
        ),
    )
    merge_bodies = Option(
        bool, True, "Default of the merge_bodies knob: merge outlined parallel bodies that "
        "differ only in integer constants"
    )  # fmt: skip
    num_merged = Statistic("num-merged-bodies", "Number of outlined bodies merged into others")

    def run(self, op: Operation, ctx: PassContext) -> None:
        n = sum(1 for o in op.regions[0].blocks[0] if o.name == "func.func")
        hinted = 0
        # The lowering builds new functions and leaves the old ops as they are until the end:
        # the sites of nested loops can share their ops' descriptions.
        memo: dict[Operation, str] = {}

        def knob(loop: Operation) -> bool:
            nonlocal hinted
            on = bool(ctx.knob(ctx.site(loop, memo), "loop_hints", Bool(), True))
            hinted += on
            return on

        merge = bool(ctx.knob(Site(SITE, op), "merge_bodies", Bool(), self.merge_bodies))
        stats: dict[str, int] = {}
        if not lower_module(op, knob, merge, stats):
            ctx.signal_failure()
            return
        self.num_functions += n
        self.num_merged += stats.get("merged", 0)
        self.num_hinted += hinted


# The other dialects' lowerings register themselves in LOWERINGS.
from mlc.lowering import to_llvm_ops  # noqa: E402, F401
from mlc.lowering.to_llvm_affine import lower_global  # noqa: E402
