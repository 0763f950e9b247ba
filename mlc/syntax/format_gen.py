"""Code generators of the declarative assembly format: `print_asm` and `parse_asm` sources.

`mlc.syntax.format` parses and checks a format; this module turns the checked format into
Python source, once per op class, following MLIR's OpFormatGen (spacing rules included).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlc.ir import attributes as A
from mlc.ir import opdef as D
from mlc.ir.core import leaf_op_builder
from mlc.syntax.format import (
    _All,
    _AttrDict,
    _Custom,
    _El,
    _FuncType,
    _Info,
    _Lit,
    _Optional,
    _PropDict,
    _Qualified,
    _Space,
    _TypeOf,
    _Var,
    attr_mode,
)
from mlc.syntax.printer import UNKNOWN_BLOCK

__all__ = [
    "GeneratedSource",
    "build_parser",
    "fast_parser_source",
    "gen_fast_parser",
    "gen_parser",
    "gen_printer",
    "line_parser_source",
    "parser_source",
    "printer_source",
]

_PREFIX = {"operand": "u", "region": "r", "successor": "b"}

# ---------------------------------------------------------------------------------------------
# Code generation helpers


class _Code:
    """Lines of Python with an indentation level, and the constants they refer to."""

    __slots__ = ("lines", "depth", "consts")

    def __init__(self, consts: dict[str, Any]) -> None:
        self.lines: list[str] = []
        self.depth = 1
        self.consts = consts

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def const(self, value: Any, hint: str = "c") -> str:
        for name, v in self.consts.items():
            if v is value:
                return name
        name = f"_{hint}{len(self.consts)}"
        self.consts[name] = value
        return name


class GeneratedSource:
    """The Python source of one generated hook, with the constants it refers to; compiled by
    `build` (generation checks the format, so a class can be checked now and compiled later)."""

    __slots__ = ("source", "consts", "filename", "qualname")

    def __init__(self, source: str, consts: dict[str, Any], filename: str, qualname: str) -> None:
        self.source = source
        self.consts = consts
        self.filename = filename
        self.qualname = qualname

    def for_class(self, name: str) -> GeneratedSource:
        """The same hook named after the class `name` (for a class sharing this format)."""
        owner, _, attr = self.qualname.rpartition(".")
        return GeneratedSource(
            self.source, self.consts, name + self.filename[len(owner) :], f"{name}.{attr}"
        )

    def build(self) -> Callable[..., Any]:
        namespace = dict(self.consts)
        exec(compile(self.source, f"<format of {self.filename}>", "exec"), namespace)
        fn = namespace["_fn"]
        fn.__qualname__ = self.qualname
        fn.__doc__ = self.source
        return fn


_SPACE_BEFORE_PUNCT = "<>(){}[],"
_NO_SPACE_AFTER_PUNCT = ">)}],"


def _space_before_literal(text: str, last_punct: bool) -> bool:
    """MLIR's rule: which literals get a space before them."""
    if len(text) != 1 and text != "->":
        return True
    if last_punct:
        return text[0] not in _NO_SPACE_AFTER_PUNCT
    return text[0] not in _SPACE_BEFORE_PUNCT


def _is_unit(d: D._Def) -> bool:
    c = d.constraint
    return c is D.UnitAttrC or getattr(c, "description", "") == "unit attribute"


def _no_variadic(cls: type, kind: str) -> bool:
    if kind == "operand":
        return cls._n_variadic_operands == 0
    if kind == "result":
        return cls._n_variadic_results == 0
    defs = cls._region_defs if kind == "region" else cls._successor_defs
    return all(d.arity == D.SINGLE for _, d in defs)


def _group_slice(cls: type, v: _Var) -> str | None:
    """`self._operands[a:b]` / `self.results[a:b]` for a variadic group that is the only
    variadic group of its kind (so its bounds need no segment sizes), else None."""
    if v.kind == "operand":
        defs, items, n_var = cls._operand_defs, "self._operands", cls._n_variadic_operands
    elif v.kind == "result":
        defs, items, n_var = cls._result_defs, "self.results", cls._n_variadic_results
    else:
        return None
    if n_var != 1 or v.d.arity != D.VARIADIC:
        return None
    names = [n for n, _ in defs]
    if v.name not in names:
        return None
    before = names.index(v.name)
    after = len(names) - before - 1
    if after:
        return f"{items}[{before}:len({items}) - {after}]"
    return f"{items}[{before}:]" if before else items


def _value_expr(cls: type, v: _Var) -> str:
    """Printer-side expression for a variable's current value (tuple for variadic groups)."""
    if v.kind == "prop":
        return f"attrs.get({v.name!r})"
    if not _no_variadic(cls, v.kind):
        group = _group_slice(cls, v)
        if group is not None:
            if v.kind == "operand":
                return f"tuple([u.value for u in {group}])"
            return f"tuple({group})"
        return f"self.{v.name}"
    if v.kind == "operand":
        return f"self._operands[{v.index}].value"
    if v.kind == "result":
        return f"self.results[{v.index}]"
    if v.kind == "region":
        return f"self.regions[{v.index}]"
    return f"self.successors[{v.index}]"


def _all_expr(kind: str) -> str:
    return {
        "operand": "[u.value for u in self._operands]",
        "result": "self.results",
        "region": "self.regions",
        "successor": "self.successors",
    }[kind]


# ---------------------------------------------------------------------------------------------
# The printer generator


class _ConstText(str):
    """Constant text pending in the printer generator (as opposed to an expression)."""

    __slots__ = ()


def _concat(pieces: list[Any]) -> str:
    """The source of the string `pieces` (constant texts and str-valued expressions) joined:
    one f-string (one BUILD_STRING instead of a `+` per piece) when every expression can sit
    in one, else the `+` chain."""
    parts = [repr(str(x)) if type(x) is _ConstText else x for x in pieces]
    exprs = [x for x in pieces if type(x) is not _ConstText]
    if len(parts) < 2 or any(_UNSAFE_IN_FSTRING.intersection(e) for e in exprs):
        return " + ".join(parts)
    quote = "'" if not any("'" in e for e in exprs) else '"'
    if any(quote in e for e in exprs):
        return " + ".join(parts)
    body = []
    for x in pieces:
        if type(x) is _ConstText:
            r = repr(str(x))  # escaped, between the quotes repr chose
            text = r[1:-1]
            if r[0] != quote:  # the other kind: repr left `quote` itself unescaped
                text = text.replace(quote, "\\" + quote)
            body.append(text.replace("{", "{{").replace("}", "}}"))
        else:
            body.append("{" + x + "}")
    return "f" + quote + "".join(body) + quote


# Characters that cannot appear in an f-string's expression before Python 3.12 (or would change
# its meaning there: a format spec, a conversion, braces, a comment).
_UNSAFE_IN_FSTRING = frozenset("\\#{}:!")


class _PrintGen:
    """Emits `print_asm`, tracking MLIR's spacing state at generation time."""

    __slots__ = ("info", "cls", "code", "pending", "space", "punct", "qualified")

    def __init__(self, info: _Info, code: _Code) -> None:
        self.info = info
        self.cls = info.cls
        self.code = code
        self.pending: list[str] = []
        self.space = True  # MLIR's shouldEmitSpace
        self.punct = False  # MLIR's lastWasPunctuation
        self.qualified = False

    def text(self, expr: str) -> None:
        """Append a Python expression giving text."""
        self.pending.append(expr)

    def const(self, text: str) -> None:
        """Append constant text (merged with a constant just before it)."""
        pending = self.pending
        if pending and type(pending[-1]) is _ConstText:
            pending[-1] = _ConstText(pending[-1] + text)
        else:
            pending.append(_ConstText(text))

    def flush(self) -> None:
        if self.pending:
            self.code.line("s += " + _concat(self.pending))
            self.pending = []

    def to_out(self) -> None:
        """Write the pending text to the printer before a call that writes itself."""
        self.flush()
        self.code.line("out.append(s)")
        self.code.line('s = ""')

    def elements(self, elements: list[_El]) -> None:
        for el in elements:
            self.element(el)

    def element(self, el: _El) -> None:
        t = type(el)
        if t is _Lit:
            self.literal(el.text)  # type: ignore[attr-defined]
        elif t is _Space:
            self.space_el(el.text)  # type: ignore[attr-defined]
        elif t is _Optional:
            self.optional(el)  # type: ignore[arg-type]
        elif t is _AttrDict:
            self.attr_dict(el.keyword)  # type: ignore[attr-defined]
            self.punct = False
        elif t is _PropDict:
            names = self.info.prop_names
            defaults = self.defaults(frozenset())
            if defaults:
                names = frozenset(names) - {n for n, _ in defaults}
                names_c = self.code.const(names, "P")
                dflt = self.code.const(defaults, "D")
                self.text(
                    f"p._prop_dict_text(attrs, {names_c} | _keep_non_defaults(attrs, {dflt}))"
                )
            else:
                self.text(f"p._prop_dict_text(attrs, {self.code.const(names, 'P')})")
            self.punct = False
        else:
            if self.space or not self.punct:
                self.const(" ")
            self.punct = False
            self.space = True
            self.value(el)

    def literal(self, text: str) -> None:
        if self.space and _space_before_literal(text, self.punct):
            self.const(" " + text)
        else:
            self.const(text)
        self.space = len(text) != 1 or text not in "<({["
        self.punct = text[0] != "_" and not text[0].isalpha()

    def space_el(self, text: str) -> None:
        if text == "\\n":
            self.text('"\\n" + " " * p._indent')
            self.punct = True
        elif text == " ":
            self.const(" ")
            self.punct = False
        else:
            self.punct = True
        self.space = False

    def attr_dict(self, keyword: bool) -> None:
        elided = self.code.const(self.info.elided, "E")
        code = self.code
        self.flush()
        code.line(f"if attrs and not {elided}.issuperset(attrs):")
        defaults = self.defaults(self.info.elided)
        if defaults:
            elided = f"_elide_defaults(attrs, {elided}, {self.code.const(defaults, 'D')})"
        code.line(f"    s += p._attr_dict_text(attrs, {elided}, {keyword})")

    def defaults(self, printed: frozenset[str]) -> tuple[tuple[str, Any], ...]:
        """(name, default) of default-valued properties not printed elsewhere: MLIR elides them
        from attribute dictionaries while they hold their default."""
        return tuple(
            (n, d.default)
            for n, d in self.cls._prop_defs
            if d.default is not None and n not in printed
        )

    def value(self, el: _El) -> None:
        t = type(el)
        if t is _Var:
            self.var(el)  # type: ignore[arg-type]
        elif t is _All:
            self.all_values(el.kind)  # type: ignore[attr-defined]
        elif t is _TypeOf:
            self.text(self.types_expr(el.arg))  # type: ignore[attr-defined]
        elif t is _FuncType:
            ins = self.types_expr(el.ins)  # type: ignore[attr-defined]
            outs = self.type_list_expr(el.outs)  # type: ignore[attr-defined]
            self.text(f'"(" + {ins} + ") -> " + p._results_text({outs})')
        elif t is _Qualified:
            self.qualified = True
            self.value(el.inner)  # type: ignore[attr-defined]
            self.qualified = False
        elif t is _Custom:
            self.custom(el)  # type: ignore[arg-type]

    def var(self, v: _Var) -> None:
        expr = _value_expr(self.cls, v)
        if v.kind == "operand":
            group = _group_slice(self.cls, v)
            if group is not None:
                self.text(f'", ".join([names[u.value] for u in {group}])')
            elif v.variadic:
                self.text(f'", ".join([names[x] for x in {expr}])')
            elif v.optional:
                self.text(f'(names[{expr}] if {expr} is not None else "")')
            else:
                self.text(f"names[{expr}]")
        elif v.kind == "prop":
            self.prop(v, expr)
        elif v.kind == "region":
            self.regions(expr, v.variadic)
        elif v.kind == "successor":
            if v.variadic:
                self.text(f'", ".join([p._blocks.get(b, _UB) for b in {expr}])')
            else:
                self.text(f"p._blocks.get({expr}, _UB)")

    def prop(self, v: _Var, expr: str) -> None:
        mode, payload = attr_mode(v.d)
        if mode == "stripped" and self.qualified:
            mode = "full"
        if mode == "hook":
            hook = self.code.const(payload.print_hook, "hook")
            self.text(f"p._capture({hook}, {expr})")
        elif mode == "stripped":
            self.text(f"p._params_text({expr})")
        elif mode == "notype":
            self.text(f"p._attr_notype({expr})")
        else:
            self.text(f"p._astr[{expr}]")

    def regions(self, expr: str, variadic: bool) -> None:
        self.to_out()
        term = None
        for trait in self.cls._traits:
            term = getattr(trait, "terminator", None) or term
        code = self.code
        fn = "_print_region_elide" if term is not None else "_print_region"
        if variadic:
            code.line(f"for _i, _r in enumerate({expr}):")
            code.line('    if _i: out.append(", ")')
            code.line(f"    {fn}(p, _r)")
        else:
            code.line(f"{fn}(p, {expr})")

    def all_values(self, kind: str) -> None:
        if kind == "operand":
            self.text('", ".join([names[u.value] for u in self._operands])')
        elif kind == "region":
            self.regions("self.regions", True)
        elif kind == "successor":
            self.text('", ".join([p._blocks.get(b, _UB) for b in self.successors])')
        else:
            raise self.info.fail("'results' may only appear in type directives")

    def type_list_expr(self, arg: _Var | _All) -> str:
        """Expression for a list of types."""
        if type(arg) is _All:
            if arg.kind == "operand":
                return "[u.value.type for u in self._operands]"
            return "[r.type for r in self.results]"
        group = _group_slice(self.cls, arg)
        if group is not None:
            if arg.kind == "operand":
                return f"[u.value.type for u in {group}]"
            return f"[r.type for r in {group}]"
        expr = _value_expr(self.cls, arg)
        if arg.variadic:
            return f"[x.type for x in {expr}]"
        if arg.optional:
            return f"([{expr}.type] if {expr} is not None else [])"
        return f"[{expr}.type]"

    def types_expr(self, arg: _Var | _All) -> str:
        """Expression for comma-separated type text."""
        if type(arg) is _Var and arg.d.arity == D.SINGLE:
            return f"tstr[{_value_expr(self.cls, arg)}.type]"
        group = _group_slice(self.cls, arg) if type(arg) is _Var else None
        if group is not None:
            item = "tstr[u.value.type] for u" if arg.kind == "operand" else "tstr[r.type] for r"
            return f'", ".join([{item} in {group}])'
        return f'", ".join([tstr[t] for t in {self.type_list_expr(arg)}])'

    def custom(self, el: _Custom) -> None:
        self.to_out()
        args = []
        for a in el.args:
            if type(a) is _Var:
                args.append(_value_expr(self.cls, a))
            elif type(a) is _TypeOf:
                arg = a.arg
                if type(arg) is _Var and arg.d.arity == D.SINGLE:
                    args.append(f"{_value_expr(self.cls, arg)}.type")
                else:
                    args.append(f"tuple({self.type_list_expr(arg)})")
            elif type(a) is _All:
                args.append(f"tuple({_all_expr(a.kind)})")
            else:
                raise self.info.fail(f"unsupported argument of custom<{el.name}>")
        if not hasattr(self.cls, f"print_{el.name}"):
            raise self.info.fail(f"custom<{el.name}> needs a method print_{el.name}")
        self.code.line(f"self.print_{el.name}(p{''.join(', ' + x for x in args)})")

    def condition(self, anchor: _El) -> str:
        t = type(anchor)
        if t is _TypeOf or t is _Qualified:
            return self.condition(anchor.arg if t is _TypeOf else anchor.inner)  # type: ignore[attr-defined]
        if t is _All:
            return {
                "operand": "self._operands",
                "region": "self.regions",
                "successor": "self.successors",
            }.get(anchor.kind, "self.results")  # type: ignore[attr-defined]  # noqa: E501
        if t is not _Var:
            raise self.info.fail("an optional group must be anchored on a variable")
        v: _Var = anchor  # type: ignore[assignment]
        expr = _value_expr(self.cls, v)
        if v.kind == "prop":
            if v.d.arity == D.SINGLE and v.d.default is None:
                raise self.info.fail(f"anchor '${v.name}' is a required property")
            cond = f"{expr} is not None"
            if v.d.default is not None:
                cond += f" and {expr} is not {self.code.const(v.d.default, 'dflt')}"
            return cond
        if v.kind == "region":
            return f"{expr}" if v.variadic else f"{expr}.blocks"
        if v.d.arity == D.SINGLE:
            raise self.info.fail(f"anchor '${v.name}' is not optional or variadic")
        group = _group_slice(self.cls, v)
        if group is not None:
            return group
        return expr if v.variadic else f"{expr} is not None"

    def optional(self, el: _Optional) -> None:
        cond = self.condition(el.anchor)
        self.flush()
        code = self.code
        code.line(f"if {cond}:")
        code.depth += 1
        anchor = el.anchor
        for child in el.then:
            if (
                child is anchor
                and type(anchor) is _Var
                and anchor.kind == "prop"
                and _is_unit(anchor.d)
            ):
                continue
            self.element(child)
        self.flush()
        code.line("pass")
        code.depth -= 1
        if el.else_:
            code.line("else:")
            code.depth += 1
            self.elements(el.else_)
            self.flush()
            code.line("pass")
            code.depth -= 1


def _elide_defaults(
    attrs: dict[str, A.Attribute], elided: frozenset[str], defaults: tuple[tuple[str, Any], ...]
) -> frozenset[str]:
    """`elided` plus the default-valued properties that hold their default."""
    extra = [n for n, d in defaults if attrs.get(n) is d]
    return elided | frozenset(extra) if extra else elided


def _keep_non_defaults(
    attrs: dict[str, A.Attribute], defaults: tuple[tuple[str, Any], ...]
) -> frozenset[str]:
    """Names of default-valued properties that do not hold their default."""
    return frozenset(n for n, d in defaults if n in attrs and attrs[n] is not d)


def _print_region(p: Any, region: Any) -> None:
    p.print_region(region)


def _print_region_elide(p: Any, region: Any) -> None:
    """A region of a single-block-implicit-terminator op: the terminator only when it says more."""
    show = True
    if region.blocks:
        term = region.blocks[0].last
        if term is not None:
            show = bool(term._attrs) or bool(term._operands) or bool(term.results)
    p.print_region(region, True, False, show)


def gen_printer(info: _Info) -> Callable[..., None]:
    """The `print_asm(self, printer)` of a checked format."""
    return printer_source(info).build()


def printer_source(info: _Info) -> GeneratedSource:
    """The source of `print_asm` (raises TypeError on a format the printer cannot express)."""
    consts: dict[str, Any] = {
        "_UB": UNKNOWN_BLOCK, "_EMPTY": {}, "_print_region": _print_region,
        "_print_region_elide": _print_region_elide, "_elide_defaults": _elide_defaults,
        "_keep_non_defaults": _keep_non_defaults,
    }  # fmt: skip
    code = _Code(consts)
    gen = _PrintGen(info, code)
    gen.elements(info.elements)
    gen.flush()
    lines = code.lines
    if lines and lines[0].startswith("    s += "):
        lines[0] = "    s = " + lines[0][len("    s += ") :]
    else:
        lines.insert(0, "    s = ''")
    source = (
        "def _fn(self, p):\n    out = p._out\n    names = p._names\n    tstr = p._tstr\n"
        "    attrs = self._attrs or _EMPTY\n" + "\n".join(lines) + "\n    out.append(s)\n"
    )
    name = info.cls.__name__
    return GeneratedSource(source, consts, name, f"{name}.print_asm")


# ---------------------------------------------------------------------------------------------
# The parser generator


def _parse_optional_list(
    parser: Any, optional: Callable[[], Any], required: Callable[[], Any]
) -> list[Any]:  # noqa: E501
    """A possibly empty comma-separated list: `optional()` for the first item, then `required()`."""
    first = optional()
    if first is None:
        return []
    items = [first]
    while parser.parse_optional_punct(","):
        items.append(required())
    return items


def _parse_types(parser: Any) -> list[A.Type]:
    return _parse_optional_list(parser, parser.parse_optional_type, parser.parse_type)


def _parse_regions(parser: Any) -> list[Any]:
    return _parse_optional_list(parser, parser.parse_optional_region, parser.parse_region)


def _parse_successors(parser: Any) -> list[Any]:
    return _parse_optional_list(parser, parser.parse_optional_successor, parser.parse_successor)


def _ensure_terminator(parser: Any, region: Any, name: str, location: Any) -> None:
    """Add the implicit terminator `name` to a parsed region that lacks it."""
    op_cls = parser.ctx.get_op(name)
    if op_cls is not None:
        parser.ensure_terminator(region, lambda: op_cls.create(location=location))


def _is_keyword(text: str) -> bool:
    return text[0].isalpha() or text[0] == "_"


class _ParseGen:
    """Emits `parse_asm`: parse in format order, then resolve operands and types in def order."""

    __slots__ = ("info", "cls", "code", "qualified", "fast", "st")

    def __init__(self, info: _Info, code: _Code, fast: bool = False) -> None:
        self.info = info
        self.cls = info.cls
        self.code = code
        self.qualified = False
        # fast: emit `_fast(cls, parser, loc) -> op` that reads tokens inline (the OpAsmParser
        # method stays the fallback and raises the same errors) and keeps the state in locals.
        self.fast = fast
        self.st = "s_" if fast else "state."

    def fail(self, message: str) -> TypeError:
        return self.info.fail(message)

    def prologue(self) -> None:
        code = self.code
        if self.fast:
            code.line("toks = parser.toks")
            code.line("tcache = parser._type_cache")
            code.line("attrs = {}")
            code.line("s_operands = []")
            code.line("s_result_types = []")
            code.line("s_regions = []")
            code.line("s_successors = []")
        else:
            code.line("attrs = state.attributes")
        for defs, prefix in (
            (self.cls._operand_defs, "u"), (self.cls._result_defs, None),
            (self.cls._region_defs, "r"), (self.cls._successor_defs, "b"),
        ):  # fmt: skip
            for name, d in defs:
                empty = "[]" if d.arity == D.VARIADIC else "None"
                if prefix is not None:
                    code.line(f"{prefix}_{name} = {empty}")
                code.line(f"t_{name} = {empty}")
        code.line("u__all = t__operands = t__results = r__all = b__all = None")

    def elements(self, elements: list[_El]) -> None:
        for el in elements:
            self.element(el)

    def element(self, el: _El) -> None:
        code = self.code
        t = type(el)
        if t is _Lit:
            text = el.text  # type: ignore[attr-defined]
            fn = "parse_keyword" if _is_keyword(text) else "parse_punct"
            if self.fast:
                code.line(f"if toks[parser.i] == {text!r}:")
                code.line("    parser.i += 1")
                code.line("else:")
                code.line(f"    parser.{fn}({text!r})")
            else:
                code.line(f"parser.{fn}({text!r})")
        elif t is _Space:
            pass
        elif t is _Var:
            self.var(el)  # type: ignore[arg-type]
        elif t is _All:
            kind = el.kind  # type: ignore[attr-defined]
            if kind == "operand":
                code.line("u__all = parser.parse_operand_list()")
            elif kind == "region":
                code.line("r__all = _parse_regions(parser)")
            elif kind == "successor":
                code.line("b__all = _parse_successors(parser)")
            else:
                raise self.fail("'results' may only appear in type directives")
        elif t is _TypeOf:
            self.type_of(el.arg)  # type: ignore[attr-defined]
        elif t is _FuncType:
            code.line("_ft = parser.parse_function_type()")
            self.assign_types(el.ins, "_ft.inputs")  # type: ignore[attr-defined]
            self.assign_types(el.outs, "_ft.results")  # type: ignore[attr-defined]
        elif t is _AttrDict:
            kw = "_with_keyword" if el.keyword else ""  # type: ignore[attr-defined]
            if self.fast:
                code.line(f"if toks[parser.i] == {'attributes' if kw else '{'!r}:")
                code.line(f"    parser.parse_optional_attr_dict{kw}(attrs)")
            else:
                code.line(f"parser.parse_optional_attr_dict{kw}(attrs)")
        elif t is _PropDict:
            code.line("parser.parse_optional_prop_dict(attrs)")
        elif t is _Qualified:
            self.qualified = True
            self.element(el.inner)  # type: ignore[attr-defined]
            self.qualified = False
        elif t is _Custom:
            self.custom(el)  # type: ignore[arg-type]
        elif t is _Optional:
            self.optional(el)  # type: ignore[arg-type]

    def var(self, v: _Var) -> None:
        code = self.code
        n = v.name
        if v.kind == "operand":
            fn = {D.SINGLE: "parse_operand", D.OPTIONAL: "parse_optional_operand"}.get(
                v.d.arity, "parse_operand_list"
            )
            if v.d.arity == D.SINGLE and self.inline_operands():
                # A plain `%name` stays the token string, resolved inline with its index.
                code.line(f"u_{n} = toks[parser.i]")
                code.line(f"if u_{n}[:1] == '%' and '#' not in u_{n}:")
                code.line(f"    p_{n} = parser.i")
                code.line("    parser.i += 1")
                code.line("else:")
                code.line(f"    u_{n} = parser.parse_operand()")
            else:
                code.line(f"u_{n} = parser.{fn}()")
        elif v.kind == "prop":
            code.line(f"attrs[{n!r}] = {self.prop_parse(v)}")
        elif v.kind == "region":
            code.line(
                f"r_{n} = " + ("_parse_regions(parser)" if v.variadic else "parser.parse_region()")
            )
        elif v.kind == "successor":
            code.line(
                f"b_{n} = "
                + ("_parse_successors(parser)" if v.variadic else "parser.parse_successor()")
            )

    def prop_parse(self, v: _Var) -> str:
        mode, payload = attr_mode(v.d)
        if mode == "stripped" and self.qualified:
            mode = "full"
        if mode == "hook":
            return f"{self.code.const(payload.parse_hook, 'hook')}(parser)"
        if mode == "stripped":
            return f"{self.code.const(payload, 'cls')}.parse_parameters(parser)"
        if mode == "notype":
            return f"parser.parse_attribute(type={self.code.const(payload, 'ty')})"
        return "parser.parse_attribute()"

    def type_of(self, arg: _Var | _All) -> None:
        code = self.code
        if type(arg) is _All:
            code.line(f"t__{arg.kind}s = _parse_types(parser)")
            return
        fn = {D.SINGLE: "parser.parse_type()", D.OPTIONAL: "parser.parse_optional_type()"}.get(
            arg.d.arity, "_parse_types(parser)"
        )
        if self.fast and arg.d.arity == D.SINGLE:
            # Types are uniqued: a cached token text is the type (as in `parse_type`).
            code.line("_tok = toks[parser.i]")
            code.line(f"t_{arg.name} = tcache[_tok] if _tok in tcache else None")
            code.line(f"if t_{arg.name} is None:")
            code.line(f"    t_{arg.name} = parser.parse_type()")
            code.line("else:")
            code.line("    parser.i += 1")
        else:
            code.line(f"t_{arg.name} = {fn}")

    def assign_types(self, arg: _Var | _All, expr: str) -> None:
        code = self.code
        if type(arg) is _All:
            code.line(f"t__{arg.kind}s = list({expr})")
        elif arg.d.arity == D.VARIADIC:
            code.line(f"t_{arg.name} = list({expr})")
        elif arg.d.arity == D.OPTIONAL:
            code.line(f"t_{arg.name} = {expr}[0] if {expr} else None")
        else:
            code.line(f"if len({expr}) != 1:")
            code.line(f"    raise parser.error('expected one type for {arg.name}')")
            code.line(f"t_{arg.name} = {expr}[0]")

    def custom(self, el: _Custom) -> None:
        if not hasattr(self.cls, f"parse_{el.name}"):
            raise self.fail(f"custom<{el.name}> needs a classmethod parse_{el.name}")
        code = self.code
        code.line(f"_c = cls.parse_{el.name}(parser, state)")
        if len(el.args) != 1:
            code.line(f"({''.join(f'_c{i}, ' for i in range(len(el.args)))}) = _c")
        for i, a in enumerate(el.args):
            value = "_c" if len(el.args) == 1 else f"_c{i}"
            if type(a) is _Var:
                if a.kind == "prop":
                    code.line(f"if {value} is not None:")
                    code.line(f"    attrs[{a.name!r}] = {value}")
                else:
                    code.line(f"{_PREFIX[a.kind]}_{a.name} = {value}")
            elif type(a) is _TypeOf:
                arg = a.arg
                target = f"t__{arg.kind}s" if type(arg) is _All else f"t_{arg.name}"
                code.line(f"{target} = {value}")
            elif type(a) is _All:
                code.line(f"{_PREFIX[a.kind]}__all = {value}")

    def optional(self, el: _Optional) -> None:
        code = self.code
        then = [e for e in el.then]
        lead_index = next((i for i, e in enumerate(then) if type(e) is not _Space), None)
        if lead_index is None:
            raise self.fail("an optional group needs a parsable first element")
        first = then[lead_index]
        rest = then[lead_index + 1 :]
        cond = self.optional_lead(first)
        code.line(f"if {cond}:")
        code.depth += 1
        anchor = el.anchor
        if type(anchor) is _Var and anchor.kind == "prop" and _is_unit(anchor.d):
            code.line(f"attrs[{anchor.name!r}] = _UNIT")
            rest = [e for e in rest if e is not anchor]
        self.elements(rest)
        code.line("pass")
        code.depth -= 1
        if el.else_:
            code.line("else:")
            code.depth += 1
            self.elements(el.else_)
            code.line("pass")
            code.depth -= 1

    def optional_lead(self, first: _El) -> str:
        """Parse the first element of an optional group optionally; return the presence test."""
        code = self.code
        t = type(first)
        if t is _Lit:
            text = first.text  # type: ignore[attr-defined]
            fn = "parse_optional_keyword" if _is_keyword(text) else "parse_optional_punct"
            if self.fast:  # both optional forms test the token text only
                code.line(f"_f = toks[parser.i] == {text!r}")
                code.line("if _f:")
                code.line("    parser.i += 1")
                return "_f"
            return f"parser.{fn}({text!r})"
        if t is _Var:
            v: _Var = first  # type: ignore[assignment]
            if v.kind == "operand":
                code.line("_f = parser.parse_optional_operand()")
                if v.variadic:
                    code.line("if _f is not None:")
                    code.line(f"    u_{v.name} = [_f]")
                    code.line("    while parser.parse_optional_punct(','):")
                    code.line(f"        u_{v.name}.append(parser.parse_operand())")
                else:
                    code.line(f"u_{v.name} = _f")
                return "_f is not None"
            if v.kind == "prop":
                if _is_unit(v.d):
                    raise self.fail(f"unit attribute '${v.name}' cannot start an optional group")
                if attr_mode(v.d)[0] != "full" and not self.qualified:
                    raise self.fail(f"'${v.name}' cannot start an optional group (custom form)")
                code.line("_f = parser.parse_optional_attribute()")
                code.line("if _f is not None:")
                code.line(f"    attrs[{v.name!r}] = _f")
                return "_f is not None"
            if v.kind == "region":
                code.line("_f = parser.parse_optional_region()")
                code.line(
                    f"r_{v.name} = [_f] if _f is not None else []"
                    if v.variadic
                    else f"r_{v.name} = _f"
                )  # noqa: E501
                return "_f is not None"
            code.line("_f = parser.parse_optional_successor()")
            code.line(
                f"b_{v.name} = [_f] if _f is not None else []" if v.variadic else f"b_{v.name} = _f"
            )  # noqa: E501
            return "_f is not None"
        if t is _TypeOf:
            arg = first.arg  # type: ignore[attr-defined]
            code.line("_f = parser.parse_optional_type()")
            target = f"t__{arg.kind}s" if type(arg) is _All else f"t_{arg.name}"
            multi = type(arg) is _All or arg.d.arity == D.VARIADIC
            if multi:
                code.line("if _f is not None:")
                code.line(f"    {target} = [_f]")
                code.line("    while parser.parse_optional_punct(','):")
                code.line(f"        {target}.append(parser.parse_type())")
            else:
                code.line(f"{target} = _f")
            return "_f is not None"
        if t is _Qualified:
            self.qualified = True
            cond = self.optional_lead(first.inner)  # type: ignore[attr-defined]
            self.qualified = False
            return cond
        raise self.fail("an optional group must start with a literal, variable or type")

    # -- resolution ----------------------------------------------------------------------------

    def type_expr(self, name: str, variadic: bool, count: str) -> str:
        """Expression for the type (list, if `variadic`, of length `count`) of a def."""
        kind, src = self.info.type_src[name]
        if kind == "const":
            t = self.code.const(src, "ty")
            return f"[{t}] * {count}" if variadic else t
        src_def = self.def_of(src)
        src_var = f"t_{src}" if not self.info_all(src) else None
        if src_var is None:
            raise self.fail(f"cannot relate the type of '{name}' to all operand/result types")
        if src == name:
            return src_var
        if src_def.arity == D.VARIADIC:
            return src_var if variadic else f"{src_var}[0]"
        return f"[{src_var}] * {count}" if variadic else src_var

    def inline_operands(self) -> bool:
        """Fast mode, with each operand resolved on its own (not as one flat list)."""
        return (
            self.fast
            and not self.info.all_operand_types
            and not any(type(e) is _All and e.kind == "operand" for e in self.info.flat)
        )

    def def_of(self, name: str) -> D._Def:
        for defs in (self.cls._operand_defs, self.cls._result_defs):
            for n, d in defs:
                if n == name:
                    return d
        raise KeyError(name)

    def info_all(self, name: str) -> bool:
        """Is `name`'s type part of a flat all-operands/all-results type list?"""
        is_operand = any(n == name for n, _ in self.cls._operand_defs)
        return self.info.all_operand_types if is_operand else self.info.all_result_types

    def epilogue(self) -> None:
        self.resolve_operands()
        self.collect("region", "r", self.cls._region_defs, "regions")
        self.collect("successor", "b", self.cls._successor_defs, "successors")
        self.implicit_terminators()
        self.resolve_results()

    def resolve_operands(self) -> None:
        code = self.code
        cls = self.cls
        defs = cls._operand_defs
        flat = "(" + " + ".join(self.flat_unresolved(n, d) for n, d in defs) + ")" if defs else "[]"
        uses_all = any(type(e) is _All and e.kind == "operand" for e in self.info.flat)
        if uses_all:
            flat = "u__all"
        if self.info.all_operand_types:
            code.line(f"{self.st}operands = parser.resolve_operands({flat}, t__operands)")
        elif uses_all:
            if not defs:
                code.line(f"{self.st}operands = []")
            else:
                t = self.type_expr(defs[0][0], False, "1")
                code.line(
                    f"{self.st}operands = parser.resolve_operands(u__all, [{t}] * len(u__all))"
                )
        else:
            inline = self.inline_operands()
            if inline and all(d.arity == D.SINGLE for _, d in defs):
                # The common case: each value looked up inline, then one list display.
                code.line("values = parser.values")
                for name, _ in defs:
                    self.resolve_inline(name)
                code.line(f"s_operands = [{', '.join(f'o_{n}' for n, _ in defs)}]")
                defs = ()
            else:
                code.line(f"ops = {self.st}operands")
                if inline:
                    code.line("values = parser.values")
            for name, d in defs:
                t = self.type_expr(name, False, "1")
                one = f"ops.append(parser.resolve_operand(u_{name}, {t}))"
                if d.arity == D.SINGLE and inline:
                    self.resolve_inline(name)
                    code.line(f"ops.append(o_{name})")
                elif d.arity == D.SINGLE:
                    code.line(one)
                elif d.arity == D.OPTIONAL:
                    code.line(f"if u_{name} is not None:")
                    code.line("    " + one)
                else:
                    types = self.type_expr(name, True, f"len(u_{name})")
                    code.line(f"ops.extend(parser.resolve_operands(u_{name}, {types}))")
        if cls._n_variadic_operands > 1 and not uses_all:
            sizes = ", ".join(self.size_expr("u", n, d) for n, d in defs)
            code.line(f"attrs['operandSegmentSizes'] = _DenseArray(_i32, [{sizes}])")

    def resolve_inline(self, name: str) -> None:
        """`o_name` = the value of single operand `name` (`u_name` is its token when plain)."""
        code = self.code
        t = self.type_expr(name, False, "1")
        code.line(f"if type(u_{name}) is str:")
        code.line(f"    o_{name} = values[u_{name}] if u_{name} in values else None")
        code.line(f"    if o_{name} is None or o_{name}.type is not {t}:")
        code.line(f"        o_{name} = parser._resolve_key(u_{name}, {t}, parser.starts[p_{name}])")
        code.line("else:")
        code.line(f"    o_{name} = parser.resolve_operand(u_{name}, {t})")

    def flat_unresolved(self, name: str, d: D._Def) -> str:
        if d.arity == D.SINGLE:
            return f"[u_{name}]"
        if d.arity == D.OPTIONAL:
            return f"([u_{name}] if u_{name} is not None else [])"
        return f"list(u_{name})"

    def size_expr(self, prefix: str, name: str, d: D._Def) -> str:
        if d.arity == D.SINGLE:
            return "1"
        if d.arity == D.OPTIONAL:
            return f"(0 if {prefix}_{name} is None else 1)"
        return f"len({prefix}_{name})"

    def collect(self, kind: str, prefix: str, defs: tuple, field: str) -> None:
        code = self.code
        if any(type(e) is _All and e.kind == kind for e in self.info.flat):
            code.line(f"{self.st}{field} = list({prefix}__all)")
            return
        for name, d in defs:
            if d.arity == D.VARIADIC:
                code.line(f"{self.st}{field}.extend({prefix}_{name})")
            elif d.arity == D.OPTIONAL:
                code.line(f"if {prefix}_{name} is not None:")
                code.line(f"    {self.st}{field}.append({prefix}_{name})")
            else:
                code.line(f"{self.st}{field}.append({prefix}_{name})")

    def implicit_terminators(self) -> None:
        term = None
        for trait in self.cls._traits:
            term = getattr(trait, "terminator", None) or term
        if term is not None and self.cls._region_defs:
            self.code.line(f"for _r in {self.st}regions:")
            loc = "loc" if self.fast else "state.location"
            self.code.line(f"    _ensure_terminator(parser, _r, {term!r}, {loc})")

    def resolve_results(self) -> None:
        code = self.code
        cls = self.cls
        if self.info.infer_results:
            code.line(
                f"{self.st}result_types = list(cls.infer_result_types("
                f"[v.type for v in {self.st}operands], attrs, {self.st}regions))"
            )
            return
        if self.info.all_result_types:
            code.line(f"{self.st}result_types = list(t__results)")
            return
        if self.fast and all(d.arity == D.SINGLE for _, d in cls._result_defs):
            types = ", ".join(self.type_expr(n, False, "1") for n, _ in cls._result_defs)
            code.line(f"s_result_types = [{types}]")
            return
        code.line(f"res = {self.st}result_types")
        for name, d in cls._result_defs:
            if d.arity == D.SINGLE:
                code.line(f"res.append({self.type_expr(name, False, '1')})")
            elif d.arity == D.OPTIONAL:
                code.line(f"if t_{name} is not None:")
                code.line(f"    res.append(t_{name})")
            else:
                code.line(f"res.extend({self.type_expr(name, True, '1')})")
        if cls._n_variadic_results > 1:
            sizes = ", ".join(self.size_expr("t", n, d) for n, d in cls._result_defs)
            code.line(f"attrs['resultSegmentSizes'] = _DenseArray(_i32, [{sizes}])")


def gen_parser(info: _Info) -> Callable[..., None]:
    """The `parse_asm(cls, parser, state)` of a checked format, with its fast paths as `_fast`
    and `_line`."""
    return build_parser(parser_source(info), fast_parser_source(info), line_parser_source(info))


def build_parser(
    source: GeneratedSource, fast: GeneratedSource | None, line: GeneratedSource | None = None
) -> Callable[..., None]:
    """Compile `parse_asm` and attach the compiled fast path as `_fast` and the line op path
    as `_line` (None where the format has none)."""
    fn = source.build()
    fn._fast = fast.build() if fast is not None else None  # type: ignore[attr-defined]
    fn._line = line.build() if line is not None else None  # type: ignore[attr-defined]
    return fn


def parser_source(info: _Info) -> GeneratedSource:
    """The source of `parse_asm` (raises TypeError on a format the parser cannot read)."""
    consts: dict[str, Any] = {
        "_parse_types": _parse_types, "_parse_regions": _parse_regions,
        "_parse_successors": _parse_successors, "_ensure_terminator": _ensure_terminator,
        "_UNIT": A.UnitAttr(), "_DenseArray": A.DenseArrayAttr, "_i32": A.i32,
    }  # fmt: skip
    code = _Code(consts)
    gen = _ParseGen(info, code)
    gen.prologue()
    gen.elements(info.elements)
    gen.epilogue()
    source = "def _fn(cls, parser, state):\n" + "\n".join(code.lines) + "\n"
    name = info.cls.__name__
    return GeneratedSource(source, consts, name, f"{name}.parse_asm")


def gen_fast_parser(info: _Info) -> Callable[..., Any] | None:
    """The compiled fast path of a checked format (see `fast_parser_source`)."""
    src = fast_parser_source(info)
    return src.build() if src is not None else None


def fast_parser_source(info: _Info) -> GeneratedSource | None:
    """`_fast(cls, parser, loc) -> op`: `parse_asm` plus the op's creation, with tokens read
    inline where the common case allows (the `parser` methods remain the fallback, so errors
    are the same); None when a `custom<...>` directive needs an `OperationState`."""
    if any(type(e) is _Custom for e in info.flat):
        return None
    consts: dict[str, Any] = {
        "_parse_types": _parse_types, "_parse_regions": _parse_regions,
        "_parse_successors": _parse_successors, "_ensure_terminator": _ensure_terminator,
        "_UNIT": A.UnitAttr(), "_DenseArray": A.DenseArrayAttr, "_i32": A.i32,
    }  # fmt: skip
    code = _Code(consts)
    gen = _ParseGen(info, code, fast=True)
    gen.prologue()
    gen.elements(info.elements)
    gen.epilogue()
    code.line("if toks[parser.i] == 'loc':")
    code.line("    loc = parser.parse_optional_location()")
    code.line("return cls.create(s_operands, s_result_types, attrs, s_regions, s_successors, loc)")
    source = "def _fn(cls, parser, loc):\n" + "\n".join(code.lines) + "\n"
    name = info.cls.__name__
    return GeneratedSource(source, consts, name + " (fast)", f"{name}._parse_fast")


def line_parser_source(info: _Info) -> GeneratedSource | None:
    """`_line(cls, parser, parts, k, loc) -> op | None`: the op of a custom line op token (see
    `mlc.syntax.lexer.CUSTOM_LINE_OP`) given its plain tokens `parts`, the op name at
    `parts[k]`, when they are exactly what the format reads for an op with every optional
    element absent: single operands already defined with their types, literals, one type.

    Any other line gets None with nothing consumed, and the token path reads it (and reports
    its errors). The source is None when the format has no such shape (regions, successors,
    properties outside optional groups, variadic or inferred operands/results, ...).
    """
    cls = info.cls
    if (
        cls._region_defs
        or cls._successor_defs
        or info.infer_results
        or info.all_operand_types
        or info.all_result_types
        or any(d.arity != D.SINGLE for _, d in (*cls._operand_defs, *cls._result_defs))
    ):
        return None
    template = _line_template(info.elements)
    if template is None:
        return None
    operands = [n for kind, n in template if kind == "operand"]
    typed = {n for kind, n in template if kind == "type"}
    if sorted(operands) != sorted(n for n, _ in cls._operand_defs):
        return None  # an operand only inside an optional group
    for name, _ in (*cls._operand_defs, *cls._result_defs):
        kind, src = info.type_src[name]
        if kind != "const" and src not in typed:
            return None  # its type only comes from an optional group
    consts: dict[str, Any] = {}
    code = _Code(consts)
    gen = _ParseGen(info, code, fast=True)
    code.line(f"if len(parts) != k + {len(template) + 1}:")
    code.line("    return None")
    for j, (kind, text) in enumerate(template, 1):
        if kind == "lit":
            code.line(f"if parts[k + {j}] != {text!r}:")
            code.line("    return None")
        elif kind == "operand":
            # A line op's SSA names are plain (`%x`, never `%x#1`).
            code.line(f"u_{text} = parts[k + {j}]")
            code.line(f"if u_{text}[:1] != '%':")
            code.line("    return None")
        else:
            code.line(f"_tok = parts[k + {j}]")
            code.line(f"t_{text} = parser._type_cache.get(_tok)")
            code.line(f"if t_{text} is None:")
            code.line("    return None")
    code.line("values = parser.values")
    for name, _ in cls._operand_defs:
        t = gen.type_expr(name, False, "1")
        code.line(f"o_{name} = values.get(u_{name})")
        code.line(f"if o_{name} is None or o_{name}.type is not {t}:")
        code.line("    return None")
    args = [f"o_{n}" for n, _ in cls._operand_defs]
    args += [gen.type_expr(n, False, "1") for n, _ in cls._result_defs]
    code.line(f"return _build(cls, {''.join(a + ', ' for a in args)}loc)")
    # The op builder is made when the hook is compiled (first use), not at class definition.
    consts["_leaf_op_builder"] = leaf_op_builder
    arity = f"{len(cls._operand_defs)}, {len(cls._result_defs)}"
    source = f"_build = _leaf_op_builder({arity})\n\n\ndef _fn(cls, parser, parts, k, loc):\n"
    source += "\n".join(code.lines) + "\n"
    name = cls.__name__
    return GeneratedSource(source, consts, name + " (line)", f"{name}._parse_line")


def _line_template(elements: list[_El]) -> list[tuple[str, str]] | None:
    """The tokens a format reads with its optional elements absent, as ("lit", text),
    ("operand", name) and ("type", name); None when that is not a plain token sequence.

    An absent optional element must not be able to start at the token that follows it: an
    optional group has to lead with a keyword and be followed by a literal or an operand
    (attribute dictionaries start with `{` or `attributes`, which are never such tokens)."""
    template: list[tuple[str, str]] = []
    pending: set[str] = set()  # the leads of the absent groups just passed
    for el in elements:
        t = type(el)
        if t is _Space:
            continue
        if t is _AttrDict or t is _PropDict:
            continue
        if t is _Optional:
            lead = next((e for e in el.then if type(e) is not _Space), None)  # type: ignore[attr-defined]
            if el.else_ or type(lead) is not _Lit or not _is_keyword(lead.text):  # type: ignore[attr-defined]
                return None
            pending.add(lead.text)  # type: ignore[union-attr]
            continue
        if t is _Lit:
            text = el.text  # type: ignore[attr-defined]
            if not text:
                continue
            if text in pending:
                return None
            template.append(("lit", text))
        elif t is _Var and el.kind == "operand" and el.d.arity == D.SINGLE:  # type: ignore[attr-defined]
            template.append(("operand", el.name))  # type: ignore[attr-defined]
        elif t is _TypeOf and type(el.arg) is _Var and el.arg.d.arity == D.SINGLE:  # type: ignore[attr-defined]
            if pending:
                return None  # a type token could spell a group's keyword
            template.append(("type", el.arg.name))  # type: ignore[attr-defined]
        else:
            return None
        pending = set()
    return template
