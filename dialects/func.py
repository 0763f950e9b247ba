"""The `func` dialect: functions (`func.func`), returns, direct and indirect calls, and
function-valued constants, with MLIR's properties, verifiers and custom syntax.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mlc.dialects.builtin import verify_symbol_visibility

from mlc.diagnostics import Diagnostic, VerifyError
from mlc.interfaces import CallableOpInterface, CallOpInterface
from mlc.ir import attributes as A
from mlc.ir.context import Dialect
from mlc.ir.core import Block, Operation, Region, Value
from mlc.ir.opdef import (
    AffineScope,
    AnyType,
    ConstantLike,
    Constraint,
    FlatSymbolRefAttrC,
    IsolatedFromAbove,
    Op,
    OperationState,
    Pure,
    ReturnLike,
    StrAttr,
    Symbol,
    SymbolUserOpInterface,
    Terminator,
    UnitAttrC,
    has_parent,
    operand,
    opt_prop,
    prop,
    region,
    result,
    type_attr_of,
    type_is,
    var_operand,
    var_result,
)
from mlc.ir.symbols import lookup_nearest_symbol_from

DictArrayAttr = Constraint(
    lambda a: type(a) is A.ArrayAttr and all(type(d) is A.DictionaryAttr for d in a.value),
    "Array of dictionary attributes",
)
FunctionTypeAttr = type_attr_of(A.FunctionType, "type attribute of function type")
FunctionTypeC = type_is(A.FunctionType, description="function type")


_EMPTY: dict[str, A.Attribute] = {}
# Attributes func.func prints in its signature rather than in its attribute dictionary.
_FUNC_ELIDED = frozenset(("sym_name", "sym_visibility", "function_type", "arg_attrs", "res_attrs"))


def _q(t: A.Type) -> str:
    """A type as MLIR diagnostics show it: quoted."""
    return f"'{t}'"


def lookup_callee(op: Operation, ref: A.SymbolRefAttr, tables: Any = None) -> Operation | None:
    """The op `ref` names, seen from `op` (through the verifier's table cache when given)."""
    if tables is not None:
        return tables.lookup_nearest_symbol_from(op, ref)  # type: ignore[no-any-return]
    return lookup_nearest_symbol_from(op, ref)


# ---------------------------------------------------------------------------------------------
# func.func


class FuncOp(Op, CallableOpInterface):
    """A function: a symbol with a signature and a body region (empty for a declaration).

    func.func @add(%a: i32, %b: i32) -> i32 {
      %0 = arith.addi %a, %b : i32
      return %0 : i32
    }
    func.func private @ext(memref<?xf32> {llvm.noalias}) -> (i32 {llvm.zeroext})
    """

    name = "func.func"
    traits = (AffineScope, IsolatedFromAbove, Symbol)
    default_dialect = "func"
    sym_name = prop(StrAttr)
    function_type = prop(FunctionTypeAttr)
    sym_visibility = opt_prop(StrAttr)
    arg_attrs = opt_prop(DictArrayAttr)
    res_attrs = opt_prop(DictArrayAttr)
    no_inline = opt_prop(UnitAttrC)
    body = region()

    @classmethod
    def build_func(
        cls,
        name: str,
        inputs: Sequence[A.Type] = (),
        results: Sequence[A.Type] = (),
        *,
        visibility: str | None = None,
        declaration: bool = False,
        location: A.Location | None = None,
    ) -> FuncOp:
        """A function `@name` of type `(inputs) -> results` with an empty entry block (whose
        arguments have the input types), or without a body when `declaration`."""
        attrs: dict[str, A.Attribute] = {
            "sym_name": A.StringAttr(name),
            "function_type": A.TypeAttr(A.FunctionType(inputs, results)),
        }
        if visibility is not None:
            attrs["sym_visibility"] = A.StringAttr(visibility)
        body = Region() if declaration else Region([Block(inputs)])
        return cls.create((), (), attrs, [body], location=location)  # type: ignore[return-value]

    @property
    def func_type(self) -> A.FunctionType:
        """The signature (the value of `function_type`)."""
        attrs = self._attrs
        fta = attrs.get("function_type") if attrs is not None else None
        if fta is None:
            fta = self.get_attr("function_type")
        return fta.value  # type: ignore[union-attr, no-any-return]

    @property
    def is_declaration(self) -> bool:
        """True for an external function (no body)."""
        return not self.regions[0].blocks

    @property
    def entry_block(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def arguments(self) -> list[Value]:
        """The entry block's arguments."""
        return list(self.regions[0].blocks[0].arguments)

    # CallableOpInterface
    def callable_region(self) -> Region | None:
        body = self.regions[0]
        return body if body.blocks else None

    def callable_argument_types(self) -> Sequence[A.Type]:
        return self.func_type.inputs

    def callable_result_types(self) -> Sequence[A.Type]:
        return self.func_type.results

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        attrs = state.attributes
        vis = parser.parse_optional_keyword_in(("public", "private", "nested"))
        if vis is not None:
            attrs["sym_visibility"] = A.StringAttr(vis)
        attrs["sym_name"] = A.StringAttr(parser.parse_symbol_name())
        args = _parse_function_arguments(parser)
        results, result_attrs = _parse_function_results(parser)
        attrs["function_type"] = A.TypeAttr(A.FunctionType([a.type for a in args], results))
        pos = parser.pos()
        explicit: dict[str, A.Attribute] = {}
        parser.parse_optional_attr_dict_with_keyword(explicit)
        for inferred in ("sym_visibility", "sym_name", "function_type"):
            if inferred in explicit:
                raise parser.error(
                    f"'{inferred}' is an inferred attribute and should not be specified in the "
                    "explicit attribute dictionary",
                    pos,
                )
        attrs.update(explicit)
        arg_dicts = [a.attrs or {} for a in args]
        if any(arg_dicts):
            attrs["arg_attrs"] = A.ArrayAttr([A.DictionaryAttr(d) for d in arg_dicts])
        if any(result_attrs):
            attrs["res_attrs"] = A.ArrayAttr([A.DictionaryAttr(d) for d in result_attrs])
        pos = parser.pos()
        body = parser.parse_optional_region(args or None)
        if body is None:
            body = Region()
        elif not body.blocks:
            raise parser.error("expected non-empty function body", pos)
        state.regions = [body]

    def print_asm(self, p: Any) -> None:
        attrs = self._attrs or _EMPTY
        body = self.regions[0]
        if (
            body.blocks
            and not p._debuginfo
            and "arg_attrs" not in attrs
            and "res_attrs" not in attrs
            and type(attrs.get("sym_name")) is A.StringAttr
        ):
            # The common case in one string: a body, no argument/result attributes, no locations.
            ft = self.func_type
            args = body.blocks[0].arguments
            if len(args) == len(ft.inputs):
                names, tstr = p._names, p._tstr
                vis = attrs.get("sym_visibility")
                text = (
                    (" " + vis.value + " " if type(vis) is A.StringAttr else " ")
                    + p._symbol_text(attrs["sym_name"].value)
                    + "("
                    + ", ".join([names[a] + ": " + tstr[a.type] for a in args])
                    + ")"
                )
                if ft.results:
                    text += " -> " + p._results_text(ft.results)
                p.write(text)
                if not _FUNC_ELIDED.issuperset(attrs):
                    p.print_attr_dict_with_keyword(self.attributes, elided=_FUNC_ELIDED)
                p.write(" ")
                p.print_region(body, print_entry_block_args=False)
                return
        p.write(" ")
        vis = self.get_attr("sym_visibility")
        if type(vis) is A.StringAttr:
            p.write(vis.value + " ")
        p.print_symbol_name(self.get_attr("sym_name").value)  # type: ignore[union-attr]
        ft = self.func_type
        body = self.regions[0]
        entry_args = body.blocks[0].arguments if body.blocks else []
        arg_attrs = _dicts(self.get_attr("arg_attrs"), len(ft.inputs))
        p.write("(")
        for i, t in enumerate(ft.inputs):
            if i:
                p.write(", ")
            if i < len(entry_args):
                p.print_region_argument(entry_args[i], arg_attrs[i])
            else:
                p.print_type(t)
                p.print_attr_dict(arg_attrs[i])
        p.write(")")
        if ft.results:
            p.write(" -> ")
            _print_function_results(
                p, ft.results, _dicts(self.get_attr("res_attrs"), len(ft.results))
            )
        p.print_attr_dict_with_keyword(
            self.attributes,
            elided=("sym_name", "sym_visibility", "function_type", "arg_attrs", "res_attrs"),
        )
        if body.blocks:
            p.write(" ")
            p.print_region(body, print_entry_block_args=False)

    def verify_op(self) -> None:
        attrs = self._attrs or _EMPTY
        name = attrs.get("sym_name")
        bytes_name = type(name) is A.StringAttr and type(name.value) is not str
        if "sym_visibility" in attrs or bytes_name:
            verify_symbol_visibility(self)
        fta = attrs.get("function_type")
        ft = fta.value if type(fta) is A.TypeAttr else self.func_type
        if "arg_attrs" in attrs or "res_attrs" in attrs:
            self._verify_arg_res_attrs(ft)
        blocks = self.regions[0].blocks
        if not blocks:
            vis = self.get_attr("sym_visibility")
            if vis is None or vis.value == "public":  # type: ignore[union-attr]
                raise self.error("symbol declaration cannot have public visibility")
            return
        args = blocks[0].arguments
        inputs = ft.inputs
        if len(args) != len(inputs):
            raise self.error(
                f"entry block must have {len(inputs)} arguments to match function signature"
            )
        for i, (arg, t) in enumerate(zip(args, inputs, strict=True)):
            if arg.type is not t:
                raise self.error(
                    f"type of entry block argument #{i}({_q(arg.type)}) must match the type of "
                    f"the corresponding argument in function signature({_q(t)})"
                )

    def _verify_arg_res_attrs(self, ft: A.FunctionType) -> None:
        for what, key, count in (("argument", "arg_attrs", len(ft.inputs)),
                                 ("result", "res_attrs", len(ft.results))):  # fmt: skip
            dicts = self.get_attr(key)
            if dicts is None:
                continue
            if len(dicts) != count:  # type: ignore[arg-type]
                raise self.error(
                    f"expects {what} attribute array to have the same number of elements as the "
                    f"number of function {what}s, got {len(dicts)}, but expected {count}"  # type: ignore[arg-type]
                )
            for d in dicts.value:  # type: ignore[union-attr]
                if any("." not in k for k, _ in d.value):
                    raise self.error(f"{what}s may only have dialect attributes")


def _dicts(attr: A.Attribute | None, count: int) -> list[dict[str, A.Attribute] | None]:
    if type(attr) is not A.ArrayAttr or len(attr) != count:
        return [None] * count
    return [d.to_dict() if type(d) is A.DictionaryAttr else None for d in attr.value]


def _parse_function_arguments(parser: Any) -> list[Any]:
    """`(%a: i32 {attrs} loc(...), ...)` or, for declarations, `(i32 {attrs}, ...)`."""
    from mlc.syntax.parser import Argument

    args: list[Any] = []

    def one() -> None:
        pos = parser.pos()
        arg = parser.parse_optional_argument(allow_type=True, allow_attrs=True)
        if arg is not None:
            if args and args[-1].name is None:
                raise parser.error("expected type instead of SSA identifier", pos)
        else:
            if args and args[-1].name is not None:
                raise parser.error("expected SSA identifier", pos)
            t = parser.parse_type()
            attrs: dict[str, A.Attribute] = {}
            parser.parse_optional_attr_dict(attrs)
            loc = parser.parse_optional_location()
            arg = Argument(None, t, attrs or None, loc, pos)
        args.append(arg)

    parser.parse_comma_separated_list("paren", one)
    return args


def _parse_function_results(parser: Any) -> tuple[list[A.Type], list[dict[str, A.Attribute]]]:
    """`-> t`, `-> (t1 {attrs}, t2)`, or nothing."""
    if not parser.parse_optional_punct("->"):
        return [], []
    if not parser.parse_optional_punct("("):
        return [parser.parse_type()], [{}]
    types: list[A.Type] = []
    attrs: list[dict[str, A.Attribute]] = []

    def one() -> None:
        types.append(parser.parse_type())
        d: dict[str, A.Attribute] = {}
        parser.parse_optional_attr_dict(d)
        attrs.append(d)

    if not parser.parse_optional_punct(")"):
        parser.parse_comma_separated_list("none", one)
        parser.parse_punct(")")
    return types, attrs


def _print_function_results(
    p: Any, types: Sequence[A.Type], attrs: list[dict[str, A.Attribute] | None]
) -> None:
    parens = len(types) > 1 or type(types[0]) is A.FunctionType or bool(attrs[0])
    if parens:
        p.write("(")
    for i, (t, d) in enumerate(zip(types, attrs, strict=True)):
        if i:
            p.write(", ")
        p.print_type(t)
        p.print_attr_dict(d)
    if parens:
        p.write(")")


# ---------------------------------------------------------------------------------------------
# Terminator and calls


class ReturnOp(Op):
    """Return from a function; operand types must match the function's results.

    return %0, %1 : i32, f32
    """

    name = "func.return"
    traits = (Pure, Terminator, ReturnLike, has_parent("func.func"))
    values = var_operand(AnyType)
    format = "attr-dict ($values^ `:` type($values))?"

    @classmethod
    def build_return(cls, values: Sequence[Value] = ()) -> ReturnOp:
        return cls.create(list(values))  # type: ignore[return-value]

    def verify_op(self) -> None:
        block = self.parent
        region = block.parent if block is not None else None
        func = region.parent if region is not None else None
        if type(func) is not FuncOp:
            return  # the HasParent trait reports it
        fattrs = func._attrs
        fta = fattrs.get("function_type") if fattrs is not None else None
        results = (fta.value if type(fta) is A.TypeAttr else func.func_type).results
        uses = self._operands
        if len(uses) == len(results):
            for u, t in zip(uses, results):
                if u.value.type is not t:
                    break
            else:
                return
        fname = func.get_attr("sym_name").value  # type: ignore[union-attr]
        values = self.operands
        if len(values) != len(results):
            raise self.error(
                f"has {len(values)} operands, but enclosing function (@{fname}) returns "
                f"{len(results)}"
            )
        for i, (v, t) in enumerate(zip(values, results, strict=True)):
            if v.type is not t:
                raise VerifyError(
                    Diagnostic(
                        "error",
                        f"type of return operand {i} ({_q(v.type)}) doesn't match function result "
                        f"type ({_q(t)}) in function @{fname}",
                        self.location,
                    )
                )


def _types_text(types: Sequence[A.Type]) -> str:
    return ", ".join(_q(t) for t in types)


class CallOp(Op, CallOpInterface, SymbolUserOpInterface):
    """Call a function by symbol.

    %0:2 = func.call @f(%a, %b) : (i32, f32) -> (i32, f32)
    """

    name = "func.call"
    callee = prop(FlatSymbolRefAttrC)
    arguments = var_operand(AnyType)
    res = var_result(AnyType)
    arg_attrs = opt_prop(DictArrayAttr)
    res_attrs = opt_prop(DictArrayAttr)
    no_inline = opt_prop(UnitAttrC)
    format = "$callee `(` $arguments `)` attr-dict `:` functional-type($arguments, results)"

    @classmethod
    def build_call(
        cls, callee: str | FuncOp, args: Sequence[Value], results: Sequence[A.Type] | None = None
    ) -> CallOp:
        """A call of `callee` (a name, or a FuncOp whose result types are used)."""
        if isinstance(callee, FuncOp):
            results = callee.func_type.results if results is None else results
            callee = callee.get_attr("sym_name").value  # type: ignore[union-attr]
        attrs = {"callee": A.SymbolRefAttr(callee)}
        return cls.create(list(args), list(results or ()), attrs)  # type: ignore[return-value]

    def callee_ref(self) -> A.SymbolRefAttr:
        return self.get_attr("callee")  # type: ignore[return-value]

    def arg_operands(self) -> Sequence[Value]:
        return self.operands

    def verify_symbol_uses(self, tables: Any) -> None:
        attrs = self._attrs
        ref = attrs.get("callee") if attrs is not None else None
        if ref is None:
            ref = self.get_attr("callee")
        if tables is not None:
            fn = tables.lookup_nearest_symbol_from(self, ref)
        else:
            fn = lookup_nearest_symbol_from(self, ref)  # type: ignore[arg-type]
        if type(fn) is not FuncOp:
            raise self.error(f"'{ref.root}' does not reference a valid function")  # type: ignore[union-attr]
        fattrs = fn._attrs
        fta = fattrs.get("function_type") if fattrs is not None else None
        ft = fta.value if type(fta) is A.TypeAttr else fn.func_type
        uses, inputs, res, want = self._operands, ft.inputs, self.results, ft.results
        if len(uses) == len(inputs) and len(res) == len(want):
            for u, t in zip(uses, inputs):
                if u.value.type is not t:
                    break
            else:
                for r, t in zip(res, want):
                    if r.type is not t:
                        break
                else:
                    return
        args = self.operands
        if len(ft.inputs) != len(args):
            raise self.error(
                f"incorrect number of operands for callee: expected {len(ft.inputs)}, "
                f"but got {len(args)}"
            )
        for i, (v, t) in enumerate(zip(args, ft.inputs, strict=True)):
            if v.type is not t:
                raise self.error(
                    f"operand type mismatch: expected operand type {_q(t)}, but provided "
                    f"{_q(v.type)} for operand number {i}"
                )
        results = self.result_types
        if len(ft.results) != len(results):
            raise self.error(
                f"incorrect number of results for callee: expected {len(ft.results)}, "
                f"but got {len(results)}"
            )
        for i, (t, want) in enumerate(zip(results, ft.results, strict=True)):
            if t is not want:
                err = self.error(f"result type mismatch at index {i}")
                diag = err.diagnostic  # type: ignore[attr-defined]
                diag.attach_note(f"      op result types: {_types_text(results)}")
                diag.attach_note(f"callee result types: {_types_text(ft.results)}")
                raise err


class CallIndirectOp(Op, CallOpInterface):
    """Call a function value.

    %1 = func.call_indirect %f(%0) : (i32) -> i32
    """

    name = "func.call_indirect"
    callee = operand(FunctionTypeC)
    callee_operands = var_operand(AnyType)
    res = var_result(AnyType)
    arg_attrs = opt_prop(DictArrayAttr)
    res_attrs = opt_prop(DictArrayAttr)

    def callee_ref(self) -> Value:
        return self.operand(0)

    def arg_operands(self) -> Sequence[Value]:
        return self.operands[1:]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        callee = parser.parse_operand()
        pos = parser.pos()
        names = parser.parse_operand_list("paren")
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        ft = parser.parse_type()
        if type(ft) is not A.FunctionType:
            raise parser.error("expected function type", pos)
        state.operands = [
            parser.resolve_operand(callee, ft),
            *parser.resolve_operands(names, ft.inputs, pos),
        ]
        state.result_types = list(ft.results)

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.operand(0))
        p.write("(")
        p.print_operands(self.operands[1:])
        p.write(")")
        p.print_op_attrs(self)
        p.write(" : ")
        p.print_type(self.operand(0).type)

    def verify_op(self) -> None:
        ft = self.operand(0).type
        if [v.type for v in self.operands[1:]] != list(ft.inputs):  # type: ignore[attr-defined]
            raise self.error("failed to verify that callee input types match argument types")
        if list(self.result_types) != list(ft.results):  # type: ignore[attr-defined]
            raise self.error("failed to verify that callee result types match result types")


class ConstantOp(Op, SymbolUserOpInterface):
    """A function symbol as an SSA value (for call_indirect).

    %f = func.constant @callee : (i32) -> i32
    """

    name = "func.constant"
    traits = (Pure, ConstantLike)
    value = prop(FlatSymbolRefAttrC)
    res = result(AnyType)
    format = "attr-dict $value `:` type($res)"

    def get_asm_result_names(self, set_name: Any) -> None:
        set_name(self.res, "f")

    def verify_symbol_uses(self, tables: Any) -> None:
        ref = self.get_attr("value")
        fn = lookup_callee(self, ref, tables)  # type: ignore[arg-type]
        if type(fn) is not FuncOp:
            raise self.error(f"reference to undefined function '{ref.root}'")  # type: ignore[union-attr]
        if fn.func_type is not self.res.type:
            raise self.error("reference to function with mismatched type")

    def fold(self, operand_attrs: list) -> A.Attribute:
        return self.get_attr("value")  # type: ignore[return-value]


def materialize_constant(
    value: A.Attribute, result_type: A.Type, location: A.Location | None = None
) -> Operation | None:
    """A `func.constant` for a flat symbol reference of function type."""
    if type(value) is A.SymbolRefAttr and value.is_flat and type(result_type) is A.FunctionType:
        return ConstantOp.create((), [result_type], {"value": value}, location=location)
    return None


DIALECT = Dialect(
    "func",
    ops=[FuncOp, ReturnOp, CallOp, CallIndirectOp, ConstantOp],
    materialize_constant=materialize_constant,
)
