"""The `llvm` dialect: a mirror of LLVM IR with opaque pointers, at the bottom of the lowering.

Functions, globals, calls, control flow and memory access live here; the value ops (arithmetic,
comparisons, casts, element access, intrinsics) in `llvm_ops_arith`, the types and attributes in
`llvm_types`. Names, properties, generic form and custom syntax follow MLIR's LLVM dialect.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mlc.dialects.llvm_ops_arith import (  # noqa: F401
    FCMP_PREDICATES,
    ICMP_PREDICATES,
    VALUE_OPS,
    ConstantOp,
    LLVMAnyType,
    LLVMI1Like,
    LLVMInt,
    LLVMIntLike,
    LLVMPtr,
    LLVMPtrLike,
    parse_index_list,
    print_index_list,
)
from mlc.dialects.llvm_ops_elements import ELEMENT_OPS
from mlc.dialects.llvm_ops_memory import (  # noqa: F401 - re-exported
    GEP_DYNAMIC_INDEX,
    MEMORY_OPS,
    ORDERINGS,
    AllocaOp,
    GEPOp,
    LoadOp,
    StoreOp,
    gep_flag_names,
)
from mlc.dialects.llvm_types import (
    ATTRIBUTES,
    CCONV_C,
    FASTMATH_NONE,
    LINKAGE_EXTERNAL,
    TAILCALL_NONE,
    TYPES,
    CConvAttr,
    FastmathFlagsAttr,
    LinkageAttr,
    LLVMArrayType,
    LLVMFunctionType,
    LLVMPointerType,
    LLVMVoidType,
    LoopAnnotationAttr,
    TailCallKindAttr,
    bare_error,
    is_compatible_type,
    is_valid_argument_type,
    is_valid_element_type,
    llvm_ir_type,  # noqa: F401 - re-exported for the translation
)

from mlc.interfaces import (
    BranchOpInterface,
    CallableOpInterface,
    CallOpInterface,
)
from mlc.ir import attributes as A
from mlc.ir.context import Dialect
from mlc.ir.core import Block, Operation, Region, Value
from mlc.ir.opdef import (
    AnyAttr,
    ArrayAttrC,
    AttrSizedOperandSegments,
    Constraint,
    DenseI32ArrayAttr,
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
    int_attr_of,
    operand,
    opt_operand,
    opt_prop,
    opt_result,
    prop,
    region,
    result,
    successor,
    var_operand,
    var_successor,
)
from mlc.ir.symbols import lookup_nearest_symbol_from
from mlc.syntax.format import format_constraint

_EMPTY: dict[str, A.Attribute] = {}


def _q(t: Any) -> str:
    return f"'{t}'"


I32Attr = int_attr_of(A.i32)
I64Attr = int_attr_of(A.i64)
DictArrayAttr = Constraint(
    lambda a: type(a) is A.ArrayAttr and all(type(d) is A.DictionaryAttr for d in a.value),
    "Array of dictionary attributes",
)
LinkageC = format_constraint(LinkageAttr, "LLVM linkage")
CConvC = format_constraint(CConvAttr, "LLVM calling convention")
TailCallKindC = format_constraint(TailCallKindAttr, "LLVM tail call kind")
FastmathC = format_constraint(FastmathFlagsAttr, "LLVM fastmath flags")
LoopAnnotationC = format_constraint(LoopAnnotationAttr, "LLVM loop annotation")
FunctionTypeAttrC = Constraint(
    lambda a: type(a) is A.TypeAttr and type(a.value) is LLVMFunctionType,
    "type attribute of LLVM function type",
)
TypeAttrC = Constraint(
    lambda a: type(a) is A.TypeAttr and is_compatible_type(a.value), "LLVM type attribute"
)
ZERO_I64 = A.IntegerAttr(0, A.i64)
ZERO_I32 = A.IntegerAttr(0, A.i32)

# Enum properties stored as integers (MLIR prints their case index in generic form).
VISIBILITIES = ("default", "hidden", "protected")
UNNAMED_ADDRS = ("", "local_unnamed_addr", "unnamed_addr")


def _parse_enum_keyword(parser: Any, names: Sequence[str]) -> int | None:
    kw = parser.parse_optional_keyword_in([n for n in names if n])
    return None if kw is None else list(names).index(kw)


# ---------------------------------------------------------------------------------------------
# Branch helpers


def _verify_successor_operands(op: Operation, groups: Sequence[Sequence[Value]]) -> None:
    """Each successor's operands match its block arguments in number and type."""
    for i, (block, values) in enumerate(zip(op.successors, groups)):
        args = block.arguments
        if len(values) != len(args):
            raise bare_error(
                op,
                f"branch has {len(values)} operands for successor #{i}, but target block has "
                f"{len(args)}",
            )
        for j, (v, a) in enumerate(zip(values, args)):
            if v.type is not a.type:
                raise bare_error(op, f"type mismatch for bb argument #{j} of successor #{i}")


def _print_succ(p: Any, block: Block, values: Sequence[Value]) -> None:
    if values:
        p.print_successor_and_use_list(block, values)
    else:
        p.print_successor(block)


def _parse_succ(parser: Any) -> tuple[Block, list[Value]]:
    return parser.parse_successor_and_use_list()  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------------------------
# Functions


class LLVMFuncOp(Op, CallableOpInterface):
    """An LLVM function with an `!llvm.func` signature, and a body unless it is a declaration.

    The symbol also carries its linkage, visibility, calling convention and (for a
    definition) a body region.

    Argument attributes (`llvm.noalias`, `llvm.align = 16 : i64` ...) follow each argument;
    linkage, visibility, `unnamed_addr` and the calling convention are keywords before the
    name; the body's terminators are `llvm.return` and the branch ops.

        llvm.func internal @f(%arg0: !llvm.ptr {llvm.noalias}, %arg1: i64) -> f32 {
          %0 = llvm.load %arg0 : !llvm.ptr -> f32
          llvm.return %0 : f32
        }
        llvm.func @printf(!llvm.ptr, ...) -> i32
    """

    name = "llvm.func"
    traits = (IsolatedFromAbove, Symbol)
    sym_name = prop(StrAttr)
    sym_visibility = opt_prop(StrAttr)
    function_type = prop(FunctionTypeAttrC)
    linkage = prop(LinkageC, default=LINKAGE_EXTERNAL)
    dso_local = opt_prop(UnitAttrC)
    CConv = prop(CConvC, default=CCONV_C)  # noqa: N815 - MLIR's name
    visibility_ = prop(I64Attr, default=ZERO_I64)
    unnamed_addr = prop(I64Attr, default=ZERO_I64)
    alignment = opt_prop(I64Attr)
    passthrough = opt_prop(ArrayAttrC)
    section = opt_prop(StrAttr)
    arg_attrs = opt_prop(DictArrayAttr)
    res_attrs = opt_prop(DictArrayAttr)
    no_inline = opt_prop(UnitAttrC)
    always_inline = opt_prop(UnitAttrC)
    no_unwind = opt_prop(UnitAttrC)
    will_return = opt_prop(UnitAttrC)
    optimize_none = opt_prop(UnitAttrC)
    target_cpu = opt_prop(StrAttr)
    body = region()

    _elided = frozenset(
        ("sym_name", "function_type", "linkage", "CConv", "visibility_", "unnamed_addr",
         "arg_attrs", "res_attrs")
    )  # fmt: skip

    @classmethod
    def build_func(
        cls,
        name: str,
        inputs: Sequence[A.Type] = (),
        result: A.Type | None = None,
        *,
        linkage: str = "external",
        var_arg: bool = False,
        declaration: bool = False,
        location: A.Location | None = None,
    ) -> LLVMFuncOp:
        """`llvm.func @name(inputs) -> result` with an empty entry block, or a declaration."""
        ft = LLVMFunctionType(result if result is not None else LLVMVoidType(), inputs, var_arg)
        attrs: dict[str, A.Attribute] = {
            "sym_name": A.StringAttr(name),
            "function_type": A.TypeAttr(ft),
            "linkage": LinkageAttr(linkage),
        }
        body = Region() if declaration else Region([Block(inputs)])
        return cls.create((), (), attrs, [body], location=location)  # type: ignore[return-value]

    @property
    def func_type(self) -> LLVMFunctionType:
        return self.get_attr("function_type").value  # type: ignore[union-attr, no-any-return]

    @property
    def is_declaration(self) -> bool:
        return not self.regions[0].blocks

    def callable_region(self) -> Region | None:
        body = self.regions[0]
        return body if body.blocks else None

    def callable_argument_types(self) -> Sequence[A.Type]:
        return self.func_type.params

    def callable_result_types(self) -> Sequence[A.Type]:
        return self.func_type.results

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        attrs = state.attributes
        kw = parser.parse_optional_keyword_in(LinkageAttr.cases)
        if kw is not None:
            attrs["linkage"] = LinkageAttr(kw)
        vis = _parse_enum_keyword(parser, VISIBILITIES)
        if vis:
            attrs["visibility_"] = A.IntegerAttr(vis, A.i64)
        ua = _parse_enum_keyword(parser, UNNAMED_ADDRS)
        if ua:
            attrs["unnamed_addr"] = A.IntegerAttr(ua, A.i64)
        cc = parser.parse_optional_keyword_in(CConvAttr.cases)
        if cc is not None:
            attrs["CConv"] = CConvAttr(cc)
        attrs["sym_name"] = A.StringAttr(parser.parse_symbol_name())
        args, var_arg = _parse_llvm_arguments(parser)
        result: A.Type = LLVMVoidType()
        res_attrs: dict[str, A.Attribute] = {}
        if parser.parse_optional_punct("->"):
            paren = parser.parse_optional_punct("(")
            pos = parser.pos()
            result = parser.parse_type()
            if type(result) is LLVMVoidType or not is_compatible_type(result):
                raise parser.error(f"invalid function result type: {_q(result)}", pos)
            if paren:
                parser.parse_optional_attr_dict(res_attrs)
                parser.parse_punct(")")
        for a in args:
            if not is_valid_argument_type(a.type):
                raise parser.error(
                    "failed to construct function type: expected LLVM type for function arguments",
                    a.pos,
                )
        ft = LLVMFunctionType(result, [a.type for a in args], var_arg)
        attrs["function_type"] = A.TypeAttr(ft)
        parser.parse_optional_attr_dict_with_keyword(attrs)
        arg_dicts = [a.attrs or {} for a in args]
        if any(arg_dicts):
            attrs["arg_attrs"] = A.ArrayAttr([A.DictionaryAttr(d) for d in arg_dicts])
        if res_attrs:
            attrs["res_attrs"] = A.ArrayAttr([A.DictionaryAttr(res_attrs)])
        named = [a for a in args if a.name is not None]
        pos = parser.pos()
        body = parser.parse_optional_region(named or None)
        if body is None:
            body = Region()
        elif not body.blocks:
            raise parser.error("expected non-empty function body", pos)
        state.regions = [body]

    def print_asm(self, p: Any) -> None:
        attrs = self._attrs or _EMPTY
        linkage = attrs.get("linkage", LINKAGE_EXTERNAL)
        if linkage is not LINKAGE_EXTERNAL:
            p.write(" " + linkage.value)  # type: ignore[attr-defined]
        for key, names in (("visibility_", VISIBILITIES), ("unnamed_addr", UNNAMED_ADDRS)):
            v = attrs.get(key)
            if v is not None and 0 < v.value < len(names):  # type: ignore[attr-defined]
                p.write(" " + names[v.value])  # type: ignore[attr-defined]
        cc = attrs.get("CConv", CCONV_C)
        if cc is not CCONV_C:
            p.write(" " + cc.value)  # type: ignore[attr-defined]
        p.write(" ")
        p.print_symbol_name(attrs["sym_name"].value)  # type: ignore[attr-defined]
        ft = self.func_type
        body = self.regions[0]
        entry_args = body.blocks[0].arguments if body.blocks else []
        arg_attrs = _dicts(attrs.get("arg_attrs"), len(ft.params))
        p.write("(")
        for i, t in enumerate(ft.params):
            if i:
                p.write(", ")
            if i < len(entry_args):
                p.print_region_argument(entry_args[i], arg_attrs[i])
            else:
                p.print_type(t)
                p.print_attr_dict(arg_attrs[i])
        if ft.var_arg:
            p.write(", ..." if ft.params else "...")
        p.write(")")
        if not ft.returns_void:
            res_attrs = _dicts(attrs.get("res_attrs"), 1)[0]
            p.write(" -> (" if res_attrs else " -> ")
            p.print_type(ft.result)
            if res_attrs:
                p.print_attr_dict(res_attrs)
                p.write(")")
        p.print_attr_dict_with_keyword(self.attributes, elided=self._elided)
        if body.blocks:
            p.write(" ")
            p.print_region(body, print_entry_block_args=False)

    def verify_op(self) -> None:
        attrs = self._attrs or _EMPTY
        ft = self.func_type
        linkage = attrs.get("linkage", LINKAGE_EXTERNAL).value  # type: ignore[attr-defined]
        if linkage == "common":
            raise self.error("functions cannot have 'common' linkage")
        for key, count in (("arg_attrs", len(ft.params)), ("res_attrs", len(ft.results))):
            dicts = attrs.get(key)
            if dicts is not None and len(dicts) != count:  # type: ignore[arg-type]
                what = "argument" if key == "arg_attrs" else "result"
                raise self.error(
                    f"expects {what} attribute array to have the same number of elements as the "
                    f"number of function {what}s, got {len(dicts)}, but expected {count}"  # type: ignore[arg-type]
                )
        blocks = self.regions[0].blocks
        if not blocks:
            if linkage not in ("external", "extern_weak"):
                raise self.error("external functions must have 'external' or 'extern_weak' linkage")
            return
        args = blocks[0].arguments
        if len(args) != len(ft.params):
            raise self.error(
                f"entry block must have {len(ft.params)} arguments to match function signature"
            )
        for i, (arg, t) in enumerate(zip(args, ft.params)):
            if arg.type is not t:
                raise self.error(
                    f"type of entry block argument #{i}({_q(arg.type)}) must match the type of "
                    f"the corresponding argument in function signature({_q(t)})"
                )


def _dicts(attr: A.Attribute | None, count: int) -> list[dict[str, A.Attribute] | None]:
    if type(attr) is not A.ArrayAttr or len(attr) != count:
        return [None] * count
    return [d.to_dict() if type(d) is A.DictionaryAttr else None for d in attr.value]


def _parse_llvm_arguments(parser: Any) -> tuple[list[Any], bool]:
    """`(%a: t {attrs}, ...)`, `(t {attrs}, ...)`, with an optional trailing `...`."""
    from mlc.syntax.parser import Argument

    args: list[Any] = []
    var_arg = False
    parser.parse_punct("(")
    if parser.parse_optional_punct(")"):
        return args, False
    while True:
        if parser.parse_optional_punct("..."):
            var_arg = True
            parser.parse_punct(")")
            break
        pos = parser.pos()
        arg = parser.parse_optional_argument(allow_type=True, allow_attrs=True)
        if arg is not None:
            if args and args[-1].name is None:
                raise parser.error("expected type instead of SSA identifier", pos)
        else:
            if args and args[-1].name is not None:
                raise parser.error("expected SSA identifier", pos)
            t = parser.parse_type()
            d: dict[str, A.Attribute] = {}
            parser.parse_optional_attr_dict(d)
            loc = parser.parse_optional_location()
            arg = Argument(None, t, d or None, loc, pos)
        args.append(arg)
        if parser.parse_optional_punct(")"):
            break
        parser.parse_punct(",")
    return args, var_arg


def _enclosing_func(op: Operation) -> Operation | None:
    block = op.parent
    region = block.parent if block is not None else None
    return region.parent if region is not None else None


class ReturnOp(Op):
    """Return from an `llvm.func`, or yield the value of a global's initializer.

    A void function returns no operand; otherwise one operand of the function's result type.

        llvm.return %0 : f32
    """

    name = "llvm.return"
    traits = (Pure, Terminator, ReturnLike, has_parent("llvm.func", "llvm.mlir.global"))
    arg = opt_operand(LLVMAnyType)
    format = "attr-dict ($arg^ `:` type($arg))?"
    llvm_opcode = "ret"

    def verify_op(self) -> None:
        parent = _enclosing_func(self)
        if type(parent) is GlobalOp:
            if self.arg is None:
                raise self.error("expected 1 operand")
            return
        if type(parent) is not LLVMFuncOp:
            return
        expected = parent.func_type.result
        arg = self.arg
        if type(expected) is LLVMVoidType:
            if arg is None:
                return
            message = "expected no operands"
        elif arg is None:
            message = "expected 1 operand"
        elif arg.type is not expected:
            message = "mismatching result types"
        else:
            return
        err = self.error(message)
        err.diagnostic.attach_note("when returning from function", parent.location)  # type: ignore[attr-defined]
        raise err


class UnreachableOp(Op):
    """Marks code that is never reached (LLVM IR's `unreachable`).

    A terminator with no successors; reaching it is undefined behaviour.

        llvm.unreachable
    """

    name = "llvm.unreachable"
    traits = (Terminator,)
    format = "attr-dict"
    llvm_opcode = "unreachable"


class CallOp(Op, CallOpInterface, SymbolUserOpInterface):
    """A direct call of an `llvm.func` by symbol, or an indirect call through a pointer.

    Variadic callees need `vararg(!llvm.func<...>)`; the callee's signature fixes the operand
    and result types (a void function gives no result). Calls have unknown memory effects.

        %0 = llvm.call @f(%a) : (!llvm.ptr) -> f32
        %1 = llvm.call @printf(%s, %x) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
        %2 = llvm.call %fp(%a) : !llvm.ptr, (i32) -> i32
    """

    name = "llvm.call"
    traits = (AttrSizedOperandSegments,)
    callee = opt_prop(FlatSymbolRefAttrC)
    var_callee_type = opt_prop(
        Constraint(
            lambda a: type(a) is A.TypeAttr and type(a.value) is LLVMFunctionType,
            "type attribute of LLVM function type",
        )  # fmt: skip
    )
    CConv = prop(CConvC, default=CCONV_C)  # noqa: N815
    TailCallKind = prop(TailCallKindC, default=TAILCALL_NONE)  # noqa: N815
    fastmathFlags = prop(FastmathC, default=FASTMATH_NONE)  # noqa: N815
    op_bundle_sizes = prop(DenseI32ArrayAttr, default=A.DenseArrayAttr(A.i32, []))
    op_bundle_tags = opt_prop(ArrayAttrC)
    arg_attrs = opt_prop(DictArrayAttr)
    res_attrs = opt_prop(DictArrayAttr)
    no_inline = opt_prop(UnitAttrC)
    always_inline = opt_prop(UnitAttrC)
    no_unwind = opt_prop(UnitAttrC)
    will_return = opt_prop(UnitAttrC)
    callee_operands = var_operand(LLVMAnyType)
    op_bundle_operands = var_operand(LLVMAnyType)
    res = opt_result(LLVMAnyType)
    llvm_opcode = "call"

    _elided = frozenset(
        ("callee", "var_callee_type", "CConv", "TailCallKind", "op_bundle_sizes",
         "operandSegmentSizes")
    )  # fmt: skip

    @classmethod
    def build_call(cls, callee: str, args: Sequence[Value], func_type: LLVMFunctionType) -> CallOp:
        """A direct call of `@callee` whose signature is `func_type`."""
        attrs: dict[str, A.Attribute] = {
            "callee": A.SymbolRefAttr(callee),
            "operandSegmentSizes": A.DenseArrayAttr(A.i32, [len(args), 0]),
        }
        if func_type.var_arg:
            attrs["var_callee_type"] = A.TypeAttr(func_type)
        return cls.create(list(args), list(func_type.results), attrs)  # type: ignore[return-value]

    def callee_ref(self) -> A.SymbolRefAttr | Value:
        ref = self.get_attr("callee")
        return ref if ref is not None else self.operand(0)  # type: ignore[return-value]

    def arg_operands(self) -> Sequence[Value]:
        ops = self.callee_operands  # type: ignore[attr-defined]
        return ops if self.get_attr("callee") is not None else ops[1:]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        attrs = state.attributes
        cc = parser.parse_optional_keyword_in(CConvAttr.cases)
        if cc is not None:
            attrs["CConv"] = CConvAttr(cc)
        tk = parser.parse_optional_keyword_in(TailCallKindAttr.cases)
        if tk is not None:
            attrs["TailCallKind"] = TailCallKindAttr(tk)
        sym = parser.parse_optional_symbol_name()
        fptr = None
        if sym is not None:
            attrs["callee"] = A.SymbolRefAttr(sym)
        else:
            fptr = parser.parse_operand()
        args = parser.parse_operand_list("paren")
        if parser.parse_optional_keyword("vararg"):
            parser.parse_punct("(")
            pos = parser.pos()
            vt = parser.parse_type()
            if type(vt) is not LLVMFunctionType:
                raise parser.error("expected LLVM function type for vararg", pos)
            attrs["var_callee_type"] = A.TypeAttr(vt)
            parser.parse_punct(")")
        if parser.peek() == "[":
            raise parser.error("not supported: operand bundles in llvm.call")
        parser.parse_optional_attr_dict(attrs)
        parser.parse_punct(":")
        operands: list[Value] = []
        if fptr is not None:
            pos = parser.pos()
            pt = parser.parse_type()
            if type(pt) is not LLVMPointerType:
                raise parser.error("indirect call expects a pointer as callee", pos)
            operands.append(parser.resolve_operand(fptr, pt))
            parser.parse_punct(",")
        pos = parser.pos()
        ft = parser.parse_type()
        if type(ft) is not A.FunctionType:
            raise parser.error("expected function type", pos)
        if len(ft.results) > 1:
            raise parser.error("expected function with 0 or 1 result", pos)
        operands += parser.resolve_operands(args, ft.inputs, pos)
        state.operands = operands
        state.result_types = list(ft.results)
        attrs["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, [len(operands), 0])

    def print_asm(self, p: Any) -> None:
        attrs = self._attrs or _EMPTY
        cc = attrs.get("CConv", CCONV_C)
        if cc is not CCONV_C:
            p.write(" " + cc.value)  # type: ignore[attr-defined]
        tk = attrs.get("TailCallKind", TAILCALL_NONE)
        if tk is not TAILCALL_NONE:
            p.write(" " + tk.value)  # type: ignore[attr-defined]
        p.write(" ")
        callee = attrs.get("callee")
        ops = list(self.callee_operands)  # type: ignore[attr-defined]
        if callee is not None:
            p.print_symbol_name(callee.root)  # type: ignore[attr-defined]
        else:
            p.print_operand(ops[0])
            ops = ops[1:]
        p.write("(")
        p.print_operands(ops)
        p.write(")")
        vt = attrs.get("var_callee_type")
        if vt is not None:
            p.write(" vararg(")
            p.print_type(vt.value)  # type: ignore[attr-defined]
            p.write(")")
        p.print_attr_dict(self.attributes, elided=self._elided)
        p.write(" : ")
        if callee is None:
            p.print_type(self.operand(0).type)
            p.write(", ")
        p.print_function_type(A.FunctionType([v.type for v in ops], self.result_types))

    def verify_op(self) -> None:
        if self.op_bundle_operands:  # type: ignore[attr-defined]
            raise self.error("not supported: operand bundles")
        if self.get_attr("callee") is None:
            ops = self.callee_operands  # type: ignore[attr-defined]
            if not ops or type(ops[0].type) is not LLVMPointerType:
                raise self.error("indirect call expects a pointer as callee")

    def verify_symbol_uses(self, tables: Any) -> None:
        ref = self.get_attr("callee")
        if ref is None:
            return
        if tables is not None:
            fn = tables.lookup_nearest_symbol_from(self, ref)
        else:
            fn = lookup_nearest_symbol_from(self, ref)  # type: ignore[arg-type]
        if fn is None:
            raise self.error(f"'{ref.root}' does not reference a symbol in the current scope")  # type: ignore[attr-defined]
        if type(fn) is not LLVMFuncOp:
            raise self.error(f"'{ref.root}' does not reference a valid LLVM function")  # type: ignore[attr-defined]
        ft = fn.func_type
        vt = self.get_attr("var_callee_type")
        if ft.var_arg:
            if vt is None:
                raise self.error("missing var_callee_type attribute for vararg call")
            if vt.value is not ft:  # type: ignore[attr-defined]
                raise self.error(
                    f"var_callee_type {_q(vt.value)} does not match the callee type {_q(ft)}"  # type: ignore[attr-defined]
                )
        args = self.arg_operands()
        n = len(ft.params)
        if (ft.var_arg and len(args) < n) or (not ft.var_arg and len(args) != n):
            raise self.error(
                f"incorrect number of operands for callee: expected {n}, but got {len(args)}"
            )
        for i, (v, t) in enumerate(zip(args, ft.params)):
            if v.type is not t:
                raise self.error(
                    f"operand type mismatch: expected operand type {_q(t)}, but provided "
                    f"{_q(v.type)} for operand number {i}"
                )
        results = self.result_types
        if ft.returns_void:
            if results:
                raise self.error("calling function with void result must not produce values")
        elif not results:
            raise self.error("expected function call to produce a value")
        elif results[0] is not ft.result:
            raise self.error(f"result type mismatch: {_q(results[0])} != {_q(ft.result)}")


class BrOp(Op, BranchOpInterface):
    """Unconditional branch, forwarding operands to the successor's arguments.

    The operands are passed to the arguments of the successor block, which they must
    match in number and type. The optional `loop_annotation` (on a loop's latch) is translated
    to the branch's `!llvm.loop` metadata.

        llvm.br ^bb1(%x : i64)
        llvm.br ^bb1(%y : i64) loop_annotation = #llvm.loop_annotation<isVectorized = true>
    """

    name = "llvm.br"
    traits = (Pure, Terminator)
    destOperands = var_operand(LLVMAnyType)  # noqa: N815 - MLIR's name
    loop_annotation = opt_prop(LoopAnnotationC)
    dest = successor()
    format = (
        "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? "
        "(`loop_annotation` `=` qualified($loop_annotation)^)? attr-dict"
    )
    llvm_opcode = "br"

    def successor_operands(self, index: int) -> Sequence[Any]:
        return self._operands

    def verify_op(self) -> None:
        _verify_successor_operands(self, [self.operands])


class CondBrOp(Op, BranchOpInterface):
    """Conditional branch on an i1, with operands for each successor and optional weights.

    The condition is an i1. Each successor gets its own operand list; the optional
    `weights` give the branch probabilities (one per successor).

        llvm.cond_br %c weights([90, 10]), ^bb1, ^bb2(%y : f32)
    """

    name = "llvm.cond_br"
    traits = (Pure, Terminator, AttrSizedOperandSegments)
    condition = operand(
        format_constraint(
            Constraint(lambda t: t is A.i1, "1-bit signless integer"), buildable_type=A.i1
        )
    )
    trueDestOperands = var_operand(LLVMAnyType)  # noqa: N815
    falseDestOperands = var_operand(LLVMAnyType)  # noqa: N815
    branch_weights = opt_prop(
        format_constraint(
            DenseI32ArrayAttr,
            parse_hook=lambda p: parse_index_list(p, A.i32),
            print_hook=print_index_list,
        )
    )
    loop_annotation = opt_prop(LoopAnnotationC)
    trueDest = successor()  # noqa: N815
    falseDest = successor()  # noqa: N815
    format = (
        "$condition (`weights` `(` $branch_weights^ `)`)? `,` "
        "$trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` "
        "$falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? "
        "(`loop_annotation` `=` qualified($loop_annotation)^)? attr-dict"
    )
    llvm_opcode = "br"

    def successor_operands(self, index: int) -> Sequence[Any]:
        seg = self.get_attr("operandSegmentSizes").values  # type: ignore[union-attr]
        start = 1 if index == 0 else 1 + seg[1]
        return self._operands[start : start + seg[1 + index]]

    def verify_op(self) -> None:
        w = self.get_attr("branch_weights")
        if w is not None and len(w.values) != 2:  # type: ignore[attr-defined]
            raise bare_error(
                self,
                "expects number of branch weights to match number of successors: "
                f"{len(w.values)} vs 2",  # type: ignore[attr-defined]
            )
        _verify_successor_operands(self, [self.trueDestOperands, self.falseDestOperands])  # type: ignore[list-item]


class SwitchOp(Op, BranchOpInterface):
    """Multi-way branch on an integer: a default successor and one successor per case value.

    Case values are constants of the switch value's type, unique, stored in `case_values`;
    the operands of each case are grouped by `case_operand_segments`.

        llvm.switch %v : i32, ^bb1 [
          1: ^bb2,
          2: ^bb3(%x : i64)
        ]
    """

    name = "llvm.switch"
    traits = (Pure, Terminator, AttrSizedOperandSegments)
    value = operand(LLVMInt)
    defaultOperands = var_operand(LLVMAnyType)  # noqa: N815
    caseOperands = var_operand(LLVMAnyType)  # noqa: N815
    case_values = opt_prop(
        Constraint(
            lambda a: (
                type(a) is A.DenseElementsAttr and A.is_integer_like(A.element_type_of(a.type))
            ),
            "integer elements attribute",
        )  # fmt: skip
    )
    case_operand_segments = prop(DenseI32ArrayAttr)
    branch_weights = opt_prop(DenseI32ArrayAttr)
    defaultDestination = successor()  # noqa: N815
    caseDestinations = var_successor()  # noqa: N815
    llvm_opcode = "switch"

    def _case_values(self) -> list[int]:
        cv = self.get_attr("case_values")
        return [] if cv is None else [int(x) for x in cv.array.ravel()]  # type: ignore[attr-defined]

    def successor_operands(self, index: int) -> Sequence[Any]:
        seg = self.get_attr("operandSegmentSizes").values  # type: ignore[union-attr]
        if index == 0:
            return self._operands[1 : 1 + seg[1]]
        cs = self.get_attr("case_operand_segments").values  # type: ignore[union-attr]
        start = 1 + seg[1] + sum(cs[: index - 1])
        return self._operands[start : start + cs[index - 1]]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        v = parser.parse_operand()
        parser.parse_punct(":")
        vt = parser.parse_type()
        parser.parse_punct(",")
        default, default_ops = _parse_succ(parser)
        values: list[int] = []
        succs: list[Block] = []
        case_ops: list[Value] = []
        seg: list[int] = []
        parser.parse_punct("[")
        if not parser.parse_optional_punct("]"):
            while True:
                values.append(parser.parse_integer())
                parser.parse_punct(":")
                block, ops = _parse_succ(parser)
                succs.append(block)
                case_ops += ops
                seg.append(len(ops))
                if parser.parse_optional_punct("]"):
                    break
                parser.parse_punct(",")
        parser.parse_optional_attr_dict(state.attributes)
        attrs = state.attributes
        if values:
            attrs["case_values"] = A.DenseElementsAttr(A.VectorType([len(values)], vt), values)
        attrs["case_operand_segments"] = A.DenseArrayAttr(A.i32, seg)
        attrs["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, [1, len(default_ops), len(case_ops)])
        state.operands = [parser.resolve_operand(v, vt), *default_ops, *case_ops]
        state.successors = [default, *succs]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.value)
        p.write(" : ")
        p.print_type(self.value.type)
        p.write(", ")
        _print_succ(p, self.successors[0], [u.value for u in self.successor_operands(0)])
        p.write(" [")
        for i, value in enumerate(self._case_values()):
            p.write("," if i else "")
            p._indent += 2
            p.print_new_line()
            p._indent -= 2
            p.write(f"{value}: ")
            _print_succ(
                p, self.successors[i + 1], [u.value for u in self.successor_operands(i + 1)]
            )
        p.print_new_line()
        p.write("]")
        p.print_attr_dict(
            self.attributes,
            elided=("case_values", "case_operand_segments", "operandSegmentSizes"),
        )

    def verify_op(self) -> None:
        cases = self._case_values()
        n = len(self.successors) - 1
        if len(cases) != n:
            raise self.error("expects number of case values to match number of case destinations")  # noqa: E501
        if len(set(cases)) != len(cases):
            raise self.error("expects case values to be unique (LLVM rejects duplicate cases)")
        cv = self.get_attr("case_values")
        if cv is not None and A.element_type_of(cv.type) is not self.value.type:  # type: ignore[attr-defined]
            raise bare_error(self, "expects case value type to match condition value type")
        cs = self.get_attr("case_operand_segments").values  # type: ignore[union-attr]
        if len(cs) != n:
            raise self.error(f"expects 'case_operand_segments' to have {n} elements, got {len(cs)}")
        seg = self.get_attr("operandSegmentSizes").values  # type: ignore[union-attr]
        if sum(cs) != seg[2]:
            raise self.error("case operand segments do not add up to the case operands")
        w = self.get_attr("branch_weights")
        if w is not None and len(w.values) != n + 1:  # type: ignore[attr-defined]
            raise bare_error(
                self,
                "expects number of branch weights to match number of successors: "
                f"{len(w.values)} vs {n + 1}",  # type: ignore[attr-defined]
            )
        groups = [[u.value for u in self.successor_operands(i)] for i in range(n + 1)]
        _verify_successor_operands(self, groups)


# ---------------------------------------------------------------------------------------------
# Globals


TLS_MODES = ("", "thread_local")


class GlobalOp(Op):
    """A global variable or constant of an LLVM type, with linkage and an optional initializer.

    The initial value is given by an attribute or computed by an initializer region ending
    in `llvm.return`.

    A string value initializes an `!llvm.array<N x i8>` (its type may then be omitted).

        llvm.mlir.global internal constant @g(dense<1.0> : tensor<4xf32>) : !llvm.array<4 x f32>
        llvm.mlir.global external @ext() {addr_space = 0 : i32} : i64
    """

    name = "llvm.mlir.global"
    traits = (Symbol, IsolatedFromAbove, has_parent("builtin.module"))
    sym_name = prop(StrAttr)
    sym_visibility = opt_prop(StrAttr)
    global_type = prop(TypeAttrC)
    constant = opt_prop(UnitAttrC)
    linkage = prop(LinkageC)
    dso_local = opt_prop(UnitAttrC)
    value = opt_prop(AnyAttr)
    alignment = opt_prop(I64Attr)
    addr_space = prop(I32Attr, default=ZERO_I32)
    unnamed_addr = prop(I64Attr, default=ZERO_I64)
    visibility_ = prop(I64Attr, default=ZERO_I64)
    tls_mode = prop(I64Attr, default=ZERO_I64)
    section = opt_prop(StrAttr)
    initializer = region()

    _elided = frozenset(
        ("sym_name", "global_type", "constant", "linkage", "value", "unnamed_addr",
         "visibility_", "tls_mode")
    )  # fmt: skip

    @property
    def type(self) -> A.Type:
        return self.get_attr("global_type").value  # type: ignore[union-attr, no-any-return]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        attrs = state.attributes
        kw = parser.parse_optional_keyword_in(LinkageAttr.cases)
        attrs["linkage"] = LinkageAttr(kw or "external")
        vis = _parse_enum_keyword(parser, VISIBILITIES)
        if vis:
            attrs["visibility_"] = A.IntegerAttr(vis, A.i64)
        if parser.parse_optional_keyword("thread_local"):
            attrs["tls_mode"] = A.IntegerAttr(1, A.i64)
        ua = _parse_enum_keyword(parser, UNNAMED_ADDRS)
        if ua:
            attrs["unnamed_addr"] = A.IntegerAttr(ua, A.i64)
        if parser.parse_optional_keyword("constant"):
            attrs["constant"] = A.UnitAttr()
        name_pos = parser.pos()
        attrs["sym_name"] = A.StringAttr(parser.parse_symbol_name())
        parser.parse_punct("(")
        if not parser.parse_optional_punct(")"):
            attrs["value"] = parser.parse_attribute()
            parser.parse_punct(")")
        if parser.peek() == "comdat":
            raise parser.error("not supported: comdat on llvm.mlir.global")
        parser.parse_optional_attr_dict(attrs)
        value = attrs.get("value")
        if parser.parse_optional_punct(":"):
            attrs["global_type"] = A.TypeAttr(parser.parse_type())
        elif type(value) is A.StringAttr:
            n = len(value.value.encode() if isinstance(value.value, str) else value.value)
            attrs["global_type"] = A.TypeAttr(LLVMArrayType(n, A.i8))
        else:
            raise parser.error("type can only be omitted for string globals", name_pos)
        body = parser.parse_optional_region()
        state.regions = [body if body is not None else Region()]

    def print_asm(self, p: Any) -> None:
        attrs = self._attrs or _EMPTY
        p.write(" " + attrs["linkage"].value)  # type: ignore[attr-defined]
        v = attrs.get("visibility_")
        if v is not None and 0 < v.value < 3:  # type: ignore[attr-defined]
            p.write(" " + VISIBILITIES[v.value])  # type: ignore[attr-defined]
        tls = attrs.get("tls_mode")
        if tls is not None and tls.value == 1:  # type: ignore[attr-defined]
            p.write(" thread_local")
        ua = attrs.get("unnamed_addr")
        if ua is not None and 0 < ua.value < 3:  # type: ignore[attr-defined]
            p.write(" " + UNNAMED_ADDRS[ua.value])  # type: ignore[attr-defined]
        if "constant" in attrs:
            p.write(" constant")
        p.write(" ")
        p.print_symbol_name(attrs["sym_name"].value)  # type: ignore[attr-defined]
        p.write("(")
        value = attrs.get("value")
        if value is not None:
            p.print_attribute(value)
        p.write(")")
        shown = {"addr_space": ZERO_I32, **self.attributes}
        p.print_attr_dict(shown, elided=self._elided)
        t = self.type
        if not (type(value) is A.StringAttr and t is _string_type(value)):
            p.write(" : ")
            p.print_type(t)
        body = self.regions[0]
        if body.blocks:
            p.write(" ")
            p.print_region(body)

    def verify_op(self) -> None:
        attrs = self._attrs or _EMPTY
        t = self.type
        if not is_valid_element_type(t):
            raise self.error("expects type to be a valid element type for an LLVM global")  # noqa: E501
        tls = attrs.get("tls_mode", ZERO_I64).value  # type: ignore[attr-defined]
        if tls not in (0, 1):
            raise self.error(f"not supported: thread-local mode {tls}")
        value = attrs.get("value")
        body = self.regions[0]
        if value is not None and body.blocks:
            raise self.error("cannot have both initializer value and region")
        if type(value) is A.StringAttr and t is not _string_type(value):
            raise self.error(
                "requires an i8 array type of the length equal to that of the string attribute"
            )
        if attrs["linkage"].value == "common" and "constant" in attrs:  # type: ignore[attr-defined]
            raise self.error("cannot have 'common' linkage and be constant")
        if body.blocks:
            last = body.blocks[-1].last
            if type(last) is ReturnOp and last.arg is not None and last.arg.type is not t:
                raise self.error(
                    f"initializer region type {_q(last.arg.type)} does not match global type "
                    f"{_q(t)}"
                )


def _string_type(value: A.StringAttr) -> A.Type:
    v = value.value
    return LLVMArrayType(len(v.encode() if isinstance(v, str) else v), A.i8)


class AddressOfOp(Op, SymbolUserOpInterface):
    """The address of a global or function, as a pointer value.

    The symbol must name an `llvm.mlir.global` (whose address space the pointer type
    must have) or an `llvm.func`.

        %0 = llvm.mlir.addressof @g : !llvm.ptr
    """

    name = "llvm.mlir.addressof"
    traits = (Pure,)
    global_name = prop(FlatSymbolRefAttrC)
    res = result(LLVMPtr)
    format = "$global_name attr-dict `:` qualified(type($res))"

    def verify_symbol_uses(self, tables: Any) -> None:
        ref = self.get_attr("global_name")
        if tables is not None:
            sym = tables.lookup_nearest_symbol_from(self, ref)
        else:
            sym = lookup_nearest_symbol_from(self, ref)  # type: ignore[arg-type]
        if type(sym) not in (GlobalOp, LLVMFuncOp):
            raise self.error(
                "must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or "
                "'llvm.func' or 'llvm.mlir.ifunc'"
            )
        if type(sym) is GlobalOp:
            space = sym.get_attr("addr_space").value  # type: ignore[union-attr]
            if space != self.res.type.address_space:
                raise self.error(
                    "pointer address space must match address space of the referenced global"
                )  # noqa: E501


def materialize_constant(
    value: A.Attribute, result_type: A.Type, location: A.Location | None = None
) -> Operation | None:
    """An `llvm.mlir.constant` of `result_type` holding `value` when LLVM can hold it."""
    if not is_compatible_type(result_type) or getattr(value, "type", None) is not result_type:
        return None
    if type(value) not in (A.IntegerAttr, A.FloatAttr, A.DenseElementsAttr):
        return None
    return ConstantOp.create((), [result_type], {"value": value}, location=location)


OPS: list[type[Operation]] = [
    LLVMFuncOp, ReturnOp, UnreachableOp, CallOp, BrOp, CondBrOp, SwitchOp,
    GlobalOp, AddressOfOp, *MEMORY_OPS, *VALUE_OPS, *ELEMENT_OPS,
]  # fmt: skip

DIALECT = Dialect(
    "llvm", ops=OPS, types=TYPES, attributes=ATTRIBUTES, materialize_constant=materialize_constant
)
