"""Op interfaces that generic passes query: memory effects, loop-like, call/callable, branch.

Passes never match on op names: CSE, DCE and LICM ask `is_memory_effect_free(op)` /
`would_op_be_trivially_dead(op)`, LICM asks `loop_like(op)`, the inliner asks `call_like(op)` and
`callable_like(op)`. An op class implements an interface by inheriting it (or, for effects, by
declaring the `Pure` / `NoMemoryEffect` trait); ops defined elsewhere can get an *external model*
with `attach_interface("dialect.op", Interface, model)` so the dialect module stays untouched.

    class LoadOp(Op, MemoryEffectsOpInterface):
        name = "test.load"
        def get_effects(self):
            return [EffectInstance(READ, self.operand(0))]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mlc.ir.attributes import SymbolRefAttr, Type
from mlc.ir.core import Operation, Region, Value
from mlc.ir.opdef import ConstantLike, OpInterface, Pure, RecursiveMemoryEffects, Symbol, Trait

__all__ = [
    "READ",
    "WRITE",
    "ALLOCATE",
    "FREE",
    "EffectInstance",
    "NoMemoryEffect",
    "AlwaysSpeculatable",
    "MemoryEffectsOpInterface",
    "LoopLikeOpInterface",
    "CallOpInterface",
    "CallableOpInterface",
    "BranchOpInterface",
    "attach_interface",
    "get_effects",
    "is_memory_effect_free",
    "is_speculatable",
    "is_pure",
    "only_reads",
    "would_op_be_trivially_dead",
    "is_op_trivially_dead",
    "constant_value",
    "loop_like",
    "call_like",
    "callable_like",
    "branch_like",
]

# ---------------------------------------------------------------------------------------------
# Memory effects

READ, WRITE, ALLOCATE, FREE = "read", "write", "allocate", "free"


class EffectInstance:
    """One effect of an op: `kind` on `value` (None: on an unnamed resource) of `resource`."""

    __slots__ = ("kind", "value", "resource")

    def __init__(self, kind: str, value: Value | None = None, resource: str = "default") -> None:
        self.kind = kind
        self.value = value
        self.resource = resource

    def __repr__(self) -> str:
        on = "" if self.value is None else f" on {self.value!r}"
        return f"<Effect {self.kind}{on} ({self.resource})>"


class NoMemoryEffect(Trait):
    """No memory effects (but maybe not speculatable: e.g. integer division by a variable)."""


class AlwaysSpeculatable(Trait):
    """Executing it where it would not have run is harmless (no UB, no trap)."""


class MemoryEffectsOpInterface(OpInterface):
    """Ops that list their effects; an empty list means effect-free."""

    __slots__ = ()

    def get_effects(self) -> list[EffectInstance]:
        raise NotImplementedError


class ConditionallySpeculatable(OpInterface):
    """Ops whose speculatability depends on the instance (`is_speculatable()`)."""

    __slots__ = ()

    def is_speculatable(self) -> bool:
        return False


# Per-class answer of "how are the effects of this op known", computed once per class.
_PURE, _NO_EFFECT, _IFACE, _RECURSIVE, _UNKNOWN = range(5)
_effect_kind_cache: dict[Any, int] = {}


def _effect_kind(op: Operation) -> int:
    cls = type(op)
    key: Any = cls if cls._is_registered else op.name
    kind = _effect_kind_cache.get(key)
    if kind is not None:
        return kind
    traits = cls._traits
    if Pure in traits:
        kind = _PURE
    elif NoMemoryEffect in traits:
        kind = _NO_EFFECT
    elif (
        isinstance(op, MemoryEffectsOpInterface) or _model(op, MemoryEffectsOpInterface) is not None
    ):
        kind = _IFACE
    elif RecursiveMemoryEffects in traits:
        kind = _RECURSIVE
    else:
        kind = _UNKNOWN
    if RecursiveMemoryEffects in traits and kind in (_PURE, _NO_EFFECT):
        kind = _RECURSIVE
    _effect_kind_cache[key] = kind
    return kind


def get_effects(op: Operation) -> list[EffectInstance] | None:
    """The op's memory effects (nested ones included for recursive ops); None when unknown."""
    kind = _effect_kind(op)
    if kind == _PURE or kind == _NO_EFFECT:
        return []
    if kind == _IFACE:
        if isinstance(op, MemoryEffectsOpInterface):
            return list(op.get_effects())
        return list(_model(op, MemoryEffectsOpInterface).get_effects(op))  # type: ignore[union-attr]
    if kind == _RECURSIVE:
        effects: list[EffectInstance] = []
        for region in op.regions:
            for block in region.blocks:
                for child in block:
                    sub = get_effects(child)
                    if sub is None:
                        return None
                    effects.extend(sub)
        return effects
    return None


def _all_nested(op: Operation, pred: Callable[[Operation], bool]) -> bool:
    """`pred` holds for every op directly inside `op`'s regions (stops at the first that fails)."""
    for region in op.regions:
        for block in region.blocks:
            for child in block:
                if not pred(child):
                    return False
    return True


def is_memory_effect_free(op: Operation) -> bool:
    """True when the op (and, for recursive-effect ops, everything nested) has no effects."""
    kind = _effect_kind(op)
    if kind == _PURE or kind == _NO_EFFECT:
        return True
    if kind == _UNKNOWN:
        return False
    if kind == _IFACE:
        effects = get_effects(op)
        return effects is not None and not effects
    return _all_nested(op, is_memory_effect_free)


def is_speculatable(op: Operation) -> bool:
    """True when the op may be executed where it would not have run (hoisting)."""
    traits = type(op)._traits
    if Pure in traits or AlwaysSpeculatable in traits:
        speculatable = True
    elif isinstance(op, ConditionallySpeculatable):
        speculatable = op.is_speculatable()
    else:
        return False
    if speculatable and RecursiveMemoryEffects in traits:
        return _all_nested(op, is_speculatable)
    return speculatable


def is_pure(op: Operation) -> bool:
    """Memory-effect free and speculatable (MLIR's `isPure`)."""
    return is_memory_effect_free(op) and is_speculatable(op)


def only_reads(op: Operation) -> bool:
    """True when every known effect of the op is a read (effect-free ops included)."""
    effects = get_effects(op)
    return effects is not None and all(e.kind == READ for e in effects)


def would_op_be_trivially_dead(op: Operation) -> bool:
    """True when the op could be erased if its results had no uses.

    Terminators and symbols never are; an op whose only effects allocate or read its own
    results (or read anything) is, as in MLIR.
    """
    cls = type(op)
    if cls._is_terminator or Symbol in cls._traits:
        return False
    return _effects_droppable(op)


def _effects_droppable(op: Operation) -> bool:
    """Every effect of `op` and (for recursive-effect ops) of everything nested is a read or the
    allocation of that op's own result. Stops at the first effect that is not, instead of
    collecting a loop nest's effects first (which made canonicalize grow with nest depth)."""
    kind = _effect_kind(op)
    if kind == _PURE or kind == _NO_EFFECT:
        return True
    if kind == _UNKNOWN:
        return False
    if kind == _RECURSIVE:
        return _all_nested(op, _effects_droppable)
    effects = get_effects(op)
    if effects is None:
        return False
    results = op.results
    for e in effects:
        if e.kind == READ:
            continue
        if e.kind == ALLOCATE and e.value is not None and e.value in results:
            continue
        return False
    return True


def is_op_trivially_dead(op: Operation) -> bool:
    """No result is used and the op would be trivially dead."""
    for r in op.results:
        if r._first_use is not None:
            return False
    return would_op_be_trivially_dead(op)


def constant_value(value: Value) -> Any:
    """The attribute a value is known to hold (defined by a ConstantLike op), else None."""
    op = value.defining_op()
    if op is None or ConstantLike not in type(op)._traits:
        return None
    return op.get_attr("value")


# ---------------------------------------------------------------------------------------------
# Loops


class LoopLikeOpInterface(OpInterface):
    """Loops whose body regions LICM may hoist invariant code out of."""

    __slots__ = ()

    def loop_regions(self) -> Sequence[Region]:
        """The regions that form the loop body (executed repeatedly)."""
        return self.regions  # type: ignore[attr-defined, no-any-return]

    def is_defined_outside_of_loop(self, value: Value) -> bool:
        """True when `value` is defined outside this loop (so it is invariant)."""
        block = value.parent_block()
        op = block.parent_op if block is not None else None
        while op is not None:
            if op is self:
                return False
            op = op.parent_op
        return True

    def move_out_of_loop(self, op: Operation) -> None:
        """Move `op` (whose operands are defined outside) to just before the loop."""
        op.move_before(self)  # type: ignore[arg-type]

    def induction_vars(self) -> Sequence[Value]:
        return ()


# ---------------------------------------------------------------------------------------------
# Calls and callables


class CallOpInterface(OpInterface):
    """Ops that call a callable: `callee_ref()` gives the symbol (or value) called."""

    __slots__ = ()

    def callee_ref(self) -> SymbolRefAttr | Value:
        raise NotImplementedError

    def arg_operands(self) -> Sequence[Value]:
        return self.operands  # type: ignore[attr-defined, no-any-return]


class CallableOpInterface(OpInterface):
    """Ops that can be called (`func.func`): a body region and a signature."""

    __slots__ = ()

    def callable_region(self) -> Region | None:
        """The body, or None for a declaration."""
        raise NotImplementedError

    def callable_argument_types(self) -> Sequence[Type]:
        raise NotImplementedError

    def callable_result_types(self) -> Sequence[Type]:
        raise NotImplementedError


class BranchOpInterface(OpInterface):
    """Terminators that forward operands to their successors' block arguments."""

    __slots__ = ()

    def successor_operands(self, index: int) -> Sequence[Any]:
        """The operands (OpOperands) passed to successor `index`, in block-argument order."""
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------
# External models: interfaces attached to op classes from outside their dialect module

_models: dict[tuple[str, type], Any] = {}


def attach_interface(op_name: str, interface: type, model: Any) -> None:
    """Make ops named `op_name` implement `interface` through `model`.

    `model` has the interface's methods with the op as an explicit first argument, e.g. for
    CallOpInterface: `callee_ref(op)`, `arg_operands(op)`. Applies to unregistered ops too.
    """
    _models[(op_name, interface)] = model
    _effect_kind_cache.clear()


def _model(op: Operation, interface: type) -> Any:
    return _models.get((op.name, interface)) if _models else None


class _Bound:
    """An external model bound to one op, so callers use the interface's method names."""

    __slots__ = ("_model", "_op")

    def __init__(self, model: Any, op: Operation) -> None:
        self._model = model
        self._op = op

    def __getattr__(self, name: str) -> Any:
        fn = getattr(self._model, name)
        op = self._op
        return lambda *a, **k: fn(op, *a, **k)

    @property
    def op(self) -> Operation:
        return self._op


def _query(op: Operation, interface: type) -> Any:
    if isinstance(op, interface):
        return op
    model = _model(op, interface)
    return None if model is None else _Bound(model, op)


def loop_like(op: Operation) -> Any:
    """The op as a LoopLikeOpInterface (itself or its external model), else None."""
    return _query(op, LoopLikeOpInterface)


def call_like(op: Operation) -> Any:
    """The op as a CallOpInterface, else None."""
    return _query(op, CallOpInterface)


def callable_like(op: Operation) -> Any:
    """The op as a CallableOpInterface, else None."""
    return _query(op, CallableOpInterface)


def branch_like(op: Operation) -> Any:
    """The op as a BranchOpInterface, else None."""
    return _query(op, BranchOpInterface)


# Models for func.call / func.func, so the inliner works on the func dialect without the
# dialect importing this module (it may also implement the interfaces directly).


class _FuncCallModel:
    @staticmethod
    def callee_ref(op: Operation) -> Any:
        return op.get_attr("callee")

    @staticmethod
    def arg_operands(op: Operation) -> Sequence[Value]:
        return op.operands


class _FuncFuncModel:
    @staticmethod
    def callable_region(op: Operation) -> Region | None:
        region = op.regions[0] if op.regions else None
        return None if region is None or not region.blocks else region

    @staticmethod
    def _type(op: Operation) -> Any:
        t = op.get_attr("function_type")
        return getattr(t, "value", t)  # a TypeAttr (as MLIR) or the FunctionType itself

    @staticmethod
    def callable_argument_types(op: Operation) -> Sequence[Type]:
        return _FuncFuncModel._type(op).inputs  # type: ignore[no-any-return]

    @staticmethod
    def callable_result_types(op: Operation) -> Sequence[Type]:
        return _FuncFuncModel._type(op).results  # type: ignore[no-any-return]


attach_interface("func.call", CallOpInterface, _FuncCallModel)
attach_interface("func.func", CallableOpInterface, _FuncFuncModel)
