"""The examples of bench/e2e.py written for the peer frameworks: onnxruntime, JAX (jit) and
PyTorch (eager), each used the way its users would, on the same NumPy inputs.

Each `make_*` returns a callable on the NumPy inputs (placed once on the framework's side: JAX
arrays are committed to the CPU device, torch tensors share the NumPy buffers) whose result is
converted back to NumPy only by `to_numpy`, outside the timed call. A peer that is not installed
is reported as missing, never an error. Thread counts follow the run: `threads` intra-op threads
for onnxruntime and torch; JAX (XLA:CPU) takes its threads from the process, so under
`--single-thread` it is pinned with XLA_FLAGS before it is imported.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from typing import Any

import numpy as np

PEERS = ("onnxruntime", "jax", "torch")


def available(peer: str) -> bool:
    return importlib.util.find_spec(peer) is not None


def version(peer: str) -> str:
    mod = __import__(peer)
    return str(getattr(mod, "__version__", "?"))


def make(peer: str, example: str, threads: int) -> Callable[..., Any]:
    """The callable running `example` (a stem of examples/*.mlir) in `peer`."""
    return {"onnxruntime": _onnx, "jax": _jax, "torch": _torch}[peer](example, threads)


def linreg_cg_step(X, w, r, p, lam):  # type: ignore[no-untyped-def]
    """One conjugate-gradient step of examples/linreg_cg.mlir, in operators and `.sum()` only,
    so the same function runs on NumPy arrays, torch tensors and JAX arrays."""
    q = X.T @ (X @ p) + lam * p
    rr = (r * r).sum()
    alpha = rr / (p * q).sum()
    w1 = w + alpha * p
    r1 = r - alpha * q
    beta = (r1 * r1).sum() / rr
    return w1, r1, r1 + beta * p


def to_numpy(result: Any) -> Any:
    if isinstance(result, (tuple, list)):
        return tuple(to_numpy(r) for r in result)
    if hasattr(result, "detach"):  # torch
        return result.detach().numpy()
    return np.asarray(result)


# --------------------------------------------------------------------------------------------
# PyTorch (eager, inference mode)


def _torch(example: str, threads: int) -> Callable[..., Any]:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)

    def mlp(x, w1, b1, w2, b2, w3, b3):  # type: ignore[no-untyped-def]
        h = torch.relu(torch.addmm(b1, x, w1))
        h = torch.relu(torch.addmm(b2, h, w2))
        return torch.softmax(torch.addmm(b3, h, w3), 1)

    def attention(q, k, v):  # type: ignore[no-untyped-def]
        return torch.softmax((q @ k.T) * 0.125, 1) @ v

    def conv(x, w, b):  # type: ignore[no-untyped-def]
        return F.max_pool2d(torch.relu(F.conv2d(x, w, b, padding=1)), 2, 2)

    fn = {"mlp": mlp, "attention": attention, "conv": conv, "linreg_cg": linreg_cg_step}[example]

    def call(*arrays: np.ndarray) -> Any:
        with torch.inference_mode():
            return fn(*(torch.from_numpy(a) for a in arrays))

    return call


# --------------------------------------------------------------------------------------------
# JAX (jit on XLA:CPU)


def _jax(example: str, threads: int) -> Callable[..., Any]:
    if threads == 1 and "XLA_FLAGS" not in os.environ:
        os.environ["XLA_FLAGS"] = (
            "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
        )
    import jax
    import jax.numpy as jnp

    def softmax(z, axis):  # type: ignore[no-untyped-def]
        e = jnp.exp(z - z.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)

    def mlp(x, w1, b1, w2, b2, w3, b3):  # type: ignore[no-untyped-def]
        h = jax.nn.relu(x @ w1 + b1)
        h = jax.nn.relu(h @ w2 + b2)
        return softmax(h @ w3 + b3, 1)

    def attention(q, k, v):  # type: ignore[no-untyped-def]
        return softmax((q @ k.T) * jnp.float32(0.125), 1) @ v

    def conv(x, w, b):  # type: ignore[no-untyped-def]
        c = jax.lax.conv_general_dilated(x, w, (1, 1), ((1, 1), (1, 1)))
        r = jax.nn.relu(c + b[None, :, None, None])
        return jax.lax.reduce_window(r, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    fn = jax.jit(
        {"mlp": mlp, "attention": attention, "conv": conv, "linreg_cg": linreg_cg_step}[example]
    )
    placed: dict[int, Any] = {}

    def call(*arrays: np.ndarray) -> Any:
        key = id(arrays[0])
        if key not in placed:  # the inputs live on the device once, as in a real JAX program
            placed.clear()
            placed[key] = [jax.device_put(a) for a in arrays]
        return jax.block_until_ready(fn(*placed[key]))

    return call


# --------------------------------------------------------------------------------------------
# onnxruntime (an ONNX graph built with onnx.helper, default graph optimizations)


def _onnx_model(example: str) -> Any:
    from onnx import TensorProto, helper

    f32 = TensorProto.FLOAT

    def inp(name: str, *shape: int | str) -> Any:
        return helper.make_tensor_value_info(name, f32, list(shape))

    def const(name: str, value: float) -> Any:
        return helper.make_node(
            "Constant", [], [name], value=helper.make_tensor(name, f32, [], [value])
        )

    N = helper.make_node
    if example == "mlp":
        inputs = [inp("x", "n", 784), inp("w1", 784, 512), inp("b1", 512)]
        inputs += [inp("w2", 512, 512), inp("b2", 512), inp("w3", 512, 10), inp("b3", 10)]
        nodes = [
            N("Gemm", ["x", "w1", "b1"], ["g1"]),
            N("Relu", ["g1"], ["h1"]),
            N("Gemm", ["h1", "w2", "b2"], ["g2"]),
            N("Relu", ["g2"], ["h2"]),
            N("Gemm", ["h2", "w3", "b3"], ["g3"]),
            N("Softmax", ["g3"], ["y"], axis=1),
        ]
        outputs = [inp("y", "n", 10)]
    elif example == "attention":
        inputs = [inp("q", "s", 64), inp("k", "s", 64), inp("v", "s", 64)]
        nodes = [
            const("scale", 0.125),
            N("Transpose", ["k"], ["kt"], perm=[1, 0]),
            N("MatMul", ["q", "kt"], ["s0"]),
            N("Mul", ["s0", "scale"], ["s1"]),
            N("Softmax", ["s1"], ["p"], axis=1),
            N("MatMul", ["p", "v"], ["y"]),
        ]
        outputs = [inp("y", "s", 64)]
    elif example == "conv":
        inputs = [inp("x", "n", 3, 32, 32), inp("w", 16, 3, 3, 3), inp("b", 16)]
        nodes = [
            N("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
            N("Relu", ["c"], ["r"]),
            N("MaxPool", ["r"], ["y"], kernel_shape=[2, 2], strides=[2, 2]),
        ]
        outputs = [inp("y", "n", 16, 16, 16)]
    elif example == "linreg_cg":
        inputs = [inp("X", "n", 100), inp("w", 100, 1), inp("r", 100, 1), inp("p", 100, 1)]
        inputs.append(inp("lam"))
        nodes = [
            N("MatMul", ["X", "p"], ["Xp"]),
            N("Transpose", ["X"], ["Xt"], perm=[1, 0]),
            N("MatMul", ["Xt", "Xp"], ["XtXp"]),
            N("Mul", ["lam", "p"], ["lp"]),
            N("Add", ["XtXp", "lp"], ["q"]),
            N("Mul", ["r", "r"], ["rr_e"]),
            N("ReduceSum", ["rr_e"], ["rr"], keepdims=0),
            N("Mul", ["p", "q"], ["pq_e"]),
            N("ReduceSum", ["pq_e"], ["pq"], keepdims=0),
            N("Div", ["rr", "pq"], ["alpha"]),
            N("Mul", ["alpha", "p"], ["ap"]),
            N("Add", ["w", "ap"], ["w1"]),
            N("Mul", ["alpha", "q"], ["aq"]),
            N("Sub", ["r", "aq"], ["r1"]),
            N("Mul", ["r1", "r1"], ["rr1_e"]),
            N("ReduceSum", ["rr1_e"], ["rr1"], keepdims=0),
            N("Div", ["rr1", "rr"], ["beta"]),
            N("Mul", ["beta", "p"], ["bp"]),
            N("Add", ["r1", "bp"], ["p1"]),
        ]
        outputs = [inp("w1", 100, 1), inp("r1", 100, 1), inp("p1", 100, 1)]
    else:
        raise ValueError(f"no ONNX graph for example {example!r}")
    graph = helper.make_graph(nodes, example, inputs, outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _onnx(example: str, threads: int) -> Callable[..., Any]:
    import onnxruntime as ort

    model = _onnx_model(example)
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    single = len(sess.get_outputs()) == 1

    def call(*arrays: np.ndarray) -> Any:
        out = sess.run(None, dict(zip(names, arrays, strict=True)))
        return out[0] if single else tuple(out)

    return call
