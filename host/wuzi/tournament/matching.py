"""Maximum-weight matching in general graphs (Edmonds' blossom method, primal-dual).

The Swiss pairing needs a matching in a general graph (players, with an edge for every
pairing the rules allow), not a bipartite one, so the Hungarian method does not apply; and
it needs the *best* such matching under a weight that encodes the pairing priorities. This
is Edmonds' blossom algorithm with the primal-dual weight updates as described by Zvi Galil,
"Efficient Algorithms for Finding Maximum Matching in Graphs" (ACM Computing Surveys,
1986), in the O(n³) form: each *stage* grows alternating trees from every single vertex
over zero-slack edges until it finds an augmenting path, shrinking odd cycles into
blossoms and moving dual variables when it gets stuck.

Weights must be integers: every dual variable is kept doubled, so all arithmetic stays
exact (the pairing weights are large integers that encode lexicographic priorities, where
floating point would silently lose the low-order criteria).

Vertices are ``0 .. n-1``; blossoms get the numbers ``n .. 2n-1``. An edge ``k`` has the two
*endpoints* ``2k`` and ``2k+1``; ``endpoint[p]`` is the vertex at endpoint ``p`` and
``p ^ 1`` is the other end of the same edge. Galil's paper explains the terms used below
(S- and T-labels, base, sub-blossom).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

Edge = tuple[int, int, int]

_FREE, _S, _T, _CRUMB = 0, 1, 2, 4


def max_weight_matching(
    vertex_count: int, edges: Sequence[Edge], max_cardinality: bool = False
) -> list[int]:
    """The mate of every vertex (``-1`` when single) in a maximum-weight matching.

    ``edges`` holds ``(i, j, weight)`` with integer weights, ``i != j`` and at most one
    edge per pair. With ``max_cardinality`` only matchings with the most edges compete.
    """
    n = vertex_count
    if not edges:
        return [-1] * n
    for i, j, w in edges:
        if not (0 <= i < n and 0 <= j < n) or i == j:
            raise ValueError(f"edge ({i}, {j}) is not between two distinct vertices of {n}")
        if not isinstance(w, int):
            raise TypeError(f"edge ({i}, {j}) has a non-integer weight {w!r}")
    edge_count = len(edges)
    max_weight = max(0, max(w for _, _, w in edges))
    endpoint = [0] * (2 * edge_count)
    weight2 = [0] * edge_count  # doubled weights, so slacks compare with doubled duals
    neighbours: list[list[int]] = [[] for _ in range(n)]  # remote endpoints per vertex
    for k, (i, j, w) in enumerate(edges):
        endpoint[2 * k] = i
        endpoint[2 * k + 1] = j
        weight2[k] = 2 * w
        neighbours[i].append(2 * k + 1)
        neighbours[j].append(2 * k)

    mate = [-1] * n  # remote endpoint of the matched edge
    label = [_FREE] * (2 * n)
    label_end = [-1] * (2 * n)  # remote endpoint of the edge that gave the label
    in_blossom = list(range(n))  # top-level blossom of every vertex
    parent = [-1] * (2 * n)
    children: list[list[int]] = [[] for _ in range(2 * n)]
    base = [*range(n), *([-1] * n)]
    child_ends: list[list[int]] = [[] for _ in range(2 * n)]
    best_edge = [-1] * (2 * n)
    blossom_best: list[list[int] | None] = [None] * (2 * n)
    unused = list(range(n, 2 * n))
    dual = [max_weight] * n + [0] * n  # doubled vertex duals, then blossom duals
    allowed = [False] * edge_count
    queue: list[int] = []

    def slack(k: int) -> int:
        return dual[endpoint[2 * k]] + dual[endpoint[2 * k + 1]] - weight2[k]

    def leaves(b: int) -> Iterator[int]:
        if b < n:
            yield b
            return
        stack = [b]
        while stack:
            top = stack.pop()
            for child in children[top]:
                if child < n:
                    yield child
                else:
                    stack.append(child)

    def assign_label(w: int, kind: int, p: int) -> None:
        while True:
            b = in_blossom[w]
            label[w] = label[b] = kind
            label_end[w] = label_end[b] = p
            best_edge[w] = best_edge[b] = -1
            if kind == _S:
                queue.extend(leaves(b))
                return
            # A T-blossom: its base is matched; the mate becomes an S-vertex.
            mate_end = mate[base[b]]
            w, kind, p = endpoint[mate_end], _S, mate_end ^ 1

    def find_base(v: int, w: int) -> int:
        """Walk back from v and w alternately; the first shared blossom is a new blossom's
        base (returned), or -1 when the two trees differ (an augmenting path)."""
        path: list[int] = []
        found = -1
        while v != -1 or w != -1:
            b = in_blossom[v]
            if label[b] & _CRUMB:
                found = base[b]
                break
            path.append(b)
            label[b] = _S | _CRUMB
            if label_end[b] == -1:
                v = -1
            else:
                v = endpoint[label_end[in_blossom[endpoint[label_end[b]]]]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = _S
        return found

    def add_blossom(new_base: int, k: int) -> None:
        v, w = endpoint[2 * k], endpoint[2 * k + 1]
        bb, bv, bw = in_blossom[new_base], in_blossom[v], in_blossom[w]
        b = unused.pop()
        base[b] = new_base
        parent[b] = -1
        parent[bb] = b
        path: list[int] = []
        ends: list[int] = []
        while bv != bb:
            parent[bv] = b
            path.append(bv)
            ends.append(label_end[bv])
            v = endpoint[label_end[bv]]
            bv = in_blossom[v]
        path.append(bb)
        path.reverse()
        ends.reverse()
        ends.append(2 * k)
        while bw != bb:
            parent[bw] = b
            path.append(bw)
            ends.append(label_end[bw] ^ 1)
            w = endpoint[label_end[bw]]
            bw = in_blossom[w]
        children[b] = path
        child_ends[b] = ends
        label[b] = _S
        label_end[b] = label_end[bb]
        dual[b] = 0
        for leaf in leaves(b):
            if label[in_blossom[leaf]] == _T:
                queue.append(leaf)  # a T-vertex inside a new S-blossom is now S
            in_blossom[leaf] = b
        # The least-slack edge from the new blossom to every other S-blossom.
        best_to = [-1] * (2 * n)
        best_slack = [0] * (2 * n)
        for sub in path:
            sub_list = blossom_best[sub]
            candidates: Iterator[int] | list[int]
            if sub_list is None:
                candidates = (p // 2 for leaf in leaves(sub) for p in neighbours[leaf])
            else:
                candidates = sub_list
            for kk in candidates:
                i, j = endpoint[2 * kk], endpoint[2 * kk + 1]
                if in_blossom[j] == b:
                    i, j = j, i
                bj = in_blossom[j]
                if bj != b and label[bj] == _S:
                    s = slack(kk)
                    if best_to[bj] == -1 or s < best_slack[bj]:
                        best_to[bj] = kk
                        best_slack[bj] = s
            blossom_best[sub] = None
            best_edge[sub] = -1
        found = [kk for kk in best_to if kk != -1]
        blossom_best[b] = found
        best = -1
        best_s = 0
        for kk in found:
            s = slack(kk)
            if best == -1 or s < best_s:
                best, best_s = kk, s
        best_edge[b] = best

    def expand_blossom(b: int, end_of_stage: bool) -> None:
        for sub in children[b]:
            parent[sub] = -1
            if sub < n:
                in_blossom[sub] = sub
            elif end_of_stage and dual[sub] == 0:
                expand_blossom(sub, end_of_stage)
            else:
                for leaf in leaves(sub):
                    in_blossom[leaf] = sub
        if not end_of_stage and label[b] == _T:
            # Relabel the sub-blossoms on the even path from the entry to the base.
            entry = in_blossom[endpoint[label_end[b] ^ 1]]
            kids = children[b]
            ends = child_ends[b]
            j = kids.index(entry)
            if j & 1:
                j -= len(kids)
                step, trick = 1, 0
            else:
                step, trick = -1, 1
            p = label_end[b]
            while j != 0:
                label[endpoint[p ^ 1]] = _FREE
                label[endpoint[ends[j - trick] ^ trick ^ 1]] = _FREE
                assign_label(endpoint[p ^ 1], _T, p)
                allowed[ends[j - trick] // 2] = True
                j += step
                p = ends[j - trick] ^ trick
                allowed[p // 2] = True
                j += step
            sub = kids[j]
            label[endpoint[p ^ 1]] = label[sub] = _T
            label_end[endpoint[p ^ 1]] = label_end[sub] = p
            best_edge[sub] = -1
            j += step
            while kids[j] != entry:
                sub = kids[j]
                if label[sub] == _S:
                    j += step
                    continue
                reached = -1
                for leaf in leaves(sub):
                    if label[leaf] != _FREE:
                        reached = leaf
                        break
                if reached != -1:
                    label[reached] = _FREE
                    label[endpoint[mate[base[sub]]]] = _FREE
                    assign_label(reached, _T, label_end[reached])
                j += step
        label[b] = label_end[b] = -1
        children[b] = []
        child_ends[b] = []
        base[b] = -1
        blossom_best[b] = None
        best_edge[b] = -1
        unused.append(b)

    def augment_blossom(b: int, v: int) -> None:
        """Flip the alternating path inside blossom b from vertex v to its base."""
        t = v
        while parent[t] != b:
            t = parent[t]
        if t >= n:
            augment_blossom(t, v)
        kids = children[b]
        ends = child_ends[b]
        i = j = kids.index(t)
        if i & 1:
            j -= len(kids)
            step, trick = 1, 0
        else:
            step, trick = -1, 1
        while j != 0:
            j += step
            t = kids[j]
            p = ends[j - trick] ^ trick
            if t >= n:
                augment_blossom(t, endpoint[p])
            j += step
            t = kids[j]
            if t >= n:
                augment_blossom(t, endpoint[p ^ 1])
            mate[endpoint[p]] = p ^ 1
            mate[endpoint[p ^ 1]] = p
        children[b] = kids[i:] + kids[:i]
        child_ends[b] = ends[i:] + ends[:i]
        base[b] = base[children[b][0]]

    def augment_matching(k: int) -> None:
        for s, p in ((endpoint[2 * k], 2 * k + 1), (endpoint[2 * k + 1], 2 * k)):
            while True:
                bs = in_blossom[s]
                if bs >= n:
                    augment_blossom(bs, s)
                mate[s] = p
                if label_end[bs] == -1:
                    break
                t = endpoint[label_end[bs]]
                bt = in_blossom[t]
                s = endpoint[label_end[bt]]
                j = endpoint[label_end[bt] ^ 1]
                if bt >= n:
                    augment_blossom(bt, j)
                mate[j] = label_end[bt]
                p = label_end[bt] ^ 1

    for _stage in range(n):
        label[:] = [_FREE] * (2 * n)
        best_edge[:] = [-1] * (2 * n)
        blossom_best[n:] = [None] * n
        allowed[:] = [False] * edge_count
        queue.clear()
        for v in range(n):
            if mate[v] == -1 and label[in_blossom[v]] == _FREE:
                assign_label(v, _S, -1)
        augmented = False
        while True:
            while queue and not augmented:
                v = queue.pop()
                bv = in_blossom[v]
                for p in neighbours[v]:
                    k = p >> 1
                    w = endpoint[p]
                    bw = in_blossom[w]
                    if bv == bw:
                        continue
                    if not allowed[k]:
                        k_slack = dual[v] + dual[w] - weight2[k]
                        if k_slack <= 0:
                            allowed[k] = True
                    if allowed[k]:
                        if label[bw] == _FREE:
                            assign_label(w, _T, p ^ 1)
                        elif label[bw] == _S:
                            found = find_base(v, w)
                            if found >= 0:
                                add_blossom(found, k)
                                bv = in_blossom[v]
                            else:
                                augment_matching(k)
                                augmented = True
                                break
                        elif label[w] == _FREE:
                            label[w] = _T
                            label_end[w] = p ^ 1
                    elif label[bw] == _S:
                        if best_edge[bv] == -1 or k_slack < slack(best_edge[bv]):
                            best_edge[bv] = k
                    elif label[w] == _FREE and (
                        best_edge[w] == -1 or k_slack < slack(best_edge[w])
                    ):
                        best_edge[w] = k
            if augmented:
                break
            # No augmenting path over tight edges: move the duals by the least delta.
            delta_kind = -1
            delta = 0
            delta_edge = -1
            delta_blossom = -1
            if not max_cardinality:
                delta_kind = 1
                delta = min(dual[:n])
            for v in range(n):
                if label[in_blossom[v]] == _FREE and best_edge[v] != -1:
                    d = slack(best_edge[v])
                    if delta_kind == -1 or d < delta:
                        delta, delta_kind, delta_edge = d, 2, best_edge[v]
            for b in range(2 * n):
                if parent[b] == -1 and label[b] == _S and best_edge[b] != -1:
                    d = slack(best_edge[b]) // 2  # S-S slacks are even
                    if delta_kind == -1 or d < delta:
                        delta, delta_kind, delta_edge = d, 3, best_edge[b]
            for b in range(n, 2 * n):
                if (
                    base[b] >= 0
                    and parent[b] == -1
                    and label[b] == _T
                    and (delta_kind == -1 or dual[b] < delta)
                ):
                    delta, delta_kind, delta_blossom = dual[b], 4, b
            if delta_kind == -1:
                # Max cardinality reached; a last update keeps the duals consistent.
                delta_kind = 1
                delta = max(0, min(dual[:n]))
            for v in range(n):
                top_label = label[in_blossom[v]]
                if top_label == _S:
                    dual[v] -= delta
                elif top_label == _T:
                    dual[v] += delta
            for b in range(n, 2 * n):
                if base[b] >= 0 and parent[b] == -1:
                    if label[b] == _S:
                        dual[b] += delta
                    elif label[b] == _T:
                        dual[b] -= delta
            if delta_kind == 1:
                break
            if delta_kind == 2:
                allowed[delta_edge] = True
                i, j = endpoint[2 * delta_edge], endpoint[2 * delta_edge + 1]
                if label[in_blossom[i]] == _FREE:
                    i = j
                queue.append(i)
            elif delta_kind == 3:
                allowed[delta_edge] = True
                queue.append(endpoint[2 * delta_edge])
            else:
                expand_blossom(delta_blossom, False)
        if not augmented:
            break
        for b in range(n, 2 * n):
            if parent[b] == -1 and base[b] >= 0 and label[b] == _S and dual[b] == 0:
                expand_blossom(b, True)

    return [endpoint[m] if m >= 0 else -1 for m in mate]
