"""`Interpreter` (every dialect's handlers composed) and the `run` entry point."""

from __future__ import annotations

from typing import Any

from mlc.interp.core import BaseInterpreter, FuncHandlers
from mlc.interp.graph import GraphHandlers
from mlc.interp.scalar import ArithHandlers, MathHandlers
from mlc.interp.tensor import TensorHandlers
from mlc.ir.core import Operation

__all__ = ["Interpreter", "run"]


class Interpreter(
    FuncHandlers, ArithHandlers, MathHandlers, GraphHandlers, TensorHandlers, BaseInterpreter
):
    """Runs functions of a module on NumPy values: func, arith, math, graph and tensor ops.

    Extend it for another dialect by subclassing with `@handles`-marked methods, or by
    `Interpreter.register(name, fn)`; a handler gets the op and its operand values and returns
    the result value(s):

        class MyInterpreter(Interpreter):
            @handles("mydialect.square")
            def _square(self, op, x):
                return x * x

        MyInterpreter(module).run_function("main", [array])
    """


def run(module: Operation | str, name: str, *args: Any, verify: bool = True) -> tuple[Any, ...]:
    """Run function `name` of `module` (a `builtin.module` op, or IR text) on NumPy values.

    Arguments are checked against the function signature (count, dtype, rank, static dims;
    `?` dims bind to any size) and never modified. Returns the results as a tuple of NumPy
    arrays (NumPy scalars for scalar results). With `verify`, the module is verified first.

    >>> import numpy as np, mlc.interp
    >>> mlc.interp.run('''
    ... func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
    ...   %0 = graph.relu %x : tensor<3xf32>
    ...   return %0 : tensor<3xf32>
    ... }''', "main", np.array([-1.0, 0.5, 2.0], np.float32))
    (array([0. , 0.5, 2. ], dtype=float32),)
    """
    if isinstance(module, str):
        import mlc

        module = mlc.parse(module)
    elif not isinstance(module, Operation) or module.name != "builtin.module":
        raise TypeError(f"expected a builtin.module op or IR text, got {module!r}")
    if verify:
        module.verify()
    return Interpreter(module).run_function(name, args)
