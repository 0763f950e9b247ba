"""The `builtin` dialect's ops: `builtin.module` and `builtin.unrealized_conversion_cast`.

Builtin types and attributes are core classes (`mlc.ir.attributes`), not registered here.
"""

from __future__ import annotations

from typing import Any

from mlc.ir import attributes as A
from mlc.ir.context import Dialect
from mlc.ir.core import Block, Operation, Region, Value
from mlc.ir.opdef import (
    AffineScope,
    AnyType,
    GraphRegions,
    IsolatedFromAbove,
    NoTerminator,
    Op,
    OperationState,
    Pure,
    SingleBlock,
    StrAttr,
    SymbolTable,
    opt_prop,
    region,
    var_operand,
    var_result,
)

VISIBILITIES = ("public", "private", "nested")
_SYMBOL_ATTRS = ("sym_name", "sym_visibility")


def verify_symbol_visibility(op: Operation) -> None:
    """MLIR's SymbolOpInterface check of `sym_visibility` (for ops with the Symbol trait), and
    a name that `@name` references can spell (the parser reads symbol names as UTF-8)."""
    name = op.get_attr("sym_name")
    if type(name) is A.StringAttr and type(name.value) is not str:
        raise op.error("symbol name 'sym_name' must be valid UTF-8")
    vis = op.get_attr("sym_visibility")
    if vis is None:
        return
    if type(vis) is not A.StringAttr:
        raise op.error(
            "requires visibility attribute 'sym_visibility' to be a string attribute, "
            f"but got {vis}"
        )
    if vis.value not in VISIBILITIES:
        raise op.error(
            'visibility expected to be one of ["public", "private", "nested"], '
            f'but got "{vis.value}"'
        )


class ModuleOp(Op):
    """A top-level container: one block of ops, a symbol table, no terminator.

    module @name attributes {dialect.attr = 1} {
      func.func @f() { return }
    }
    """

    name = "builtin.module"
    traits = (
        AffineScope,
        IsolatedFromAbove,
        SymbolTable,
        SingleBlock,
        NoTerminator,
        GraphRegions,
    )
    sym_name = opt_prop(StrAttr)
    sym_visibility = opt_prop(StrAttr)
    body = region()

    @classmethod
    def build_module(cls, name: str | None = None, location: A.Location | None = None) -> ModuleOp:
        """An empty module (with its one block), optionally named `@name`."""
        attrs = {"sym_name": A.StringAttr(name)} if name is not None else None
        region_ = Region([Block()])
        return cls.create((), (), attrs, [region_], location=location)  # type: ignore[return-value]

    @property
    def block(self) -> Block:
        """The body's single block."""
        return self.regions[0].blocks[0]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        attrs = state.attributes
        name = parser.parse_optional_symbol_name()
        if name is not None:
            attrs["sym_name"] = A.StringAttr(name)
        # Inherent attributes other than the name print as `<sym_visibility = "private">`.
        if parser.parse_optional_punct("<"):
            while True:
                key = parser.parse_optional_keyword()
                if key is None:
                    raise parser.error("expected attribute name")
                parser.parse_punct("=")
                attrs[key] = parser.parse_attribute()
                if not parser.parse_optional_punct(","):
                    break
            parser.parse_punct(">")
        parser.parse_optional_attr_dict_with_keyword(attrs)
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        state.regions = [body]

    def print_asm(self, p: Any) -> None:
        name = self.get_attr("sym_name")
        if type(name) is A.StringAttr:
            p.write(" ")
            p.print_symbol_name(name.value)
        vis = self.get_attr("sym_visibility")
        if vis is not None:
            p.write(" <sym_visibility = ")
            p.print_attribute(vis)
            p.write(">")
        p.print_attr_dict_with_keyword(self.attributes, elided=_SYMBOL_ATTRS)
        p.write(" ")
        p.print_region(self.regions[0], print_entry_block_args=False)

    def verify_op(self) -> None:
        body = self.regions[0]
        if len(body.blocks) != 1:
            raise self.error(
                "region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks"
            )
        if body.blocks[0].arguments:
            raise self.error("region should have no arguments")
        verify_symbol_visibility(self)
        for key in self.attributes:
            if "." not in key and key not in _SYMBOL_ATTRS:
                raise self.error(
                    f"can only contain attributes with dialect-prefixed names, found: '{key}'"
                )


class UnrealizedConversionCastOp(Op):
    """A placeholder conversion between type systems, left by partial dialect conversion.

    %1 = builtin.unrealized_conversion_cast %0 : i32 to !llvm.ptr
    %2:2 = builtin.unrealized_conversion_cast to i64, f32
    """

    name = "builtin.unrealized_conversion_cast"
    traits = (Pure,)
    inputs = var_operand(AnyType)
    outputs = var_result(AnyType)
    format = "($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict"

    def verify_op(self) -> None:
        if not self.results:
            raise self.error("expected at least one result for cast operation")

    def fold(self, operand_attrs: list) -> list[Value] | None:
        inputs = self.operands
        if [v.type for v in inputs] == list(self.result_types):
            return list(inputs)  # a cast to the same types
        if not inputs:
            return None
        # cast(cast(x)) -> x when the inner cast's results all feed this one, in order.
        inner = inputs[0].defining_op()
        if (
            type(inner) is UnrealizedConversionCastOp
            and list(inner.results) == list(inputs)
            and [v.type for v in inner.operands] == list(self.result_types)
        ):
            return list(inner.operands)
        return None


DIALECT = Dialect("builtin", ops=[ModuleOp, UnrealizedConversionCastOp])
