"""Affine expressions, maps and integer sets: uniquing, simplification, MLIR-exact printing,
parsing with located errors, and properties against a reference evaluator (and MLIR if present).

Expected strings marked "MLIR" were printed by MLIR itself (iree-base-compiler 3.13 bindings).
"""

import copy
import pickle
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mlc.ir.affine import (
    ADD,
    CEILDIV,
    FLOORDIV,
    MOD,
    MUL,
    AffineBinaryExpr,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineParseError,
    AffineSymbolExpr,
    IntegerSet,
    const,
    dim,
    parse_affine_expr,
    parse_affine_map,
    parse_affine_map_of_ssa_ids,
    parse_affine_map_or_set,
    parse_affine_map_or_set_at,
    parse_integer_set,
    simplify_affine_expr,
    sym,
)

d0, d1, d2 = dim(0), dim(1), dim(2)
s0, s1 = sym(0), sym(1)


# ---------------------------------------------------------------------------------------------
# Construction and uniquing


def test_leaves_are_uniqued() -> None:
    assert dim(3) is dim(3) is AffineDimExpr(3)
    assert sym(2) is AffineSymbolExpr(2)
    assert const(-5) is AffineConstantExpr(-5)
    assert dim(0) is not sym(0)
    assert (d0.position, s1.position, const(7).value) == (0, 1, 7)


def test_binary_expressions_are_uniqued() -> None:
    a = (d0 + s0).floordiv(4)
    b = (d0 + s0).floordiv(4)
    assert a is b
    assert a == b and hash(a) == hash(b)
    assert a != (d0 + s0).ceildiv(4)
    assert AffineBinaryExpr(ADD, d0, s0) is d0 + s0
    assert type(a) is AffineBinaryExpr and a.kind == FLOORDIV and a.lhs is d0 + s0


def test_binary_constructor_simplifies() -> None:
    assert AffineBinaryExpr(ADD, d0, 0) is d0
    assert AffineBinaryExpr(MUL, 3, 4) is const(12)
    assert AffineBinaryExpr(MOD, d0, 1) is const(0)
    assert AffineBinaryExpr(CEILDIV, d0, 1) is d0
    with pytest.raises(ValueError, match="unknown affine binary kind"):
        AffineBinaryExpr("pow", d0, 2)


def test_expressions_are_immutable() -> None:
    e = d0 + 1
    with pytest.raises(AttributeError):
        e.lhs = d1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        d0.position = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del e.rhs


def test_copy_and_pickle_keep_identity() -> None:
    e = (d0 * s0 + 3) % 5
    m = AffineMap(1, 1, (e,))
    s = IntegerSet(1, 1, (e,), (False,))
    for obj in (e, m, s, d0, const(9)):
        assert copy.copy(obj) is obj
        assert copy.deepcopy(obj) is obj
        assert pickle.loads(pickle.dumps(obj)) is obj


def test_bad_leaves_are_rejected() -> None:
    with pytest.raises(ValueError):
        dim(-1)
    with pytest.raises(ValueError):
        sym(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        const("3")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        const(True)


def test_operators_wrap_ints_and_mirror_mlir() -> None:
    assert d0 - d1 is d0 + d1 * -1
    assert -d0 is d0 * -1
    assert 3 + d0 is d0 + 3
    assert 2 * d0 is d0 * 2
    assert 5 - d0 is d0 * -1 + 5
    assert d0 // 4 is d0.floordiv(4)
    assert 7 % s0 is const(7) % s0
    assert 8 // s0 is const(8).floordiv(s0)
    assert (d0 + 1) - 1 is d0
    with pytest.raises(TypeError):
        d0 + 1.5  # type: ignore[operator]
    with pytest.raises(TypeError):
        d0.floordiv("2")  # type: ignore[arg-type]


def test_product_of_dims_is_representable_but_not_affine() -> None:
    e = d1 * d0  # MLIR asserts here; mlc keeps it (canonically ordered) but parses never make it
    assert type(e) is AffineBinaryExpr and e.kind == MUL
    assert str(e) == "d0 * d1"
    assert not e.is_pure_affine() and not e.is_symbolic_or_constant()
    assert (s0 * s1).is_symbolic_or_constant() and not (s0 * s1).is_pure_affine()
    assert (d0 * 4 + s0).is_pure_affine()
    assert not d0.floordiv(s0).is_pure_affine()
    assert not (d0 * s0).is_pure_affine()


def test_largest_known_divisor_and_occurrence() -> None:
    assert (d0 * 6 + d1 * 4).largest_known_divisor() == 2
    assert (d0 * 6).floordiv(3).largest_known_divisor() == 2
    assert (d0 * 4 * s0).largest_known_divisor() == 4
    assert (d0 * 8 + 12).is_multiple_of(4)
    assert not (d0 * 8 + 12).is_multiple_of(8)
    e = (d0 + s1 * 2).floordiv(3)
    assert e.is_function_of_dim(0) and not e.is_function_of_dim(1)
    assert e.is_function_of_symbol(1) and not e.is_function_of_symbol(0)


# ---------------------------------------------------------------------------------------------
# Simplification and printing: (input text, MLIR's print of the parsed map).

MLIR_PRINTS = [
    # parenthesization and subtraction forms
    ("(d0, d1) -> ((d0 + d1) floordiv 2)", "(d0, d1) -> ((d0 + d1) floordiv 2)"),
    ("(d0)[s0] -> (d0 * (s0 + 1))", "(d0)[s0] -> (d0 * (s0 + 1))"),
    ("(d0, d1) -> (d0 - d1)", "(d0, d1) -> (d0 - d1)"),
    ("(d0) -> (-d0)", "(d0) -> (-d0)"),
    ("(d0) -> (d0 - 2)", "(d0) -> (d0 - 2)"),
    ("(d0) -> ((d0 floordiv 4) * 2)", "(d0) -> ((d0 floordiv 4) * 2)"),
    ("(d0, d1) -> (d0 - d1 * 3)", "(d0, d1) -> (d0 - d1 * 3)"),
    ("(d0, d1) -> (d0 - (d0 + d1))", "(d0, d1) -> (d0 - (d0 + d1))"),
    ("(d0) -> (-(d0 floordiv 2))", "(d0) -> (-(d0 floordiv 2))"),
    ("(d0) -> ((-d0) floordiv 2)", "(d0) -> ((-d0) floordiv 2)"),
    ("(d0)[s0] -> (d0 * (-s0))", "(d0)[s0] -> (d0 * (-s0))"),
    ("(d0)[s0, s1] -> ((d0 * s0) * s1)", "(d0)[s0, s1] -> ((d0 * s0) * s1)"),
    ("(d0)[s0, s1] -> (d0 * (s0 * s1))", "(d0)[s0, s1] -> (d0 * (s0 * s1))"),
    ("(d0, d1) -> (d0 - d1 floordiv 2)", "(d0, d1) -> (d0 - d1 floordiv 2)"),
    ("(d0, d1) -> (d0 + (d1 mod 3) * 2)", "(d0, d1) -> (d0 + (d1 mod 3) * 2)"),
    ("(d0, d1) -> ((d0 + d1) mod 3 - 1)", "(d0, d1) -> ((d0 + d1) mod 3 - 1)"),
    ("(d0)[s0] -> (s0 - d0)", "(d0)[s0] -> (-d0 + s0)"),
    ("(d0, d1) -> (d0 ceildiv 2 + d1 mod 3)", "(d0, d1) -> (d0 ceildiv 2 + d1 mod 3)"),
    ("(d0) -> ((d0 mod 5) floordiv 2)", "(d0) -> ((d0 mod 5) floordiv 2)"),
    ("(d0)[s0] -> (d0 floordiv (s0 + 2))", "(d0)[s0] -> (d0 floordiv (s0 + 2))"),
    ("(d0)[s0] -> ((d0 + s0) * -3)", "(d0)[s0] -> ((d0 + s0) * -3)"),
    ("(d0, d1, d2) -> (d0 + d1 * 2 - d2 * 3 + 4)", "(d0, d1, d2) -> (d0 + d1 * 2 - d2 * 3 + 4)"),
    ("(d0)[s0] -> ((d0 - s0) * (s0 - 1))", "(d0)[s0] -> ((d0 - s0) * (s0 - 1))"),
    ("(d0) -> (5 - d0)", "(d0) -> (-d0 + 5)"),
    ("() -> (-7)", "() -> (-7)"),
    ("(d0)[s0] -> (-(d0 * s0))", "(d0)[s0] -> (-(d0 * s0))"),
    # folding and reassociation
    ("(d0) -> (d0 + 2 + 3)", "(d0) -> (d0 + 5)"),
    ("(d0) -> (d0 * 2 * 3)", "(d0) -> (d0 * 6)"),
    ("(d0) -> ((d0 * 4) floordiv 2)", "(d0) -> (d0 * 2)"),
    ("(d0) -> ((d0 * 4) mod 2)", "(d0) -> (0)"),
    ("(d0) -> (d0 floordiv 1)", "(d0) -> (d0)"),
    ("(d0) -> (d0 mod 1)", "(d0) -> (0)"),
    ("(d0) -> (d0 ceildiv 1)", "(d0) -> (d0)"),
    ("(d0) -> (d0 * 1)", "(d0) -> (d0)"),
    ("(d0) -> (d0 * 0)", "(d0) -> (0)"),
    ("(d0) -> (d0 + 0)", "(d0) -> (d0)"),
    ("(d0) -> (3 + d0)", "(d0) -> (d0 + 3)"),
    ("(d0) -> (3 * d0)", "(d0) -> (d0 * 3)"),
    ("() -> (7 floordiv 2)", "() -> (3)"),
    ("() -> (-7 floordiv 2)", "() -> (-4)"),
    ("() -> (7 ceildiv 2)", "() -> (4)"),
    ("() -> (-7 ceildiv 2)", "() -> (-3)"),
    ("() -> (-7 mod 3)", "() -> (2)"),
    ("() -> (7 mod 3)", "() -> (1)"),
    ("() -> (7 floordiv -2)", "() -> (-4)"),
    ("() -> (7 mod -2)", "() -> (7 mod -2)"),
    ("() -> (7 floordiv 0)", "() -> (7 floordiv 0)"),
    ("(d0) -> ((d0 * 6) ceildiv 3)", "(d0) -> (d0 * 2)"),
    ("(d0, d1) -> ((d0 * 4 + d1) floordiv 4)", "(d0, d1) -> (d0 + d1 floordiv 4)"),
    ("(d0, d1) -> ((d0 * 4 + d1) mod 4)", "(d0, d1) -> (d1 mod 4)"),
    ("(d0) -> ((d0 mod 8) mod 4)", "(d0) -> (d0 mod 4)"),
    ("(d0) -> ((d0 mod 4) mod 8)", "(d0) -> ((d0 mod 4) mod 8)"),
    ("(d0) -> (d0 - (d0 floordiv 4) * 4)", "(d0) -> (d0 mod 4)"),
    ("(d0)[s0] -> (d0 - (d0 floordiv s0) * s0)", "(d0)[s0] -> (d0 mod s0)"),
    ("(d0, d1) -> ((d0 + d1) - (d1 floordiv 4) * 4)", "(d0, d1) -> (d0 + d1 mod 4)"),
    ("(d0) -> (d0 * 2 + d0 * 3)", "(d0) -> (d0 * 5)"),
    ("(d0) -> (d0 + d0)", "(d0) -> (d0 * 2)"),
    ("(d0) -> (d0 - d0)", "(d0) -> (0)"),
    ("(d0, d1) -> (d1 + d0)", "(d0, d1) -> (d0 + d1)"),
    ("(d0)[s0, s1] -> (s1 + s0)", "(d0)[s0, s1] -> (s0 + s1)"),
    ("(d0)[s0, s1] -> (s1 * s0)", "(d0)[s0, s1] -> (s0 * s1)"),
    ("(d0)[s0] -> (s0 + d0)", "(d0)[s0] -> (d0 + s0)"),
    ("(d0, d1) -> (d0 + 2 + d1)", "(d0, d1) -> (d0 + d1 + 2)"),
    ("(d0)[s0] -> ((d0 * 2) * s0)", "(d0)[s0] -> ((d0 * s0) * 2)"),
    ("(d0)[s0] -> (s0 floordiv s0)", "(d0)[s0] -> (1)"),
    ("(d0)[s0] -> (s0 mod s0)", "(d0)[s0] -> (0)"),
    ("(d0)[s0] -> ((d0 + s0) floordiv -1)", "(d0)[s0] -> (d0 floordiv -1 + s0 floordiv -1)"),
    ("(d0) -> ((d0 * 4) floordiv -2)", "(d0) -> (d0 * -2)"),
    ("(d0) -> (d0 mod -2)", "(d0) -> (d0 mod -2)"),
    ("(d0) -> (- -d0)", "(d0) -> (d0)"),
    ("(d0) -> (9223372036854775807 + 1)", "(d0) -> (9223372036854775807 + 1)"),
    ("(d0, d1) -> ((d0 + d1 * 8) floordiv 4)", "(d0, d1) -> (d0 floordiv 4 + d1 * 2)"),
    ("(d0, d1) -> ((d0 * 2 + d1 * 4) mod 2)", "(d0, d1) -> (0)"),
    # integer sets
    ("(d0)[s0] : (d0 - 10 >= 0, s0 - d0 == 0)", "(d0)[s0] : (d0 - 10 >= 0, -d0 + s0 == 0)"),
    ("(d0, d1) : (d0 <= d1, d0 >= 0, d1 == 5)", "(d0, d1) : (d1 - d0 >= 0, d0 >= 0, d1 - 5 == 0)"),
    ("(d0) : ()", "(d0) : (0 == 0)"),
    ("(d0)[s0] : (d0 floordiv 2 >= s0 mod 4)", "(d0)[s0] : (d0 floordiv 2 - s0 mod 4 >= 0)"),
    ("(d0) : (d0 > = 0, d0 = = 1)", "(d0) : (d0 >= 0, d0 - 1 == 0)"),
    # identifiers are whatever the text binds
    ("(i, j)[N] -> (i + N, j floordiv 4)", "(d0, d1)[s0] -> (d0 + s0, d1 floordiv 4)"),
    ("(x, y) -> (x mod 2 + y)", "(d0, d1) -> (d0 mod 2 + d1)"),
    ("(mod) -> (mod mod 2)", "(d0) -> (d0 mod 2)"),
    ("(d0)  [s0]  ->  ( d0 // comment\n )", "(d0)[s0] -> (d0)"),
]


@pytest.mark.parametrize(("text", "expected"), MLIR_PRINTS)
def test_parse_simplify_and_print_like_mlir(text: str, expected: str) -> None:
    result = parse_affine_map_or_set(text)
    assert str(result) == expected
    assert parse_affine_map_or_set(str(result)) is result


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        (d0 + s0, "d0 + s0"),
        (d0 * 4, "d0 * 4"),
        (d0.floordiv(4), "d0 floordiv 4"),
        (d0.ceildiv(2), "d0 ceildiv 2"),
        (d0 % 2, "d0 mod 2"),
        (d0 - d1, "d0 - d1"),
        (d0 - 2, "d0 - 2"),
        (d0 + d1 * -4, "d0 - d1 * 4"),
        (d0 - (d1 + d2), "d0 - (d1 + d2)"),
        ((d0 + d1) * s0, "(d0 + d1) * s0"),
        (d0 * (s0 + s1), "d0 * (s0 + s1)"),
        ((d0 % 4).floordiv(s0), "(d0 mod 4) floordiv s0"),
        (-(d0 + d1), "-(d0 + d1)"),
        (d1 * s0 * -1, "-(d1 * s0)"),
        ((d0 - 1).ceildiv(s0 + 1), "(d0 - 1) ceildiv (s0 + 1)"),
    ],
)
def test_print_api_built_expressions(expr: AffineExpr, expected: str) -> None:
    assert str(expr) == expected
    assert repr(expr) == f"AffineExpr({expected!r})"


def test_simplification_rules_on_construction() -> None:
    assert (d0 + 2) + 3 is d0 + 5
    assert (d0 * 2) * 3 is d0 * 6
    assert (d0 * 4).floordiv(2) is d0 * 2
    assert (d0 * 4) % 2 is const(0)
    assert d0.floordiv(1) is d0 and d0 % 1 is const(0)
    assert d0 * 1 is d0 and d0 * 0 is const(0) and d0 + 0 is d0
    assert const(-7).floordiv(2) is const(-4)
    assert const(-7).ceildiv(2) is const(-3)
    assert const(-7) % 3 is const(2)
    assert (d0 + 2) + d1 is (d0 + d1) + 2
    assert (d0 * 2) * s0 is (d0 * s0) * 2
    assert d0 + d0.floordiv(4) * -4 is d0 % 4


def test_sums_stay_left_nested_so_printing_is_lossless() -> None:
    # MLIR would keep `d0 + (d1 + d2)` (printed `d0 + d1 + d2`, which parses left-nested).
    right = d0 + (d1 + d2)
    assert right is (d0 + d1) + d2
    assert type(right) is AffineBinaryExpr and right.rhs is d2
    assert str(right) == "d0 + d1 + d2"


def test_format_with_custom_names() -> None:
    e = (d0 + s0 * 2).floordiv(4) - d1
    assert e.format(["%i", "%j"], ["symbol(%n)"]) == "(%i + symbol(%n) * 2) floordiv 4 - %j"
    assert e.format() == str(e)


# ---------------------------------------------------------------------------------------------
# Affine maps


def test_map_uniquing_printing_and_counts() -> None:
    m = AffineMap(2, 1, [d0 + s0, d1.floordiv(4)])
    assert m is AffineMap(2, 1, (d0 + s0, d1.floordiv(4)))
    assert m is not AffineMap(3, 1, (d0 + s0, d1.floordiv(4)))
    assert str(m) == "(d0, d1)[s0] -> (d0 + s0, d1 floordiv 4)"
    assert m.print_attr() == "affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 4)>"
    assert repr(m) == m.print_attr()
    assert (m.num_dims, m.num_symbols, m.num_results, m.num_inputs) == (2, 1, 2, 3)
    assert str(AffineMap(0, 2, ())) == "()[s0, s1] -> ()"
    with pytest.raises(AttributeError):
        m.num_dims = 4  # type: ignore[misc]


def test_map_validates_its_results() -> None:
    with pytest.raises(ValueError, match="beyond"):
        AffineMap(1, 0, (d1,))
    with pytest.raises(ValueError, match="beyond"):
        AffineMap(1, 0, (s0,))
    with pytest.raises(TypeError):
        AffineMap(1, 0, (0,))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        AffineMap(-1, 0, ())


def test_map_constructors() -> None:
    assert str(AffineMap.identity(3)) == "(d0, d1, d2) -> (d0, d1, d2)"
    assert str(AffineMap.constant(-4)) == "() -> (-4)"
    assert str(AffineMap.permutation([2, 0, 1])) == "(d0, d1, d2) -> (d2, d0, d1)"
    assert str(AffineMap.minor_identity(4, 2)) == "(d0, d1, d2, d3) -> (d2, d3)"
    with pytest.raises(ValueError):
        AffineMap.permutation([0, 0, 1])
    with pytest.raises(ValueError):
        AffineMap.minor_identity(2, 3)


def test_map_predicates() -> None:
    assert AffineMap.identity(2).is_identity()
    assert AffineMap(2, 1, (d0, d1)).is_identity()  # symbols are ignored, as in MLIR
    assert not AffineMap(2, 0, (d1, d0)).is_identity()
    assert AffineMap(2, 0, (d1, d0)).is_permutation()
    assert not AffineMap(3, 0, (d1, d0)).is_permutation()
    assert AffineMap(3, 0, (d2, d0)).is_projected_permutation()
    assert not AffineMap(3, 0, (d2, d2)).is_projected_permutation()
    assert not AffineMap(3, 0, (d2, const(0))).is_projected_permutation()
    assert AffineMap(3, 0, (d2, const(0))).is_projected_permutation(allow_zero_in_results=True)
    assert not AffineMap(2, 1, (d0,)).is_projected_permutation()
    assert not AffineMap(1, 0, (d0 + 1,)).is_projected_permutation()
    assert AffineMap(1, 0, (const(3), const(4))).is_constant()
    assert AffineMap(1, 0, (const(3), const(4))).constant_results() == (3, 4)
    assert not AffineMap(1, 0, (d0, const(4))).is_constant()
    assert AffineMap.constant(5).is_single_constant()
    assert AffineMap.minor_identity(3, 2).is_minor_identity()
    assert not AffineMap(3, 0, (d0, d2)).is_minor_identity()
    assert AffineMap(0, 0, ()).is_empty() and not AffineMap(1, 0, ()).is_empty()
    assert AffineMap(2, 1, (d1 + s0,)).is_function_of_dim(1)
    assert not AffineMap(2, 1, (d1 + s0,)).is_function_of_dim(0)
    assert AffineMap(2, 1, (d1 + s0,)).is_function_of_symbol(0)
    with pytest.raises(ValueError):
        AffineMap(1, 0, (d0,)).constant_results()


def test_compose_follows_mlir() -> None:
    # MLIR: (d0, d1)[s0] -> (d0 + s0, d1) composed with (d0)[s0] -> (d0 * 2, d0 + s0):
    # self's symbols come first, the other map's symbols are renumbered after them.
    outer = parse_affine_map("(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)")
    inner = parse_affine_map("(d0)[s0] -> (d0 * 2, d0 + s0)")
    composed = outer.compose(inner)
    assert str(composed) == "(d0)[s0, s1] -> (d0 * 2 + s0, (d0 + s1) floordiv 2)"
    assert AffineMap.identity(2).compose(inner) is AffineMap(1, 1, inner.results)
    with pytest.raises(ValueError, match="cannot compose"):
        inner.compose(inner)
    assert (d0 + d1).compose(AffineMap(1, 0, (d0 * 2, d0 + 3))) is d0 * 3 + 3


def test_replace_dims_and_symbols() -> None:
    m = parse_affine_map("(d0, d1)[s0] -> (d0 + s0, d1 * s0)")
    r = m.replace_dims_and_symbols([d1, d0 + 1], [const(4)], 2, 0)
    assert str(r) == "(d0, d1) -> (d1 + 4, (d0 + 1) * 4)"  # products are not distributed
    # Positions past the replacement lists stay as they are.
    assert (d0 + d2).replace_dims_and_symbols([d1]) is d1 + d2


def test_evaluate_uses_floor_semantics() -> None:
    m = parse_affine_map(
        "(d0, d1)[s0] -> (d0 floordiv 4, d0 ceildiv 4, d0 mod 4, d0 * s0 - d1, (d0 - d1) mod s0)"
    )
    assert m.evaluate([-7, 2], [3]) == (-2, -1, 1, -23, 0)
    assert m.evaluate((9, -1), (5,)) == (2, 3, 1, 46, 0)
    assert (d0 - 3 * s0).evaluate([1], [2]) == -5
    with pytest.raises(ValueError, match="takes 2 dims and 1 symbols"):
        m.evaluate([1], [2])
    with pytest.raises(ZeroDivisionError):
        parse_affine_map("(d0)[s0] -> (d0 mod s0)").evaluate([3], [0])


def test_sub_maps_and_dropped_results() -> None:
    m = parse_affine_map("(d0, d1) -> (d0, d1 + 1, d0 * 2)")
    assert str(m.get_sub_map([2, 0])) == "(d0, d1) -> (d0 * 2, d0)"
    assert str(m.drop_results([0, 2])) == "(d0, d1) -> (d1 + 1)"
    assert m.drop_results([]) is m


@pytest.mark.parametrize(
    ("text", "expected"),
    [  # expected: MLIR's simplifyAffineExpr on each result
        ("(d0, d1) -> (d0 + d1 - d0)", "d1"),
        ("(d0) -> ((d0 * 2 + 1) mod 4)", "d0 * 2 - ((d0 * 2 + 1) floordiv 4) * 4 + 1"),
        ("(d0) -> (d0 mod 4 + (d0 floordiv 4) * 4)", "d0"),
        ("(d0, d1) -> ((d0 * 6 + d1 * 4) floordiv 2)", "d0 * 3 + d1 * 2"),
        ("(d0)[s0] -> (d0 * s0 + d0 * s0)", "(d0 * s0) * 2"),
        ("(d0) -> ((d0 + 2) floordiv 4 + (d0 + 2) mod 4)", "d0 - ((d0 + 2) floordiv 4) * 3 + 2"),
        ("(d0, d1) -> ((d0 * 6 + d1 * 4 + 3) floordiv 4)", "(d0 * 6 + d1 * 4 + 3) floordiv 4"),
        ("(d0, d1)[s0] -> (d1 * 3 + s0 - d1 * 2 + d0 * 2 - s0)", "d0 * 2 + d1"),
        ("(d0) -> ((d0 floordiv 2) floordiv 3)", "(d0 floordiv 2) floordiv 3"),
        ("(d0) -> (d0 floordiv -2)", "d0 floordiv -2"),
        (
            "(d0) -> (((d0 mod 6) * 2) mod 4)",
            "d0 * 2 - (d0 floordiv 6) * 12 - ((d0 mod 6) floordiv 2) * 4",
        ),
        ("(d0, d1) -> (d0 * 2 + d1 * 3 - (d0 * 2 + d1 * 3))", "0"),
    ],
)
def test_simplify_matches_mlir(text: str, expected: str) -> None:
    m = parse_affine_map(text)
    simplified = m.simplify()
    assert str(simplified.results[0]) == expected
    assert simplified.simplify() is simplified


def test_simplify_rejects_out_of_range_identifiers() -> None:
    with pytest.raises(ValueError):
        simplify_affine_expr(d1 + 1, 1, 0)


def test_inverse_permutation() -> None:
    perm = AffineMap.permutation([2, 0, 1])
    inverse = perm.inverse_permutation()
    assert str(inverse) == "(d0, d1, d2) -> (d1, d2, d0)"
    assert perm.compose(inverse).is_identity() and inverse.compose(perm).is_identity()
    # A projected permutation covering every dim, as MLIR's inversePermutation allows.
    assert str(AffineMap(2, 0, (d1, d1, d0)).inverse_permutation()) == "(d0, d1, d2) -> (d2, d0)"
    assert AffineMap(0, 0, ()).inverse_permutation() is AffineMap(0, 0, ())
    with pytest.raises(ValueError):
        AffineMap(2, 0, (d0,)).inverse_permutation()
    with pytest.raises(ValueError):
        AffineMap(1, 1, (d0,)).inverse_permutation()


# ---------------------------------------------------------------------------------------------
# Integer sets


def test_integer_set_printing_and_uniquing() -> None:
    s = IntegerSet(1, 1, [d0 - 10, s0 - d0], [False, True])
    assert str(s) == "(d0)[s0] : (d0 - 10 >= 0, -d0 + s0 == 0)"
    assert s.print_attr() == "affine_set<(d0)[s0] : (d0 - 10 >= 0, -d0 + s0 == 0)>"
    assert s is IntegerSet(1, 1, (d0 - 10, s0 - d0), (False, True))
    assert parse_integer_set(str(s)) is s
    assert (s.num_constraints, s.num_equalities, s.num_inputs) == (2, 1, 2)


def test_integer_set_evaluate() -> None:
    s = parse_integer_set("(d0, d1)[s0] : (d0 >= 0, d0 <= s0 - 1, d1 mod 2 == 0)")
    assert s.evaluate([0, 4], [5])
    assert s.evaluate([4, -2], [5])
    assert not s.evaluate([5, 4], [5])
    assert not s.evaluate([-1, 4], [5])
    assert not s.evaluate([1, 3], [5])
    with pytest.raises(ValueError):
        s.evaluate([1], [5])


def test_integer_set_validation_and_empty_set() -> None:
    empty = IntegerSet.empty_set(2, 0)
    assert str(empty) == "(d0, d1) : (1 == 0)"
    assert empty.is_empty_set() and not empty.evaluate([0, 0])
    assert not parse_integer_set("(d0) : (d0 >= 0)").is_empty_set()
    with pytest.raises(ValueError, match="at least one constraint"):
        IntegerSet(1, 0, (), ())
    with pytest.raises(ValueError, match="one eq flag per constraint"):
        IntegerSet(1, 0, (d0,), (True, False))
    with pytest.raises(TypeError):
        IntegerSet(1, 0, (d0,), (1,))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        IntegerSet(1, 0, (d1,), (True,))


# ---------------------------------------------------------------------------------------------
# Parse errors: (text, 1-based column in "affine_map<text>" / "affine_set<text>", message),
# exactly as MLIR reports them.

MLIR_ERRORS = [
    (
        "(d0, d1) -> (d0 * d1)",
        28,
        "non-affine expression: at least one of the multiply operands has to be either a "
        "constant or symbolic",
    ),
    (
        "(d0, d1) -> (d0 floordiv d1)",
        28,
        "non-affine expression: right operand of floordiv has to be either a constant or symbolic",
    ),
    (
        "(d0) -> (d0 mod d0)",
        24,
        "non-affine expression: right operand of mod has to be either a constant or symbolic",
    ),
    (
        "(d0) -> (d0 ceildiv d0)",
        24,
        "non-affine expression: right operand of ceildiv has to be either a constant or symbolic",
    ),
    (
        "(d0)[s0] -> ((d0 + 1) * (d0 + s0))",
        34,
        "non-affine expression: at least one of the multiply operands has to be either a "
        "constant or symbolic",
    ),
    ("(d0) -> (d0 +)", 25, "missing right operand of binary operator"),
    ("(d0) -> (* d0)", 21, "missing left operand of binary operator"),
    ("(d0) -> (  * d0)", 23, "missing left operand of binary operator"),
    ("(d0) -> (d0 *  )", 27, "missing right operand of binary operator"),
    ("(d0) -> (x)", 21, "use of undeclared identifier"),
    ("(d0) -> (d0 - floordiv 2)", 25, "use of undeclared identifier"),
    ("(d0) -> (d0 + // c\n  x)", 25, "use of undeclared identifier"),
    ("(d0) -> (())", 22, "no expression inside parentheses"),
    ("(d0) -> ( ( ) )", 24, "no expression inside parentheses"),
    ("(d0) -> ((d0 ]", 24, "expected ')'"),
    ("(d0, d0) -> ()", 17, "redefinition of identifier 'd0'"),
    ("(d0)[s0, d0] -> (d0)", 21, "redefinition of identifier 'd0'"),
    ("(d0) -> (99999999999999999999)", 21, "constant too large for index"),
    ("(d0) -> (d0 + 9223372036854775809)", 26, "constant too large for index"),
    ("(d0) x", 16, "expected '->' or ':'"),
    ("(d0 -> (d0)", 15, "expected ')' in dimensional identifier list"),
    ("(d0)[s0 -> (d0)", 19, "expected ']' in symbol list"),
    ("(d0) -> (d0", 23, "expected ')' in affine map range"),
    ("(d0) -> (d0 2)", 23, "expected ')' in affine map range"),
    ("(d0) -> d0", 19, "expected '(' in affine map range"),
    ("(d0) -> (d0,)", 24, "expected affine expression"),
    ("(d0) -> (-  )", 24, "expected affine expression"),
    ("(d0, 1) -> (d0)", 16, "expected bare identifier"),
    ("(d0)[ 1] -> ()", 17, "expected bare identifier"),
    ("(d0) -> (d0 + %x)", 25, "unexpected ssa identifier"),
    (
        "(d0) : (d0)",
        22,
        "expected '== affine-expr' or '>= affine-expr' at end of affine constraint",
    ),
    (
        "(d0) : (d0 > 0)",
        25,
        "expected '== affine-expr' or '>= affine-expr' at end of affine constraint",
    ),
    ("(d0) :  d0", 18, "expected '(' in integer set constraint list"),
    ("(d0) : (d0 >= )", 26, "expected affine expression"),
]


@pytest.mark.parametrize(("text", "column", "message"), MLIR_ERRORS)
def test_parse_errors_match_mlir(text: str, column: int, message: str) -> None:
    offset = len("affine_map<")  # == len("affine_set<")
    with pytest.raises(AffineParseError) as info:
        parse_affine_map_or_set(text, offset)
    assert info.value.message == message
    assert str(info.value) == message
    assert info.value.position == column - 1


def test_wrong_token_errors_back_up_across_lines() -> None:
    # MLIR reports a missing token at the end of the previous line (here 2:10).
    text = "(d0)\n -> (d0 +\n   x)"
    with pytest.raises(AffineParseError) as info:
        parse_affine_map(text)
    assert info.value.position == text.index("+") + 1


def test_literal_limits_follow_mlir() -> None:
    # MLIR accepts 2**63 (wrapping to -2**63) so that INT64_MIN can be written.
    assert str(parse_affine_map("(d0) -> (9223372036854775808)")) == (
        "(d0) -> (-9223372036854775808)"
    )
    assert str(parse_affine_map("(d0) -> (0x10 + d0)")) == "(d0) -> (d0 + 16)"


def test_map_and_set_specific_entry_points() -> None:
    with pytest.raises(AffineParseError, match="expected AffineMap, but got IntegerSet") as info:
        parse_affine_map("(d0) : (d0 >= 0)", offset=7)
    assert info.value.position == 7
    with pytest.raises(AffineParseError, match="expected IntegerSet, but got AffineMap"):
        parse_integer_set("(d0) -> (d0)")
    with pytest.raises(AffineParseError, match="unexpected text after affine map") as info:
        parse_affine_map("(d0) -> (d0) )", offset=100)
    assert info.value.position == 113


def test_parse_prefix_for_the_ir_parser() -> None:
    text = "#map = affine_map<(d0)[s0] -> (d0 + s0)  > // tail"
    start = text.index("<") + 1
    result, end = parse_affine_map_or_set_at(text, start)
    assert result is AffineMap(1, 1, (d0 + s0,))
    assert text[end] == ">"
    text = "affine_set<(d0) : (d0 >= 0)>"
    result, end = parse_affine_map_or_set_at(text, len("affine_set<"))
    assert result is IntegerSet(1, 0, (d0,), (False,)) and end == len(text) - 1
    with pytest.raises(AffineParseError) as info:
        parse_affine_map_or_set_at("xx affine_map<(d0) -> (q)>", 14)
    assert info.value.position == 23


def test_parse_caches_are_sound() -> None:
    body = "(d0) -> (d0 floordiv 3)"
    first = parse_affine_map(body)
    assert parse_affine_map(body) is first
    assert parse_affine_map_or_set_at(f"affine_map<{body}>", 11) == (first, 11 + len(body))
    # A `>` inside a comment: the cache key stops early, so the parse must not be cached
    # under it; every call still sees the whole body.
    tricky = "(d0) -> (d0 // > not the end\n + 1) >"
    for _ in range(2):
        result, end = parse_affine_map_or_set_at(tricky, 0)
        assert str(result) == "(d0) -> (d0 + 1)" and end == len(tricky) - 1
    for _ in range(2):
        amap, dims, _, end = parse_affine_map_of_ssa_ids("[%i + 1]] tail", 0)
        assert str(amap) == "(d0) -> (d0 + 1)" and dims == ("%i",) and end == 8
    # Errors are never cached: positions follow each call's offset.
    for offset in (0, 50):
        with pytest.raises(AffineParseError) as info:
            parse_affine_map("(d0) -> (d1)", offset)
        assert info.value.position == offset + 9


def test_parse_standalone_expression() -> None:
    assert parse_affine_expr("i * 4 + N floordiv 2", 0, ["i"], ["N"]) is d0 * 4 + s0.floordiv(2)
    with pytest.raises(AffineParseError) as info:
        parse_affine_expr("i + j", 10, ["i"])
    assert info.value.position == 13  # a wrong-token error: just past the previous token


def test_parse_ssa_ids_like_affine_load() -> None:
    text = "affine.load %A[%i + 1, symbol(%n) * 2, %i + %j - symbol(%n)] : memref<?x?xf32>"
    start = text.index("[")
    amap, dims, syms, end = parse_affine_map_of_ssa_ids(text, start)
    assert str(amap) == "(d0, d1)[s0] -> (d0 + 1, s0 * 2, d0 + d1 - s0)"
    assert dims == ("%i", "%j") and syms == ("%n",)
    assert text[end] == ":"
    names = [r.format(dims, [f"symbol({s})" for s in syms]) for r in amap.results]
    assert ", ".join(names) == "%i + 1, symbol(%n) * 2, %i + %j - symbol(%n)"
    empty, dims, syms, end = parse_affine_map_of_ssa_ids("%B[] = x", 2)
    assert empty is AffineMap(0, 0, ()) and end == 5
    single, dims, _, _ = parse_affine_map_of_ssa_ids("%lb + 4", 0, "")
    assert str(single) == "(d0) -> (d0 + 4)" and dims == ("%lb",)
    paren, dims, _, _ = parse_affine_map_of_ssa_ids("(%a, %b#1 * 2)", 0, "(")
    assert str(paren) == "(d0, d1) -> (d0, d1 * 2)" and dims == ("%a", "%b#1")
    with pytest.raises(AffineParseError, match="non-affine"):
        parse_affine_map_of_ssa_ids("[%i * %j]")
    with pytest.raises(ValueError):
        parse_affine_map_of_ssa_ids("{%i}", 0, "{")


# ---------------------------------------------------------------------------------------------
# Properties: random semi-affine trees, built through the simplifying operators, checked against
# a direct evaluation of the unsimplified tree and for print/parse round trips.

Tree = tuple  # ("d", i) | ("s", i) | ("c", v) | (op, lhs, rhs) | ("neg", operand)

_leaf_sym = st.one_of(
    st.tuples(st.just("s"), st.integers(0, 2)),
    st.tuples(st.just("c"), st.integers(-9, 9)),
)
_leaf = st.one_of(_leaf_sym, st.tuples(st.just("d"), st.integers(0, 2)))
_divisor = st.one_of(st.tuples(st.just("c"), st.integers(-3, 9)), _leaf_sym)


def _extend(
    children: st.SearchStrategy[Tree], symbolic: st.SearchStrategy[Tree]
) -> st.SearchStrategy[Tree]:
    return st.one_of(
        st.tuples(st.sampled_from(["add", "sub"]), children, children),
        st.tuples(st.just("mul"), children, symbolic),
        st.tuples(st.just("mul"), symbolic, children),
        st.tuples(st.sampled_from(["floordiv", "ceildiv", "mod"]), children, _divisor),
        st.tuples(st.just("neg"), children),
    )


_sym_trees = st.recursive(_leaf_sym, lambda ch: _extend(ch, ch), max_leaves=6)
_trees = st.recursive(_leaf, lambda ch: _extend(ch, _sym_trees), max_leaves=14)


def _build(t: Tree) -> AffineExpr:
    op = t[0]
    if op == "d":
        return dim(t[1])
    if op == "s":
        return sym(t[1])
    if op == "c":
        return const(t[1])
    if op == "neg":
        return -_build(t[1])
    a, b = _build(t[1]), _build(t[2])
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op == "floordiv":
        return a.floordiv(b)
    if op == "ceildiv":
        return a.ceildiv(b)
    return a % b


def _reference(t: Tree, dims: list[int], syms: list[int]) -> int:
    op = t[0]
    if op == "d":
        return dims[t[1]]
    if op == "s":
        return syms[t[1]]
    if op == "c":
        return t[1]
    if op == "neg":
        return -_reference(t[1], dims, syms)
    a, b = _reference(t[1], dims, syms), _reference(t[2], dims, syms)
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op == "floordiv":
        return a // b
    if op == "ceildiv":
        return -(-a // b)
    return a % b


_values = st.lists(st.integers(-20, 20), min_size=3, max_size=3)


@settings(max_examples=300, deadline=None)
@given(_trees, _values, _values)
def test_simplified_expressions_evaluate_like_the_unsimplified_tree(
    tree: Tree, dims: list[int], syms: list[int]
) -> None:
    try:
        expected = _reference(tree, dims, syms)
    except ZeroDivisionError:
        assume(False)
    expr = _build(tree)
    assert expr.evaluate(dims, syms) == expected
    assert AffineMap(3, 3, (expr,)).evaluate(dims, syms) == (expected,)


@settings(max_examples=300, deadline=None)
@given(st.lists(_trees, min_size=1, max_size=3))
def test_print_parse_round_trip_is_identity(trees: list[Tree]) -> None:
    m = AffineMap(3, 3, tuple(_build(t) for t in trees))
    assert parse_affine_map(str(m)) is m
    eq_flags = tuple(i % 2 == 0 for i in range(len(trees)))
    s = IntegerSet(3, 3, m.results, eq_flags)
    assert parse_integer_set(str(s)) is s


@settings(max_examples=200, deadline=None)
@given(_trees, _values, _values)
def test_simplify_preserves_values(tree: Tree, dims: list[int], syms: list[int]) -> None:
    expr = _build(tree)
    try:
        expected = expr.evaluate(dims, syms)
    except ZeroDivisionError:
        assume(False)
    simplified = simplify_affine_expr(expr, 3, 3)
    assert simplified.evaluate(dims, syms) == expected
    assert parse_affine_map(str(AffineMap(3, 3, (simplified,)))).results[0] is simplified


_triples = st.lists(_trees, min_size=3, max_size=3)


@settings(max_examples=100, deadline=None)
@given(_triples, _triples, _values, _values, st.integers(-20, 20))
def test_compose_evaluates_as_function_composition(
    outer_trees: list[Tree], inner_trees: list[Tree], dims: list[int], syms: list[int], t: int
) -> None:
    outer = AffineMap(3, 3, tuple(_build(tree) for tree in outer_trees))
    # The inner map has one symbol: every symbol of its trees becomes s0.
    inner = AffineMap(3, 3, tuple(_build(tree) for tree in inner_trees))
    inner = inner.replace_dims_and_symbols([d0, d1, d2], [s0, s0, s0], 3, 1)
    try:
        expected = outer.evaluate(inner.evaluate(dims, [t]), syms)
    except ZeroDivisionError:
        assume(False)
    composed = outer.compose(inner)
    assert composed.num_dims == 3 and composed.num_symbols == 4
    assert composed.evaluate(dims, [*syms, t]) == expected


# ---------------------------------------------------------------------------------------------
# Differential check against MLIR itself when its Python bindings are installed.


def _random_text(r: random.Random, depth: int, symbolic: bool = False) -> str:
    if depth <= 0 or r.random() < 0.25:
        k = r.random()
        if k < 0.35:
            return str(r.randint(-6, 9))
        if k < 0.65 or symbolic:
            return f"s{r.randint(0, 2)}"
        return f"d{r.randint(0, 2)}"
    op = r.choice(["+", "-", "*", "*", "floordiv", "ceildiv", "mod", "neg", "+", "paren"])
    if op == "neg":
        return "-" + _random_text(r, depth - 1, symbolic)
    if op == "paren":
        return "(" + _random_text(r, depth - 1, symbolic) + ")"
    if op in ("+", "-"):
        return f"{_random_text(r, depth - 1, symbolic)} {op} {_random_text(r, depth - 1, symbolic)}"
    if op == "*":
        a, b = _random_text(r, depth - 1, symbolic), _random_text(r, depth - 1, True)
        return f"({a}) * ({b})" if r.random() < 0.5 else f"({b}) * ({a})"
    rhs = str(r.randint(-2, 8)) if r.random() < 0.7 else _random_text(r, depth - 1, True)
    return f"({_random_text(r, depth - 1, symbolic)}) {op} ({rhs})"


def test_differential_against_mlir() -> None:
    ir = pytest.importorskip("iree.compiler.ir")
    r = random.Random(1234)
    total = identical = 0
    with ir.Context():
        for _ in range(400):
            text = f"(d0, d1, d2)[s0, s1, s2] -> ({_random_text(r, 5)})"
            try:
                attr = ir.Attribute.parse(f"affine_map<{text}>")
            except Exception:  # MLIR rejects it: so must we
                with pytest.raises(AffineParseError):
                    parse_affine_map(text)
                continue
            mlir_text = str(attr)[len("affine_map<") : -1]
            ours = parse_affine_map(text)
            total += 1
            if str(ours) == mlir_text:
                identical += 1
                continue
            # MLIR keeps some sums right-nested (and prints them as if left-nested); its text
            # then re-parses, in MLIR too, to a different tree. Ours must agree in value.
            theirs = parse_affine_map(mlir_text)
            for _ in range(5):
                dims = [r.randint(-9, 9) for _ in range(3)]
                syms = [r.randint(1, 9) for _ in range(3)]
                try:
                    expected = theirs.evaluate(dims, syms)
                except ZeroDivisionError:
                    continue
                assert ours.evaluate(dims, syms) == expected, (text, mlir_text, str(ours))
    assert total > 300
    assert identical >= 0.95 * total
