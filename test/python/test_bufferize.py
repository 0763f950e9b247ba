"""bufferize: structure (signatures, out-parameters, allocations freed once after their last
use, globals, in-place reuse), `mlc.result_shapes` against the interpreter's result shapes, and
"not supported" errors.

`BufferInterpreter` (also used by test_tensor_to_affine.py) is a test-only executor for the
buffer level: mlc.interp's Interpreter extended with memref/affine handlers working on NumPy
views. It checks memory discipline as it runs: inputs are read-only, every access and free of
a freed buffer is an error, and `run_buffers` checks that every allocation was freed once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from mlc.dialects import tensor

import mlc
from mlc.interp import Interpreter, handles
from mlc.interp.core import dtype_of, op_error
from mlc.interp.scalar import attribute_value
from mlc.ir import attributes as A
from mlc.ir.core import Operation
from mlc.pass_manager import PassError

TO_TENSOR = "builtin.module(convert-graph-to-tensor)"
BUFFERIZE = "builtin.module(convert-graph-to-tensor,bufferize)"
RNG = np.random.default_rng(7)
INDEX = np.dtype(np.int64)


# ---------------------------------------------------------------------------------------------
# A test-only executor of memref/affine IR


class Rec:
    """One buffer: `kind` is arg, out, alloc or global; `flat` its 1-D storage."""

    __slots__ = ("kind", "flat", "freed")

    def __init__(self, kind: str, flat: np.ndarray) -> None:
        self.kind = kind
        self.flat = flat
        self.freed = False


class Buf:
    """A memref value: a NumPy view `arr` of the storage of `rec`."""

    __slots__ = ("arr", "rec")

    def __init__(self, arr: np.ndarray, rec: Rec) -> None:
        self.arr = arr
        self.rec = rec


def garbage(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Storage filled with values a correct program never reads before writing."""
    if dtype.kind == "f":
        return np.full(shape, np.nan, dtype)
    if dtype.kind == "b":
        return np.ones(shape, dtype)
    return np.full(shape, 0x5A5A5A5A % (1 << (dtype.itemsize * 8 - 1)), dtype)


class BufferInterpreter(Interpreter):
    """Interpreter + memref/affine handlers on `Buf` values (see the module docstring)."""

    def __init__(self, module: Operation) -> None:
        super().__init__(module)
        self.allocs: list[tuple[Operation, Rec]] = []

    def check_value(self, op: Operation, t: A.Type, v: Any, index: int) -> Any:
        if type(t) is A.MemRefType:
            if type(v) is not Buf or v.arr.dtype != dtype_of(t):
                raise op_error(op, f"result {index} is not a buffer of type {t}")
            shape = v.arr.shape
            if len(shape) != t.rank or any(d not in (A.DYNAMIC, s) for d, s in zip(t.shape, shape)):
                raise op_error(op, f"result {index} of shape {shape} is not of type {t}")
            return v
        return super().check_value(op, t, v, index)

    def live(self, op: Operation, *bufs: Buf) -> None:
        for b in bufs:
            if b.rec.freed:
                raise op_error(op, "use of a freed buffer")

    @handles("memref.alloc", "memref.alloca")
    def _alloc(self, op: Operation, *sizes: Any) -> Buf:
        t = op.results[0].type
        it = iter(sizes)
        shape = tuple(int(next(it)) if d == A.DYNAMIC else d for d in t.shape)
        flat = garbage((int(np.prod(shape)),), dtype_of(t))
        rec = Rec("alloc", flat)
        if op.name == "memref.alloc":
            self.allocs.append((op, rec))
        return Buf(flat.reshape(shape), rec)

    @handles("memref.dealloc")
    def _dealloc(self, op: Operation, b: Buf) -> None:
        if b.rec.kind != "alloc":
            raise op_error(op, f"dealloc of a buffer that is a function {b.rec.kind}")
        if b.rec.freed:
            raise op_error(op, "double free")
        b.rec.freed = True

    @handles("memref.dim")
    def _dim(self, op: Operation, b: Buf, i: Any) -> Any:
        self.live(op, b)
        return INDEX.type(b.arr.shape[int(i)])

    @handles("memref.load")
    def _load(self, op: Operation, b: Buf, *idx: Any) -> Any:
        self.live(op, b)
        return b.arr[tuple(int(i) for i in idx)]

    @handles("memref.store")
    def _store(self, op: Operation, v: Any, b: Buf, *idx: Any) -> None:
        self.live(op, b)
        b.arr[tuple(int(i) for i in idx)] = v

    @handles("memref.copy")
    def _copy(self, op: Operation, s: Buf, d: Buf) -> None:
        self.live(op, s, d)
        if s.arr.shape != d.arr.shape:
            raise op_error(op, f"copy of shape {s.arr.shape} into {d.arr.shape}")
        d.arr[...] = s.arr

    @handles("memref.cast")
    def _cast(self, op: Operation, b: Buf) -> Buf:
        self.live(op, b)
        return Buf(b.arr, b.rec)

    @staticmethod
    def _mixed(static: Any, dynamic: Any) -> list[int]:
        it = iter(dynamic)
        return [int(next(it)) if s == tensor.DYNAMIC_INDEX else s for s in static.values]

    @handles("memref.subview")
    def _subview(self, op: Any, b: Buf, *dyn: Any) -> Buf:
        self.live(op, b)
        n_o, n_s = len(op.offsets), len(op.sizes)
        offs = self._mixed(op.static_offsets, dyn[:n_o])
        sizes = self._mixed(op.static_sizes, dyn[n_o : n_o + n_s])
        strides = self._mixed(op.static_strides, dyn[n_o + n_s :])
        for o, s, st, d in zip(offs, sizes, strides, b.arr.shape):
            if s > 0 and not (0 <= o and o + (s - 1) * st < d):
                raise op_error(op, f"subview out of bounds of shape {b.arr.shape}")
        view = b.arr[tuple(slice(o, o + s * st, st) for o, s, st in zip(offs, sizes, strides))]
        view = view.reshape([s for s in view.shape if True])
        res_shape = op.results[0].type.shape
        dropped = (
            tensor.rank_reduction_mask(sizes, res_shape) if len(res_shape) < len(sizes) else []
        )
        if dropped:
            view = view[tuple(0 if d in dropped else slice(None) for d in range(len(sizes)))]
        return Buf(view, b.rec)

    @handles("memref.reinterpret_cast")
    def _reinterpret(self, op: Any, b: Buf, *dyn: Any) -> Buf:
        self.live(op, b)
        n_o, n_s = len(op.offsets), len(op.sizes)
        (off,) = self._mixed(op.static_offsets, dyn[:n_o])
        sizes = self._mixed(op.static_sizes, dyn[n_o : n_o + n_s])
        strides = self._mixed(op.static_strides, dyn[n_o + n_s :])
        flat = b.rec.flat
        extent = off + sum((s - 1) * st for s, st in zip(sizes, strides) if s > 0) + 1
        if any(s == 0 for s in sizes):
            extent = off
        if extent > flat.size:
            raise op_error(op, "reinterpret_cast outside of its buffer")
        item = flat.itemsize
        view = np.lib.stride_tricks.as_strided(
            flat[off:], shape=sizes, strides=[st * item for st in strides]
        )
        return Buf(view, b.rec)

    @handles("memref.get_global")
    def _get_global(self, op: Any) -> Buf:
        name = op.global_name.root
        for g in self.module.regions[0].blocks[0]:
            if g.name == "memref.global" and g.get_attr("sym_name").value == name:
                t = g.type.value
                tt = A.RankedTensorType(t.shape, t.element_type)
                flat = np.array(attribute_value(g, g.initial_value, tt)).reshape(-1)
                flat.setflags(write=False)
                return Buf(flat.reshape(t.shape), Rec("global", flat))
        raise op_error(op, f"no global @{name}")

    def _map_operands(self, m: Any, operands: Any) -> list[int]:
        vals = [int(v) for v in operands]
        return list(m.evaluate(vals[: m.num_dims], vals[m.num_dims :]))

    @handles("affine.load")
    def _aload(self, op: Any, b: Buf, *operands: Any) -> Any:
        self.live(op, b)
        idx = self._map_operands(op.get_attr("map").value, operands)
        return b.arr[tuple(idx)]

    @handles("affine.store")
    def _astore(self, op: Any, v: Any, b: Buf, *operands: Any) -> None:
        self.live(op, b)
        idx = self._map_operands(op.get_attr("map").value, operands)
        b.arr[tuple(idx)] = v

    @handles("affine.apply")
    def _apply(self, op: Any, *operands: Any) -> Any:
        (r,) = self._map_operands(op.get_attr("map").value, operands)
        return INDEX.type(r)

    @handles("affine.for")
    def _for(self, op: Any, *operands: Any) -> Any:
        lbm, ubm = op.lower_bound_map, op.upper_bound_map
        n_lb, n_ub = lbm.num_inputs, ubm.num_inputs
        lb = max(self._map_operands(lbm, operands[:n_lb]))
        ub = min(self._map_operands(ubm, operands[n_lb : n_lb + n_ub]))
        iters = list(operands[n_lb + n_ub :])
        for i in range(lb, ub, op.step_value):
            iters = self.run_block(op.body_block, [INDEX.type(i), *iters], ("affine.yield",))
        if not iters:
            return None
        return tuple(iters) if len(iters) != 1 else iters[0]


def run_buffers(module: Operation, name: str, inputs: list[Any]) -> list[Any]:
    """Run bufferized function `name` on `inputs` (arrays for memref arguments, NumPy scalars
    for the others), its out-parameters sized by `mlc.result_shapes`; returns the tensor
    results (out-parameters), then the scalar results. Checks that every allocation was freed."""
    interp = BufferInterpreter(module)
    fn = interp.lookup_function(name)
    ftype = fn.get_attr("function_type").value
    out_types = ftype.inputs[len(inputs) :]
    maps = [m.value for m in fn.get_attr("mlc.result_shapes")]
    assert len(maps) == len(out_types)
    syms = [d for x, t in zip(inputs, ftype.inputs) if type(t) is A.MemRefType for d in x.shape]
    args: list[Any] = []
    for x, t in zip(inputs, ftype.inputs):
        if type(t) is not A.MemRefType:
            args.append(x)
            continue
        flat = np.array(x, dtype_of(t)).reshape(-1)
        flat.setflags(write=False)
        args.append(Buf(flat.reshape(x.shape), Rec("arg", flat)))
    outs = []
    for m, t in zip(maps, out_types):
        shape = m.evaluate([], syms)
        flat = garbage((int(np.prod(shape)),), dtype_of(t))
        outs.append(flat.reshape(shape))
        args.append(Buf(outs[-1], Rec("out", flat)))
    with np.errstate(all="ignore"):
        scalars = interp.call(fn, args)
    leaked = [op for op, rec in interp.allocs if not rec.freed]
    assert not leaked, f"allocations never freed: {leaked}"
    return [*outs, *scalars]


# ---------------------------------------------------------------------------------------------
# Structural checks


def check_deallocs(module: Operation) -> int:
    """Every memref.alloc is in a function's top block and has exactly one memref.dealloc,
    after every use of it and of views of it; returns the number of allocs."""
    n = 0
    for fn in module.regions[0].blocks[0]:
        if fn.name != "func.func" or not fn.regions[0].blocks:
            continue
        block = fn.regions[0].blocks[0]
        pos = {op: i for i, op in enumerate(block)}
        for op in fn.walk():
            if op.name != "memref.alloc":
                continue
            n += 1
            assert op.parent is block
            a = op.results[0]
            deallocs = [u for u in a.users if u.name == "memref.dealloc"]
            assert len(deallocs) == 1, op
            free = pos[deallocs[0]]
            values = [a]
            for v in values:
                for u in v.users:
                    anc = u
                    while anc.parent is not block:
                        anc = anc.parent_op
                    assert pos[anc] <= free, f"use after free: {u}"
                    if u.name in ("memref.subview", "memref.reinterpret_cast", "memref.cast"):
                        values.append(u.results[0])
        for op in fn.walk():
            if op.name == "memref.dealloc":
                d = op.operands[0].defining_op()
                assert d is not None and d.name == "memref.alloc", "dealloc of a non-alloc"
    return n


def bufferize(text: str) -> Operation:
    module = mlc.parse(text)
    mlc.run_pipeline(module, BUFFERIZE)
    mlc.verify(module)
    for op in module.walk():
        for v in (*op.operands, *op.results):
            assert not isinstance(v.type, (A.RankedTensorType, A.UnrankedTensorType)), op
    check_deallocs(module)
    return module


def func_named(module: Operation, name: str) -> Any:
    for op in module.regions[0].blocks[0]:
        if op.name == "func.func" and op.get_attr("sym_name").value == name:
            return op
    raise KeyError(name)


# ---------------------------------------------------------------------------------------------
# Tests

EW = """
func.func @main(%a: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = graph.add %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = graph.exp %0 : tensor<?x4xf32>
  %2 = graph.relu %1 : tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}
"""


def test_signature_out_params_and_result_shapes() -> None:
    module = bufferize(EW)
    fn = func_named(module, "main")
    ft = fn.func_type
    assert [str(t) for t in ft.inputs] == ["memref<?x4xf32>", "memref<4xf32>", "memref<?x4xf32>"]
    assert ft.results == ()
    (m,) = fn.get_attr("mlc.result_shapes")
    assert str(m.value) == "()[s0, s1, s2] -> (s0, 4)"
    # The last generic writes the out-parameter; intermediates are allocated and freed.
    gens = [op for op in fn.walk() if op.name == "tensor.generic"]
    assert gens[-1].operands[-1] is fn.arguments[2]
    assert check_deallocs(module) >= 1


def test_in_place_reuse_of_dead_intermediate() -> None:
    """exp reads the add's buffer; relu writes... the exp result is read once, by relu, whose
    output is the out-parameter: at most one intermediate buffer is needed when a generic's
    output reuses a dead buffer."""
    text = """
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    tensor.yield %s : f32
  } -> tensor<8xf32>
  %1 = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} outs(%0 : tensor<8xf32>) {
  ^bb0(%o: f32):
    %s = arith.mulf %o, %o : f32
    tensor.yield %s : f32
  } -> tensor<8xf32>
  %2 = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%1 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    tensor.yield %s : f32
  } -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
"""
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(bufferize)")
    mlc.verify(module)
    fn = func_named(module, "main")
    allocs = [op for op in fn.walk() if op.name == "memref.alloc"]
    gens = [op for op in fn.walk() if op.name == "tensor.generic"]
    assert len(allocs) == 1 and len(gens) == 3
    # %1 updates %0's dead buffer in place; %2 writes the out-parameter.
    assert gens[0].operands[-1] is allocs[0].results[0]
    assert gens[1].operands[-1] is allocs[0].results[0]
    assert gens[2].operands[-1] is fn.arguments[1]
    assert not [op for op in fn.walk() if op.name == "memref.copy"]
    x = RNG.standard_normal(8).astype(np.float32)
    (got,) = run_buffers_after_affine(module, "main", [x])
    np.testing.assert_allclose(got, -((x + x) * (x + x)), rtol=1e-6)


def test_live_output_is_copied_not_overwritten() -> None:
    """The output value is used after the generic: the generic must write a copy."""
    text = """
func.func @main(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    tensor.yield %x : f32
  } -> tensor<4xf32>
  %1 = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} outs(%0 : tensor<4xf32>) {
  ^bb0(%o: f32):
    %s = arith.addf %o, %o : f32
    tensor.yield %s : f32
  } -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
"""
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(bufferize)")
    mlc.verify(module)
    check_deallocs(module)
    x = RNG.standard_normal(4).astype(np.float32)
    r0, r1 = run_buffers_after_affine(module, "main", [x])
    np.testing.assert_array_equal(r0, x)
    np.testing.assert_array_equal(r1, x + x)


def test_arguments_are_never_written() -> None:
    """A generic updating a function argument works on a copy (the executor's inputs are
    read-only, so a write would fail)."""
    text = """
func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} outs(%a : tensor<3xi32>) {
  ^bb0(%o: i32):
    %s = arith.muli %o, %o : i32
    tensor.yield %s : i32
  } -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
"""
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(bufferize)")
    fn = func_named(module, "main")
    copies = [op for op in fn.walk() if op.name == "memref.copy"]
    assert len(copies) == 1 and copies[0].operands[1] is fn.arguments[1]
    x = np.array([1, -2, 3], np.int32)
    (got,) = run_buffers_after_affine(module, "main", [x])
    np.testing.assert_array_equal(got, x * x)


def test_constants_become_deduplicated_globals() -> None:
    text = """
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %c = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %d = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = graph.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %0 = graph.add %a, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = graph.mul %0, %d : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = graph.sub %1, %e : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}
"""
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(convert-graph-to-tensor,cse,bufferize)")
    globals_ = [op for op in module.regions[0].blocks[0] if op.name == "memref.global"]
    names = sorted(g.get_attr("sym_name").value for g in globals_)
    assert names == ["__constant_2xf32", "__constant_2xf32_0"]
    assert all(g.get_attr("sym_visibility").value == "private" for g in globals_)
    assert all(g.get_attr("constant") is not None for g in globals_)
    x = np.array([1.0, -1.0], np.float32)
    (got,) = run_buffers_after_affine(module, "main", [x])
    np.testing.assert_allclose(got, (x + [1, 2]) * [1, 2] - [3, 4])


RESULT_SHAPE_PROGRAMS = {
    "static_inner": (
        """
func.func @main(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>)
    -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?xf32>, tensor<?x3xf32>) {
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = graph.relu %a : tensor<?x4xf32>
  %2 = graph.reshape %1 {shape = array<i64: -1>} : (tensor<?x4xf32>) -> tensor<?xf32>
  %3 = graph.slice %b {starts = array<i64: 0, 1>, limits = array<i64: 1, 4>, strides = array<i64: 1, 1>} : (tensor<?x4xf32>) -> tensor<?x3xf32>
  return %0, %1, %2, %3 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?xf32>, tensor<?x3xf32>
}
""",  # noqa: E501
        [(3, 4), (1, 4), (2, 4)],
    ),
    "all_dynamic": (
        """
func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = graph.concat %a, %b {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = graph.matmul %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}
""",
        [(2, 2), (5, 5), (1, 1)],
    ),
    "pool_pads": (
        """
func.func @main(%a: tensor<1x2x?x?xf32>, %b: tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32> {
  %0 = graph.max_pool2d %a {kernel = array<i64: 3, 2>, strides = array<i64: 1, 1>, pads = array<i64: 1, 0, 2, 1>} : (tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32>
  return %0 : tensor<1x2x?x?xf32>
}
""",  # noqa: E501
        [(1, 2, 3, 4), (1, 2, 1, 1)],
    ),
}


@pytest.mark.parametrize("name", sorted(RESULT_SHAPE_PROGRAMS))
def test_result_shapes_match_the_interpreter(name: str) -> None:
    """Every result_shapes map evaluates to the shape the interpreter computes, on several
    input sizes (concat with dynamic offsets, slices, reshape, matmul, padded pooling)."""
    text, sizes = RESULT_SHAPE_PROGRAMS[name]
    reference = mlc.parse(text)
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(convert-graph-to-tensor,canonicalize,cse,bufferize)")
    mlc.verify(module)
    check_deallocs(module)
    fn = func_named(module, "main")
    for s in sizes:
        x = RNG.standard_normal(s).astype(np.float32)
        y = RNG.standard_normal(s).astype(np.float32)
        expected = mlc.interp.run(reference, "main", x, y)
        syms = [*x.shape, *y.shape]
        got = [m.value.evaluate([], syms) for m in fn.get_attr("mlc.result_shapes")]
        assert got == [e.shape for e in expected]
        outs = run_buffers_after_affine(module.clone(), "main", [x, y])
        for g, e in zip(outs, expected):
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


def test_static_result_shapes_are_constants() -> None:
    text = """
func.func @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
"""
    module = bufferize(text)
    (m,) = func_named(module, "main").get_attr("mlc.result_shapes")
    assert str(m.value) == "()[s0, s1] -> (3, 2)"


def test_calls_pass_memrefs_and_allocate_results() -> None:
    text = """
func.func private @inner(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = graph.exp %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = func.call @inner(%a) : (tensor<?xf32>) -> tensor<?xf32>
  %1 = func.call @inner(%0) : (tensor<?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}
"""
    module = bufferize(text)
    fn = func_named(module, "main")
    calls = [op for op in fn.walk() if op.name == "func.call"]
    assert [len(c.operands) for c in calls] == [2, 2]
    assert calls[1].operands[1] is fn.arguments[1]  # the returned call writes the out-param
    assert len([op for op in fn.walk() if op.name == "memref.alloc"]) == 1
    x = RNG.standard_normal(5).astype(np.float32)
    (got,) = run_buffers_after_affine(module, "main", [x])
    np.testing.assert_allclose(got, np.exp(np.exp(x)), rtol=1e-5)


def test_returning_an_argument_and_twice_the_same_value_copies() -> None:
    text = """
func.func @main(%a: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0 = graph.neg %a : tensor<3xf32>
  return %a, %0, %0 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
"""
    module = bufferize(text)
    x = np.array([1.0, 2.0, -3.0], np.float32)
    r = run_buffers_after_affine(module, "main", [x])
    np.testing.assert_array_equal(r[0], x)
    np.testing.assert_array_equal(r[1], -x)
    np.testing.assert_array_equal(r[2], -x)


TENSOR_OPS = """
func.func @main(%a: tensor<?x4xf32>, %s: f32, %n: index) -> (tensor<4xf32>, tensor<?x?xf32>, tensor<2x?x2xf32>, tensor<3x?xf32>, tensor<3x?xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = tensor.dim %a, %c0 : tensor<?x4xf32>
  %row = tensor.extract_slice %a[1, 0] [1, 4] [1, 1] : tensor<?x4xf32> to tensor<4xf32>
  %p = tensor.pad %a low[%d, 1] high[0, %d] {
  ^bb0(%i: index, %j: index):
    tensor.yield %s : f32
  } : tensor<?x4xf32> to tensor<?x?xf32>
  %sp = tensor.splat %s[%d] : tensor<3x?xf32>
  %ins = tensor.insert %s into %sp[%c1, %c0] : tensor<3x?xf32>
  %e = tensor.extract %a[%c0, %c1] : tensor<?x4xf32>
  %flat = tensor.collapse_shape %a [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  %x = tensor.expand_shape %flat [[0, 1, 2]] output_shape [2, %d, 2] : tensor<?xf32> into tensor<2x?x2xf32>
  %sub = tensor.extract_slice %a[0, 1] [2, 2] [1, 2] : tensor<?x4xf32> to tensor<2x2xf32>
  %into = tensor.insert_slice %sub into %ins[1, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<3x?xf32>
  %r2 = tensor.extract_slice %row[1] [2] [1] : tensor<4xf32> to tensor<2xf32>
  %into2 = tensor.insert_slice %r2 into %into[0, %c1] [1, 2] [1, 1] : tensor<2xf32> into tensor<3x?xf32>
  return %row, %p, %x, %ins, %into2, %e : tensor<4xf32>, tensor<?x?xf32>, tensor<2x?x2xf32>, tensor<3x?xf32>, tensor<3x?xf32>, f32
}
"""  # noqa: E501


def test_tensor_ops_match_the_interpreter() -> None:
    """Slices (rank-reducing, strided, dynamic offsets), pad with dynamic amounts, splat,
    insert/extract, collapse/expand: bufferized and lowered to loops, run on several sizes,
    against the interpreter on the tensor program."""
    reference = mlc.parse(TENSOR_OPS)
    module = mlc.parse(TENSOR_OPS)
    mlc.run_pipeline(module, "builtin.module(bufferize)")
    mlc.verify(module)
    check_deallocs(module)
    fn = func_named(module, "main")
    assert [str(m.value) for m in fn.get_attr("mlc.result_shapes")] == [
        "()[s0, s1] -> (4)",
        "()[s0, s1] -> (s0 * 2, s0 + 5)",
        "()[s0, s1] -> (2, s0, 2)",
        "()[s0, s1] -> (3, s0)",
        "()[s0, s1] -> (3, s0)",
    ]
    assert [str(t) for t in fn.func_type.results] == ["f32"]
    mlc.run_pipeline(module, "builtin.module(convert-tensor-to-affine,canonicalize,cse)")
    for rows in (3, 5):
        a = RNG.standard_normal((rows, 4)).astype(np.float32)
        inputs = [a, np.float32(-1.5), np.int64(2)]
        expected = mlc.interp.run(reference, "main", *inputs)
        got = run_buffers(module, "main", inputs)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(g, e)


def failure(text: str, pipeline: str = "builtin.module(bufferize)") -> list[str]:
    module = mlc.parse(text)
    with pytest.raises(PassError) as info:
        mlc.run_pipeline(module, pipeline)
    return [str(d) for d in info.value.diagnostics]


def test_not_affine_result_shape_is_reported() -> None:
    text = """
func.func @main(%a: tensor<?x?xf32>) -> tensor<?xf32> {
  %0 = graph.reshape %a {shape = array<i64: -1>} : (tensor<?x?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""
    diags = failure(text, BUFFERIZE)
    assert any(
        "not supported: result #0 dim 0 is not an affine function of the input dimensions" in d
        for d in diags
    ), diags


def test_unsupported_op_on_tensors_is_located() -> None:
    text = """
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "test.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
    module = mlc.parse(text, allow_unregistered=True)
    before = str(module)
    with pytest.raises(PassError) as info:
        mlc.run_pipeline(module, "builtin.module(bufferize)")
    (d,) = info.value.diagnostics
    assert "not supported: 'test.op' on tensors" in str(d)
    assert d.location is not None and d.location.line == 3
    assert str(module) == before  # reported before anything changed


def test_pad_value_depending_on_indices_is_reported() -> None:
    text = """
func.func @main(%a: tensor<4xindex>) -> tensor<6xindex> {
  %0 = tensor.pad %a low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %i : index
  } : tensor<4xindex> to tensor<6xindex>
  return %0 : tensor<6xindex>
}
"""
    diags = failure(text)
    assert any("not supported: tensor.pad whose padding value depends" in d for d in diags)


def run_buffers_after_affine(module: Operation, name: str, inputs: list) -> list[np.ndarray]:
    """convert-tensor-to-affine then run (the executor runs loops, not generics)."""
    mlc.run_pipeline(module, "builtin.module(convert-tensor-to-affine)")
    mlc.verify(module)
    return run_buffers(module, name, inputs)


def test_long_chains_bufferize_in_one_buffer() -> None:
    """A 400-op elementwise chain with dynamic sizes: no recursion limits, and the chain
    updates one buffer in place (the first op's alloc), the last op writes the out-param."""
    lines = ["func.func @main(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {"]
    lines.append("  %v0 = graph.relu %a : tensor<?x8xf32>")
    for i in range(1, 400):
        lines.append(
            f"  %v{i} = graph.add %v{i - 1}, %a : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>"  # noqa: E501
        )
    lines.append("  return %v399 : tensor<?x8xf32>\n}")
    module = bufferize("\n".join(lines))
    fn = func_named(module, "main")
    assert len([op for op in fn.walk() if op.name == "memref.alloc"]) == 1
    (m,) = fn.get_attr("mlc.result_shapes")
    assert str(m.value) == "()[s0, s1] -> (s0, 8)"


def random_dag(rng: np.random.Generator, name: str) -> str:
    """A random program on ?x4 tensors: elementwise ops on any earlier values (so values have
    several uses and buffers are reused or copied), transposes, row sums broadcast back, and a
    random selection of returned values (inputs and repeats included)."""
    t = "tensor<?x4xf32>"
    values = ["%a", "%b"]
    lines = []
    for i in range(int(rng.integers(3, 9))):
        kind = rng.choice(["binary", "unary", "transpose", "rowsum"])
        x = values[int(rng.integers(len(values)))]
        y = values[int(rng.integers(len(values)))]
        v = f"%v{i}"
        if kind == "binary":
            op = rng.choice(["add", "mul", "sub", "max"])
            lines.append(f"  {v} = graph.{op} {x}, {y} : ({t}, {t}) -> {t}")
        elif kind == "unary":
            op = rng.choice(["neg", "relu", "tanh", "abs"])
            lines.append(f"  {v} = graph.{op} {x} : {t}")
        elif kind == "transpose":
            perm = "{perm = array<i64: 1, 0>}"
            lines.append(f"  {v}t = graph.transpose {x} {perm} : ({t}) -> tensor<4x?xf32>")
            lines.append(f"  {v} = graph.transpose {v}t {perm} : (tensor<4x?xf32>) -> {t}")
        else:
            lines.append(
                f"  {v}s = graph.reduce_sum {x} {{axes = array<i64: 1>, keepdims = true}} : "
                f"({t}) -> tensor<?x1xf32>"
            )
            lines.append(f"  {v} = graph.add {y}, {v}s : ({t}, tensor<?x1xf32>) -> {t}")
        values.append(v)
    rets = [values[int(rng.integers(len(values)))] for _ in range(int(rng.integers(1, 4)))]
    types = ", ".join([t] * len(rets))
    body = "\n".join(lines)
    return (
        f"func.func @{name}(%a: {t}, %b: {t}) -> ({types}) {{\n{body}\n"
        f"  return {', '.join(rets)} : {types}\n}}"
    )


def test_random_programs_match_the_interpreter() -> None:
    rng = np.random.default_rng(2024)
    text = "\n".join(random_dag(rng, f"r{i}") for i in range(30))
    reference = mlc.parse(text)
    module = bufferize(text)
    mlc.run_pipeline(module, "builtin.module(convert-tensor-to-affine,canonicalize,cse)")
    check_deallocs(module)
    for i in range(30):
        rows = int(rng.integers(1, 4))
        x = RNG.standard_normal((rows, 4)).astype(np.float32)
        y = RNG.standard_normal((rows, 4)).astype(np.float32)
        expected = mlc.interp.run(reference, f"r{i}", x, y)
        got = run_buffers(module, f"r{i}", [x, y])
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


def test_output_view_overlapping_an_input_view_is_copied() -> None:
    """The output is a view of a dead buffer that an input views at another offset: updating
    it in place would read elements already overwritten, so it is copied first."""
    text = """
func.func @main(%a: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %t = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    tensor.yield %x : f32
  } -> tensor<2x4xf32>
  %s = tensor.extract_slice %t[0, 0] [2, 3] [1, 1] : tensor<2x4xf32> to tensor<2x3xf32>
  %u = tensor.extract_slice %t[0, 1] [2, 3] [1, 1] : tensor<2x4xf32> to tensor<2x3xf32>
  %r = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x3xf32>) outs(%u : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    tensor.yield %y : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
"""  # noqa: E501
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(bufferize)")
    mlc.verify(module)
    check_deallocs(module)
    a = np.arange(8, dtype=np.float32).reshape(2, 4)
    (got,) = run_buffers_after_affine(module, "main", [a])
    np.testing.assert_array_equal(got, a[:, :3] + a[:, 1:])
