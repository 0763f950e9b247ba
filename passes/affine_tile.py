"""`affine-tile` (alias `affine-loop-tile`): tile perfect affine.for nests, partial tiles bounded
by `min` maps, with per-loop `tile<i>` knobs whose defaults come from a cache model.

    affine.for %i = 0 to 100 {          affine.for %ti = 0 to 100 step 32 {
      ...                        ==>      affine.for %i = #id(%ti) to min #ub(%ti) {  // %ti+32, 100
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from mlc.dialects import affine as AF
from mlc.passes.affine_dependence import (
    DependenceInfo,
    is_perfect_nest,
    nest_of,
    touches_thread_loop,
)

from mlc.ir import attributes as A
from mlc.ir.affine import AffineMap, dim, sym
from mlc.ir.core import Operation, Value
from mlc.knobs import Choice
from mlc.pass_manager import KnobDecl, ListOption, Option, Pass, PassContext, Statistic

MAX_TILED_DEPTH = 8
_DYNAMIC_TRIP_GUESS = 1024  # trip count assumed for a dynamic loop in the cache model


# ---------------------------------------------------------------------------------------------
# The machine


@functools.cache
def cache_sizes() -> tuple[int, int]:
    """(L1 data, L2) cache sizes in bytes of CPU 0 from sysfs; 32 KiB / 512 KiB if unknown."""
    l1, l2 = 32 * 1024, 512 * 1024
    base = Path("/sys/devices/system/cpu/cpu0/cache")
    try:
        for index in sorted(base.glob("index*")):
            level = (index / "level").read_text().strip()
            kind = (index / "type").read_text().strip()
            text = (index / "size").read_text().strip().upper()
            scale = {"K": 1024, "M": 1024 * 1024}.get(text[-1:], 1)
            size = int(text.rstrip("KM")) * scale
            if level == "1" and kind in ("Data", "Unified"):
                l1 = size
            elif level == "2" and kind in ("Data", "Unified"):
                l2 = size
    except (OSError, ValueError):
        pass
    return l1, l2


# ---------------------------------------------------------------------------------------------
# The transformation


def _uses_band_ivs(loop: Operation, band: Sequence[Operation]) -> bool:
    ivs = {lp.induction_var for lp in band}
    return any(u.value in ivs for u in loop._operands)


def is_rectangular(band: Sequence[Operation]) -> bool:
    """No loop bound of the band uses an induction variable of the band."""
    return not any(_uses_band_ivs(lp, band) for lp in band)


def tile_sizes_domain(loop: Operation) -> Choice:
    """Tile sizes for one loop: 1 (untiled), the powers of two below its trip count and the
    divisors of it (constant trip count), else powers of two up to 1024."""
    trip = loop.constant_trip_count()
    if trip is None:
        return Choice(*[1 << k for k in range(11)])
    vals = {1, max(trip, 1)}
    p = 2
    while p < trip:
        vals.add(p)
        p <<= 1
    d = 2
    while d * d <= trip:
        if trip % d == 0:
            vals.add(d)
            vals.add(trip // d)
        d += 1
    return Choice(*sorted(vals))


def tile_perfect_nest(band: Sequence[Operation], sizes: Sequence[int]) -> list[Operation]:
    """Tile the perfect, rectangular nest `band` by `sizes` (in iterations of each loop).

    A loop with size 1, or a size reaching its constant trip count, is left untiled in its
    place. For the others, a tile loop (step size*step, the original bounds) is created
    outside the band, in band order, and the original loop becomes the point loop from the
    tile loop's value to `min(tile + size*step, original upper bounds)` (no `min` when the
    tile size divides the constant iteration range). Returns the tile loops, outermost first.
    """
    tiled = []
    for lp, t in zip(band, sizes):
        trip = lp.constant_trip_count()
        if t > 1 and (trip is None or t < trip):
            tiled.append((lp, t))
    if not tiled:
        return []
    outer = band[0]
    tile_loops: list[Operation] = []
    anchor: Operation | None = None
    for lp, t in tiled:
        step = lp.step_value
        tile = AF.ForOp.build_for(
            (lp.lower_bound_map, list(lp.lowerBoundOperands)),
            (lp.upper_bound_map, list(lp.upperBoundOperands)),
            t * step,
            location=lp.location,
        )
        if anchor is None:
            outer.parent.insert_before(tile, outer)
        else:
            body = anchor.regions[0].blocks[0]
            body.insert_before(tile, body.last)
        tile_loops.append(tile)
        anchor = tile
    body = anchor.regions[0].blocks[0]  # type: ignore[union-attr]
    outer.detach()
    body.insert_before(outer, body.last)
    for (lp, t), tile in zip(tiled, tile_loops):
        _set_point_bounds(lp, tile.induction_var, t * lp.step_value)
    return tile_loops


def _set_point_bounds(lp: Operation, tile_iv: Value, span: int) -> None:
    lb, ub = lp.constant_lower_bound(), lp.constant_upper_bound()
    ub_map = lp.upper_bound_map
    ub_ops = list(lp.upperBoundOperands)
    lp.set_lower_bound(AffineMap(1, 0, (dim(0),)), [tile_iv])
    if lb is not None and ub is not None and (ub - lb) % span == 0:
        lp.set_upper_bound(AffineMap(1, 0, (dim(0) + span,)), [tile_iv])
        return
    nd, ns = ub_map.num_dims, ub_map.num_symbols
    shifted = ub_map.replace_dims_and_symbols(
        [dim(k + 1) for k in range(nd)], [sym(k) for k in range(ns)], nd + 1, ns
    )
    new = AffineMap(nd + 1, ns, (dim(0) + span, *shifted.results))
    lp.set_upper_bound(new, [tile_iv, *ub_ops])


# ---------------------------------------------------------------------------------------------
# The cache model


def _element_bytes(t: A.Type) -> int:
    width = getattr(t, "width", None)
    if width is None:
        shape = getattr(t, "shape", None)
        if shape is not None:  # a vector
            n = 1
            for s in shape:
                n *= s
            return n * _element_bytes(t.element_type)  # type: ignore[attr-defined]
        return 8
    return max(1, width // 8)


def footprint(band: Sequence[Operation], sizes: Sequence[int], info: DependenceInfo) -> int:
    """Bytes the innermost body touches over one tile (distinct elements per memref, each
    subscript spanning the tile extents of the loops it uses)."""
    extent = {}
    for lp, t in zip(band, sizes):
        extent[lp.induction_var] = t * lp.step_value
    per_memref: dict[Value, int] = {}
    for acc in info.accesses:
        if acc.subs is None:
            continue
        elems = 1
        for sub, w in zip(acc.subs, acc.widths):
            if sub is None:
                elems *= _DYNAMIC_TRIP_GUESS
                continue
            span = w
            for v, c in sub[0].items():
                if v in extent:
                    span += abs(c) * (extent[v] - 1)
            elems *= span
        size = elems * _element_bytes(acc.memref.type.element_type)  # type: ignore[attr-defined]
        per_memref[acc.memref] = max(per_memref.get(acc.memref, 0), size)
    return sum(per_memref.values())


def _has_reuse(band: Sequence[Operation], info: DependenceInfo) -> bool:
    """Some access stays on the same elements along some loop of the band (tiling can only
    help when data is touched again: a fill or a copy has nothing to keep in cache)."""
    ivs = [lp.induction_var for lp in band]
    for acc in info.accesses:
        if acc.subs is None or any(s is None for s in acc.subs):
            continue
        used = set().union(*(s[0] for s in acc.subs)) if acc.subs else set()  # type: ignore[index]
        if any(iv not in used for iv in ivs):
            return True
    return False


def default_tile_sizes(band: Sequence[Operation], info: DependenceInfo, cache: int) -> list[int]:
    """No tiling for a single loop (strip-mining alone moves no data), when the whole nest
    fits in `cache` bytes, or when no access is reused along a loop of the band; else the
    largest equal power of two per loop (capped by each trip count) whose tile footprint
    fits, at least 1."""
    trips = [lp.constant_trip_count() or _DYNAMIC_TRIP_GUESS for lp in band]
    if len(band) < 2 or footprint(band, trips, info) <= cache or not _has_reuse(band, info):
        return [1] * len(band)
    t = 1
    while True:
        nxt = [min(2 * t, tr) for tr in trips]
        if footprint(band, nxt, info) > cache or 2 * t > max(trips):
            break
        t *= 2
    return [min(t, tr) if t < tr else 1 for tr in trips]


class AffineTilePass(Pass):
    """Tile perfectly nested affine.for loops (per-loop `tile<i>` knobs, cache-model defaults).

    Each band of perfectly nested, rectangular affine.for loops whose dependences allow it
    (all direction vectors non-negative over the band) is tiled: tile loops step over the
    iteration space, the original loops become point loops bounded by `affine.min`-style
    maps for partial tiles. The knob `tile<i>` at the outermost loop of the band picks the
    size of loop i (1: untiled; its domain holds the powers of two below the trip count and
    its divisors; powers of two up to 1024 for a dynamic trip count). Defaults: `sizes`
    when given (the last entry repeats), else the cache model (no tiling for a single loop,
    when the nest fits in `cache-size` or when nothing is reused along a loop; else equal
    power-of-two sizes whose tile footprint fits). In a nest
    whose inner bounds use outer ivs, the innermost rectangular band is tiled: running the
    pass again on its output tiles the point loops again (multi-level tiling).
    """

    name = "affine-tile"
    anchor = "func.func"
    sizes = ListOption(int, (), "Default tile sizes (outermost first; the last repeats)")
    cache_size = Option(int, 0, "Cache size in KiB the tiles should fit (0: the L2 size)")
    knobs = tuple(
        KnobDecl(f"tile{i}", "choice", f"Tile size of loop {i} of the band (1: untiled)")
        for i in range(MAX_TILED_DEPTH)
    )
    num_tiled = Statistic("num-tiled", "Number of loop nests tiled")

    def run(self, op: Operation, ctx: PassContext) -> None:
        if any(s < 1 for s in self.sizes) or self.cache_size < 0:
            ctx.error("affine-tile: sizes must be positive and cache-size non-negative", op)
            return
        cache = self.cache_size * 1024 if self.cache_size else cache_sizes()[1]
        for band in _bands(op):
            self._tile(band, ctx, cache)

    def _tile(self, band: list[Operation], ctx: PassContext, cache: int) -> None:
        if not is_rectangular(band) or touches_thread_loop(band[0]):
            return
        info = DependenceInfo(band[0])
        if not info.band_is_permutable(band):
            return
        if self.sizes:
            defaults = [self.sizes[min(i, len(self.sizes) - 1)] for i in range(len(band))]
        else:
            defaults = default_tile_sizes(band, info, cache)
        site = ctx.site(band[0])
        sizes = []
        for i, (lp, d) in enumerate(zip(band, defaults)):
            domain = tile_sizes_domain(lp)
            if not domain.contains(d):
                d = max((v for v in domain.values() if v <= d), default=1)
            sizes.append(ctx.knob(site, f"tile{i}", domain, d))
        if tile_perfect_nest(band, sizes):
            self.num_tiled += 1


class AffineLoopTilePass(AffineTilePass):
    """Tile perfectly nested affine.for loops (MLIR's name and `tile-sizes` option).

    The same pass as `affine-tile`: `tile-sizes` supplies the default sizes.
    """

    name = "affine-loop-tile"
    sizes = ListOption(int, (), "Default tile sizes (outermost first; the last repeats)",
                       name="tile-sizes")  # fmt: skip


def _bands(op: Operation) -> list[list[Operation]]:
    """Per maximal perfect nest of affine.for loops (a trailing loop with iter_args stays in
    the body), its innermost rectangular band (at most MAX_TILED_DEPTH loops, outermost
    first): in a nest tiled before, that is the point loops, so a second run tiles them
    again (multi-level tiling)."""
    bands: list[list[Operation]] = []

    def visit(o: Operation) -> None:
        for region in o.regions:
            for block in region.blocks:
                for child in block:
                    if type(child) is not AF.ForOp:
                        visit(child)
                        continue
                    nest = nest_of(child)
                    while nest and nest[-1].results:
                        nest = nest[:-1]
                    if nest and is_perfect_nest(nest):
                        band = [nest[-1]]
                        for lp in reversed(nest[:-1]):
                            iv = lp.induction_var
                            if any(u.value is iv for inner in band for u in inner._operands):
                                break
                            band.insert(0, lp)
                        bands.append(band[:MAX_TILED_DEPTH])
                    visit(nest[-1] if nest else child)

    visit(op)
    return bands


__all__ = [
    "AffineTilePass",
    "AffineLoopTilePass",
    "cache_sizes",
    "default_tile_sizes",
    "footprint",
    "is_rectangular",
    "tile_perfect_nest",
    "tile_sizes_domain",
]
