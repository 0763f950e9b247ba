"""Translation of an llvm-dialect module to LLVM IR text (`mlc-translate --mlir-to-llvmir`).

The text is what llvmlite's parser (and `llvm-as`) accepts: functions become `define`/`declare`,
blocks become labels, block arguments become `phi` nodes whose incoming values come from every
predecessor's branch operands (`br`, conditional `br`, `switch`), constants are printed inline,
intrinsic ops become calls of declared `@llvm.*` intrinsics with their overload suffix.

    text = translate_module(module)      # raises TranslationError (located) on what it cannot do
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from mlc.dialects import llvm
from mlc.dialects import llvm_ops_arith as LA
from mlc.dialects import llvm_ops_elements as LE
from mlc.dialects.llvm_ops_memory import GEP_INBOUNDS, GEP_NUSW, GEP_NUW, ORDERINGS
from mlc.dialects.llvm_types import (
    LLVMArrayType,
    LLVMFunctionType,
    LLVMPointerType,
    LLVMStructType,
    llvm_ir_struct_body,
    llvm_ir_type,
)

from mlc.diagnostics import Diagnostic, DiagnosticError
from mlc.ir import attributes as A
from mlc.ir.core import Block, Operation, Value

__all__ = ["TranslationError", "translate_module", "float_literal"]


class TranslationError(DiagnosticError):
    """A located `not supported: ...` (or invalid input) error of the translation."""

    def __init__(self, message: str, location: A.Location | None) -> None:
        super().__init__(Diagnostic("error", message, location))


def _unsupported(op: Operation, what: str) -> TranslationError:
    return TranslationError(f"not supported: {what}", op.location)


# ---------------------------------------------------------------------------------------------
# Constants


def float_literal(value: float, t: A.Type) -> str:
    """An exact LLVM IR float literal: hex of the double for float/double, 0xH/0xR for 16-bit."""
    kind = t.kind  # type: ignore[attr-defined]
    if kind == "f16":
        return f"0xH{int(np.array(value, dtype=np.float16).view(np.uint16)):04X}"
    if kind == "bf16":
        bits = int(np.array(value, dtype=np.float32).view(np.uint32))
        if value != value:
            return "0xR7FC0"
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # round to nearest even
        return f"0xR{bits:04X}"
    if kind == "f32":
        value = float(np.float32(value))
    elif kind != "f64":
        raise ValueError(f"float type {t}")
    return f"0x{struct.unpack('>Q', struct.pack('>d', value))[0]:016X}"


def _scalar_literal(value: Any, t: A.Type) -> str:
    if type(t) is A.FloatType:
        return float_literal(float(value), t)
    if type(t) is A.IntegerType:
        v = int(value)
        if t.width == 1:  # type: ignore[attr-defined]
            return "true" if v & 1 else "false"
        return str(v)
    raise ValueError(f"scalar constant of type {t}")


def _elements_literal(arr: np.ndarray, t: A.Type) -> str:
    """Vector / (nested) array constant from the values of `arr` (row-major)."""
    flat = arr.reshape(-1)
    if flat.size and not np.any(flat):
        neg_zero = flat.dtype.kind == "f" and np.any(np.signbit(flat))
        if not neg_zero:
            return "zeroinitializer"
    if type(t) is A.VectorType:
        et = t.element_type  # type: ignore[attr-defined]
        ets = llvm_ir_type(et)
        return "<" + ", ".join(f"{ets} {_scalar_literal(x, et)}" for x in flat) + ">"
    if type(t) is LLVMArrayType:
        et = t.element_type  # type: ignore[attr-defined]
        n = t.num_elements  # type: ignore[attr-defined]
        ets = llvm_ir_type(et)
        if type(et) in (LLVMArrayType, A.VectorType):
            per = flat.size // n if n else 0
            parts = [_elements_literal(flat[k * per : (k + 1) * per], et) for k in range(n)]
            return "[" + ", ".join(f"{ets} {p}" for p in parts) + "]"
        return "[" + ", ".join(f"{ets} {_scalar_literal(x, et)}" for x in flat) + "]"
    if flat.size == 1:
        return _scalar_literal(flat[0], t)
    raise ValueError(f"elements constant of type {t}")


def _attr_literal(attr: A.Attribute, t: A.Type) -> str:
    """The LLVM IR constant for a value attribute of an llvm.mlir.constant/global of type `t`."""
    ta = type(attr)
    if ta is A.IntegerAttr or isinstance(attr, A.IntegerAttr):
        return _scalar_literal(attr.value, t)  # type: ignore[attr-defined]
    if ta is A.FloatAttr:
        return _scalar_literal(attr.value, t)  # type: ignore[attr-defined]
    if ta is A.DenseElementsAttr:
        arr = attr.array  # type: ignore[attr-defined]
        if attr.is_splat and type(t) in (A.VectorType, LLVMArrayType):  # type: ignore[attr-defined]
            arr = np.broadcast_to(attr.splat_value, attr.type.shape)  # type: ignore[attr-defined]
        return _elements_literal(np.asarray(arr), t)
    if ta is A.StringAttr:
        v = attr.value  # type: ignore[attr-defined]
        data = v.encode() if isinstance(v, str) else bytes(v)
        chars = "".join(
            chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else f"\\{b:02X}" for b in data
        )
        return f'c"{chars}"'
    raise ValueError(f"constant attribute {attr}")


# ---------------------------------------------------------------------------------------------
# Types


def _ty(t: A.Type) -> str:
    return llvm_ir_type(t)


def _suffix(t: A.Type) -> str:
    """The overload suffix of an intrinsic for type `t`: f32, v8f32, i64, p0."""
    if type(t) is A.VectorType:
        return f"v{t.shape[0]}{_suffix(t.element_type)}"  # type: ignore[attr-defined]
    if type(t) is A.FloatType:
        return t.kind  # type: ignore[attr-defined, no-any-return]
    if type(t) is A.IntegerType:
        return f"i{t.width}"  # type: ignore[attr-defined]
    if type(t) is LLVMPointerType:
        return f"p{t.address_space}"  # type: ignore[attr-defined]
    raise ValueError(f"intrinsic overload on {t}")


_FLOAT_INTRINSICS = {cls.name: cls.llvm_opcode for cls in (
    LE.FMAOp, LE.ExpOp, LE.LogOp, LE.SqrtOp, LE.FAbsOp, LE.MaxNumOp, LE.MinNumOp, LE.PowOp,
)}  # fmt: skip

_PARAM_ATTRS_UNIT = {
    "llvm.noalias": "noalias", "llvm.nonnull": "nonnull", "llvm.readonly": "readonly",
    "llvm.writeonly": "writeonly", "llvm.noundef": "noundef", "llvm.nocapture": "captures(none)",
    "llvm.signext": "signext", "llvm.zeroext": "zeroext", "llvm.inreg": "inreg",
    "llvm.nofree": "nofree", "llvm.returned": "returned", "llvm.nest": "nest",
}  # fmt: skip
_PARAM_ATTRS_INT = {
    "llvm.align": "align {}", "llvm.dereferenceable": "dereferenceable({})",
    "llvm.dereferenceable_or_null": "dereferenceable_or_null({})",
}  # fmt: skip
_FUNC_UNIT_ATTRS = {
    "no_inline": "noinline", "always_inline": "alwaysinline", "no_unwind": "nounwind",
    "will_return": "willreturn", "optimize_none": "optnone",
}  # fmt: skip
# llvm.call's call-site function attributes (no_inline, always_inline, no_unwind, will_return).
_CALL_UNIT_ATTRS = tuple((k, v) for k, v in _FUNC_UNIT_ATTRS.items() if k != "optimize_none")


# ---------------------------------------------------------------------------------------------
# The module


class _ModuleWriter:
    def __init__(self, module: Operation) -> None:
        self.module = module
        self.intrinsics: dict[str, str] = {}
        self.structs: dict[str, LLVMStructType] = {}
        self.metadata: list[str] = []
        self.metadata_ids: dict[str, int] = {}  # uniqued nodes -> their number
        self.seen_types: set[A.Type] = set()
        self.type_text: dict[A.Type, str] = {}  # types are uniqued: one spelling per type

    # identified structs are declared at the top
    def note_type(self, t: A.Type) -> None:
        if t in self.seen_types:
            return
        self.seen_types.add(t)
        tt = type(t)
        if tt is LLVMStructType:
            if t.identifier is not None:  # type: ignore[attr-defined]
                self.structs.setdefault(t.identifier, t)  # type: ignore[attr-defined]
            for e in t.body:  # type: ignore[attr-defined]
                self.note_type(e)
        elif tt in (LLVMArrayType, A.VectorType):
            self.note_type(t.element_type)  # type: ignore[attr-defined]
        elif tt is LLVMFunctionType:
            self.note_type(t.result)  # type: ignore[attr-defined]
            for p in t.params:  # type: ignore[attr-defined]
                self.note_type(p)

    def ty(self, t: A.Type) -> str:
        text = self.type_text.get(t)
        if text is None:
            self.note_type(t)
            text = self.type_text[t] = _ty(t)
        return text

    def run(self) -> str:
        body: list[str] = []
        for op in self.module.regions[0].blocks[0]:
            if op.name not in ("llvm.mlir.global", "llvm.func"):
                raise _unsupported(op, f"'{op.name}' in the translation to LLVM IR")
            try:
                body.append(
                    self.global_(op) if op.name == "llvm.mlir.global" else self.function(op)
                )
            except ValueError as e:
                raise _unsupported(op, str(e).removeprefix("not supported: ")) from None
        head = ["; ModuleID = 'LLVMDialectModule'", 'source_filename = "LLVMDialectModule"', ""]
        for name, st in self.structs.items():
            from mlc.dialects.llvm_types import _ir_struct_name

            head.append(f"{_ir_struct_name(name)} = type {llvm_ir_struct_body(st)}")
        if self.structs:
            head.append("")
        tail = sorted(self.intrinsics.values())
        if self.metadata:
            tail += [""] + [f"!{k} = {m}" for k, m in enumerate(self.metadata)]
        return "\n".join(head + body + tail) + "\n"

    # -- globals ---------------------------------------------------------------------------------

    def global_(self, op: Operation) -> str:
        name = op.get_attr("sym_name").value  # type: ignore[union-attr]
        t = op.type  # type: ignore[attr-defined]
        linkage = op.get_attr("linkage").value  # type: ignore[union-attr]
        parts = [f"{_global_name(name)} ="]
        value = op.get_attr("value")
        region = op.regions[0]
        has_init = value is not None or bool(region.blocks)
        if not has_init and linkage in ("external", "extern_weak"):
            parts.append("external" if linkage == "external" else linkage)
        elif linkage != "external":
            parts.append(linkage)
        if op.get_attr("tls_mode") is not None and op.get_attr("tls_mode").value:  # type: ignore[union-attr]
            parts.append("thread_local")
        ua = op.get_attr("unnamed_addr")
        if ua is not None and ua.value:  # type: ignore[attr-defined]
            parts.append(("", "local_unnamed_addr", "unnamed_addr")[ua.value])  # type: ignore[attr-defined]
        space = op.get_attr("addr_space")
        if space is not None and space.value:  # type: ignore[attr-defined]
            parts.append(f"addrspace({space.value})")  # type: ignore[attr-defined]
        parts.append("constant" if op.get_attr("constant") is not None else "global")
        parts.append(self.ty(t))
        if value is not None:
            try:
                parts.append(_attr_literal(value, t))
            except ValueError as e:
                raise _unsupported(op, f"global initializer ({e})") from None
        elif region.blocks:
            parts.append(self._initializer_region(op, t))
        elif linkage not in ("external", "extern_weak"):
            parts.append("undef")  # LLVM needs an initializer unless external (as MLIR does)
        text = " ".join(parts)
        section = op.get_attr("section")
        if section is not None:
            text += f', section "{section.value}"'  # type: ignore[attr-defined]
        align = op.get_attr("alignment")
        if align is not None:
            text += f", align {align.value}"  # type: ignore[attr-defined]
        return text + "\n"

    def _initializer_region(self, op: Operation, t: A.Type) -> str:
        block = op.regions[0].blocks[0]
        ret = block.last
        consts: dict[Value, str] = {}
        for inner in block:
            if inner is ret:
                break
            lit = _constant_text(inner, self)
            if lit is None:
                raise _unsupported(inner, f"'{inner.name}' in a global initializer region")
            consts[inner.results[0]] = lit
        if ret is None or not ret.operands or ret.operands[0] not in consts:
            raise _unsupported(op, "global initializer region not ending in a constant")
        return consts[ret.operands[0]]

    # -- functions -------------------------------------------------------------------------------

    def function(self, op: Operation) -> str:
        return _FunctionWriter(self, op).run()

    def declare_intrinsic(self, name: str, result: str, params: Sequence[str]) -> None:
        if name not in self.intrinsics:
            self.intrinsics[name] = f"declare {result} @{name}({', '.join(params)})"


def _global_name(name: str) -> str:
    ok = name and all(c.isalnum() or c in "._$-" for c in name) and not name[0].isdigit()
    return "@" + name if ok else '@"' + name.replace("\\", "\\5C").replace('"', "\\22") + '"'


def _constant_text(op: Operation, mw: _ModuleWriter) -> str | None:
    """The inline constant of a constant-like llvm op, or None."""
    n = op.name
    if n == "llvm.mlir.constant":
        return _attr_literal(op.get_attr("value"), op.results[0].type)  # type: ignore[arg-type]
    if n == "llvm.mlir.undef":
        return "undef"
    if n == "llvm.mlir.poison":
        return "poison"
    if n == "llvm.mlir.zero":
        return "null" if type(op.results[0].type) is LLVMPointerType else "zeroinitializer"
    if n == "llvm.mlir.addressof":
        return _global_name(op.get_attr("global_name").root)  # type: ignore[union-attr]
    return None


def _fmf(op: Operation) -> str:
    a = op.get_attr("fastmathFlags")
    if a is None or not a.flags:  # type: ignore[attr-defined]
        return ""
    names = a.names  # type: ignore[attr-defined]
    if "reassoc" in names:  # LLVM's order: reassoc first
        names = ["reassoc"] + [n for n in names if n != "reassoc"]
    return " " + " ".join(names)


class _FunctionWriter:
    def __init__(self, mw: _ModuleWriter, func: Operation) -> None:
        self.mw = mw
        self.func = func
        self.names: dict[Value, str] = {}
        self.labels: dict[Block, str] = {}
        self.lines: list[str] = []
        self.counter = 0

    def ty(self, t: A.Type) -> str:
        return self.mw.ty(t)

    def val(self, v: Value) -> str:
        try:
            return self.names[v]
        except KeyError:
            raise TranslationError(
                "value used before it is defined (not supported: use outside its block order)",
                getattr(v.defining_op(), "location", None),
            ) from None

    def tv(self, v: Value) -> str:
        return f"{self.ty(v.type)} {self.val(v)}"

    def fresh(self, v: Value) -> str:
        name = f"%{self.counter}"
        self.counter += 1
        self.names[v] = name
        return name

    # -- header ----------------------------------------------------------------------------------

    def header(self) -> str:
        f = self.func
        ft: LLVMFunctionType = f.func_type  # type: ignore[attr-defined]
        decl = f.is_declaration  # type: ignore[attr-defined]
        linkage = f.get_attr("linkage").value  # type: ignore[union-attr]
        parts = ["declare" if decl else "define"]
        if linkage != "external":
            parts.append(linkage)
        vis = f.get_attr("visibility_")
        if vis is not None and vis.value:  # type: ignore[attr-defined]
            parts.append(("default", "hidden", "protected")[vis.value])  # type: ignore[attr-defined]
        ua = f.get_attr("unnamed_addr")
        if ua is not None and ua.value:  # type: ignore[attr-defined]
            parts.append(("", "local_unnamed_addr", "unnamed_addr")[ua.value])  # type: ignore[attr-defined]
        cc = f.get_attr("CConv")
        if cc is not None and cc.value != "ccc":  # type: ignore[attr-defined]
            parts.append(cc.value)  # type: ignore[attr-defined]
        res_attrs = _dict_list(f.get_attr("res_attrs"), 1)[0]
        rt = self.ty(ft.result)
        if res_attrs:
            rt = self._param_attrs(res_attrs) + " " + rt
        parts.append(rt)
        arg_attrs = _dict_list(f.get_attr("arg_attrs"), len(ft.params))
        params = []
        entry = f.regions[0].blocks[0] if not decl else None
        for k, t in enumerate(ft.params):
            p = self.ty(t)
            if arg_attrs[k]:
                p += " " + self._param_attrs(arg_attrs[k])
            if entry is not None:
                name = f"%arg{k}"
                self.names[entry.arguments[k]] = name
                p += " " + name
            params.append(p)
        if ft.var_arg:
            params.append("...")
        name = f.get_attr("sym_name").value  # type: ignore[union-attr]
        text = " ".join(parts) + f" {_global_name(name)}(" + ", ".join(params) + ")"
        fattrs = [kw for key, kw in _FUNC_UNIT_ATTRS.items() if f.get_attr(key) is not None]
        if f.get_attr("optimize_none") is not None and "noinline" not in fattrs:
            fattrs.append("noinline")
        cpu = f.get_attr("target_cpu")
        if cpu is not None:
            fattrs.append(f'"target-cpu"="{cpu.value}"')  # type: ignore[attr-defined]
        passthrough = f.get_attr("passthrough")
        if passthrough is not None:
            for item in passthrough.value:  # type: ignore[attr-defined]
                if type(item) is A.StringAttr:
                    fattrs.append(item.value)
                elif type(item) is A.ArrayAttr and len(item.value) == 2:
                    fattrs.append(f'"{item.value[0].value}"="{item.value[1].value}"')
                else:
                    raise _unsupported(f, f"passthrough entry {item}")
        if fattrs:
            text += " " + " ".join(fattrs)
        section = f.get_attr("section")
        if section is not None:
            text += f' section "{section.value}"'  # type: ignore[attr-defined]
        align = f.get_attr("alignment")
        if align is not None:
            text += f" align {align.value}"  # type: ignore[attr-defined]
        return text

    def _param_attrs(self, d: dict[str, A.Attribute]) -> str:
        out = []
        for key, a in d.items():
            if key in _PARAM_ATTRS_UNIT:
                out.append(_PARAM_ATTRS_UNIT[key])
            elif key in _PARAM_ATTRS_INT:
                out.append(_PARAM_ATTRS_INT[key].format(a.value))  # type: ignore[attr-defined]
            else:
                raise _unsupported(self.func, f"argument attribute '{key}'")
        return " ".join(out)

    # -- body ------------------------------------------------------------------------------------

    def run(self) -> str:
        head = self.header()
        if self.func.is_declaration:  # type: ignore[attr-defined]
            return head + "\n"
        blocks = self.func.regions[0].blocks
        for k, b in enumerate(blocks):
            self.labels[b] = f"bb{k}"
        # Names in textual order (numbered values must be defined in increasing order).
        for b in blocks:
            if b is not blocks[0]:
                for a in b.arguments:
                    self.fresh(a)
            for op in b:
                lit = _constant_text(op, self.mw)
                if lit is not None:
                    self.names[op.results[0]] = lit
                    self.ty(op.results[0].type)
                elif op.results and not _is_void_call(op):
                    self.fresh(op.results[0])
        incoming = self._incoming(blocks)
        body = [head + " {"]
        for k, b in enumerate(blocks):
            body.append(f"{self.labels[b]}:")
            if k and b.arguments:
                preds = incoming.get(b, [])
                if not preds:
                    raise TranslationError(
                        "not supported: block arguments of a block without predecessors",
                        self.func.location,
                    )
                for i, a in enumerate(b.arguments):
                    edges = ", ".join(
                        f"[ {self.val(vals[i])}, %{self.labels[p]} ]" for p, vals in preds
                    )
                    body.append(f"  {self.val(a)} = phi {self.ty(a.type)} {edges}")
            for op in b:
                if op.name in _CONSTANT_OPS:
                    continue
                line = self.instruction(op)
                body.append("  " + line)
        body.append("}")
        return "\n".join(body) + "\n"

    def _incoming(self, blocks: Sequence[Block]) -> dict[Block, list[tuple[Block, list[Value]]]]:
        out: dict[Block, list[tuple[Block, list[Value]]]] = {}
        for b in blocks:
            term = b.last
            if term is None:
                continue
            seen: dict[Block, list[Value]] = {}
            for k, succ in enumerate(term.successors):
                vals = [_value(u) for u in term.successor_operands(k)]  # type: ignore[attr-defined]
                if succ in seen:
                    if [id(v) for v in seen[succ]] != [id(v) for v in vals]:
                        raise _unsupported(
                            term, "two edges to one block with different block arguments"
                        )
                seen[succ] = vals
                out.setdefault(succ, []).append((b, vals))
        return out

    # -- instructions ----------------------------------------------------------------------------

    def instruction(self, op: Operation) -> str:
        fn = _INSTRUCTIONS.get(op.name)
        if fn is None:
            raise _unsupported(op, f"'{op.name}' in the translation to LLVM IR")
        try:
            return fn(self, op)
        except ValueError as e:  # a type or constant without an LLVM IR spelling
            raise _unsupported(op, str(e).removeprefix("not supported: ")) from None

    def res(self, op: Operation) -> str:
        return self.val(op.results[0])

    def label(self, b: Block) -> str:
        return f"label %{self.labels[b]}"


_CONSTANT_OPS = frozenset(
    ("llvm.mlir.constant", "llvm.mlir.undef", "llvm.mlir.poison", "llvm.mlir.zero",
     "llvm.mlir.addressof")
)  # fmt: skip


def _value(u: Any) -> Value:
    return u if isinstance(u, Value) else u.value  # an OpOperand


def _is_void_call(op: Operation) -> bool:
    return not op.results


def _dict_list(attr: A.Attribute | None, n: int) -> list[dict[str, A.Attribute]]:
    if attr is None:
        return [{} for _ in range(n)]
    out = []
    for d in attr.value:  # type: ignore[attr-defined]
        out.append(dict(d.value) if hasattr(d, "value") else {})
    return out + [{} for _ in range(n - len(out))]


Writer = Callable[[_FunctionWriter, Operation], str]
_INSTRUCTIONS: dict[str, Writer] = {}


def _instr(*names: str) -> Callable[[Writer], Writer]:
    def deco(fn: Writer) -> Writer:
        for n in names:
            _INSTRUCTIONS[n] = fn
        return fn

    return deco


def _int_flags(op: Operation) -> str:
    out = []
    o = op.get_attr("overflowFlags")
    if o is not None and o.value:  # type: ignore[attr-defined]
        names = LA.overflow_names(o.value)  # type: ignore[attr-defined]
        out += [n for n in ("nuw", "nsw") if n in names]
    if op.get_attr("isExact") is not None:
        out.append("exact")
    if op.get_attr("isDisjoint") is not None:
        out.append("disjoint")
    return "".join(" " + f for f in out)


@_instr(*(c.name for c in LA.VALUE_OPS if c.__mro__[1] in (LA._BinaryOp, LA._OverflowBinaryOp)))
def _int_binary(w: _FunctionWriter, op: Operation) -> str:
    a, b = op.operands
    return f"{w.res(op)} = {op.llvm_opcode}{_int_flags(op)} {w.tv(a)}, {w.val(b)}"  # type: ignore[attr-defined]


@_instr("llvm.fadd", "llvm.fsub", "llvm.fmul", "llvm.fdiv", "llvm.frem")
def _float_binary(w: _FunctionWriter, op: Operation) -> str:
    a, b = op.operands
    return f"{w.res(op)} = {op.llvm_opcode}{_fmf(op)} {w.tv(a)}, {w.val(b)}"  # type: ignore[attr-defined]


@_instr("llvm.fneg")
def _fneg(w: _FunctionWriter, op: Operation) -> str:
    return f"{w.res(op)} = fneg{_fmf(op)} {w.tv(op.operands[0])}"


@_instr("llvm.icmp")
def _icmp(w: _FunctionWriter, op: Operation) -> str:
    a, b = op.operands
    pred = llvm.ICMP_PREDICATES[op.get_attr("predicate").value]  # type: ignore[union-attr]
    return f"{w.res(op)} = icmp {pred} {w.tv(a)}, {w.val(b)}"


@_instr("llvm.fcmp")
def _fcmp(w: _FunctionWriter, op: Operation) -> str:
    a, b = op.operands
    pred = llvm.FCMP_PREDICATES[op.get_attr("predicate").value].lstrip("_")  # type: ignore[union-attr]
    return f"{w.res(op)} = fcmp{_fmf(op)} {pred} {w.tv(a)}, {w.val(b)}"


@_instr("llvm.select")
def _select(w: _FunctionWriter, op: Operation) -> str:
    c, a, b = op.operands
    return f"{w.res(op)} = select{_fmf(op)} {w.tv(c)}, {w.tv(a)}, {w.tv(b)}"


@_instr(*(c.name for c in LA.VALUE_OPS if issubclass(c, LA._CastOp)))
def _cast(w: _FunctionWriter, op: Operation) -> str:
    flags = _int_flags(op) + _fmf(op)
    if op.get_attr("nonNeg") is not None:
        flags += " nneg"
    a = op.operands[0]
    return f"{w.res(op)} = {op.llvm_opcode}{flags} {w.tv(a)} to {w.ty(op.results[0].type)}"  # type: ignore[attr-defined]


@_instr("llvm.extractelement")
def _extractelement(w: _FunctionWriter, op: Operation) -> str:
    v, i = op.operands
    return f"{w.res(op)} = extractelement {w.tv(v)}, {w.tv(i)}"


@_instr("llvm.insertelement")
def _insertelement(w: _FunctionWriter, op: Operation) -> str:
    v, x, i = op.operands
    return f"{w.res(op)} = insertelement {w.tv(v)}, {w.tv(x)}, {w.tv(i)}"


@_instr("llvm.shufflevector")
def _shufflevector(w: _FunctionWriter, op: Operation) -> str:
    a, b = op.operands
    mask = op.get_attr("mask").values  # type: ignore[union-attr]
    if not mask:
        raise _unsupported(op, "an empty shuffle mask")
    items = ", ".join("i32 poison" if m < 0 else f"i32 {m}" for m in mask)
    return f"{w.res(op)} = shufflevector {w.tv(a)}, {w.tv(b)}, <{len(mask)} x i32> <{items}>"


@_instr("llvm.extractvalue")
def _extractvalue(w: _FunctionWriter, op: Operation) -> str:
    pos = ", ".join(str(p) for p in op.get_attr("position").values)  # type: ignore[union-attr]
    return f"{w.res(op)} = extractvalue {w.tv(op.operands[0])}, {pos}"


@_instr("llvm.insertvalue")
def _insertvalue(w: _FunctionWriter, op: Operation) -> str:
    agg, v = op.operands
    pos = ", ".join(str(p) for p in op.get_attr("position").values)  # type: ignore[union-attr]
    return f"{w.res(op)} = insertvalue {w.tv(agg)}, {w.tv(v)}, {pos}"


def _align(op: Operation) -> str:
    a = op.get_attr("alignment")
    return f", align {a.value}" if a is not None else ""  # type: ignore[attr-defined]


def _check_memory(op: Operation) -> None:
    for key in ("invariant", "invariantGroup"):
        if op.get_attr(key) is not None:
            raise _unsupported(op, f"'{key}' on '{op.name}' in the translation")


def _nontemporal(w: _FunctionWriter, op: Operation) -> str:
    """`, !nontemporal !N` (N: the module's one `!{i32 1}` node) for an access marked
    `nontemporal`: a streaming access that should not displace cached data (x86: `movnt*`)."""
    if op.get_attr("nontemporal") is None:
        return ""
    mw = w.mw
    node = "!{i32 1}"
    k = mw.metadata_ids.get(node)
    if k is None:
        k = mw.metadata_ids[node] = len(mw.metadata)
        mw.metadata.append(node)
    return f", !nontemporal !{k}"


def _atomic(op: Operation) -> tuple[str, str]:
    o = op.get_attr("ordering")
    if o is None or not o.value:  # type: ignore[attr-defined]
        return "", ""
    scope = op.get_attr("syncscope")
    tail = f' syncscope("{scope.value}")' if scope is not None else ""  # type: ignore[attr-defined]
    return " atomic", f"{tail} {ORDERINGS[o.value]}"  # type: ignore[attr-defined]


@_instr("llvm.load")
def _load(w: _FunctionWriter, op: Operation) -> str:
    _check_memory(op)
    atomic, order = _atomic(op)
    vol = " volatile" if op.get_attr("volatile_") is not None else ""
    t = w.ty(op.results[0].type)
    tail = f"{order}{_align(op)}{_nontemporal(w, op)}"
    return f"{w.res(op)} = load{atomic}{vol} {t}, {w.tv(op.operands[0])}{tail}"


@_instr("llvm.store")
def _store(w: _FunctionWriter, op: Operation) -> str:
    _check_memory(op)
    atomic, order = _atomic(op)
    vol = " volatile" if op.get_attr("volatile_") is not None else ""
    v, p = op.operands
    return f"store{atomic}{vol} {w.tv(v)}, {w.tv(p)}{order}{_align(op)}{_nontemporal(w, op)}"


@_instr("llvm.alloca")
def _alloca(w: _FunctionWriter, op: Operation) -> str:
    if op.get_attr("inalloca") is not None:
        raise _unsupported(op, "inalloca")
    t = w.ty(op.get_attr("elem_type").value)  # type: ignore[union-attr]
    return f"{w.res(op)} = alloca {t}, {w.tv(op.operands[0])}{_align(op)}"


@_instr("llvm.getelementptr")
def _gep(w: _FunctionWriter, op: Operation) -> str:
    flags = op.get_attr("noWrapFlags")
    f = flags.value if flags is not None else 0  # type: ignore[attr-defined]
    words = []
    if f & GEP_INBOUNDS:
        words.append("inbounds")
    elif f & GEP_NUSW:
        words.append("nusw")
    if f & GEP_NUW:
        words.append("nuw")
    et = op.get_attr("elem_type").value  # type: ignore[union-attr]
    idx = []
    for i in op.indices:  # type: ignore[attr-defined]
        idx.append(f"i32 {i}" if isinstance(i, int) else w.tv(i))
    head = "".join(" " + x for x in words)
    return f"{w.res(op)} = getelementptr{head} {w.ty(et)}, {w.tv(op.operands[0])}, " + ", ".join(
        idx
    )


def _call_prefix(op: Operation) -> str:
    tk = op.get_attr("TailCallKind")
    kind = tk.value if tk is not None else "none"  # type: ignore[attr-defined]
    return "" if kind == "none" else kind + " "


@_instr("llvm.call")
def _call(w: _FunctionWriter, op: Operation) -> str:
    if op.get_attr("op_bundle_tags") is not None or len(op.operands) != len(op.arg_operands()) + (  # type: ignore[attr-defined]
        0 if op.get_attr("callee") is not None else 1
    ):
        raise _unsupported(op, "operand bundles")
    callee = op.get_attr("callee")
    args = op.arg_operands()  # type: ignore[attr-defined]
    attrs = _dict_list(op.get_attr("arg_attrs"), len(args))
    arg_text = []
    for a, d in zip(args, attrs):
        extra = (" " + w._param_attrs(d)) if d else ""
        arg_text.append(f"{w.ty(a.type)}{extra} {w.val(a)}")
    rt = w.ty(op.results[0].type) if op.results else "void"
    vt = op.get_attr("var_callee_type")
    if vt is not None:
        rt = w.ty(vt.value)  # type: ignore[attr-defined]
    target = _global_name(callee.root) if callee is not None else w.val(op.operands[0])  # type: ignore[attr-defined]
    cc = op.get_attr("CConv")
    ccs = f"{cc.value} " if cc is not None and cc.value != "ccc" else ""  # type: ignore[attr-defined]
    text = f"{_call_prefix(op)}call{_fmf(op)} {ccs}{rt} {target}(" + ", ".join(arg_text) + ")"
    for name, keyword in _CALL_UNIT_ATTRS:  # call-site function attributes
        if op.get_attr(name) is not None:
            text += " " + keyword
    return f"{w.res(op)} = {text}" if op.results else text


@_instr(*_FLOAT_INTRINSICS)
def _float_intrinsic(w: _FunctionWriter, op: Operation) -> str:
    t = op.results[0].type
    name = f"{_FLOAT_INTRINSICS[op.name]}.{_suffix(t)}"
    ts = w.ty(t)
    w.mw.declare_intrinsic(name, ts, [ts] * len(op.operands))
    args = ", ".join(w.tv(a) for a in op.operands)
    return f"{w.res(op)} = call{_fmf(op)} {ts} @{name}({args})"


@_instr("llvm.intr.ldexp")
def _ldexp(w: _FunctionWriter, op: Operation) -> str:
    x, k = op.operands
    name = f"llvm.ldexp.{_suffix(x.type)}.{_suffix(k.type)}"
    w.mw.declare_intrinsic(name, w.ty(x.type), [w.ty(x.type), w.ty(k.type)])
    return f"{w.res(op)} = call{_fmf(op)} {w.ty(x.type)} @{name}({w.tv(x)}, {w.tv(k)})"


@_instr("llvm.intr.prefetch")
def _prefetch(w: _FunctionWriter, op: Operation) -> str:
    (p,) = op.operands
    name = f"llvm.prefetch.{_suffix(p.type)}"
    w.mw.declare_intrinsic(name, "void", [w.ty(p.type), "i32", "i32", "i32"])
    rw, hint, cache = (op.get_attr(n).value for n in ("rw", "hint", "cache"))  # type: ignore[union-attr]
    return f"call void @{name}({w.tv(p)}, i32 {rw}, i32 {hint}, i32 {cache})"


@_instr("llvm.intr.memcpy", "llvm.intr.memset")
def _mem_intrinsic(w: _FunctionWriter, op: Operation) -> str:
    vol = "true" if op.get_attr("isVolatile").value else "false"  # type: ignore[union-attr]
    d, x, n = op.operands
    if op.name == "llvm.intr.memcpy":
        name = f"llvm.memcpy.{_suffix(d.type)}.{_suffix(x.type)}.{_suffix(n.type)}"
    else:
        name = f"llvm.memset.{_suffix(d.type)}.{_suffix(n.type)}"
    w.mw.declare_intrinsic(name, "void", [w.ty(d.type), w.ty(x.type), w.ty(n.type), "i1"])
    return f"call void @{name}({w.tv(d)}, {w.tv(x)}, {w.tv(n)}, i1 {vol})"


@_instr("llvm.return")
def _return(w: _FunctionWriter, op: Operation) -> str:
    return f"ret {w.tv(op.operands[0])}" if op.operands else "ret void"


@_instr("llvm.unreachable")
def _unreachable(w: _FunctionWriter, op: Operation) -> str:
    return "unreachable"


@_instr("llvm.br")
def _br(w: _FunctionWriter, op: Operation) -> str:
    return f"br {w.label(op.successors[0])}" + _loop_metadata(w, op)


def _loop_options(a: Any) -> list[str]:
    """The `llvm.loop.*` property nodes of a `#llvm.loop_annotation` (MLIR's translation:
    `vectorize<disable>` becomes `vectorize.enable` negated, a true unit option its name)."""
    out = []

    def flag(name: str, value: Any) -> None:
        if value:
            out.append(f'!{{!"{name}"}}')

    def boolean(name: str, value: Any) -> None:
        if value is not None:
            out.append(f'!{{!"{name}", i1 {"true" if value else "false"}}}')

    def i32(name: str, value: Any) -> None:
        if value is not None:
            out.append(f'!{{!"{name}", i32 {value}}}')

    flag("llvm.loop.disable_nonforced", a.get("disableNonforced"))
    if a.get("isVectorized"):
        out.append('!{!"llvm.loop.isvectorized", i32 1}')
    v = a.get("vectorize")
    if v is not None:
        d = v.get("disable")
        boolean("llvm.loop.vectorize.enable", None if d is None else not d)
        boolean("llvm.loop.vectorize.predicate.enable", v.get("predicateEnable"))
        boolean("llvm.loop.vectorize.scalable.enable", v.get("scalableEnable"))
        i32("llvm.loop.vectorize.width", v.get("width"))
    u = a.get("unroll")
    if u is not None:
        d = u.get("disable")
        if d is not None:
            out.append('!{!"llvm.loop.unroll.disable"}' if d else '!{!"llvm.loop.unroll.enable"}')
        i32("llvm.loop.unroll.count", u.get("count"))
        flag("llvm.loop.unroll.runtime.disable", u.get("runtimeDisable"))
        flag("llvm.loop.unroll.full", u.get("full"))
    flag("llvm.loop.mustprogress", a.get("mustProgress"))
    return out


def _loop_metadata(w: _FunctionWriter, op: Operation) -> str:
    """`, !llvm.loop !N` for a branch with a `loop_annotation`: a distinct node per loop whose
    property nodes are shared by the whole module."""
    a = op.get_attr("loop_annotation")
    if a is None:
        return ""
    mw = w.mw
    refs = []
    for node in _loop_options(a):
        k = mw.metadata_ids.get(node)
        if k is None:
            k = mw.metadata_ids[node] = len(mw.metadata)
            mw.metadata.append(node)
        refs.append(f", !{k}")
    k = len(mw.metadata)
    mw.metadata.append(f"distinct !{{!{k}{''.join(refs)}}}")
    return f", !llvm.loop !{k}"


def _weights(w: _FunctionWriter, op: Operation) -> str:
    a = op.get_attr("branch_weights")
    if a is None:
        return ""
    items = ", ".join(f"i32 {x}" for x in a.values)  # type: ignore[attr-defined]
    w.mw.metadata.append(f'!{{!"branch_weights", {items}}}')
    return f", !prof !{len(w.mw.metadata) - 1}"


@_instr("llvm.cond_br")
def _cond_br(w: _FunctionWriter, op: Operation) -> str:
    t, f = op.successors
    text = f"br {w.tv(op.operands[0])}, {w.label(t)}, {w.label(f)}" + _weights(w, op)
    return text + _loop_metadata(w, op)


@_instr("llvm.switch")
def _switch(w: _FunctionWriter, op: Operation) -> str:
    v = op.operands[0]
    vt = w.ty(v.type)
    cases = op._case_values()  # type: ignore[attr-defined]
    items = " ".join(f"{vt} {c}, {w.label(b)}" for c, b in zip(cases, op.successors[1:]))
    return f"switch {w.tv(v)}, {w.label(op.successors[0])} [ {items} ]" + _weights(w, op)


# ---------------------------------------------------------------------------------------------


def translate_module(module: Operation) -> str:
    """LLVM IR text of an llvm-dialect `builtin.module`; raises TranslationError (located)."""
    if module.name != "builtin.module":
        raise TranslationError("expected a builtin.module", module.location)
    try:
        return _ModuleWriter(module).run()
    except ValueError as e:  # a type or constant without an LLVM IR spelling
        raise TranslationError(f"not supported: {e}", module.location) from None
