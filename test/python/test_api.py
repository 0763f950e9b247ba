"""The public Python API of DESIGN.md section 10: parse, print, verify and diagnostics."""

from __future__ import annotations

from pathlib import Path

import pytest

import mlc
from mlc.ir.attributes import FileLineColLoc, IntegerType, NameLoc

SIMPLE = "func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n"

SIMPLE_CUSTOM = """\
module {
  func.func @f(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
}"""

SIMPLE_GENERIC = """\
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
  ^bb0(%arg0: i32):
    "func.return"(%arg0) : (i32) -> ()
  }) : () -> ()
}) : () -> ()"""


def ops_of(module: mlc.ir.core.Operation) -> list[mlc.ir.core.Operation]:
    return list(module.walk(post_order=False))


# ---------------------------------------------------------------------------------------------
# mlc.parse / mlc.parse_file


def test_parse_makes_an_implicit_module() -> None:
    module = mlc.parse(SIMPLE)
    assert module.name == "builtin.module"
    assert module.parent is None
    assert [op.name for op in ops_of(module)] == ["builtin.module", "func.func", "func.return"]
    func = module.regions[0].blocks[0].first
    assert func.get_attr("sym_name").value == "f"
    ret = func.regions[0].blocks[0].first
    assert ret.operand(0) is func.regions[0].blocks[0].arguments[0]
    assert ret.operand(0).type is IntegerType(32)


def test_parse_keeps_an_explicit_module() -> None:
    module = mlc.parse("module @m {\n" + SIMPLE + "}\n")
    assert module.name == "builtin.module"
    assert module.get_attr("sym_name").value == "m"
    assert [op.name for op in ops_of(module)] == ["builtin.module", "func.func", "func.return"]


def test_parse_wraps_several_top_level_ops() -> None:
    module = mlc.parse("module {\n}\nmodule {\n}\n")
    assert [op.name for op in ops_of(module)] == ["builtin.module"] * 3


def test_parse_empty_text_is_an_empty_module() -> None:
    module = mlc.parse("")
    assert module.name == "builtin.module"
    assert len(module.regions[0].blocks[0]) == 0
    assert str(module).strip() == "module {\n}"


def test_filename_is_reflected_in_locations() -> None:
    module = mlc.parse(SIMPLE, filename="foo.mlir")
    func = module.regions[0].blocks[0].first
    ret = func.regions[0].blocks[0].first
    assert func.location == FileLineColLoc("foo.mlir", 1, 1)
    assert ret.location == FileLineColLoc("foo.mlir", 2, 3)
    arg = func.regions[0].blocks[0].arguments[0]
    assert arg.location == FileLineColLoc("foo.mlir", 1, 14)


def test_op_location_is_its_name_and_the_module_is_at_0_0() -> None:
    """As in MLIR: an op is located at its name (not its results); an implicit module at 0:0."""
    text = (
        "func.func @f(%a: i32) {\n"
        "  %0 = arith.addi %a, %a : i32\n"
        '  %1 = "arith.addi"(%0, %0) : (i32, i32) -> i32\n'
        "  return\n"
        "}\n"
    )
    module = mlc.parse(text, filename="foo.mlir")
    assert module.location == FileLineColLoc("foo.mlir", 0, 0)
    func = module.regions[0].blocks[0].first
    custom = func.regions[0].blocks[0].first
    assert custom.location == FileLineColLoc("foo.mlir", 2, 8)
    assert custom.next.location == FileLineColLoc("foo.mlir", 3, 8)


def test_default_filename_is_stdin() -> None:
    module = mlc.parse(SIMPLE)
    func = module.regions[0].blocks[0].first
    assert func.location == FileLineColLoc("<stdin>", 1, 1)


def test_explicit_locations_win() -> None:
    text = 'func.func @f() {\n  return loc("x.py":7:8)\n} loc("named")\n'
    module = mlc.parse(text, filename="foo.mlir")
    func = module.regions[0].blocks[0].first
    assert func.location is NameLoc("named")
    assert func.regions[0].blocks[0].first.location == FileLineColLoc("x.py", 7, 8)


def test_parse_file(tmp_path: Path) -> None:
    path = tmp_path / "input.mlir"
    path.write_text(SIMPLE)
    module = mlc.parse_file(str(path))
    func = module.regions[0].blocks[0].first
    assert func.location == FileLineColLoc(str(path), 1, 1)
    assert str(module).rstrip("\n") == SIMPLE_CUSTOM


def test_parse_file_error_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text("func.func @f() {\n  return %x : i32\n}\n")
    with pytest.raises(mlc.ParseError) as info:
        mlc.parse_file(str(path))
    loc = info.value.diagnostics[0].file_loc
    assert (loc.filename, loc.line, loc.col) == (str(path), 2, 10)


def test_unregistered_ops_need_the_flag() -> None:
    text = '"foo.bar"() {x = 1 : i32} : () -> ()\n'
    with pytest.raises(mlc.ParseError):
        mlc.parse(text)
    module = mlc.parse(text, allow_unregistered=True)
    op = module.regions[0].blocks[0].first
    assert op.name == "foo.bar"
    assert str(module).rstrip("\n") == 'module {\n  "foo.bar"() {x = 1 : i32} : () -> ()\n}'


# ---------------------------------------------------------------------------------------------
# Printing


def test_str_prints_the_custom_form() -> None:
    assert str(mlc.parse(SIMPLE)).rstrip("\n") == SIMPLE_CUSTOM


def test_print_generic() -> None:
    assert mlc.parse(SIMPLE).print(generic=True).rstrip("\n") == SIMPLE_GENERIC


def test_print_of_a_nested_op() -> None:
    module = mlc.parse(SIMPLE)
    func = module.regions[0].blocks[0].first
    assert str(func).rstrip("\n") == "func.func @f(%arg0: i32) -> i32 {\n  return %arg0 : i32\n}"


def test_print_debuginfo_carries_the_locations() -> None:
    module = mlc.parse(SIMPLE, filename="foo.mlir")
    text = module.print(debuginfo=True)
    assert "foo.mlir" in text
    # Whatever the spelling (inline or aliased), the locations survive a round trip.
    again = mlc.parse(text, filename="other.mlir")
    func = again.regions[0].blocks[0].first
    assert func.location == FileLineColLoc("foo.mlir", 1, 1)
    assert func.regions[0].blocks[0].first.location == FileLineColLoc("foo.mlir", 2, 3)
    assert func.regions[0].blocks[0].arguments[0].location == FileLineColLoc("foo.mlir", 1, 14)
    # Without debuginfo, no location is printed.
    assert "loc(" not in module.print()
    assert "loc(" not in module.print(generic=True)


def test_print_generic_debuginfo() -> None:
    module = mlc.parse(SIMPLE, filename="foo.mlir")
    text = module.print(generic=True, debuginfo=True)
    assert '\n"builtin.module"() ({' in "\n" + text  # location aliases (#loc = ...) may come first
    again = mlc.parse(text)
    assert again.regions[0].blocks[0].first.location == FileLineColLoc("foo.mlir", 1, 1)


def test_print_is_stable_across_round_trips() -> None:
    text = """
func.func @g(%x: f32, %t: tensor<2x?xf32>) -> (f32, tensor<2x?xf32>) {
  %c = arith.constant 1.5 : f32
  %0 = arith.addf %x, %c fastmath<fast> : f32
  %1 = math.exp %0 : f32
  %2 = arith.addf %t, %t : tensor<2x?xf32>
  return %1, %2 : f32, tensor<2x?xf32>
}
"""
    once = str(mlc.parse(text))
    assert str(mlc.parse(once)) == once
    generic = mlc.parse(text).print(generic=True)
    assert mlc.parse(generic).print(generic=True) == generic
    assert str(mlc.parse(generic)) == once


# ---------------------------------------------------------------------------------------------
# Verification and diagnostics


def test_verify_passes_on_valid_ir() -> None:
    module = mlc.parse(SIMPLE)
    assert module.verify() is None
    assert mlc.verify(module) is None


def test_verify_error_is_located() -> None:
    text = "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  return\n}\n"
    module = mlc.parse(text, filename="v.mlir")
    with pytest.raises(mlc.VerifyError) as info:
        module.verify()
    diag = info.value.diagnostics[0]
    assert diag.severity == "error"
    loc = diag.file_loc
    assert (loc.filename, loc.line, loc.col) == ("v.mlir", 3, 3)
    assert diag.message == "'func.return' op has 0 operands, but enclosing function (@f) returns 1"


def test_verify_error_from_a_trait_is_located_at_its_op() -> None:
    text = (
        "func.func @f(%a: i32, %b: i64) {\n"
        '  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32\n'
        "  return\n"
        "}\n"
    )
    module = mlc.parse(text, filename="t.mlir")
    with pytest.raises(mlc.VerifyError) as info:
        mlc.verify(module)
    diag = info.value.diagnostics[0]
    assert (diag.file_loc.line, diag.file_loc.col) == (2, 8)
    assert diag.message.startswith("'arith.addi' op ")
    assert diag.message == "'arith.addi' op requires the same type for all operands and results"


def test_verify_error_rendering() -> None:
    text = "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  return\n}\n"
    module = mlc.parse(text, filename="v.mlir")
    with pytest.raises(mlc.VerifyError) as info:
        module.verify()
    assert str(info.value) == (
        "v.mlir:3:3: error: 'func.return' op has 0 operands, but enclosing function (@f) returns 1\n"  # noqa: E501
        "  return\n"
        "  ^"
    )


def test_error_classes() -> None:
    assert issubclass(mlc.ParseError, mlc.DiagnosticError)
    assert issubclass(mlc.VerifyError, mlc.DiagnosticError)
    assert not issubclass(mlc.ParseError, mlc.VerifyError)
    assert issubclass(mlc.DiagnosticError, Exception)


def test_parse_error_carries_a_located_diagnostic() -> None:
    text = "func.func @f() {\n  %0 = arith.addi %x, %x : i32\n  return\n}\n"
    with pytest.raises(mlc.ParseError) as info:
        mlc.parse(text, filename="t.mlir")
    err = info.value
    assert isinstance(err, mlc.DiagnosticError)
    diag = err.diagnostics[0]
    assert diag.severity == "error"
    assert (diag.file_loc.filename, diag.file_loc.line, diag.file_loc.col) == ("t.mlir", 2, 19)
    assert diag.message == "use of undeclared SSA value name"


def test_parse_error_rendering() -> None:
    text = "func.func @f() {\n  %0 = arith.addi %x, %x : i32\n  return\n}\n"
    with pytest.raises(mlc.ParseError) as info:
        mlc.parse(text, filename="t.mlir")
    assert info.value.render() == (
        "t.mlir:2:19: error: use of undeclared SSA value name\n"
        "  %0 = arith.addi %x, %x : i32\n"
        "                  ^"
    )
    assert str(info.value) == info.value.render()


@pytest.mark.parametrize(
    "text, line, col, message",
    [
        ('"foo.bar"() : () -> ()\n', 1, 10, None),  # unregistered without the flag: MLIR's column
        (
            "func.func @f() {\n  %0 = arith.constant 1 : i32\n  %0 = arith.constant 2 : i32\n  return\n}\n",  # noqa: E501
            3,
            3,
            "redefinition of SSA value '%0'",
        ),
        (
            "func.func @f() -> i32 {\n  %0 = arith.constant 1 : i32\n  return %0 : i64\n}\n",
            3,
            10,
            "use of value '%0' expects different type than prior uses: 'i64' vs 'i32'",
        ),
        (
            '"test.op"() {a = 1, a = 2} : () -> ()\n',
            1,
            21,
            "duplicate key 'a' in dictionary attribute",
        ),
    ],
)
def test_parse_errors_are_located_like_mlir(
    text: str, line: int, col: int, message: str | None
) -> None:
    with pytest.raises(mlc.ParseError) as info:
        mlc.parse(text, filename="e.mlir", allow_unregistered=text.startswith('"test'))
    diag = info.value.diagnostics[0]
    assert (diag.file_loc.line, diag.file_loc.col) == (line, col)
    if message is not None:
        assert diag.message == message


def test_unterminated_region_is_an_error() -> None:
    with pytest.raises(mlc.ParseError) as info:
        mlc.parse("func.func @f() {\n  return\n", filename="e.mlir")
    assert info.value.diagnostics[0].file_loc.line in (2, 3)


def test_undefined_forward_reference_is_an_error() -> None:
    text = "func.func @f() {\n  return\n^bb1:\n  %1 = arith.addi %2, %2 : i32\n  return\n}\n"
    with pytest.raises(mlc.ParseError) as info:
        mlc.parse(text)
    diag = info.value.diagnostics[0]
    assert (diag.file_loc.line, diag.file_loc.col) == (4, 19)
    assert diag.message == "use of undeclared SSA value name"


def test_parse_error_is_not_a_verify_error() -> None:
    with pytest.raises(mlc.ParseError):
        mlc.parse("func.func @f(")
    try:
        mlc.parse("func.func @f(")
    except mlc.VerifyError:  # pragma: no cover - the assertion is that this branch is not taken
        pytest.fail("a parse error was raised as a VerifyError")
    except mlc.ParseError:
        pass


def test_parse_file_with_invalid_utf8(tmp_path: Path) -> None:
    """MLIR reads any bytes in a string literal; mlc must at least not fail with a Python error."""
    path = tmp_path / "bytes.mlir"
    path.write_bytes(b'"test.op"() {s = "\xff"} : () -> ()\n')
    try:
        module = mlc.parse_file(str(path), allow_unregistered=True)
    except mlc.ParseError:
        return
    op = module.regions[0].blocks[0].first
    # The same attribute as the escaped spelling gives.
    escaped = mlc.parse('"test.op"() {s = "\\FF"} : () -> ()', allow_unregistered=True)
    assert op.get_attr("s") is escaped.regions[0].blocks[0].first.get_attr("s")


def test_diagnostic_shows_invalid_utf8_as_replacement_characters(tmp_path: Path) -> None:
    path = tmp_path / "junk.mlir"
    path.write_bytes(b"\xff\xfe garbage\n")
    with pytest.raises(mlc.ParseError) as info:
        mlc.parse_file(str(path))
    text = str(info.value)
    assert "\ufffd\ufffd garbage" in text and "\udcff" not in text


def test_columns_count_bytes_like_mlir() -> None:
    """MLIR's columns are byte offsets: a non-ASCII character before a token shifts it."""
    text = 'func.func @f(%a: i32 {test.s = "\u00e9"}, %b: i32) {\n  return\n}\n'
    module = mlc.parse(text, filename="u.mlir")
    func = module.regions[0].blocks[0].first
    b = func.regions[0].blocks[0].arguments[1]
    # `%b` is character 38 but byte 39 ("é" is two bytes in UTF-8); iree-opt says 1:39.
    assert b.location == FileLineColLoc("u.mlir", 1, 39)
