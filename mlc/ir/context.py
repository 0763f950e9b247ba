"""Dialects and the context that registers them (lazily: a dialect module loads on first use)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

from mlc.ir.attributes import Attribute, Type
from mlc.ir.core import Operation

# Dialects that ship with mlc: name -> module defining `DIALECT`.
BUILTIN_DIALECT_MODULES: dict[str, str] = {
    "builtin": "mlc.dialects.builtin",
    "func": "mlc.dialects.func",
    "arith": "mlc.dialects.arith",
    "math": "mlc.dialects.math",
    "graph": "mlc.dialects.graph",
    "tensor": "mlc.dialects.tensor",
    "affine": "mlc.dialects.affine",
    "memref": "mlc.dialects.memref",
    "vector": "mlc.dialects.vector",
    "llvm": "mlc.dialects.llvm",
}


class Dialect:
    """A namespace of ops, types and attributes, plus dialect-wide hooks.

    `materialize_constant(value_attr, type, location)` builds a constant op for folding.
    """

    __slots__ = ("name", "ops", "types", "attributes", "materialize_constant", "canonicalization_patterns")

    def __init__(
        self,
        name: str,
        ops: Iterable[type[Operation]] = (),
        types: Iterable[type[Type]] = (),
        attributes: Iterable[type[Attribute]] = (),
        materialize_constant: Callable[..., Operation | None] | None = None,
        canonicalization_patterns: Iterable[Any] = (),
    ) -> None:
        self.name = name
        self.ops: dict[str, type[Operation]] = {}
        self.types: dict[str, type[Type]] = {}
        self.attributes: dict[str, type[Attribute]] = {}
        self.materialize_constant = materialize_constant
        self.canonicalization_patterns = tuple(canonicalization_patterns)
        for op in ops:
            self._add(self.ops, op, "op")
        for t in types:
            self._add(self.types, t, "type")
        for a in attributes:
            self._add(self.attributes, a, "attribute")

    def _add(self, table: dict[str, Any], cls: Any, what: str) -> None:
        full = cls.name
        prefix, dot, mnemonic = full.partition(".")
        if prefix != self.name or not dot:
            raise ValueError(f"{what} '{full}' does not belong to dialect '{self.name}'")
        if full in table:
            raise ValueError(f"{what} '{full}' is registered twice")
        table[full] = cls

    def __repr__(self) -> str:
        return f"<Dialect {self.name}: {len(self.ops)} ops>"


class Context:
    """Known dialects: registered by module path (loaded lazily) or as loaded objects."""

    __slots__ = ("_modules", "_loaded", "_op_cache")

    def __init__(self, modules: dict[str, str] | None = None) -> None:
        self._modules: dict[str, str] = dict(BUILTIN_DIALECT_MODULES if modules is None else modules)
        self._loaded: dict[str, Dialect] = {}
        self._op_cache: dict[str, type[Operation] | None] = {}

    def register_dialect_module(self, name: str, module: str) -> None:
        """Make dialect `name` loadable from `module` (which defines `DIALECT`) on first use."""
        self._modules[name] = module
        self._op_cache.clear()

    def register_dialect(self, dialect: Dialect) -> None:
        self._loaded[dialect.name] = dialect
        self._op_cache.clear()

    def get_dialect(self, name: str) -> Dialect | None:
        d = self._loaded.get(name)
        if d is not None:
            return d
        module = self._modules.get(name)
        if module is None:
            return None
        d = importlib.import_module(module).DIALECT
        self._loaded[name] = d
        return d

    def load_all(self) -> list[Dialect]:
        for name in list(self._modules):
            self.get_dialect(name)
        return list(self._loaded.values())

    @property
    def dialect_names(self) -> list[str]:
        return sorted(set(self._modules) | set(self._loaded))

    def get_op(self, name: str) -> type[Operation] | None:
        """The op class registered as `name` ('dialect.mnemonic'), else None."""
        try:
            return self._op_cache[name]
        except KeyError:
            pass
        dialect = self.get_dialect(name.partition(".")[0])
        cls = None if dialect is None else dialect.ops.get(name)
        self._op_cache[name] = cls
        return cls

    def get_type(self, name: str) -> type[Type] | None:
        dialect = self.get_dialect(name.partition(".")[0])
        return None if dialect is None else dialect.types.get(name)

    def get_attr(self, name: str) -> type[Attribute] | None:
        dialect = self.get_dialect(name.partition(".")[0])
        return None if dialect is None else dialect.attributes.get(name)


_default: Context | None = None


def default_context() -> Context:
    """The process-wide context used when none is given."""
    global _default
    if _default is None:
        _default = Context()
    return _default
