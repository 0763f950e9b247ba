"""The reference interpreter on tensor ops and tensor.generic (vectorized iteration spaces)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import mlc
from mlc.interp import InterpreterError, run

RNG = np.random.default_rng(1)


def rand(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def test_empty_dim_splat_cast() -> None:
    text = """
    func.func @main(%t: tensor<?x4xf32>, %v: f32) -> (tensor<?x4xf32>, index, tensor<?x4xf32>, tensor<3x4xf32>) {
      %c0 = arith.constant 0 : index
      %d = tensor.dim %t, %c0 : tensor<?x4xf32>
      %e = tensor.empty(%d) : tensor<?x4xf32>
      %s = tensor.splat %v[%d] : tensor<?x4xf32>
      %c = tensor.cast %t : tensor<?x4xf32> to tensor<3x4xf32>
      return %e, %d, %s, %c : tensor<?x4xf32>, index, tensor<?x4xf32>, tensor<3x4xf32>
    }"""  # noqa: E501
    t = rand(3, 4)
    e, d, s, c = run(text, "main", t, np.float32(2.5))
    assert e.shape == (3, 4) and e.dtype == np.float32
    assert d == 3 and type(d) is np.int64
    assert s.shape == (3, 4) and (s == 2.5).all()
    assert (c == t).all()
    with pytest.raises(InterpreterError, match="'tensor.cast'.*tensor<3x4xf32>"):
        run(text, "main", rand(2, 4), np.float32(0))


def test_extract_insert() -> None:
    text = """
    func.func @main(%t: tensor<3x4xi32>, %i: index, %j: index) -> (i32, tensor<3x4xi32>) {
      %v = tensor.extract %t[%i, %j] : tensor<3x4xi32>
      %c7 = arith.constant 7 : i32
      %u = tensor.insert %c7 into %t[%j, %i] : tensor<3x4xi32>
      return %v, %u : i32, tensor<3x4xi32>
    }"""  # noqa: E501
    t = np.arange(12, dtype=np.int32).reshape(3, 4)
    v, u = run(text, "main", t, 2, 1)
    assert v == 9 and type(v) is np.int32
    assert u[1, 2] == 7 and (np.delete(u.reshape(-1), 6) == np.delete(t.reshape(-1), 6)).all()
    assert t[1, 2] == 6  # not modified
    with pytest.raises(InterpreterError, match="'tensor.extract'.*out of bounds"):
        run(text, "main", t, 3, 0)


def test_extract_slice_static_dynamic_and_rank_reduced() -> None:
    text = """
    func.func @main(%t: tensor<5x8xf32>, %o: index, %s: index) -> (tensor<2x3xf32>, tensor<?x2xf32>, tensor<4xf32>) {
      %a = tensor.extract_slice %t[1, %o] [2, 3] [2, 2] : tensor<5x8xf32> to tensor<2x3xf32>
      %b = tensor.extract_slice %t[%o, 0] [%s, 2] [1, 3] : tensor<5x8xf32> to tensor<?x2xf32>
      %c = tensor.extract_slice %t[4, 2] [1, 4] [1, 1] : tensor<5x8xf32> to tensor<4xf32>
      return %a, %b, %c : tensor<2x3xf32>, tensor<?x2xf32>, tensor<4xf32>
    }"""  # noqa: E501
    t = np.arange(40, dtype=np.float32).reshape(5, 8)
    a, b, c = run(text, "main", t, 1, 3)
    np.testing.assert_array_equal(a, t[1:4:2, 1:6:2])
    np.testing.assert_array_equal(b, t[1:4, 0:4:3])
    np.testing.assert_array_equal(c, t[4, 2:6])
    with pytest.raises(InterpreterError, match="'tensor.extract_slice'.*out of bounds"):
        run(text, "main", t, 3, 3)


def test_insert_slice() -> None:
    text = """
    func.func @main(%s: tensor<2xf32>, %d: tensor<3x4xf32>, %o: index) -> tensor<3x4xf32> {
      %r = tensor.insert_slice %s into %d[%o, 1] [1, 2] [1, 2] : tensor<2xf32> into tensor<3x4xf32>
      return %r : tensor<3x4xf32>
    }"""  # noqa: E501
    s, d = np.array([10, 20], np.float32), np.zeros((3, 4), np.float32)
    (r,) = run(text, "main", s, d, 2)
    expected = np.zeros((3, 4), np.float32)
    expected[2, 1], expected[2, 3] = 10, 20
    np.testing.assert_array_equal(r, expected)
    assert not d.any()


def test_collapse_and_expand_shape() -> None:
    text = """
    func.func @main(%t: tensor<2x3x4xf32>, %u: tensor<?x4xf32>, %n: index) -> (tensor<6x4xf32>, tensor<?x2x4xf32>) {
      %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
      %e = tensor.expand_shape %u [[0, 1], [2]] output_shape [%n, 2, 4] : tensor<?x4xf32> into tensor<?x2x4xf32>
      return %c, %e : tensor<6x4xf32>, tensor<?x2x4xf32>
    }"""  # noqa: E501
    t, u = rand(2, 3, 4), rand(6, 4)
    c, e = run(text, "main", t, u, 3)
    np.testing.assert_array_equal(c, t.reshape(6, 4))
    np.testing.assert_array_equal(e, u.reshape(3, 2, 4))
    with pytest.raises(InterpreterError, match="'tensor.expand_shape'.*do not expand"):
        run(text, "main", t, u, 2)


def test_pad_constant_and_index_dependent() -> None:
    text = """
    func.func @main(%t: tensor<2x3xf32>, %h: index) -> (tensor<3x?xf32>, tensor<4x3xf32>) {
      %cst = arith.constant -1.0 : f32
      %p = tensor.pad %t low[1, 2] high[0, %h] {
      ^bb0(%i: index, %j: index):
        tensor.yield %cst : f32
      } : tensor<2x3xf32> to tensor<3x?xf32>
      %q = tensor.pad %t low[1, 0] high[1, 0] {
      ^bb0(%i: index, %j: index):
        %s = arith.addi %i, %j : index
        %k = arith.index_cast %s : index to i32
        %f = arith.sitofp %k : i32 to f32
        tensor.yield %f : f32
      } : tensor<2x3xf32> to tensor<4x3xf32>
      return %p, %q : tensor<3x?xf32>, tensor<4x3xf32>
    }"""  # noqa: E501
    t = rand(2, 3)
    p, q = run(text, "main", t, 2)
    expected = np.full((3, 7), -1.0, np.float32)
    expected[1:3, 2:5] = t
    np.testing.assert_array_equal(p, expected)
    expected_q = np.add.outer(np.arange(4), np.arange(3)).astype(np.float32)
    expected_q[1:3] = t
    np.testing.assert_array_equal(q, expected_q)


# ---------------------------------------------------------------------------------------------
# tensor.generic

MATMUL = """
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = tensor.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    tensor.yield %s : f32
  } -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
"""  # noqa: E501


def test_generic_matmul_with_reduction() -> None:
    module = mlc.parse(MATMUL)
    for m, k, n in [(3, 5, 2), (1, 7, 4)]:
        a, b, init = rand(m, k), rand(k, n), rand(m, n)
        (r,) = run(module, "main", a, b, init)
        expected = init.copy()
        for kk in range(k):  # the sequential accumulation order of the loop nest
            expected = expected + a[:, kk : kk + 1] * b[kk : kk + 1, :]
        np.testing.assert_array_equal(r, expected)
        assert not (init == r).all()  # the init operand was not updated in place


def test_generic_loop_size_mismatch_is_reported() -> None:
    with pytest.raises(InterpreterError, match="'tensor.generic'.*loop d2 has size"):
        run(MATMUL, "main", rand(2, 3), rand(4, 2), rand(2, 2))


def test_generic_transpose_broadcast_and_two_outputs() -> None:
    text = """
    func.func @main(%a: tensor<3x4xf32>, %bias: tensor<3xf32>, %o1: tensor<4x3xf32>, %o2: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
      %r:2 = tensor.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (j)>,
                                             affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                             iterator_types = ["parallel", "parallel"]}
          ins(%a, %bias : tensor<3x4xf32>, tensor<3xf32>) outs(%o1, %o2 : tensor<4x3xf32>, tensor<4x3xf32>) {
      ^bb0(%x: f32, %b: f32, %u: f32, %v: f32):
        %s = arith.addf %x, %b : f32
        %m = arith.maximumf %s, %v : f32
        tensor.yield %s, %m : f32, f32
      } -> (tensor<4x3xf32>, tensor<4x3xf32>)
      return %r#0, %r#1 : tensor<4x3xf32>, tensor<4x3xf32>
    }"""  # noqa: E501
    a, bias, o2 = rand(3, 4), rand(3), rand(4, 3)
    s, m = run(text, "main", a, bias, np.zeros((4, 3), np.float32), o2)
    np.testing.assert_array_equal(s, a.T + bias)
    np.testing.assert_array_equal(m, np.maximum(a.T + bias, o2))


def test_generic_row_sum_into_reduced_output() -> None:
    text = """
    func.func @main(%a: tensor<4x6xf64>, %init: tensor<6xf64>) -> tensor<6xf64> {
      %r = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                           iterator_types = ["parallel", "reduction"]}
          ins(%a : tensor<4x6xf64>) outs(%init : tensor<6xf64>) {
      ^bb0(%x: f64, %acc: f64):
        %s = arith.addf %acc, %x : f64
        tensor.yield %s : f64
      } -> tensor<6xf64>
      return %r : tensor<6xf64>
    }"""  # noqa: E501
    a = RNG.standard_normal((4, 6))
    (r,) = run(text, "main", a, np.zeros(6))
    np.testing.assert_allclose(r, a.sum(axis=0), rtol=1e-15)


def test_generic_conv1d_with_affine_sum_map() -> None:
    # out[i] += x[i + k] * w[k]: the input map d0 + d1 gathers windows.
    text = """
    func.func @main(%x: tensor<8xf32>, %w: tensor<3xf32>, %init: tensor<6xf32>) -> tensor<6xf32> {
      %r = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>,
                                           affine_map<(d0, d1) -> (d0)>],
                           iterator_types = ["parallel", "reduction"]}
          ins(%x, %w : tensor<8xf32>, tensor<3xf32>) outs(%init : tensor<6xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        tensor.yield %s : f32
      } -> tensor<6xf32>
      return %r : tensor<6xf32>
    }"""  # noqa: E501
    x, w = rand(8), rand(3)
    (r,) = run(text, "main", x, w, np.zeros(6, np.float32))
    expected = np.zeros(6, np.float32)
    for i, k in itertools.product(range(6), range(3)):
        expected[i] += x[i + k] * w[k]
    np.testing.assert_allclose(r, expected, rtol=1e-6)


def test_generic_conv2d_nchw_with_strided_map() -> None:
    # out[n, o, y, x] += in[n, c, 2y + kh, x + kw] * w[o, c, kh, kw]
    text = """
    #in = affine_map<(n, o, y, x, c, kh, kw) -> (n, c, y * 2 + kh, x + kw)>
    #w = affine_map<(n, o, y, x, c, kh, kw) -> (o, c, kh, kw)>
    #out = affine_map<(n, o, y, x, c, kh, kw) -> (n, o, y, x)>
    func.func @main(%i: tensor<1x2x7x5xf32>, %w: tensor<3x2x3x2xf32>, %init: tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32> {
      %r = tensor.generic {indexing_maps = [#in, #w, #out],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel",
                                             "reduction", "reduction", "reduction"]}
          ins(%i, %w : tensor<1x2x7x5xf32>, tensor<3x2x3x2xf32>) outs(%init : tensor<1x3x3x4xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        tensor.yield %s : f32
      } -> tensor<1x3x3x4xf32>
      return %r : tensor<1x3x3x4xf32>
    }"""  # noqa: E501
    x, w = rand(1, 2, 7, 5), rand(3, 2, 3, 2)
    (r,) = run(text, "main", x, w, np.zeros((1, 3, 3, 4), np.float32))
    expected = np.zeros((1, 3, 3, 4))
    for o, y, xx, c, kh, kw in itertools.product(*map(range, (3, 3, 4, 2, 3, 2))):
        expected[0, o, y, xx] += float(x[0, c, 2 * y + kh, xx + kw]) * float(w[o, c, kh, kw])
    np.testing.assert_allclose(r, expected, rtol=1e-5, atol=1e-5)


def test_generic_body_with_outer_value_and_rank0_output() -> None:
    text = """
    func.func @main(%a: tensor<5xi32>, %init: tensor<i32>, %k: i32) -> tensor<i32> {
      %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                           iterator_types = ["reduction"]}
          ins(%a : tensor<5xi32>) outs(%init : tensor<i32>) {
      ^bb0(%x: i32, %acc: i32):
        %m = arith.muli %x, %k : i32
        %s = arith.maxsi %acc, %m : i32
        tensor.yield %s : i32
      } -> tensor<i32>
      return %r : tensor<i32>
    }"""  # noqa: E501
    a = np.array([3, -9, 4, 1, 0], np.int32)
    (r,) = run(text, "main", a, np.array(-100, np.int32), np.int32(-2))
    assert r.shape == () and r.dtype == np.int32 and r == 18


def test_generic_output_missing_a_parallel_loop_keeps_the_last_write() -> None:
    text = """
    func.func @main(%a: tensor<3x4xf32>, %o: tensor<3xf32>) -> tensor<3xf32> {
      %r = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%a : tensor<3x4xf32>) outs(%o : tensor<3xf32>) {
      ^bb0(%x: f32, %y: f32):
        tensor.yield %x : f32
      } -> tensor<3xf32>
      return %r : tensor<3xf32>
    }"""  # noqa: E501
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    (r,) = run(text, "main", a, np.zeros(3, np.float32))
    assert r.tolist() == [3.0, 7.0, 11.0]  # sequential loops: d1 = 3 writes last


def test_generic_constant_index_in_map() -> None:
    text = """
    func.func @main(%a: tensor<3x4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
      %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (2, d0)>, affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]}
          ins(%a : tensor<3x4xf32>) outs(%o : tensor<4xf32>) {
      ^bb0(%x: f32, %y: f32):
        %n = arith.negf %x : f32
        tensor.yield %n : f32
      } -> tensor<4xf32>
      return %r : tensor<4xf32>
    }"""  # noqa: E501
    a = rand(3, 4)
    (r,) = run(text, "main", a, np.zeros(4, np.float32))
    np.testing.assert_array_equal(r, -a[2])
