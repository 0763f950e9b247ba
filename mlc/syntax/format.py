"""MLIR's declarative assembly format (ODS `assemblyFormat`), compiled to Python once per op class.

`compile_format(cls, fmt)` parses the format, checks it against the op definition (a bad format
raises `TypeError` naming the class), and generates the source of `print_asm` and `parse_asm`,
compiled with `exec`, so that nothing is interpreted per op.

Elements: `` `literal` `` (`` ` ` `` is a space, an empty literal suppresses the next space,
`` `\\n` `` a newline), `$operand`, `$prop`, `$region`, `$successor`, `type($x)`,
`type(operands)`, `type(results)`, `functional-type(a, b)`, `operands`, `regions`,
`successors`, `attr-dict`, `attr-dict-with-keyword`, `prop-dict`, `qualified(...)`,
`custom<Name>(args)`, and optional groups `( ... $anchor^ ... )?` with an optional else group
`( ... )? : ( ... )` written `( ... ) : ( ... )?`.

Types not printed must be inferable: from `SameOperandsAndResultType` / `SameTypeOperands`, from
`format_type_equalities = (("lhs", "rhs", "result"),)` on the class, from a constraint with a
`buildable_type` (e.g. `Index`), or, for results, from `InferTypeOpInterface`.

How `$prop` prints and parses (the extension point for enum-like attributes), in order:
1. the constraint has `print_hook(printer, attr)` / `parse_hook(parser) -> attr`: they are used;
2. the constraint has `attr_class` (a `DialectAttr` subclass), or the property's default is a
   DialectAttr: MLIR's stripped form, only the parameters (`<fast>` of `#arith.fastmath<fast>`),
   via `print_parameters` / `parse_parameters`; `qualified($prop)` prints the full form;
3. the constraint has `attr_type` (a buildable type, e.g. `i64` for an I64 attribute): the value
   without its `: type` (`4`), parsed with `parse_attribute(type=attr_type)`;
4. strings, symbols, types, unit, dense arrays (their text has no type suffix): as is;
5. anything else: the full attribute, `: type` suffix included (`1 : i32`).
Use `format_constraint(...)` to make a constraint carrying these hints.

Custom directives `custom<Name>($a, type($b), ...)` call `self.print_Name(printer, a, b, ...)`
with the current values (operand values, types, attributes, regions, blocks; tuples for
variadic groups) and `cls.parse_Name(parser, state)`, which returns one parsed value per
argument (a tuple when there are several): `UnresolvedOperand`s (lists for variadic), types,
attributes (stored in `state.attributes` by the caller), regions or blocks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from mlc.ir import attributes as A
from mlc.ir import opdef as D

__all__ = ["compile_format", "define_format", "format_constraint", "FormatConstraint"]


class FormatConstraint(D.Constraint):
    """A constraint with format hints (see the module docstring)."""

    __slots__ = ("attr_class", "attr_type", "buildable_type", "parse_hook", "print_hook")

    def __init__(
        self,
        check: Callable[[Any], bool],
        description: str,
        *,
        attr_class: type | None = None,
        attr_type: A.Type | None = None,
        buildable_type: A.Type | None = None,
        parse_hook: Callable[[Any], A.Attribute] | None = None,
        print_hook: Callable[[Any, A.Attribute], None] | None = None,
    ) -> None:
        super().__init__(check, description)
        self.attr_class = attr_class
        self.attr_type = attr_type
        self.buildable_type = buildable_type
        self.parse_hook = parse_hook
        self.print_hook = print_hook


def format_constraint(
    base: D.Constraint | type, description: str | None = None, **hints: Any
) -> FormatConstraint:
    """A FormatConstraint checking like `base` (a constraint, or an attribute class)."""
    if isinstance(base, type):
        cls = base
        hints.setdefault("attr_class", cls if issubclass(cls, A.DialectAttr) else None)
        return FormatConstraint(lambda a: type(a) is cls, description or cls.__name__, **hints)
    return FormatConstraint(base.check, description or base.description, **hints)


# Hints for opdef's stock constraints.
_BUILDABLE: dict[int, A.Type] = {id(D.Index): A.index}
_NO_SUFFIX = {
    id(c)
    for c in (
        D.StrAttr, D.SymbolRefAttrC, D.FlatSymbolRefAttrC, D.TypeAttrC, D.UnitAttrC,
        D.ArrayAttrC, D.DictAttrC, D.AffineMapAttrC, D.IntegerSetAttrC, D.DenseI32ArrayAttr,
        D.DenseI64ArrayAttr, D.DenseBoolArrayAttr,
    )
}  # fmt: skip

# ---------------------------------------------------------------------------------------------
# The format AST


class _El:
    __slots__ = ()


class _Lit(_El):
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class _Space(_El):
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class _Var(_El):
    __slots__ = ("name", "kind", "d", "index")

    def __init__(self, name: str, kind: str, d: D._Def, index: int) -> None:
        self.name, self.kind, self.d, self.index = name, kind, d, index

    @property
    def variadic(self) -> bool:
        return self.d.arity == D.VARIADIC

    @property
    def optional(self) -> bool:
        return self.d.arity == D.OPTIONAL


class _All(_El):
    """`operands`, `results`, `regions`, `successors`."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind


class _TypeOf(_El):
    __slots__ = ("arg",)

    def __init__(self, arg: _Var | _All) -> None:
        self.arg = arg


class _FuncType(_El):
    __slots__ = ("ins", "outs")

    def __init__(self, ins: _Var | _All, outs: _Var | _All) -> None:
        self.ins, self.outs = ins, outs


class _AttrDict(_El):
    __slots__ = ("keyword",)

    def __init__(self, keyword: bool) -> None:
        self.keyword = keyword


class _PropDict(_El):
    __slots__ = ()


class _Qualified(_El):
    __slots__ = ("inner",)

    def __init__(self, inner: _El) -> None:
        self.inner = inner


class _Custom(_El):
    __slots__ = ("name", "args")

    def __init__(self, name: str, args: list[_El]) -> None:
        self.name, self.args = name, args


class _Optional(_El):
    __slots__ = ("then", "else_", "anchor")

    def __init__(self, then: list[_El], else_: list[_El], anchor: _El) -> None:
        self.then, self.else_, self.anchor = then, else_, anchor


# ---------------------------------------------------------------------------------------------
# Parsing the format string

_FMT_TOKEN = re.compile(
    r"\s*(`[^`]*`|\$[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_\-]*|[()?^,<>:]|\S)"
)


class _FormatParser:
    __slots__ = ("cls", "toks", "i", "defs", "anchor_stack")

    def __init__(self, cls: type, fmt: str) -> None:
        self.cls = cls
        self.toks = _FMT_TOKEN.findall(fmt)
        self.i = 0
        self.defs: dict[str, tuple[str, D._Def, int]] = {}
        for kind, defs in (
            ("operand", cls._operand_defs), ("result", cls._result_defs),
            ("prop", cls._prop_defs), ("region", cls._region_defs),
            ("successor", cls._successor_defs),
        ):  # fmt: skip
            for index, (name, d) in enumerate(defs):
                self.defs[name] = (kind, d, index)
        self.anchor_stack: list[list[_El]] = []

    def fail(self, message: str) -> TypeError:
        return TypeError(f"{self.cls.__name__}: bad assembly format: {message}")

    def peek(self) -> str:
        return self.toks[self.i] if self.i < len(self.toks) else ""

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if expected is not None and tok != expected:
            raise self.fail(f"expected '{expected}', got '{tok or 'end of format'}'")
        if not tok:
            raise self.fail("unexpected end of format")
        self.i += 1
        return tok

    def parse(self) -> list[_El]:
        elements = self.elements(top=True)
        if self.peek():
            raise self.fail(f"unexpected '{self.peek()}'")
        return elements

    def elements(self, top: bool = False) -> list[_El]:
        out: list[_El] = []
        while True:
            tok = self.peek()
            if not tok or tok == ")" or (tok == ":" and not top):
                return out
            out.append(self.element())

    def element(self) -> _El:
        tok = self.take()
        if tok.startswith("`"):
            text = tok[1:-1]
            if text in ("", " ", "\\n"):
                return _Space(text)
            return _Lit(text)
        if tok == "(":
            return self.optional_group()
        el = self.atom(tok)
        if self.peek() == "^":
            self.take()
            if not self.anchor_stack:
                raise self.fail("'^' anchor outside an optional group")
            self.anchor_stack[-1].append(el)
        return el

    def atom(self, tok: str) -> _El:
        if tok.startswith("$"):
            return self.var(tok[1:])
        if tok in ("attr-dict", "attr-dict-with-keyword"):
            return _AttrDict(tok == "attr-dict-with-keyword")
        if tok == "prop-dict":
            return _PropDict()
        if tok in ("operands", "results", "regions", "successors"):
            return _All(tok[:-1])
        if tok == "type":
            self.take("(")
            arg = self.type_arg()
            self.take(")")
            return _TypeOf(arg)
        if tok == "functional-type":
            self.take("(")
            ins = self.type_arg()
            self.take(",")
            outs = self.type_arg()
            self.take(")")
            return _FuncType(ins, outs)
        if tok == "qualified":
            self.take("(")
            inner = self.atom(self.take())
            self.take(")")
            return _Qualified(inner)
        if tok == "custom":
            return self.custom()
        if tok == "ref":
            self.take("(")
            inner = self.atom(self.take())
            self.take(")")
            return inner
        raise self.fail(f"unknown directive or token '{tok}'")

    def var(self, name: str) -> _Var:
        found = self.defs.get(name)
        if found is None:
            raise self.fail(f"'${name}' is not an operand, result, property, region or successor")
        kind, d, index = found
        return _Var(name, kind, d, index)

    def type_arg(self) -> _Var | _All:
        tok = self.take()
        if tok in ("operands", "results"):
            return _All(tok[:-1])
        if tok.startswith("$"):
            v = self.var(tok[1:])
            if v.kind not in ("operand", "result"):
                raise self.fail(f"type directive on '${v.name}', which is a {v.kind}")
            return v
        raise self.fail(
            f"expected '$name', 'operands' or 'results' in a type directive, got '{tok}'"
        )

    def custom(self) -> _Custom:
        self.take("<")
        name = self.take()
        if not name.isidentifier():
            raise self.fail(f"bad custom directive name '{name}'")
        self.take(">")
        self.take("(")
        args: list[_El] = []
        while self.peek() != ")":
            args.append(self.atom(self.take()))
            if self.peek() == ",":
                self.take()
        self.take(")")
        return _Custom(name, args)

    def optional_group(self) -> _Optional:
        self.anchor_stack.append([])
        then = self.elements()
        self.take(")")
        else_: list[_El] = []
        if self.peek() == ":":
            self.take()
            self.take("(")
            else_ = self.elements()
            self.take(")")
        self.take("?")
        anchors = self.anchor_stack.pop()
        if len(anchors) != 1:
            raise self.fail("an optional group needs exactly one '^' anchor")
        if not then:
            raise self.fail("empty optional group")
        return _Optional(then, else_, anchors[0])


# ---------------------------------------------------------------------------------------------
# Analysis shared by both generators


def _walk(elements: list[_El]) -> list[_El]:
    """All elements, optional groups and directives flattened (pre-order)."""
    out: list[_El] = []
    for el in elements:
        out.append(el)
        if type(el) is _Optional:
            out.extend(_walk(el.then))
            out.extend(_walk(el.else_))
        elif type(el) is _Qualified:
            out.extend(_walk([el.inner]))
        elif type(el) is _Custom:
            out.extend(_walk(el.args))
        elif type(el) is _TypeOf:
            out.append(el.arg)
        elif type(el) is _FuncType:
            # `operands`/`results` inside a type directive name types, not values: leave them
            # out, so that they do not count as the `operands` value directive.
            out.extend([a for a in (el.ins, el.outs) if type(a) is not _All])
    return out


def attr_mode(d: D._Def) -> tuple[str, Any]:
    """How a property prints in a format: (mode, payload); see the module docstring."""
    c = d.constraint
    hook = getattr(c, "print_hook", None)
    if hook is not None:
        return "hook", c
    cls = getattr(c, "attr_class", None)
    if cls is None and isinstance(d.default, A.DialectAttr):
        cls = type(d.default)
    if cls is not None:
        return "stripped", cls
    t = getattr(c, "attr_type", None)
    if t is not None:
        return "notype", t
    return "full", None


class _Info:
    """Facts about a format: which definitions it binds, and how every type is found."""

    __slots__ = (
        "cls", "elements", "flat", "used", "type_src", "all_operand_types", "all_result_types",
        "infer_results", "has_prop_dict", "elided", "prop_names",
    )  # fmt: skip

    def __init__(self, cls: type, elements: list[_El]) -> None:
        self.cls = cls
        self.elements = elements
        self.flat = _walk(elements)
        self.used: dict[str, _Var] = {}
        self.type_src: dict[str, str] = {}
        self.all_operand_types = self.all_result_types = False
        self.infer_results = False
        self.has_prop_dict = any(type(e) is _PropDict for e in self.flat)
        self.elided: frozenset[str] = frozenset()
        self.prop_names: frozenset[str] = frozenset()

    def fail(self, message: str) -> TypeError:
        return TypeError(f"{self.cls.__name__}: bad assembly format: {message}")

    def for_class(self, cls: type) -> _Info:
        """These facts for `cls`, whose format and definitions are those of `self.cls`."""
        other = object.__new__(_Info)
        for slot in _Info.__slots__:
            setattr(other, slot, getattr(self, slot))
        other.cls = cls
        return other

    def check(self) -> None:
        cls = self.cls
        typed: set[str] = set()
        bound_operands = bound_regions = bound_successors = False
        n_dicts = 0
        for el in self.flat:
            t = type(el)
            if t is _AttrDict:
                n_dicts += 1
            elif t is _All:
                bound_operands |= el.kind == "operand"
                bound_regions |= el.kind == "region"
                bound_successors |= el.kind == "successor"
        for el in self.flat:
            if type(el) is _TypeOf or type(el) is _FuncType:
                for arg in (el.arg,) if type(el) is _TypeOf else (el.ins, el.outs):
                    if type(arg) is _All:
                        if arg.kind == "operand":
                            self.all_operand_types = True
                        else:
                            self.all_result_types = True
                    else:
                        typed.add(arg.name)
        for el in self.elements_with_vars():
            if el.name in self.used and el.kind != "prop":
                raise self.fail(f"'${el.name}' appears more than once")
            if el.kind == "result":
                raise self.fail(f"result '${el.name}' may only appear in type directives")
            self.used[el.name] = el
        if n_dicts != 1:
            raise self.fail("expected exactly one 'attr-dict' directive")
        self._check_all_bound(bound_operands, bound_regions, bound_successors)
        self._resolve_types(typed)
        self._compute_elided()
        del cls

    def elements_with_vars(self) -> list[_Var]:
        """Variables printed as values (not inside type directives)."""
        out: list[_Var] = []

        def visit(els: list[_El]) -> None:
            for el in els:
                t = type(el)
                if t is _Var:
                    out.append(el)  # type: ignore[arg-type]
                elif t is _Optional:
                    visit(el.then)  # type: ignore[attr-defined]
                    visit(el.else_)  # type: ignore[attr-defined]
                elif t is _Qualified:
                    visit([el.inner])  # type: ignore[attr-defined]
                elif t is _Custom:
                    visit([a for a in el.args if type(a) is _Var])  # type: ignore[attr-defined]

        visit(self.elements)
        return out

    def _check_all_bound(self, operands: bool, regions: bool, successors: bool) -> None:
        cls = self.cls
        for defs, kind, covered in (
            (cls._operand_defs, "operand", operands),
            (cls._region_defs, "region", regions),
            (cls._successor_defs, "successor", successors),
        ):
            if covered:
                continue
            for name, _ in defs:
                if name not in self.used:
                    raise self.fail(f"{kind} '{name}' not found in the format")

    def _resolve_types(self, typed: set[str]) -> None:
        """Fill `type_src`: name -> ("var", def whose parsed type it takes) or ("const", type)."""
        cls = self.cls
        src: dict[str, Any] = {}
        for name, _ in cls._operand_defs:
            if name in typed or self.all_operand_types:
                src[name] = ("var", name)
        for name, _ in cls._result_defs:
            if name in typed or self.all_result_types:
                src[name] = ("var", name)
        groups = [tuple(g) for g in getattr(cls, "format_type_equalities", ())]
        operand_names = [n for n, _ in cls._operand_defs]
        result_names = [n for n, _ in cls._result_defs]
        if D.SameOperandsAndResultType in cls._traits:
            groups.append(tuple(operand_names + result_names))
        if D.SameTypeOperands in cls._traits:
            groups.append(tuple(operand_names))
        for name, d in cls._operand_defs:
            if name not in src:
                t = getattr(d.constraint, "buildable_type", None) or _BUILDABLE.get(
                    id(d.constraint)
                )
                if t is not None and not any(name in g for g in groups):
                    src[name] = ("const", t)
        changed = True
        while changed:
            changed = False
            for group in groups:
                known = [n for n in group if n in src]
                for n in group:
                    if known and n not in src:
                        src[n] = src[known[0]]
                        changed = True
        for name, d in cls._operand_defs:
            if name not in src:
                t = getattr(d.constraint, "buildable_type", None) or _BUILDABLE.get(
                    id(d.constraint)
                )
                if t is None:
                    raise self.fail(
                        f"type of operand '{name}' is not printed and cannot be inferred"
                    )
                src[name] = ("const", t)
        self.type_src = src
        missing = [n for n, _ in cls._result_defs if n not in src]
        if missing:
            if not issubclass(cls, D.InferTypeOpInterface):
                raise self.fail(
                    f"type of result '{missing[0]}' is not printed and cannot be inferred"
                )
            self.infer_results = True

    def _compute_elided(self) -> None:
        names = {el.name for el in self.flat if type(el) is _Var and el.kind == "prop"}
        names |= {"operandSegmentSizes", "resultSegmentSizes"}
        self.prop_names = frozenset(self.cls._prop_names) - names
        if self.has_prop_dict:
            names |= set(self.cls._prop_names)
        self.elided = frozenset(names)


def _check(cls: type, fmt: str) -> _Info:
    elements = _FormatParser(cls, fmt).parse()
    info = _Info(cls, elements)
    info.check()
    return info


def compile_format(cls: type, fmt: str) -> None:
    """Set `cls.print_asm` and `cls.parse_asm` generated from the assembly format `fmt`.

    Raises TypeError (naming the class and the problem) when the format is malformed or does
    not fit the op definition.
    """
    from mlc.syntax.format_gen import gen_parser, gen_printer

    info = _check(cls, fmt)
    cls.print_asm = gen_printer(info)  # type: ignore[attr-defined]
    cls.parse_asm = classmethod(gen_parser(info))  # type: ignore[attr-defined]


# Checked formats and generated sources by everything they depend on, shared by the classes
# of a family (one base, one format: math's unary functions, arith's binary ops, ...): the same
# format on the same definitions, traits and interfaces checks and generates the same way.
_SHARED: dict[tuple, tuple[_Info, Any, Any]] = {}


def _shared_key(cls: Any, fmt: str) -> tuple | None:
    """What `_check` and the generators read of `cls` (the definition objects themselves, the
    traits in their order, the type equalities, type inference, the properties); None for a
    format with custom directives, whose methods are looked up on the class."""
    if "custom<" in fmt:
        return None
    return (
        fmt, cls._operand_defs, cls._result_defs, cls._prop_defs, cls._region_defs,
        cls._successor_defs, tuple(cls._traits),
        tuple(tuple(g) for g in getattr(cls, "format_type_equalities", ())),
        issubclass(cls, D.InferTypeOpInterface), cls._prop_names,
    )  # fmt: skip


def define_format(cls: type, fmt: str) -> None:
    """`compile_format`, with the Python compilation of the generated hooks deferred to their
    first use (how op classes get their format: importing a dialect compiles nothing).

    The format is checked and the printer's and parser's sources generated now, so a bad
    format raises TypeError at class definition exactly as with `compile_format`; the parser's
    fast path and line-op path (made by the same generator from the same checked format, and
    half of the generation time of a fresh process's imports) are generated on first use too.
    A class whose format and definitions are those of a class defined before (a family of ops
    on one base) takes that class's checked format and sources under its own name.
    """
    from mlc.syntax.format_gen import parser_source, printer_source

    key = _shared_key(cls, fmt)
    shared = _SHARED.get(key) if key is not None else None
    if shared is None:
        info = _check(cls, fmt)
        printer, parser = printer_source(info), parser_source(info)
        if key is not None:
            _SHARED[key] = (info, printer, parser)
    else:
        name = cls.__name__
        info, printer, parser = shared[0].for_class(cls), *(s.for_class(name) for s in shared[1:])
    hooks = _LazyHooks(cls, printer, parser, info)
    cls.print_asm = _LazyHook(hooks, "print_asm")  # type: ignore[attr-defined]
    cls.parse_asm = _LazyHook(hooks, "parse_asm")  # type: ignore[attr-defined]


class _LazyHooks:
    """The generated sources of one class's hooks, compiled together on first use."""

    __slots__ = ("cls", "printer", "parser", "info")

    def __init__(self, cls: type, printer: Any, parser: Any, info: _Info) -> None:
        self.cls = cls
        self.printer = printer
        self.parser = parser
        self.info = info

    def install(self) -> None:
        """Replace the class's lazy hooks by the compiled ones (unless replaced meanwhile)."""
        from mlc.syntax.format_gen import build_parser, fast_parser_source, line_parser_source

        cls = self.cls
        if type(cls.__dict__.get("print_asm")) is _LazyHook:
            cls.print_asm = self.printer.build()  # type: ignore[attr-defined]
        if type(cls.__dict__.get("parse_asm")) is _LazyHook:
            fast, line = fast_parser_source(self.info), line_parser_source(self.info)
            cls.parse_asm = classmethod(build_parser(self.parser, fast, line))  # type: ignore[attr-defined]


class _LazyHook:
    """A class attribute standing for a generated hook until its first read, which compiles
    the class's hooks and answers as the compiled attribute would."""

    __slots__ = ("hooks", "attr")

    def __init__(self, hooks: _LazyHooks, attr: str) -> None:
        self.hooks = hooks
        self.attr = attr

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        self.hooks.install()
        return getattr(obj if obj is not None else owner, self.attr)
