"""What a port writes, and how: nothing blocks, no hand edit is lost, modes and hard links are kept.

    plan = Plan(root)            # the tree written: OUT, or SRC for --inplace
    plan.add(Write(...))         # every file, link and .cuda-orig backup, before any is written
    plan.edited()                # destinations changed since the last port wrote them
    plan.apply(report)           # each written atomically; failures go to the report

The first port leaves MANIFEST at the top of the tree it wrote: a digest per file it wrote.
A later port compares each destination with it before writing anything, so a ported file
edited by hand (or a file in OUT that no port wrote) is named, not silently replaced.
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Callable

from ..util import atomic_path, atomic_write_text, sha256
from .report import FAILED, FileResult, Report
from .walk import MANIFEST, file_kind

CHUNK = 1 << 20


class NotRegular(OSError):
    """A path that was a regular file when the tree was walked and is something else now."""


class CannotRead(Exception):
    """A copy's source could not be read (gone, or no longer a regular file): told as a read, not a write."""

    def __init__(self, path: Path, error: OSError):
        super().__init__(f"cannot read {path}: {error.strerror or error}")


def open_regular(path: Path) -> int:
    """A read-only descriptor of the regular file `path`, never following a link. O_NONBLOCK:
    opening a FIFO that took a file's place returns at once (then refused) instead of waiting
    for a writer; lstat first, so a device is not even opened."""
    mode = os.lstat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotRegular(errno.EINVAL, f"{file_kind(mode)}, not a regular file", str(path))
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotRegular(errno.EINVAL, f"{file_kind(mode)}, not a regular file", str(path))
    return fd


def read_regular(path: Path) -> bytes:
    with os.fdopen(open_regular(path), "rb") as f:
        return f.read()


def digest(data: bytes) -> str:
    return "sha256:" + sha256(data).hexdigest()


def file_identity(path: Path) -> str | None:
    """What is at `path` now, as the manifest records it: a file's digest, a link's target;
    None when nothing a port would lose is there (absent, a folder, a FIFO)."""
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            return "link:" + os.readlink(path)
        if not stat.S_ISREG(mode):
            return None
        h = sha256()
        with os.fdopen(open_regular(path), "rb") as f:
            for chunk in iter(lambda: f.read(CHUNK), b""):
                h.update(chunk)
        return "sha256:" + h.hexdigest()
    except OSError:
        return None


@dataclass
class Write:
    rel: str  # the report's name for it (relative to the source tree)
    dest: Path
    key: str  # dest relative to the written tree, the manifest's key; "" = not recorded (a backup)
    data: bytes | None = None  # the content, or
    copy_from: Path | None = None  # a file to copy (its mode and times too), or
    link: str | None = None  # a symbolic link's target
    mode: int | None = None  # permission bits of `data` (copies take their source's)
    inode: tuple[int, int] | None = None  # (st_dev, st_ino) of the input: same input inode, one output inode
    original: Path | None = None  # --inplace: the .cuda-orig holding the file's first content
    check: bool = True  # False: an earlier write keeps the current content (a new .cuda-orig)
    result: FileResult | None = None  # where a failure is told (None: a new "other" entry)
    after: Write | None = None  # written only when this one was (the .cuda-orig before its file)

    def identity(self) -> str | None:
        if self.link is not None:
            return "link:" + self.link
        if self.data is not None:
            return digest(self.data)
        return file_identity(self.copy_from) if self.copy_from is not None else None

    def sharing_key(self) -> tuple[object, ...] | None:
        """Writes with equal keys write the same bytes for the same input inode: one output inode."""
        if self.inode is None or self.link is not None:
            return None
        return (self.inode, digest(self.data) if self.data is not None else "copy", self.mode)


@dataclass
class Plan:
    root: Path
    writes: list[Write] = field(default_factory=list)
    records: dict[str, str] = field(default_factory=dict)  # the manifest: key -> identity

    def __post_init__(self) -> None:
        self.records = load_manifest(self.root / MANIFEST)
        self._old = dict(self.records)

    def add(self, write: Write) -> None:
        self.writes.append(write)

    def edited(self) -> list[Path]:
        """Destinations a write would replace that hold something no port wrote there and that
        is not the new content (or, --inplace, the original): writing would lose it."""
        found = []
        for w in self.writes:
            if not w.check:
                continue
            now = file_identity(w.dest)
            if now is None or now == self.records.get(w.key) or now == w.identity():
                continue
            if w.original is not None and now == file_identity(w.original):
                continue  # put back to the original by hand: the .cuda-orig has it
            found.append(w.dest)
        return found

    def apply(self, report: Report) -> None:
        """Each write atomically (a temporary name renamed into place: nothing half written).
        A failure is that file's one-line error in the report; the rest go on."""
        shared: dict[tuple[object, ...], tuple[Path, str]] = {}
        failed: set[int] = set()
        for w in self.writes:
            if w.after is not None and id(w.after) in failed:
                failed.add(id(w))  # its original is not kept elsewhere: left as it is
                continue
            try:
                _refuse_linked_folder(w.dest, self.root)
                key = w.sharing_key()
                if key is not None and key in shared:
                    identity = _hard_link(shared[key][0], w.dest, shared[key][1]) or _put(w)
                else:
                    identity = _put(w)
                    if key is not None:
                        shared[key] = (w.dest, identity)
            except (OSError, CannotRead) as e:
                failed.add(id(w))
                _fail(report, w, str(e) if isinstance(e, CannotRead) else f"cannot write {w.dest}: {e.strerror or e}")
                continue
            if w.key:
                self.records[w.key] = identity
            if w.result is None and w.copy_from is not None:
                report.copied += 1
        if self.records != self._old:
            record = {"cass-cc port": 1, "files": dict(sorted(self.records.items()))}
            try:
                atomic_write_text(self.root / MANIFEST, json.dumps(record, indent=1) + "\n")
            except OSError as e:  # the next port then finds no record and compares contents
                error = f"cannot write {self.root / MANIFEST}: {e.strerror}"
                report.files.append(FileResult(MANIFEST, "other", status=FAILED, error=error))


def load_manifest(path: Path) -> dict[str, str]:
    """The last port's records; {} when there is none or it cannot be read (then every
    destination is compared by content, the safe side)."""
    try:
        data = json.loads(read_regular(path))
        files = data["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(files, dict) else {}


def _fail(report: Report, w: Write, error: str) -> None:
    if w.result is None:
        report.files.append(FileResult(w.rel, "other", status=FAILED, error=error))
    elif w.result.status == FAILED:
        w.result.error += f"; {error}"
    else:
        w.result.status, w.result.error = FAILED, error


def _refuse_linked_folder(dest: Path, root: Path) -> None:
    """A folder of the written tree that became a symbolic link (an earlier port recreated a
    linked folder there) would take the write out of the tree: refused."""
    for parent in dest.parents:
        if parent == root or root not in parent.parents:
            return
        if parent.is_symlink():
            raise OSError(errno.ELOOP, f"{parent} is a symbolic link, not a folder")


def _put(w: Write) -> str:
    """Write `w` under a temporary name with its mode (and a copy's times), then rename it in."""
    if w.link is not None:
        with atomic_path(w.dest) as tmp:
            os.symlink(w.link, tmp)
        return "link:" + w.link
    with contextlib.ExitStack() as stack:
        source = None
        if w.data is None:
            assert w.copy_from is not None
            try:
                source = stack.enter_context(os.fdopen(open_regular(w.copy_from), "rb"))
            except OSError as e:
                raise CannotRead(w.copy_from, e) from None
        with atomic_path(w.dest) as tmp:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
            with os.fdopen(fd, "wb") as out:
                if source is None:
                    assert w.data is not None
                    out.write(w.data)
                    identity, mode, times = digest(w.data), w.mode, None
                else:
                    identity, mode, times = _copy_into(source, out.write)
            if mode is not None:
                os.chmod(tmp, stat.S_IMODE(mode))
            if times is not None:
                os.utime(tmp, ns=times)
        return identity


def _copy_into(f: BinaryIO, write: Callable[[bytes], object]) -> tuple[str, int, tuple[int, int]]:
    """Copy the open regular file `f` through `write`; its digest, mode and (atime, mtime)."""
    st = os.fstat(f.fileno())
    h = sha256()
    for chunk in iter(lambda: f.read(CHUNK), b""):
        h.update(chunk)
        write(chunk)
    return "sha256:" + h.hexdigest(), st.st_mode, (st.st_atime_ns, st.st_mtime_ns)


def _hard_link(first: Path, dest: Path, identity: str) -> str | None:
    """`dest` as another name of `first` (renamed into place); None where the file system
    cannot link (then the caller writes a copy)."""
    try:
        with atomic_path(dest) as tmp:
            os.link(first, tmp)
    except OSError as e:
        if e.errno in (errno.EMLINK, errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EOPNOTSUPP):
            return None
        raise
    return identity
