"""A NumPy reference interpreter for func/arith/math/graph/tensor IR: the numerics oracle.

    >>> import numpy as np, mlc.interp
    >>> text = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {" \\
    ...        " %0 = arith.addf %a, %a : tensor<2xf32>  return %0 : tensor<2xf32> }"
    >>> mlc.interp.run(text, "main", np.array([1.0, 2.0], np.float32))
    (array([2., 4.], dtype=float32),)
"""

from mlc.interp.core import FunctionRef, InterpreterError, handles
from mlc.interp.interpreter import Interpreter, run

__all__ = ["run", "Interpreter", "InterpreterError", "handles", "FunctionRef"]
