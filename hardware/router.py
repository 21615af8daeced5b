"""A two-layer grid router for the bgboard boards (KiCad 6 has no autorouter).

Tracks run on a 0.635 mm grid (half the 1.27 mm pitch of the SOIC parts, a quarter of the
2.54 mm headers), straight: F.Cu prefers horizontal runs, B.Cu vertical ones, a via joins
them, and a corner costs extra (long straight runs, no staircases).  Each net is routed by A* from the copper it already has to its nearest unconnected
pad, in the order given; the clearance rules are kept by construction:

* for every width class (signal, power, via) and layer, a cell map says which net may put
  its centre line there: a cell within ``half width + clearance + obstacle's half width`` of
  another net's copper is closed to it;
* tracks sit on grid points, so two tracks' distance is that of their grid points; a pad is
  not on the grid, so each step between two cells is also checked against the pads along it.

Pure Python and numpy (no pcbnew): hardware/boards.py gives it the pads and writes the
tracks and vias it returns into the board.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np

GRID = 0.635
CLEARANCE = 0.2
EDGE_CLEARANCE = 0.5
SAFETY = 0.02  # on top of the clearance for the sampled pad checks
VIA_DIAMETER = 0.6
VIA_DRILL = 0.3
VIA_COST = 8
WRONG_WAY_COST = 1
TURN_COST = 2


@dataclass(frozen=True)
class WidthClass:
    name: str
    width: float

    @property
    def half(self) -> float:
        return self.width / 2


SIGNAL = WidthClass("signal", 0.25)
POWER = WidthClass("power", 0.6)
VIA = WidthClass("via", VIA_DIAMETER)
CLASSES = (SIGNAL, POWER, VIA)


@dataclass
class Pad:
    """A copper pad: ``shape`` "circle" (``w`` = diameter), "oval" (a stadium ``w`` x ``h``) or
    "rect" (an axis-aligned box ``w`` x ``h`` enclosing the pad, rounded corners or not), centre ``x, y`` in mm, ``layers`` a subset of {0, 1}
    (0 = F.Cu, 1 = B.Cu); ``net`` 0 for none, -1 for a hole with no copper."""

    x: float
    y: float
    w: float
    h: float
    shape: str
    layers: tuple[int, ...]
    net: int
    ident: str = ""

    def distance(self, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        if self.shape == "circle":
            return np.hypot(px - self.x, py - self.y) - self.w / 2
        if self.shape == "oval":  # a stadium: the distance to its core segment less the radius
            r = min(self.w, self.h) / 2
            cx = np.clip(px - self.x, -(self.w / 2 - r), self.w / 2 - r)
            cy = np.clip(py - self.y, -(self.h / 2 - r), self.h / 2 - r)
            return np.hypot(px - self.x - cx, py - self.y - cy) - r
        dx = np.maximum(np.abs(px - self.x) - self.w / 2, 0.0)
        dy = np.maximum(np.abs(py - self.y) - self.h / 2, 0.0)
        return np.hypot(dx, dy)


@dataclass
class Route:
    """What the router made for one net: tracks ``(layer, x1, y1, x2, y2, width)`` and vias ``(x, y)``."""

    tracks: list[tuple[int, float, float, float, float, float]] = field(default_factory=list)
    vias: list[tuple[float, float]] = field(default_factory=list)


class RoutingError(Exception):
    """A net the router could not complete (one sentence naming it)."""


class Router:
    """The grid over a board ``width`` x ``height`` mm with its origin at ``(x0, y0)``; no copper
    in ``keepouts``, no via in ``via_keepouts`` (boxes x1, y1, x2, y2 in mm: the courtyards of
    the SMD parts, so that no via lands in an SMD pad)."""

    def __init__(self, x0: float, y0: float, width: float, height: float, pads: list[Pad],
                 keepouts: list[tuple[float, float, float, float]] = (), grid: float = GRID,
                 via_keepouts: list[tuple[float, float, float, float]] = ()) -> None:
        self.grid = grid
        self.x0, self.y0 = x0, y0
        self.nx = int(width / self.grid) + 1
        self.ny = int(height / self.grid) + 1
        self.pads = pads
        shape = (2, self.ny, self.nx)
        # cell[k][layer, y, x]: 0 free, n > 0 only net n, -1 nobody
        self.cell = {c.name: np.zeros(shape, dtype=np.int32) for c in CLASSES}
        # step maps: hstep[k][l, y, x] the step (x, y) -> (x + 1, y); vstep (x, y) -> (x, y + 1)
        self.hstep = {c.name: np.zeros(shape, dtype=np.int32) for c in CLASSES}
        self.vstep = {c.name: np.zeros(shape, dtype=np.int32) for c in CLASSES}
        self.gx = x0 + np.arange(self.nx) * self.grid
        self.gy = y0 + np.arange(self.ny) * self.grid
        for c in CLASSES:
            edge = c.half + EDGE_CLEARANCE
            xs = (self.gx < x0 + edge) | (self.gx > x0 + width - edge)
            ys = (self.gy < y0 + edge) | (self.gy > y0 + height - edge)
            self.cell[c.name][:, ys, :] = -1
            self.cell[c.name][:, :, xs] = -1
        for x1, y1, x2, y2 in keepouts:
            for c in CLASSES:
                m = c.half + CLEARANCE
                xs = (self.gx > x1 - m) & (self.gx < x2 + m)
                ys = (self.gy > y1 - m) & (self.gy < y2 + m)
                self.cell[c.name][:, ys[:, None] & xs[None, :]] = -1
        for x1, y1, x2, y2 in via_keepouts:  # no via there (an SMD part's courtyard): tracks may pass
            m = VIA.half + SAFETY
            xs = (self.gx > x1 - m) & (self.gx < x2 + m)
            ys = (self.gy > y1 - m) & (self.gy < y2 + m)
            self.cell[VIA.name][:, ys[:, None] & xs[None, :]] = -1
        for pad in pads:
            self._stamp_pad(pad)
        self.copper: dict[int, set[tuple[int, int, int]]] = {}
        # copper laid before routing (a board's supply trunks and buses): net -> [(its Pad stand-in, cells)]
        self.islands: dict[int, list[tuple[Pad, list[tuple[int, int, int]]]]] = {}
        self.prewired: dict[int, Route] = {}

    # -------------------------------------------------------------- maps
    @staticmethod
    def _mark(view: np.ndarray, mask: np.ndarray, net: int) -> None:
        current = view[mask]
        view[mask] = np.where((current == 0) | (current == net), net, -1)

    def _window(self, x: float, y: float, reach: float) -> tuple[slice, slice]:
        i0 = max(int((x - reach - self.x0) / self.grid) - 1, 0)
        i1 = min(int((x + reach - self.x0) / self.grid) + 2, self.nx)
        j0 = max(int((y - reach - self.y0) / self.grid) - 1, 0)
        j1 = min(int((y + reach - self.y0) / self.grid) + 2, self.ny)
        return slice(j0, j1), slice(i0, i1)

    def _stamp_pad(self, pad: Pad) -> None:
        net = pad.net if pad.net > 0 else -1
        extra = 0.1 if pad.net < 0 else 0.0  # a bare hole: hole clearance
        for c in CLASSES:
            need = c.half + CLEARANCE + extra
            reach = max(pad.w, pad.h) / 2 + need + self.grid
            ys, xs = self._window(pad.x, pad.y, reach)
            px, py = np.meshgrid(self.gx[xs], self.gy[ys])
            d = pad.distance(px, py)
            # steps: sample each step at five points
            dh = np.full(d.shape, np.inf)
            dv = np.full(d.shape, np.inf)
            for t in (0.0, 0.25, 0.5, 0.75, 1.0):
                dh = np.minimum(dh, pad.distance(px + t * self.grid, py))
                dv = np.minimum(dv, pad.distance(px, py + t * self.grid))
            through = len(pad.layers) == 2
            for layer in (0, 1):
                if layer not in pad.layers and pad.net >= 0:
                    continue
                if c is VIA and through:  # no via in or at a drilled pad, whatever its net
                    self._mark(self.cell[c.name][layer, ys, xs], d < need, -1)
                    continue
                self._mark(self.cell[c.name][layer, ys, xs], d < need, net)
                self._mark(self.hstep[c.name][layer, ys, xs], dh < need + SAFETY, net)
                self._mark(self.vstep[c.name][layer, ys, xs], dv < need + SAFETY, net)

    def _stamp_copper(self, layer: int, i: int, j: int, half: float, net: int, layers: tuple[int, ...]) -> None:
        x, y = self.gx[i], self.gy[j]
        for c in CLASSES:
            need = c.half + CLEARANCE + half
            ys, xs = self._window(x, y, need)
            mask = np.hypot((self.gx[xs] - x)[None, :], (self.gy[ys] - y)[:, None]) < need - 1e-6
            for lay in layers:
                self._mark(self.cell[c.name][lay, ys, xs], mask, net)

    # -------------------------------------------------------------- routing
    def prewire(self, net: int, layer: int, x1: float, y1: float, x2: float, y2: float, width: float,
                name: str = "") -> None:
        """Lay a straight track of ``width`` from (x1, y1) to (x2, y2) (both on the grid, one
        axis) for ``net`` before any routing: a supply trunk wider than the width classes, or a
        bus through a row of pads of one net.  :meth:`route` then joins it to the net's pads
        like a pad.  RoutingError if another net's copper is too close."""
        i1, i2 = sorted(round((x - self.x0) / self.grid) for x in (x1, x2))
        j1, j2 = sorted(round((y - self.y0) / self.grid) for y in (y1, y2))
        for v, origin in ((x1, self.x0), (x2, self.x0), (y1, self.y0), (y2, self.y0)):
            if abs((v - origin) / self.grid - round((v - origin) / self.grid)) > 1e-3:
                raise RoutingError(f"net {name}: a prewired track's end {v - origin:.3f} mm is off the {self.grid} mm grid")
        if i1 != i2 and j1 != j2:
            raise RoutingError(f"net {name}: a prewired track runs along one axis")
        cells = [(layer, j, i) for j in range(j1, j2 + 1) for i in range(i1, i2 + 1)]
        mine = WidthClass("trunk", width)
        px = np.array([self.gx[i] for _, _, i in cells])
        py = np.array([self.gy[j] for _, j, _ in cells])
        for pad in self.pads:  # laid before any routing: only pads can be in the way
            if pad.net != net and (layer in pad.layers or pad.net < 0):
                gap = float(pad.distance(px, py).min()) - mine.half
                if gap < CLEARANCE + SAFETY:
                    raise RoutingError(f"net {name}: the prewired track passes {gap:.2f} mm from {pad.ident}")
        edge = mine.half + EDGE_CLEARANCE
        if min(px) < self.gx[0] + edge or max(px) > self.gx[-1] - edge or min(py) < self.gy[0] + edge \
                or max(py) > self.gy[-1] - edge:
            raise RoutingError(f"net {name}: a prewired track comes within {EDGE_CLEARANCE} mm of the board edge")
        for _, j, i in cells:
            self._stamp_copper(layer, i, j, mine.half, net, (layer,))
        stand_in = Pad((self.gx[i1] + self.gx[i2]) / 2, (self.gy[j1] + self.gy[j2]) / 2,
                       self.gx[i2] - self.gx[i1], self.gy[j2] - self.gy[j1], "rect", (layer,), net, f"{name} trunk")
        self.islands.setdefault(net, []).append((stand_in, cells))
        self.prewired.setdefault(net, Route()).tracks.append(
            (layer, float(self.gx[i1]), float(self.gy[j1]), float(self.gx[i2]), float(self.gy[j2]), width))

    def terminals(self, pad: Pad) -> tuple[list[tuple[int, int, int]], bool]:
        """Grid cells inside ``pad`` on its layers; else the nearest grid cell and True (the
        route then ends in a short stub from that cell to the pad's centre)."""
        ys, xs = self._window(pad.x, pad.y, max(pad.w, pad.h))
        px, py = np.meshgrid(self.gx[xs], self.gy[ys])
        d = pad.distance(px, py)
        corner = max(0.05, 0.25 * min(pad.w, pad.h))  # clear of a rounded corner
        for inset in (corner, 0.02):
            if pad.shape != "rect":
                inside = d <= -inset
            else:
                inside = (np.abs(px - pad.x) <= pad.w / 2 - inset) & (np.abs(py - pad.y) <= pad.h / 2 - inset)
            jj, ii = np.nonzero(inside)
            if len(jj):
                return [(layer, int(j + ys.start), int(i + xs.start)) for layer in pad.layers
                        for j, i in zip(jj, ii)], False
        centre = np.hypot(px - pad.x, py - pad.y)
        j, i = np.unravel_index(np.argmin(centre), centre.shape)
        return [(pad.layers[0], int(j + ys.start), int(i + xs.start))], True

    def route(self, net: int, pads: list[Pad], width: WidthClass, name: str) -> Route:
        """Join ``pads`` (all of net ``net``) with tracks of ``width``; RoutingError if it cannot."""
        tree: set[tuple[int, int, int]] = set()
        result = Route()
        before = self.prewired.get(net)
        if before is not None:
            result.tracks.extend(before.tracks)
        targets = list(self.islands.get(net, []))  # the prewired copper first: the tree grows from it
        for p in pads:
            cells, stub = self.terminals(p)
            targets.append((p, cells))
            if stub:
                layer, j, i = cells[0]
                result.tracks.append((layer, float(self.gx[i]), float(self.gy[j]), p.x, p.y, SIGNAL.width))
        first, *rest = targets
        tree.update(first[1])
        while rest:
            # nearest pad first: the least Manhattan distance from a pad's centre to the tree's cells
            tree_x = self.gx[np.fromiter((i for _, _, i in tree), dtype=np.intp, count=len(tree))]
            tree_y = self.gy[np.fromiter((j for _, j, _ in tree), dtype=np.intp, count=len(tree))]
            rest.sort(key=lambda t: float(np.min(np.abs(t[0].x - tree_x) + np.abs(t[0].y - tree_y))))
            pad, cells = rest.pop(0)
            if set(cells) & tree:
                continue
            path = None
            for cls in ([width, SIGNAL] if width is not SIGNAL else [SIGNAL]):
                path = self._astar(net, tree, set(cells), cls, pad)
                if path is not None:
                    used = cls
                    break
            if path is None:
                raise RoutingError(f"net {name}: no way to pad {pad.ident}")
            self._commit(net, path, used, result)
            tree.update(path)
        return result

    def _free(self, cls: WidthClass, layer: int, j: int, i: int, net: int) -> bool:
        v = self.cell[cls.name][layer, j, i]
        return v == 0 or v == net

    def _astar(self, net: int, sources: set, targets: set, cls: WidthClass, pad: Pad):
        """A* over the cells as flat numbers ``(layer * ny + j) * nx + i`` (ordered as the
        ``(layer, j, i)`` they stand for, so ties break as they would on the tuples), with this
        net's open cells and steps read once into byte strings and the costs kept in lists:
        the search itself touches no numpy array, which is what made it slow."""
        tx, ty = (pad.x - self.x0) / self.grid, (pad.y - self.y0) / self.grid
        nx, ny = self.nx, self.ny
        plane = nx * ny

        def open_to_net(a: np.ndarray) -> bytes:
            return ((a == 0) | (a == net)).tobytes()

        cell_ok = open_to_net(self.cell[cls.name])
        h_ok = open_to_net(self.hstep[cls.name])
        v_ok = open_to_net(self.vstep[cls.name])
        vias = self.cell[VIA.name]
        via_ok = (((vias[0] == 0) | (vias[0] == net)) & ((vias[1] == 0) | (vias[1] == net))).tobytes()
        hx = [abs(i - tx) for i in range(nx)]  # the heuristic's two terms, as the search adds them
        hy = [abs(j - ty) for j in range(ny)]
        goal = {(layer * ny + j) * nx + i for layer, j, i in targets}
        inf = math.inf
        best = [inf] * (2 * plane)
        came = [-1] * (2 * plane)
        heap: list = []
        for layer, j, i in sources:
            k = (layer * ny + j) * nx + i
            if not cell_ok[k]:
                continue
            best[k] = 0
            heapq.heappush(heap, (hx[i] + hy[j], 0, k))
        pop, push = heapq.heappop, heapq.heappush
        wrong, via_cost, turn = WRONG_WAY_COST, VIA_COST, TURN_COST
        while heap:
            _, g, cur = pop(heap)
            if g > best[cur]:
                continue
            if cur in goal:
                path = []
                node = cur
                while node >= 0:
                    layer, rem = divmod(node, plane)
                    path.append((layer, rem // nx, rem % nx))
                    node = came[node]
                return path[::-1]
            layer = 1 if cur >= plane else 0
            rem = cur - plane if layer else cur
            j, i = divmod(rem, nx)
            before = came[cur]
            # the last step on this layer as a difference of cell numbers; 0: none (a start or a via)
            heading = cur - before if before >= 0 and (before >= plane) == (layer == 1) else 0
            across = 1 + wrong if layer else 1  # F.Cu runs horizontally, B.Cu vertically
            along = 1 if layer else 1 + wrong
            if i + 1 < nx and h_ok[cur] and cell_ok[cur + 1]:
                nxt, ng = cur + 1, g + across
                if heading and heading != 1:
                    ng += turn  # a corner: fewer of them, no staircases
                if ng < best[nxt]:
                    best[nxt], came[nxt] = ng, cur
                    push(heap, (ng + hx[i + 1] + hy[j], ng, nxt))
            if i > 0 and h_ok[cur - 1] and cell_ok[cur - 1]:
                nxt, ng = cur - 1, g + across
                if heading and heading != -1:
                    ng += turn
                if ng < best[nxt]:
                    best[nxt], came[nxt] = ng, cur
                    push(heap, (ng + hx[i - 1] + hy[j], ng, nxt))
            if j + 1 < ny and v_ok[cur] and cell_ok[cur + nx]:
                nxt, ng = cur + nx, g + along
                if heading and heading != nx:
                    ng += turn
                if ng < best[nxt]:
                    best[nxt], came[nxt] = ng, cur
                    push(heap, (ng + hx[i] + hy[j + 1], ng, nxt))
            if j > 0 and v_ok[cur - nx] and cell_ok[cur - nx]:
                nxt, ng = cur - nx, g + along
                if heading and heading != -nx:
                    ng += turn
                if ng < best[nxt]:
                    best[nxt], came[nxt] = ng, cur
                    push(heap, (ng + hx[i] + hy[j - 1], ng, nxt))
            if via_ok[rem]:
                nxt = cur - plane if layer else cur + plane
                if cell_ok[nxt]:
                    ng = g + via_cost
                    if ng < best[nxt]:
                        best[nxt], came[nxt] = ng, cur
                        push(heap, (ng + hx[i] + hy[j], ng, nxt))
        return None

    def _commit(self, net: int, path: list[tuple[int, int, int]], cls: WidthClass, result: Route) -> None:
        for k, (layer, j, i) in enumerate(path):
            self._stamp_copper(layer, i, j, cls.half, net, (layer,))
            if k and path[k - 1][0] != layer:
                self._stamp_copper(layer, i, j, VIA.half, net, (0, 1))
                result.vias.append((float(self.gx[i]), float(self.gy[j])))
        # straight runs of one layer and one direction become one segment each
        start = 0
        for k in range(1, len(path)):
            a, b = path[k - 1], path[k]
            if a[0] != b[0]:  # a via: close the run before it
                self._segment(path[start], a, cls, result)
                start = k
            elif k - start >= 1 and k + 1 < len(path) and path[k + 1][0] == b[0]:
                step = (b[1] - a[1], b[2] - a[2])
                following = (path[k + 1][1] - b[1], path[k + 1][2] - b[2])
                if step != following:  # a corner at b
                    self._segment(path[start], b, cls, result)
                    start = k
        self._segment(path[start], path[-1], cls, result)

    def _segment(self, a, b, cls: WidthClass, result: Route) -> None:
        if a == b:
            return
        result.tracks.append((a[0], float(self.gx[a[2]]), float(self.gy[a[1]]), float(self.gx[b[2]]),
                              float(self.gy[b[1]]), cls.width))
