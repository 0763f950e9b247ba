"""Types and attributes of the `llvm` dialect (`!llvm.ptr`, `!llvm.struct<...>`, `#llvm.fastmath`,
`#llvm.linkage` ...), the LLVM-compatibility predicate, and `llvm_ir_type`, the LLVM IR spelling
of a type for the translation to LLVM IR text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mlc.ir import attributes as A
from mlc.ir.attributes import DialectAttr, DialectType, Uniqued

# ---------------------------------------------------------------------------------------------
# Types


def bare_error(op: Any, message: str) -> Exception:
    """A VerifyError at `op` without the `'name' op` prefix (MLIR's `emitError()` messages)."""
    from mlc.diagnostics import Diagnostic, VerifyError

    return VerifyError(Diagnostic("error", message, op.location))


class LLVMType(DialectType):
    """Base of the llvm dialect types. Nested in another llvm type they print without the
    `!llvm.` prefix (`!llvm.array<2 x ptr>`), as MLIR does."""

    __slots__ = ()
    mnemonic = ""

    def print_parameters(self, printer: Any) -> None:
        """The text after the mnemonic (none by default)."""


def print_nested_type(printer: Any, t: A.Type) -> None:
    """A type inside an llvm type's parameters: llvm types without their `!llvm.` prefix."""
    if isinstance(t, LLVMType):
        printer.write(t.mnemonic)
        t.print_parameters(printer)
    else:
        printer.print_type(t)


def parse_nested_type(parser: Any) -> A.Type:
    """A type inside an llvm type's parameters: `ptr`, `struct<...>` ... or any other type."""
    cls = _NESTED.get(parser.peek())
    if cls is None:
        return parser.parse_type()  # type: ignore[no-any-return]
    parser.parse_keyword()
    return cls.parse_parameters(parser)  # type: ignore[no-any-return]


class LLVMPointerType(LLVMType):
    """`!llvm.ptr` / `!llvm.ptr<3>`: an opaque pointer in an address space."""

    __slots__ = ("address_space",)
    name = "llvm.ptr"
    mnemonic = "ptr"

    def __new__(cls, address_space: int = 0) -> LLVMPointerType:
        return Uniqued.__new__(cls, int(address_space))

    @classmethod
    def parse_parameters(cls, parser: Any) -> LLVMPointerType:
        if not parser.parse_optional_punct("<"):
            return cls(0)
        pos = parser.pos()
        space = parser.parse_integer()
        if space < 0:
            raise parser.error("invalid address space", pos)
        parser.parse_punct(">")
        return cls(space)

    def print_parameters(self, printer: Any) -> None:
        if self.address_space:
            printer.write(f"<{self.address_space}>")


class LLVMVoidType(LLVMType):
    """`!llvm.void`: the result type of functions returning nothing."""

    __slots__ = ()
    name = "llvm.void"
    mnemonic = "void"

    def __new__(cls) -> LLVMVoidType:
        return Uniqued.__new__(cls)

    @classmethod
    def parse_parameters(cls, parser: Any) -> LLVMVoidType:
        return cls()


class LLVMArrayType(LLVMType):
    """`!llvm.array<4 x f32>`: a fixed number of elements of one type."""

    __slots__ = ("num_elements", "element_type")
    name = "llvm.array"
    mnemonic = "array"

    def __new__(cls, num_elements: int, element_type: A.Type) -> LLVMArrayType:
        return Uniqued.__new__(cls, int(num_elements), element_type)

    @classmethod
    def parse_parameters(cls, parser: Any) -> LLVMArrayType:
        parser.parse_punct("<")
        pos = parser.pos()
        n = parser.parse_integer()
        if n < 0:
            raise parser.error("expected a non-negative number of array elements", pos)
        parser.parse_keyword("x")
        pos = parser.pos()
        et = parse_nested_type(parser)
        if not is_valid_element_type(et):
            raise parser.error(f"invalid array element type: {_quoted(et)}", pos)
        parser.parse_punct(">")
        return cls(n, et)

    def print_parameters(self, printer: Any) -> None:
        printer.write(f"<{self.num_elements} x ")
        print_nested_type(printer, self.element_type)
        printer.write(">")


class LLVMStructType(LLVMType):
    """`!llvm.struct<(i32, f32)>`, `!llvm.struct<packed (i8, i32)>`, identified
    `!llvm.struct<"name", (...)>` and opaque `!llvm.struct<"name", opaque>`.

    An identified struct is uniqued by its name together with its body (MLIR's are mutable,
    named entities); recursive identified structs are not supported.
    """

    __slots__ = ("identifier", "body", "packed", "opaque")
    name = "llvm.struct"
    mnemonic = "struct"

    def __new__(
        cls,
        body: Sequence[A.Type] = (),
        packed: bool = False,
        identifier: str | None = None,
        opaque: bool = False,
    ) -> LLVMStructType:
        return Uniqued.__new__(cls, identifier, tuple(body), bool(packed), bool(opaque))

    @classmethod
    def parse_parameters(cls, parser: Any) -> LLVMStructType:
        parser.parse_punct("<")
        identifier = parser.parse_optional_string()
        if identifier is not None:
            if parser.peek() == ">":
                raise parser.error(
                    "not supported: recursive identified struct references "
                    f'(struct<"{identifier}"> without a body)'
                )
            parser.parse_punct(",")
            if parser.parse_optional_keyword("opaque"):
                parser.parse_punct(">")
                return cls((), False, identifier, True)
        packed = parser.parse_optional_keyword("packed") is not None
        parser.parse_punct("(")
        body: list[A.Type] = []
        if not parser.parse_optional_punct(")"):
            while True:
                pos = parser.pos()
                t = parse_nested_type(parser)
                if not is_valid_element_type(t):
                    raise parser.error(f"invalid LLVM structure element type: {_quoted(t)}", pos)
                body.append(t)
                if parser.parse_optional_punct(")"):
                    break
                parser.parse_punct(",")
        parser.parse_punct(">")
        return cls(body, packed, identifier)

    def print_parameters(self, printer: Any) -> None:
        printer.write("<")
        if self.identifier is not None:
            printer.print_string(self.identifier)
            if self.opaque:
                printer.write(", opaque>")
                return
            printer.write(", ")
        printer.write("packed (" if self.packed else "(")
        for i, t in enumerate(self.body):
            if i:
                printer.write(", ")
            print_nested_type(printer, t)
        printer.write(")>")


class LLVMFunctionType(LLVMType):
    """`!llvm.func<i32 (ptr, i64, ...)>`: result, parameters, and whether it is variadic."""

    __slots__ = ("result", "params", "var_arg")
    name = "llvm.func"
    mnemonic = "func"

    def __new__(
        cls, result: A.Type, params: Sequence[A.Type] = (), var_arg: bool = False
    ) -> LLVMFunctionType:
        return Uniqued.__new__(cls, result, tuple(params), bool(var_arg))

    @property
    def returns_void(self) -> bool:
        return type(self.result) is LLVMVoidType

    @property
    def results(self) -> tuple[A.Type, ...]:
        """The result types as an MLIR op sees them: none for `void`."""
        return () if type(self.result) is LLVMVoidType else (self.result,)

    @classmethod
    def parse_parameters(cls, parser: Any) -> LLVMFunctionType:
        parser.parse_punct("<")
        pos = parser.pos()
        result = parse_nested_type(parser)
        if not is_valid_result_type(result):
            raise parser.error(f"invalid function result type: {_quoted(result)}", pos)
        params: list[A.Type] = []
        var_arg = False
        parser.parse_punct("(")
        if not parser.parse_optional_punct(")"):
            while True:
                if parser.parse_optional_punct("..."):
                    var_arg = True
                    parser.parse_punct(")")
                    break
                pos = parser.pos()
                t = parse_nested_type(parser)
                if not is_valid_argument_type(t):
                    raise parser.error(f"invalid function argument type: {_quoted(t)}", pos)
                params.append(t)
                if parser.parse_optional_punct(")"):
                    break
                parser.parse_punct(",")
        parser.parse_punct(">")
        return cls(result, params, var_arg)

    def print_parameters(self, printer: Any) -> None:
        printer.write("<")
        print_nested_type(printer, self.result)
        printer.write(" (")
        for i, t in enumerate(self.params):
            if i:
                printer.write(", ")
            print_nested_type(printer, t)
        if self.var_arg:
            printer.write(", ..." if self.params else "...")
        printer.write(")>")


_NESTED: dict[str, type[LLVMType]] = {
    c.mnemonic: c
    for c in (LLVMPointerType, LLVMVoidType, LLVMArrayType, LLVMStructType, LLVMFunctionType)
}
ptr = LLVMPointerType(0)
void = LLVMVoidType()


def _quoted(t: A.Type) -> str:
    return f"'{t}'"


# ---------------------------------------------------------------------------------------------
# LLVM compatibility

_LLVM_FLOATS = frozenset(("f16", "bf16", "f32", "f64", "f80", "f128", "tf32"))


def _is_scalar_compatible(t: A.Type) -> bool:
    tt = type(t)
    if tt is A.IntegerType:
        return t.signedness == A.SIGNLESS  # type: ignore[attr-defined, no-any-return]
    if tt is A.FloatType:
        return t.kind in _LLVM_FLOATS  # type: ignore[attr-defined]
    return tt is LLVMPointerType


def is_compatible_type(t: A.Type) -> bool:
    """Whether `t` can be the type of an llvm dialect value (MLIR's isCompatibleType): signless
    integers, LLVM's float types, vectors of those or of pointers, and the llvm types; `index`,
    tensors and memrefs are not."""
    tt = type(t)
    if tt is A.VectorType:
        return _is_scalar_compatible(t.element_type)  # type: ignore[attr-defined]
    if tt is LLVMArrayType:
        return is_compatible_type(t.element_type)  # type: ignore[attr-defined]
    if tt is LLVMStructType:
        return all(is_compatible_type(e) for e in t.body)  # type: ignore[attr-defined]
    if tt is LLVMFunctionType:
        return is_compatible_type(t.result) and all(map(is_compatible_type, t.params))  # type: ignore[attr-defined]
    if tt is LLVMVoidType:
        return True
    return _is_scalar_compatible(t)


def is_valid_element_type(t: A.Type) -> bool:
    """Array and struct elements: compatible types other than void and function types."""
    return type(t) not in (LLVMVoidType, LLVMFunctionType) and is_compatible_type(t)


def is_valid_argument_type(t: A.Type) -> bool:
    return type(t) not in (LLVMVoidType, LLVMFunctionType) and is_compatible_type(t)


def is_valid_result_type(t: A.Type) -> bool:
    return type(t) is not LLVMFunctionType and is_compatible_type(t)


# ---------------------------------------------------------------------------------------------
# LLVM IR spelling

_IR_FLOATS = {
    "f16": "half", "bf16": "bfloat", "f32": "float", "f64": "double",
    "f80": "x86_fp80", "f128": "fp128",
}  # fmt: skip


def _ir_struct_name(name: str) -> str:
    ok = name and all(c.isalnum() or c in "._-$" for c in name) and not name[0].isdigit()
    return "%" + name if ok else '%"' + name.replace("\\", "\\5C").replace('"', "\\22") + '"'


def llvm_ir_type(t: A.Type) -> str:
    """The LLVM IR spelling of an llvm-compatible type: `i32`, `float`, `ptr addrspace(1)`,
    `{ i32, float }`, `<{ i8, i32 }>`, `[4 x float]`, `<8 x float>`, `void`, `i32 (ptr, ...)`;
    an identified struct is `%name` (its body is `llvm_ir_struct_body`)."""
    tt = type(t)
    if tt is A.IntegerType and t.signedness == A.SIGNLESS:  # type: ignore[attr-defined]
        return f"i{t.width}"  # type: ignore[attr-defined]
    if tt is A.FloatType and t.kind in _IR_FLOATS:  # type: ignore[attr-defined]
        return _IR_FLOATS[t.kind]  # type: ignore[attr-defined]
    if tt is LLVMPointerType:
        return f"ptr addrspace({t.address_space})" if t.address_space else "ptr"  # type: ignore[attr-defined]
    if tt is LLVMVoidType:
        return "void"
    if tt is A.VectorType and t.rank == 1:  # type: ignore[attr-defined]
        scale = "vscale x " if t.scalable[0] else ""  # type: ignore[attr-defined]
        return f"<{scale}{t.shape[0]} x {llvm_ir_type(t.element_type)}>"  # type: ignore[attr-defined]
    if tt is LLVMArrayType:
        return f"[{t.num_elements} x {llvm_ir_type(t.element_type)}]"  # type: ignore[attr-defined]
    if tt is LLVMStructType:
        if t.identifier is not None:  # type: ignore[attr-defined]
            return _ir_struct_name(t.identifier)  # type: ignore[attr-defined]
        return llvm_ir_struct_body(t)  # type: ignore[arg-type]
    if tt is LLVMFunctionType:
        params = [llvm_ir_type(p) for p in t.params] + (["..."] if t.var_arg else [])  # type: ignore[attr-defined]
        return f"{llvm_ir_type(t.result)} ({', '.join(params)})"  # type: ignore[attr-defined]
    raise ValueError(f"type {t} has no LLVM IR spelling (not supported: not LLVM-compatible)")


def llvm_ir_struct_body(t: LLVMStructType) -> str:
    """`{ i32, float }` / `<{ i8, i32 }>` / `{}` / `opaque` for the body of a struct type."""
    if t.opaque:
        return "opaque"
    if not t.body:
        return "<{}>" if t.packed else "{}"
    inner = "{ " + ", ".join(llvm_ir_type(e) for e in t.body) + " }"
    return "<" + inner + ">" if t.packed else inner


# ---------------------------------------------------------------------------------------------
# Attributes


class LLVMEnumAttr(DialectAttr):
    """An enum attribute printed as `#llvm.<mnemonic><keyword>` (`#llvm.linkage<internal>`)."""

    __slots__ = ("value",)
    cases: tuple[str, ...] = ()
    _case_set: frozenset[str] = frozenset()

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls._case_set = frozenset(cls.cases)

    def __new__(cls, value: str) -> Any:
        if value not in cls._case_set:
            raise ValueError(f"'{value}' is not a case of {cls.name}")
        return Uniqued.__new__(cls, value)

    @classmethod
    def parse_parameters(cls, parser: Any) -> Any:
        parser.parse_punct("<")
        kw = parser.parse_optional_keyword_in(cls._case_set)
        if kw is None:
            raise parser.error(f"expected one of [{', '.join(cls.cases)}] for {cls.name}")
        parser.parse_punct(">")
        return cls(kw)

    def print_parameters(self, printer: Any) -> None:
        printer.write(f"<{self.value}>")


class LinkageAttr(LLVMEnumAttr):
    """`#llvm.linkage<internal>`: the linkage of a function or global."""

    __slots__ = ()
    name = "llvm.linkage"
    cases = (
        "private", "internal", "available_externally", "linkonce", "weak", "common",
        "appending", "extern_weak", "linkonce_odr", "weak_odr", "external",
    )  # fmt: skip


class CConvAttr(LLVMEnumAttr):
    """`#llvm.cconv<fastcc>`: a calling convention."""

    __slots__ = ()
    name = "llvm.cconv"
    cases = (
        "ccc", "fastcc", "coldcc", "cc_10", "cc_11", "webkit_jscc", "anyregcc",
        "preserve_mostcc", "preserve_allcc", "swiftcc", "cxx_fast_tlscc", "tailcc",
        "cfguard_checkcc", "swifttailcc", "x86_stdcallcc", "x86_fastcallcc", "arm_apcscc",
        "arm_aapcscc", "arm_aapcs_vfpcc", "msp430_intrcc", "x86_thiscallcc", "ptx_kernel",
        "ptx_device", "spir_func", "spir_kernel", "intel_ocl_bicc", "x86_64_sysvcc", "win64cc",
        "x86_vectorcallcc", "x86_intrcc", "avr_intrcc", "avr_signalcc", "amdgpu_vs",
        "amdgpu_gs", "amdgpu_ps", "amdgpu_cs", "amdgpu_kernel", "x86_regcallcc", "amdgpu_hs",
        "amdgpu_ls", "amdgpu_es", "aarch64_vectorcallcc", "aarch64_sve_vectorcallcc",
        "riscv_vector_cc",
    )  # fmt: skip


class TailCallKindAttr(LLVMEnumAttr):
    """`#llvm.tailcallkind<tail>`: the tail-call marker of a call."""

    __slots__ = ()
    name = "llvm.tailcallkind"
    cases = ("none", "tail", "musttail", "notail")


class FastmathFlagsAttr(DialectAttr):
    """`#llvm.fastmath<nnan, ninf>`: LLVM's fast-math flags (`none`; `fast` sets all)."""

    __slots__ = ("flags",)
    name = "llvm.fastmath"
    flag_names = ("nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc")
    ALL = (1 << len(flag_names)) - 1

    def __new__(cls, flags: int = 0) -> FastmathFlagsAttr:
        return Uniqued.__new__(cls, int(flags))

    @classmethod
    def from_names(cls, *names: str) -> FastmathFlagsAttr:
        flags = 0
        for n in names:
            if n == "fast":
                flags = cls.ALL
            elif n != "none":
                flags |= 1 << cls.flag_names.index(n)
        return cls(flags)

    @property
    def names(self) -> list[str]:
        """The set flags as LLVM IR keywords (`fast` when all are set, [] for none)."""
        if self.flags == self.ALL:
            return ["fast"]
        return [n for i, n in enumerate(self.flag_names) if self.flags >> i & 1]

    @classmethod
    def parse_parameters(cls, parser: Any) -> FastmathFlagsAttr:
        valid = ("none", *cls.flag_names, "fast")
        parser.parse_punct("<")
        names = []
        while True:
            kw = parser.parse_optional_keyword_in(valid)
            if kw is None:
                raise parser.error(
                    f"expected ::mlir::LLVM::FastmathFlags to be one of: {', '.join(valid)}"
                )
            names.append(kw)
            if not parser.parse_optional_punct(","):
                break
        parser.parse_punct(">")
        return cls.from_names(*names)

    def print_parameters(self, printer: Any) -> None:
        printer.write("<" + (", ".join(self.names) or "none") + ">")


# ---------------------------------------------------------------------------------------------
# Loop annotations (MLIR's `loop_annotation` of llvm.br / llvm.cond_br, translated to the
# `!llvm.loop` metadata of the branch)


class _LoopOptionsAttr(DialectAttr):
    """Base of `#llvm.loop_*<key = value, ...>`: every key optional, printed in declaration
    order. `keys` maps a key to its kind: "bool" (`true`/`false`), "i32" (an integer, printed
    `N : i32`) or an attribute class (a nested `#llvm.loop_*` attribute)."""

    __slots__ = ("options",)
    keys: dict[str, Any] = {}

    def __new__(cls, options: Any = (), **kw: Any) -> Any:
        items = dict(options, **kw)
        for k, v in items.items():
            kind = cls.keys.get(k)
            if kind is None:
                raise ValueError(f"not supported: '{k}' in #{cls.name} (supported: "
                                 f"{', '.join(cls.keys)})")  # fmt: skip
            ok = (
                isinstance(v, bool) if kind == "bool"
                else isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**31
                if kind == "i32"
                else isinstance(v, kind)
            )  # fmt: skip
            if not ok:
                raise ValueError(f"'{k}' of #{cls.name} expects {_kind_text(kind)}, got {v!r}")
        ordered = tuple((k, items[k]) for k in cls.keys if k in items and items[k] is not None)
        return Uniqued.__new__(cls, ordered)

    def get(self, key: str) -> Any:
        """The value of `key`, None when absent."""
        for k, v in self.options:
            if k == key:
                return v
        return None

    @classmethod
    def parse_parameters(cls, parser: Any) -> Any:
        parser.parse_punct("<")
        items: dict[str, Any] = {}
        if not parser.parse_optional_punct(">"):
            while True:
                key = parser.parse_optional_keyword()
                if key is None:
                    raise parser.error(f"expected a key of #{cls.name}")
                kind = cls.keys.get(key)
                if kind is None:
                    raise parser.error(
                        f"not supported: '{key}' in #{cls.name} (supported: {', '.join(cls.keys)})"
                    )
                if key in items:
                    raise parser.error(f"'{key}' given twice in #{cls.name}")
                parser.parse_punct("=")
                if kind == "bool":
                    word = parser.parse_optional_keyword_in(("true", "false"))
                    if word is None:
                        raise parser.error(f"expected 'true' or 'false' for '{key}'")
                    items[key] = word == "true"
                elif kind == "i32":
                    value = parser.parse_integer()
                    if parser.parse_optional_punct(":"):
                        parser.parse_keyword("i32")
                    if not 0 <= value < 2**31:
                        raise parser.error(f"'{key}' of #{cls.name} must be a non-negative i32")
                    items[key] = value
                else:
                    value = parser.parse_attribute()
                    if not isinstance(value, kind):
                        raise parser.error(f"expected #{kind.name} for '{key}'")
                    items[key] = value
                if not parser.parse_optional_punct(","):
                    break
            parser.parse_punct(">")
        return cls(items)

    def print_parameters(self, printer: Any) -> None:
        parts = []
        for k, v in self.options:
            kind = self.keys[k]
            text = ("true" if v else "false") if kind == "bool" else (
                f"{v} : i32" if kind == "i32" else str(v)
            )  # fmt: skip
            parts.append(f"{k} = {text}")
        printer.write("<" + ", ".join(parts) + ">")


def _kind_text(kind: Any) -> str:
    return {"bool": "a bool", "i32": "a non-negative i32"}.get(
        kind, f"#{getattr(kind, 'name', kind)}"
    )


class LoopVectorizeAttr(_LoopOptionsAttr):
    """`#llvm.loop_vectorize<disable = true, width = 8 : i32>`: LLVM's loop vectorizer hints
    (`llvm.loop.vectorize.*`)."""

    __slots__ = ()
    name = "llvm.loop_vectorize"
    keys = {"disable": "bool", "predicateEnable": "bool", "scalableEnable": "bool",
            "width": "i32"}  # fmt: skip


class LoopUnrollAttr(_LoopOptionsAttr):
    """`#llvm.loop_unroll<disable = true>`: LLVM's loop unroller hints (`llvm.loop.unroll.*`)."""

    __slots__ = ()
    name = "llvm.loop_unroll"
    keys = {"disable": "bool", "count": "i32", "runtimeDisable": "bool", "full": "bool"}


class LoopAnnotationAttr(_LoopOptionsAttr):
    """`#llvm.loop_annotation<vectorize = #llvm.loop_vectorize<disable = true>, unroll =
    #llvm.loop_unroll<disable = true>>`: the hints of the loop whose latch branch carries it
    (the `loop_annotation` attribute of llvm.br / llvm.cond_br), translated to that branch's
    `!llvm.loop` metadata. Supported: `disableNonforced`, `vectorize`, `unroll`,
    `mustProgress`, `isVectorized` (MLIR's other keys are rejected as not supported)."""

    __slots__ = ()
    name = "llvm.loop_annotation"
    keys = {"disableNonforced": "bool", "vectorize": LoopVectorizeAttr,
            "unroll": LoopUnrollAttr, "mustProgress": "bool", "isVectorized": "bool"}  # fmt: skip


FASTMATH_NONE = FastmathFlagsAttr(0)
LINKAGE_EXTERNAL = LinkageAttr("external")
CCONV_C = CConvAttr("ccc")
TAILCALL_NONE = TailCallKindAttr("none")

TYPES = [LLVMPointerType, LLVMVoidType, LLVMArrayType, LLVMStructType, LLVMFunctionType]
ATTRIBUTES = [
    LinkageAttr, CConvAttr, TailCallKindAttr, FastmathFlagsAttr, LoopVectorizeAttr,
    LoopUnrollAttr, LoopAnnotationAttr,
]  # fmt: skip
