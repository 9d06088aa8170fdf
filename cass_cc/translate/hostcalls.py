"""Host side effects a translation must not add: the check on every model answer.

A CUDA -> HIP translation renames GPU APIs; it never needs to start a process, touch a
file, open a socket or load a library that the source did not. Compiling an answer only
proves it is C++: `system("...")` added to host code compiles and would be linked into the
user's program. So an answer is rejected when it uses a name of SIDE_EFFECTS that the
source does not use (`added(source, answer)`); the chain then serves the next translator.

What counts as using a name, on the tokens (comments and string literals do not count):
- a function (kind "call"): called or named as a value, unqualified or qualified
  (`system(`, `::system(`, `std::system(`, `&system`, `#define RUN system`), but not a member
  (`x.open(`, `p->remove(`: some class's own method, not the C library's);
- a type or namespace (kind "name": `std::ofstream`, `std::filesystem::remove`): anywhere.

A name the source itself uses is allowed in the answer (a program that writes its results
with fopen keeps doing so). Function names that are also common user identifiers (`read`,
`write`, `send`) are left out unless their only use is the side effect.
"""
from __future__ import annotations

from .lexer import tokenize

# name -> (kind, what it does). Sorted by name (tests/hostile/test_endpoint.py checks it).
SIDE_EFFECTS: dict[str, tuple[str, str]] = {
    "_popen": ("call", "process"),
    "accept": ("call", "network"),
    "accept4": ("call", "network"),
    "basic_filebuf": ("name", "file"),
    "basic_fstream": ("name", "file"),
    "basic_ifstream": ("name", "file"),
    "basic_ofstream": ("name", "file"),
    "chdir": ("call", "file"),
    "chmod": ("call", "file"),
    "chown": ("call", "file"),
    "chroot": ("call", "process"),
    "clone": ("call", "process"),
    "connect": ("call", "network"),
    "creat": ("call", "file"),
    "creat64": ("call", "file"),
    "daemon": ("call", "process"),
    "dlmopen": ("call", "library"),
    "dlopen": ("call", "library"),
    "dlsym": ("call", "library"),
    "dlvsym": ("call", "library"),
    "execl": ("call", "process"),
    "execle": ("call", "process"),
    "execlp": ("call", "process"),
    "execv": ("call", "process"),
    "execve": ("call", "process"),
    "execvp": ("call", "process"),
    "execvpe": ("call", "process"),
    "fchmod": ("call", "file"),
    "fexecve": ("call", "process"),
    "filebuf": ("name", "file"),
    "filesystem": ("name", "file"),
    "fopen": ("call", "file"),
    "fopen64": ("call", "file"),
    "fork": ("call", "process"),
    "freopen": ("call", "file"),
    "fstream": ("name", "file"),
    "getaddrinfo": ("call", "network"),
    "gethostbyname": ("call", "network"),
    "ifstream": ("name", "file"),
    "kill": ("call", "process"),
    "lchown": ("call", "file"),
    "link": ("call", "file"),
    "linkat": ("call", "file"),
    "listen": ("call", "network"),
    "mkdir": ("call", "file"),
    "mkdirat": ("call", "file"),
    "mkfifo": ("call", "file"),
    "mknod": ("call", "file"),
    "mkstemp": ("call", "file"),
    "ofstream": ("name", "file"),
    "open": ("call", "file"),
    "open64": ("call", "file"),
    "openat": ("call", "file"),
    "opendir": ("call", "file"),
    "popen": ("call", "process"),
    "posix_spawn": ("call", "process"),
    "posix_spawnp": ("call", "process"),
    "ptrace": ("call", "process"),
    "putenv": ("call", "process"),
    "recvfrom": ("call", "network"),
    "remove": ("call", "file"),
    "rename": ("call", "file"),
    "renameat": ("call", "file"),
    "renameat2": ("call", "file"),
    "rmdir": ("call", "file"),
    "sendto": ("call", "network"),
    "setenv": ("call", "process"),
    "setgid": ("call", "process"),
    "setuid": ("call", "process"),
    "socket": ("call", "network"),
    "socketpair": ("call", "network"),
    "symlink": ("call", "file"),
    "syscall": ("call", "process"),
    "system": ("call", "process"),
    "tmpfile": ("call", "file"),
    "truncate": ("call", "file"),
    "unlink": ("call", "file"),
    "unlinkat": ("call", "file"),
    "vfork": ("call", "process"),
    "wfstream": ("name", "file"),
    "wifstream": ("name", "file"),
    "wofstream": ("name", "file"),
}
_SKIP = ("space", "newline", "comment", "continuation")
_MEMBER = (".", "->")


def side_effects(text: str) -> set[str]:
    """The names of SIDE_EFFECTS that `text` uses (see the module docstring)."""
    tokens = [t for t in tokenize(text) if t.kind not in _SKIP]
    used: set[str] = set()
    for n, tok in enumerate(tokens):
        entry = SIDE_EFFECTS.get(tok.text) if tok.kind == "ident" else None
        if entry is None:
            continue
        before = tokens[n - 1].text if n else ""
        after = tokens[n + 1].text if n + 1 < len(tokens) else ""
        if entry[0] == "name":
            used.add(tok.text)
        elif before not in _MEMBER and (after == "(" or before == "&" or tok.directive == "define"):
            used.add(tok.text)
    return used


def added(source: str, answer: str) -> list[str]:
    """The side-effect names `answer` uses and `source` does not, sorted."""
    return sorted(side_effects(answer) - side_effects(source))


def describe(names: list[str]) -> str:
    """'system (process), fopen (file)' for a message."""
    return ", ".join(f"{n} ({SIDE_EFFECTS[n][1]})" for n in names)
