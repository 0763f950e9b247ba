"""Dialect conversion: a legality target, a type converter with materializations, conversion
patterns that see converted operands, and the partial/full conversion drivers.

Values whose type changes are bridged with `builtin.unrealized_conversion_cast` ops (MLIR's
materializations); `reconcile-unrealized-casts` removes the ones that cancel out. The driver
does not roll back: a pattern that returns False must not have changed the IR.

    class AddIToLLVM(ConversionPattern):
        root = AddIOp
        def match_and_rewrite(self, op, operands, rewriter):
            rewriter.replace_op_with_new(op, LLVMAddOp, operands, [op.res.type])
            return True

    target = ConversionTarget()
    target.add_legal_dialect("llvm")
    target.add_illegal_dialect("arith")
    ok = apply_full_conversion(module, target, [AddIToLLVM()])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mlc.diagnostics import Diagnostic, engine
from mlc.ir.attributes import FunctionType, Location, Type
from mlc.ir.core import Operation, Region, UnregisteredOp, Value
from mlc.rewrite.pattern import FrozenPatternSet, Listener, PatternRewriter, RewritePattern

__all__ = [
    "ConversionTarget",
    "TypeConverter",
    "ConversionPattern",
    "ConversionPatternRewriter",
    "apply_partial_conversion",
    "apply_full_conversion",
    "create_unrealized_cast",
    "CAST_OP_NAME",
]

CAST_OP_NAME = "builtin.unrealized_conversion_cast"

_LEGAL, _ILLEGAL, _DYNAMIC = 0, 1, 2


def _op_key(op: type[Operation] | str) -> str:
    return op if isinstance(op, str) else op.name


class ConversionTarget:
    """Which ops are legal after the conversion: by op, by dialect, or decided per op."""

    def __init__(self) -> None:
        self._ops: dict[str, tuple[int, Callable[[Operation], bool] | None]] = {}
        self._dialects: dict[str, tuple[int, Callable[[Operation], bool] | None]] = {}
        self._unknown: Callable[[Operation], bool] | None = None
        self._recursive: dict[str, Callable[[Operation], bool] | None] = {}

    def add_legal_op(self, *ops: type[Operation] | str) -> None:
        for op in ops:
            self._ops[_op_key(op)] = (_LEGAL, None)

    def add_illegal_op(self, *ops: type[Operation] | str) -> None:
        for op in ops:
            self._ops[_op_key(op)] = (_ILLEGAL, None)

    def add_dynamically_legal_op(
        self, op: type[Operation] | str, fn: Callable[[Operation], bool]
    ) -> None:
        self._ops[_op_key(op)] = (_DYNAMIC, fn)

    def add_legal_dialect(self, *names: str) -> None:
        for n in names:
            self._dialects[n] = (_LEGAL, None)

    def add_illegal_dialect(self, *names: str) -> None:
        for n in names:
            self._dialects[n] = (_ILLEGAL, None)

    def add_dynamically_legal_dialect(self, name: str, fn: Callable[[Operation], bool]) -> None:
        self._dialects[name] = (_DYNAMIC, fn)

    def mark_unknown_op_dynamically_legal(self, fn: Callable[[Operation], bool]) -> None:
        """Decide ops that no rule covers with `fn` (otherwise they are 'unknown')."""
        self._unknown = fn

    def mark_op_recursively_legal(
        self, op: type[Operation] | str, fn: Callable[[Operation], bool] | None = None
    ) -> None:
        """A legal `op` makes everything nested in it legal too (when `fn`, if given, agrees)."""
        self._recursive[_op_key(op)] = fn

    def legality(self, op: Operation) -> bool | None:
        """True (legal), False (illegal) or None (unknown: no rule applies)."""
        entry = self._ops.get(op.name)
        if entry is None:
            entry = self._dialects.get(op.dialect_name)
        if entry is not None:
            kind, fn = entry
            if kind == _LEGAL:
                return True
            if kind == _ILLEGAL:
                return False
            return bool(fn(op))  # type: ignore[misc]
        if self._unknown is not None:
            return bool(self._unknown(op))
        return None

    def is_recursively_legal(self, op: Operation) -> bool:
        if op.name not in self._recursive:
            return False
        fn = self._recursive[op.name]
        return fn is None or bool(fn(op))


Materialization = Callable[[PatternRewriter, Type, Sequence[Value], Location], "Value | None"]


def create_unrealized_cast(
    rewriter: PatternRewriter,
    result_type: Type,
    inputs: Sequence[Value],
    location: Location | None = None,
) -> Operation:
    """Insert `builtin.unrealized_conversion_cast inputs : ... to result_type`."""
    from mlc.ir.context import default_context

    cls = default_context().get_op(CAST_OP_NAME)
    if cls is not None:
        op = cls.create(list(inputs), [result_type], None, (), (), location)  # flat create
    else:
        op = UnregisteredOp.create_named(
            CAST_OP_NAME, list(inputs), [result_type], location=location
        )
    return rewriter.insert(op)


class TypeConverter:
    """Type conversion rules plus materializations that bridge old and new types.

    `add_conversion(fn)`: `fn(type) -> Type | None` (None: not handled, try the next rule);
    rules added later are tried first, as in MLIR. A type no rule handles is not converted
    (kept as is). Only 1:1 conversions are supported.
    """

    def __init__(self) -> None:
        self._conversions: list[Callable[[Type], Type | None]] = []
        self._source: list[Materialization] = []
        self._target: list[Materialization] = []
        self._cache: dict[Type, Type | None] = {}

    def add_conversion(self, fn: Callable[[Type], Type | None]) -> None:
        self._conversions.append(fn)
        self._cache.clear()

    def add_source_materialization(self, fn: Materialization) -> None:
        """`fn(rewriter, old_type, [new_value], loc)`: rebuild an old-typed value."""
        self._source.append(fn)

    def add_target_materialization(self, fn: Materialization) -> None:
        """`fn(rewriter, new_type, [old_value], loc)`: build a converted value."""
        self._target.append(fn)

    def convert_type(self, t: Type) -> Type | None:
        try:
            return self._cache[t]
        except KeyError:
            pass
        result: Type | None = t
        for fn in reversed(self._conversions):
            converted = fn(t)
            if converted is not None:
                result = converted
                break
        self._cache[t] = result
        return result

    def convert_types(self, types: Iterable[Type]) -> list[Type] | None:
        out = []
        for t in types:
            c = self.convert_type(t)
            if c is None:
                return None
            out.append(c)
        return out

    def is_legal(self, t: Type | Operation) -> bool:
        """A type is legal when it converts to itself; an op when all its value types are."""
        if isinstance(t, Operation):
            return all(self.is_legal(u.value.type) for u in t._operands) and all(
                self.is_legal(r.type) for r in t.results
            )
        return self.convert_type(t) is t

    def is_signature_legal(self, ft: FunctionType) -> bool:
        return all(self.is_legal(t) for t in ft.inputs) and all(
            self.is_legal(t) for t in ft.results
        )

    def convert_signature(self, ft: FunctionType) -> FunctionType | None:
        inputs = self.convert_types(ft.inputs)
        results = self.convert_types(ft.results)
        if inputs is None or results is None:
            return None
        return FunctionType(inputs, results)

    def materialize_source(
        self, rewriter: PatternRewriter, t: Type, inputs: Sequence[Value], loc: Location | None
    ) -> Value:
        for fn in reversed(self._source):
            v = fn(rewriter, t, inputs, loc)  # type: ignore[arg-type]
            if v is not None:
                return v
        return create_unrealized_cast(rewriter, t, inputs, loc).results[0]

    def materialize_target(
        self, rewriter: PatternRewriter, t: Type, inputs: Sequence[Value], loc: Location | None
    ) -> Value:
        for fn in reversed(self._target):
            v = fn(rewriter, t, inputs, loc)  # type: ignore[arg-type]
            if v is not None:
                return v
        return create_unrealized_cast(rewriter, t, inputs, loc).results[0]


class ConversionPattern(RewritePattern):
    """A pattern for dialect conversion: `match_and_rewrite(op, operands, rewriter)` gets the
    op's operands already converted (by the pattern's `type_converter`, if any)."""

    type_converter: TypeConverter | None = None

    def __init__(
        self,
        type_converter: TypeConverter | None = None,
        root: type[Operation] | str | None = None,
        benefit: int | None = None,
    ) -> None:
        super().__init__(root, benefit)
        if type_converter is not None:
            self.type_converter = type_converter

    def match_and_rewrite(
        self, op: Operation, operands: list[Value], rewriter: ConversionPatternRewriter
    ) -> bool:
        raise NotImplementedError

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        if isinstance(rewriter, ConversionPatternRewriter):
            return self.match_and_rewrite(
                op, rewriter.remapped_operands(op, self.type_converter), rewriter
            )
        return self.match_and_rewrite(op, list(op.operands), rewriter)  # type: ignore[arg-type]


class ConversionPatternRewriter(PatternRewriter):
    """The rewriter of the conversion driver: replacing a value by one of another type inserts a
    source materialization for the remaining (not yet converted) users."""

    __slots__ = ("casts", "default_converter", "current_converter")

    def __init__(self, listener: Listener, default_converter: TypeConverter | None) -> None:
        super().__init__(listener)
        self.casts: set[Operation] = set()
        self.default_converter = default_converter
        self.current_converter: TypeConverter | None = default_converter

    def insert(self, op: Operation) -> Operation:
        return super().insert(op)

    def _cast(
        self, fn: Callable[..., Value], t: Type, inputs: Sequence[Value], loc: Location | None
    ) -> Value:
        v = fn(self, t, inputs, loc)
        owner = v.defining_op()
        if owner is not None and owner.name == CAST_OP_NAME:
            self.casts.add(owner)
        return v

    def replace_op(self, op: Operation, values: Sequence[Value] | Operation) -> None:
        if isinstance(values, Operation):
            values = values.results
        if len(values) != len(op.results):
            raise ValueError(
                f"replacing '{op.name}' with {len(values)} values for {len(op.results)} results"
            )
        bridged = []
        for r, v in zip(op.results, values):
            if v.type is not r.type and r.has_uses():
                conv = self.current_converter or TypeConverter()
                v = self._cast(conv.materialize_source, r.type, [v], op.location)
            bridged.append(v)
        super().replace_op(op, bridged)

    def remapped_value(self, value: Value, converter: TypeConverter | None) -> Value:
        """The value to use for `value` in converted code: looks through casts the driver made,
        and materializes the converted type when `converter` says it differs."""
        owner = value.defining_op()
        if owner is not None and owner in self.casts and len(owner._operands) == 1:
            inner = owner._operands[0].value
            if converter is None or converter.convert_type(value.type) is inner.type:
                return inner
        if converter is None:
            return value
        want = converter.convert_type(value.type)
        if want is None or want is value.type:
            return value
        return self._cast(converter.materialize_target, want, [value], value_location(value))

    def remapped_operands(self, op: Operation, converter: TypeConverter | None) -> list[Value]:
        conv = converter if converter is not None else self.default_converter
        self.current_converter = conv
        return [self.remapped_value(u.value, conv) for u in op._operands]

    def convert_region_types(
        self, region: Region, converter: TypeConverter, *, entry_only: bool = False
    ) -> bool:
        """Convert block argument types in place; old-typed uses go through a materialization."""
        blocks = region.blocks[:1] if entry_only else region.blocks
        for block in blocks:
            for arg in block.arguments:
                new_t = converter.convert_type(arg.type)
                if new_t is None:
                    return False
                if new_t is arg.type:
                    continue
                old_t = arg.type
                arg.type = new_t
                if not arg.has_uses():
                    continue
                saved = self.ip
                self.set_insertion_point_to_start(block)
                uses = list(arg.uses)
                bridged = self._cast(converter.materialize_source, old_t, [arg], arg.location)
                for use in uses:
                    use.set(bridged)
                    self.listener.notify_op_modified(use.owner)
                self.ip = saved
        return True


def value_location(value: Value) -> Location | None:
    owner = value.defining_op()
    if owner is not None:
        return owner.location
    return getattr(value, "location", None)


class _ConversionDriver(Listener):
    def __init__(
        self,
        target: ConversionTarget,
        patterns: FrozenPatternSet,
        converter: TypeConverter | None,
        full: bool,
    ) -> None:
        self.target = target
        self.patterns = patterns
        self.full = full
        self.rewriter = ConversionPatternRewriter(self, converter)
        self.erased: set[Operation] = set()
        self.created: list[Operation] = []
        self.failed: list[Operation] = []
        self.legal_roots: set[Operation] = set()

    def notify_op_inserted(self, op: Operation) -> None:
        self.created.append(op)

    def notify_op_erased(self, op: Operation) -> None:
        self.erased.add(op)

    def _inside_legal_root(self, op: Operation) -> bool:
        if not self.legal_roots:
            return False
        parent = op.parent_op
        while parent is not None:
            if parent in self.legal_roots:
                return True
            parent = parent.parent_op
        return False

    def legalize(self, op: Operation) -> None:
        if op in self.erased or op in self.rewriter.casts or self._inside_legal_root(op):
            return
        legal = self.target.legality(op)
        if legal:
            if self.target.is_recursively_legal(op):
                self.legal_roots.add(op)
            return
        if legal is None and not self.full and not self.patterns.patterns_for(op):
            return  # unknown ops are left alone by a partial conversion
        rewriter = self.rewriter
        for pat in self.patterns.patterns_for(op):
            rewriter.set_insertion_point_before(op)
            self.created = []
            if pat.rewrite(op, rewriter):
                for new in self.created:
                    self.legalize(new)
                return
        if legal is None and not self.full:
            return
        self.failed.append(op)

    def run(self, ops: list[Operation]) -> bool:
        for op in ops:
            self.legalize(op)
        ok = True
        for op in self.failed:
            if op in self.erased or op.parent is None:
                continue
            legal = self.target.legality(op)
            if legal:
                continue
            # MLIR's wording; like MLIR, the first failure (in pre-order) is the one reported.
            suffix = "" if self.full or legal is None else " that was explicitly marked illegal"
            message = f"failed to legalize operation '{op.name}'{suffix}"
            engine.emit(Diagnostic("error", message, op.location))
            ok = False
            break
        # Materializations that ended up unused are dropped.
        for cast in list(self.rewriter.casts):
            if cast.parent is not None and not cast.has_uses():
                cast.erase()
        return ok


def _apply(
    root: Operation,
    target: ConversionTarget,
    patterns: Any,
    converter: TypeConverter | None,
    full: bool,
) -> bool:
    if not isinstance(patterns, FrozenPatternSet):
        patterns = FrozenPatternSet(patterns)
    ops = [o for o in root.walk(post_order=False) if o is not root]
    return _ConversionDriver(target, patterns, converter, full).run(ops)


def apply_partial_conversion(
    root: Operation,
    target: ConversionTarget,
    patterns: FrozenPatternSet | Iterable[Any],
    type_converter: TypeConverter | None = None,
) -> bool:
    """Convert the illegal ops nested in `root`; ops the target does not know are left alone.

    Errors (`failed to legalize operation 'x.y' that was explicitly marked illegal`) go to the
    diagnostic engine; returns success.
    """
    return _apply(root, target, patterns, type_converter, full=False)


def apply_full_conversion(
    root: Operation,
    target: ConversionTarget,
    patterns: FrozenPatternSet | Iterable[Any],
    type_converter: TypeConverter | None = None,
) -> bool:
    """Convert every op nested in `root` to a legal one; an op that stays illegal or unknown is
    an error `failed to legalize operation 'x.y'` at its location. Returns success."""
    return _apply(root, target, patterns, type_converter, full=True)
