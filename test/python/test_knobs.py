"""Knobs: domains, stable site keys, the knob context, JSON dump and load, completion."""

from __future__ import annotations

import json
import random

import pytest
from pass_test_dialect import func, module

from mlc.ir.attributes import FileLineColLoc
from mlc.knobs import (
    Bool,
    Choice,
    IntRange,
    KnobContext,
    KnobError,
    KnobStore,
    Permutation,
    PowerOfTwo,
    complete,
    domain_from_json,
    fingerprint,
    load_config,
    records_from_json,
    site_of,
)

# ---------------------------------------------------------------------------------------------
# Domains


def test_int_range_with_step() -> None:
    d = IntRange(2, 11, 3)
    assert list(d.values()) == [2, 5, 8, 11] and d.size() == 4
    assert d.contains(8) and not d.contains(9) and not d.contains(14) and not d.contains(8.0)
    assert not d.contains(True)  # a bool is not an int here
    assert str(d) == "int[2..11 step 3]" and str(IntRange(0, 3)) == "int[0..3]"
    with pytest.raises(ValueError):
        IntRange(5, 1)


def test_power_of_two_rounds_inward() -> None:
    d = PowerOfTwo(3, 100)
    assert list(d.values()) == [4, 8, 16, 32, 64] and d.size() == 5
    assert d.contains(16) and not d.contains(12) and not d.contains(2) and not d.contains(128)
    assert str(d) == "pow2[4..64]"
    with pytest.raises(ValueError):
        PowerOfTwo(5, 7)


def test_choice_bool_permutation() -> None:
    c = Choice("ijk", "ikj", 3)
    assert c.contains("ikj") and c.contains(3) and not c.contains("x") and not c.contains(3.0)
    assert Choice(1, 2).contains(1) and not Choice(1, 2).contains(True)
    assert str(c) == 'choice["ijk", "ikj", 3]'
    b = Bool()
    assert list(b.values()) == [False, True] and not b.contains(1)
    p = Permutation(3)
    assert p.size() == 6 and len(list(p.values())) == 6
    assert p.contains((2, 0, 1)) and not p.contains((0, 0, 1)) and not p.contains((0, 1))
    assert p.normalize([1, 0, 2]) == (1, 0, 2) and p.to_json_value((1, 0, 2)) == [1, 0, 2]


@pytest.mark.parametrize(
    "domain", [IntRange(0, 9, 3), PowerOfTwo(1, 64), Choice("a", "b"), Bool(), Permutation(4)]
)
def test_domain_json_round_trip_and_sampling(domain) -> None:  # noqa: ANN001
    again = domain_from_json(json.loads(json.dumps(domain.to_json())))
    assert again == domain and str(again) == str(domain)
    rng = random.Random(0)
    for _ in range(20):
        assert domain.contains(domain.sample(rng))


# ---------------------------------------------------------------------------------------------
# Sites


def _program(extra_func: bool = False, extra_op: bool = False, rename: bool = False):  # noqa: ANN202
    m, body = module()
    if extra_func:
        func(body, "unrelated")
    f, b = func(body, "main")
    x = b.block.arguments[0]
    if extra_op:
        b.neg(x)  # an unrelated op of another kind in the same function
    one = b.const(1)
    b.add(x, one)
    b.add(x, one)  # identical twin: distinguished by occurrence
    b.ret(b.add(x, b.const(2)))
    adds = [op for op in f.walk() if op.name == "tp.add"]
    return m, adds


def test_site_keys_are_stable_and_distinct() -> None:
    _, adds = _program()
    keys = [site_of(a).key for a in adds]
    assert len(set(keys)) == 3
    assert keys[0].startswith("@main/tp.add:") and keys[0].endswith("/0")
    assert keys[1].rsplit("/", 1)[1] == "1"  # the twin
    # Rebuilding the same program (new objects, new SSA values) gives the same keys, as do
    # unrelated edits: another function, an op of another kind in the same function.
    for kwargs in ({}, {"extra_func": True}, {"extra_op": True}):
        _, again = _program(**kwargs)
        assert [site_of(a).key for a in again] == keys


def test_fingerprint_sees_structure_not_locations() -> None:
    _, adds = _program()
    a, b, c = adds
    # Operand producers do not enter (earlier decisions change them): occurrences tell apart.
    assert fingerprint(a) == fingerprint(b) == fingerprint(c)
    assert [site_of(op).key.rsplit("/", 1)[1] for op in adds] == ["0", "1", "2"]
    a.location = FileLineColLoc("x.mlir", 3, 4)
    a.set_attr("tag", FileLineColLoc("y.mlir", 1, 1))
    assert fingerprint(a) != fingerprint(b)


def _loop_nest(depth: int) -> str:
    shape = "x".join(["4"] * depth)
    ivs = ", ".join(f"%i{k}" for k in range(depth))
    head = "".join(f"affine.for %i{k} = 0 to 4 {{\n" for k in range(depth))
    body = (
        f"%v = affine.load %m[{ivs}] : memref<{shape}xf32>\n"
        f"affine.store %v, %m[{ivs}] : memref<{shape}xf32>\n"
    )
    return f"func.func @f(%m: memref<{shape}xf32>) {{\n{head}{body}{'}' * depth}\nreturn\n}}"


def test_numbering_a_nest_describes_each_op_once(monkeypatch) -> None:  # noqa: ANN001
    import mlc
    from mlc import knobs

    depth = 12
    module = mlc.parse(_loop_nest(depth))
    loops = [op for op in module.walk(post_order=False) if op.name == "affine.for"]
    plain = [fingerprint(op) for op in loops]
    calls = 0
    signature = knobs._signature

    def counting(op, memo=None):  # noqa: ANN001, ANN202
        nonlocal calls
        calls += 1
        return signature(op, memo)

    monkeypatch.setattr(knobs, "_signature", counting)
    k = KnobContext()
    first = k.site(loops[-1]).key  # the innermost loop: numbers every loop of the function
    # Numbering describes every op of the function once (the memo), plus the asked loop (its
    # 4 ops): linear in the nest, where describing every loop afresh is quadratic in its depth
    # (here 180 descriptions for the 38 ops).
    ops = sum(1 for _ in module.walk()) - 2  # without the module and the function
    assert calls <= ops + 4, calls
    keys = [first] + [k.site(op).key for op in reversed(loops[:-1])]
    assert [key.split(":")[1].split("/")[0] for key in reversed(keys)] == plain
    assert len(set(plain)) == depth  # every loop of the nest has its own structure


# ---------------------------------------------------------------------------------------------
# The context


def test_context_defaults_record_and_repeat() -> None:
    _, adds = _program()
    k = KnobContext()
    assert k.ask(adds[0], "unroll", IntRange(1, 8), 4, "p") == 4
    assert k.ask(adds[0], "unroll", IntRange(1, 8), 4, "p") == 4
    (rec,) = k.space()
    assert (rec.name, rec.pass_name, rec.default, rec.value, rec.source) == (
        "unroll",
        "p",
        4,
        4,
        "default",
    )
    with pytest.raises(ValueError):
        k.ask(adds[1], "unroll", IntRange(1, 8), 9)  # a default outside the domain is a pass bug


def test_candidate_then_store_then_default() -> None:
    _, adds = _program()
    keys = [f"{site_of(a).key}/t" for a in adds]

    class Store(KnobStore):
        def get(self, key: str) -> object:
            return {keys[1]: 16, keys[2]: 3}.get(key)  # 3 is stale: not in the domain

    k = KnobContext({keys[0]: 8}, Store())
    got = [k.ask(a, "t", PowerOfTwo(1, 32), 4) for a in adds]
    assert got == [8, 16, 4]
    assert [r.source for r in k.space()] == ["candidate", "store", "default"]
    assert k.config() == {keys[0]: 8, keys[1]: 16, keys[2]: 4}


def test_out_of_domain_candidate_names_knob_and_domain() -> None:
    _, adds = _program()
    key = f"{site_of(adds[0]).key}/order"
    k = KnobContext({key: [0, 0, 1]})
    with pytest.raises(KnobError) as info:
        k.ask(adds[0], "order", Permutation(3), (0, 1, 2))
    assert (
        str(info.value.diagnostic.message)
        == f"value [0, 0, 1] of knob '{key}' is outside its domain perm(3)"
    )


def test_unknown_keys() -> None:
    _, adds = _program()
    key = f"{site_of(adds[0]).key}/b"
    k = KnobContext({key: True, "@gone/x:0/0/b": False})
    k.ask(adds[0], "b", Bool(), False)
    assert k.unknown_keys() == ["@gone/x:0/0/b"]


def test_dump_and_load(tmp_path) -> None:  # noqa: ANN001
    _, adds = _program()
    adds[0].location = FileLineColLoc("prog.mlir", 7, 3)
    k = KnobContext()
    k.ask(adds[0], "order", Permutation(2), (1, 0), "my-pass")
    path = tmp_path / "space.json"
    data = json.loads(k.dump(path))
    (entry,) = data["knobs"]
    assert (
        entry["pass"] == "my-pass"
        and entry["knob"] == "order"
        and entry["domain"] == {"kind": "perm", "n": 2}
    )
    assert entry["default"] == [1, 0] and entry["location"] == "prog.mlir:7:3"
    assert json.loads(path.read_text()) == data
    # A dump is also accepted as a configuration; so are JSON text and a file path.
    assert load_config(path) == {entry["key"]: [1, 0]}
    assert load_config('{"a": 1}') == {"a": 1}
    with pytest.raises(KnobError):
        load_config("{not json")


def test_complete_makes_configs_well_formed() -> None:
    _, adds = _program()
    k = KnobContext()
    for a in adds:
        k.ask(a, "t", IntRange(0, 10, 2), 2)
    space = records_from_json(json.loads(k.dump()))
    keys = [r.key for r in space]
    cand = {keys[0]: 6, keys[1]: 5, "@stale/x:0/0/t": 4}  # 5 is outside the domain
    out = complete(cand, space, {keys[1]: 8, keys[2]: 11})
    assert out == {keys[0]: 6, keys[1]: 8, keys[2]: 2}
