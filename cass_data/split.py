"""`split`: train / validation / test, grouped so that no origin (repository or program family)
spans two splits. Groups are origins joined with any units whose texts are near each other
(MinHash Jaccard >= `group_threshold`), so a lightly edited copy in another repository follows
its original. A group's split is a function of its name and the seed alone (sha256 -> [0, 1)),
so adding data never moves an existing group.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SplitSettings:
    validation: float = 0.05
    test: float = 0.05
    seed: str = "cass-data"
    group_threshold: float = 0.6


class _Groups:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)  # the smallest name represents the group


def assign(units: list[dict[str, Any]], hashes: dict[str, Any], s: SplitSettings) -> dict[str, str]:
    """unit id -> split name."""
    from datasketch import MinHashLSH

    groups = _Groups()
    origin_of = {u["id"]: "origin:" + u["origin"] for u in units}
    for o in sorted(set(origin_of.values())):
        groups.find(o)
    lsh = MinHashLSH(threshold=s.group_threshold, num_perm=next(iter(hashes.values())).hashvalues.size) if hashes else None
    for uid in sorted(origin_of):
        if lsh is None or uid not in hashes:
            continue
        for other in lsh.query(hashes[uid]):
            if hashes[uid].jaccard(hashes[other]) >= s.group_threshold:
                groups.union(origin_of[uid], origin_of[other])
        lsh.insert(uid, hashes[uid])
    out = {}
    for uid, origin in origin_of.items():
        out[uid] = split_of(groups.find(origin), s)
    return out


def split_of(group: str, s: SplitSettings) -> str:
    x = int(hashlib.sha256(f"{s.seed}\0{group}".encode()).hexdigest()[:15], 16) / float(1 << 60)
    if x < s.test:
        return "test"
    if x < s.test + s.validation:
        return "validation"
    return "train"
