#!/usr/bin/env python3
"""Checks strata's include graph against the layering rule of docs/architecture.md: includes point down only.

  scripts/check_includes.py include/strata

Every header under the directory is placed in a layer of LAYERS (below) and its includes are read (comments
ignored). An include is an error where it points

  up        to a higher rank,
  sideways  to a different layer of the same rank, or to another directory of the same layer (the layer's own
            specializations/ subfolder counts as its directory; an `open` layer may include anywhere within),
  thrust    to <thrust/...> from a layer that is not `thrust` (execution/ and the umbrella header),
  host-only from a host-only layer (backend/) to a header that is not host-safe,
  missing   to a strata header that does not exist;

any cycle of includes is an error, as is device code in a host-only header and a header that no layer holds.
A header is host-safe when neither it nor anything it includes has device code (__device__, __global__,
__shared__, a kernel launch, or a macro of the tree that expands to one of these); preprocessor lines are not
code. Quoted includes resolve against the including file's directory, then against the directory above the
checked one; <strata/...> includes against the latter. Errors go to stdout as `file:line: error [rule]: ...`,
then one summary line; the exit status is 1 where there are errors, 0 otherwise.
"""
import argparse
import os
import re
import sys
from collections import namedtuple

# A layer: its rank (includes point to a lower rank), a name, and its members: paths relative to include/strata,
# where a trailing "/" takes the directory and everything below it (the longest matching member decides).
#   open:     any member may include any other member (not only within its own directory)
#   thrust:   may include <thrust/...>: the layers built on Thrust (execution/ and the umbrella); everything below
#             them, the device layer included, knows nothing of Thrust
#   host:     host-only: holds no device code and includes only host-safe headers
#   reaches:  names of higher layers it may include nonetheless (a host-only layer, only their host-safe headers)
Layer = namedtuple("Layer", "rank name members open thrust host reaches")


def layer(rank, name, *members, open=False, thrust=False, host=False, reaches=()):
    return Layer(rank, name, members, open, thrust, host, reaches)


# Lowest first. Anything may include the backend; the umbrella may include anything.
LAYERS = (
    layer(-1, "backend", "backend/", open=True, host=True, reaches=("base",)),
    layer(0, "base", "config.cuh", "determinism.cuh", "nvtx.cuh", "util/", open=True),
    layer(1, "thread", "thread/"),
    layer(2, "warp", "warp/"),
    layer(3, "block", "block/"),
    layer(4, "agent", "agent/"),
    # ChainedPolicy, the chain every tuning is built as, sits with the tunings.
    layer(5, "tuning", "device/dispatch/tuning/", "device/dispatch/chained_policy.cuh", open=True),
    layer(6, "dispatch", "device/dispatch/"),
    layer(7, "device", "device/"),
    layer(8, "execution", "execution/", thrust=True),
    layer(9, "umbrella", "strata.cuh", open=True, thrust=True),
)

# Subfolders that belong to their parent directory's layer unit: algorithm variants beside the public collective.
SAME_DIRECTORY_SUBFOLDERS = ("specializations",)

HEADER_SUFFIXES = (".cuh", ".hpp", ".h", ".hh", ".hxx", ".inl")

# Device code: CUDA's execution-space and memory-space qualifiers, built-in device variables, kernel launches.
DEVICE_CODE = re.compile(r"(?<!\w)(?:__device__|__global__|__shared__|__constant__|__managed__|__launch_bounds__"
                         r"|__syncthreads\w*|threadIdx|blockIdx|blockDim|gridDim)(?!\w)|<<<")

# Comments, raw strings, numbers (for C++14 digit separators: 1'000) and string or character literals.
_LEXEMES = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
  | (?P<raw>(?<!\w)(?:u8|[uUL])?R"(?P<delim>[^()\\\s]{0,16})\(.*?\)(?P=delim)")
  | (?P<number>(?<![\w.])\.?\d(?:[eEpP][+-]|'(?=\w)|[\w.])*)
  | (?P<literal>"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)
""", re.S | re.X)
_INCLUDE = re.compile(r"\s*#\s*include\s*([<\"])([^>\"\n]*)[>\"]")
_DEFINE = re.compile(r"\s*#\s*define\s+(\w+)(?:\([^)]*\))?(.*)", re.S)
_WORD = re.compile(r"\w+")

Include = namedtuple("Include", "line text name target")  # target: a checked header's path, or None
Error = namedtuple("Error", "path line rule message")
Result = namedtuple("Result", "files edges errors")


def blank(text, literals):
    """`text` with comments, and the insides of string and character literals where `literals`, turned to spaces;
    newlines stay, so line numbers do too."""
    def replace(m):
        s = m.group(0)
        if m.group("comment") is not None:
            return re.sub(r"[^\n]", " ", s)
        if literals and (m.group("raw") is not None or m.group("literal") is not None):
            return s[0] + re.sub(r"[^\n]", " ", s[1:-1]) + s[-1] if len(s) > 1 else s
        return s
    return _LEXEMES.sub(replace, text)


def directives(lines):
    """[(first line number, the directive with its continuation lines joined)] and the set of line numbers that
    belong to a preprocessor directive."""
    found, numbers, current = [], set(), None
    for number, line in enumerate(lines, 1):
        if current is None and line.lstrip().startswith("#"):
            current = (number, [])
            found.append(current)
        if current is not None:
            numbers.add(number)
            current[1].append(line.rstrip().rstrip("\\"))
            if not line.rstrip().endswith("\\"):
                current = None
    return [(number, " ".join(parts)) for number, parts in found], numbers


class Header:
    def __init__(self, root, rel):
        self.rel = rel
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        # Includes, from the text without comments (the quoted name of an include is a string literal).
        self.raw_includes = []
        for number, line in enumerate(blank(text, literals=False).split("\n"), 1):
            m = _INCLUDE.match(line)
            if m:
                self.raw_includes.append((number, line.strip(), m.group(1), m.group(2).strip()))
        # Macro definitions and code lines, from the text without comments and literals.
        code = blank(text, literals=True).split("\n")
        found, directive_lines = directives(code)
        self.defines = [m.groups() for m in (_DEFINE.match(d) for _, d in found) if m]
        self.code = [(n, line) for n, line in enumerate(code, 1) if n not in directive_lines and line.strip()]
        self.includes = []
        self.device_code = []  # [(line, what)]


def layer_of(rel, layers):
    best = None
    for lay in layers:
        for member in lay.members:
            matches = rel.startswith(member) if member.endswith("/") else rel == member
            if matches and (best is None or len(member) > len(best[1])):
                best = (lay, member)
    return best[0] if best else None


def unit_of(rel):
    """The directory a header belongs to for the sideways rule: its own, less a trailing specializations/."""
    parts = rel.split("/")[:-1]
    if parts and parts[-1] in SAME_DIRECTORY_SUBFOLDERS:
        parts.pop()
    return "/".join(parts)


def device_macros(headers):
    """Names of the tree's macros that expand to device code in some definition (directly or through another)."""
    bodies = {}
    for h in headers:
        for name, body in h.defines:
            bodies.setdefault(name, []).append(body)
    device = {name for name, bs in bodies.items() if any(DEVICE_CODE.search(b) for b in bs)}
    while True:
        more = {name for name, bs in bodies.items()
                if name not in device and any(device & set(_WORD.findall(b)) for b in bs)}
        if not more:
            return device
        device |= more


def find_cycles(headers):
    """One cycle [a, b, ..., a] per strongly connected set of headers that include each other (Tarjan)."""
    graph = {h.rel: sorted({i.target for i in h.includes if i.target}) for h in headers}
    index, low, stack, on_stack, sets = {}, {}, [], set(), []

    def connect(v):  # recursion depth is bounded by the include depth of the tree
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            members = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                members.add(w)
                if w == v:
                    break
            if len(members) > 1 or v in graph[v]:
                sets.append(members)

    for v in sorted(graph):
        if v not in index:
            connect(v)
    cycles = []
    for members in sets:
        start = min(members)
        paths, queue = {start: [start]}, [start]  # breadth first: the shortest way back to start
        while queue:
            v = queue.pop(0)
            for w in graph[v]:
                if w == start:
                    cycles.append((paths[v] + [start], members))
                    queue = []
                    break
                if w in members and w not in paths:
                    paths[w] = paths[v] + [w]
                    queue.append(w)
    return cycles


def check(directory, layers=LAYERS):
    """Result(files, edges, errors) of the headers under `directory` (include/strata)."""
    directory = os.path.normpath(directory)
    include_root = os.path.dirname(directory)
    package = os.path.basename(directory)
    rels = sorted(os.path.relpath(os.path.join(d, f), directory).replace(os.sep, "/")
                  for d, _, files in os.walk(directory) for f in files if f.endswith(HEADER_SUFFIXES))
    headers = {rel: Header(directory, rel) for rel in rels}
    errors = []

    def error(rel, line, rule, message):
        errors.append(Error(os.path.join(directory, rel), line, rule, message))

    def resolve(h, bracket, name):
        """A checked header's path, None for a header from elsewhere, or "" for a strata header that is missing."""
        candidates = [os.path.join(include_root, name)]
        if bracket == '"':
            candidates.insert(0, os.path.join(directory, os.path.dirname(h.rel), name))
        elif not name.startswith(package + "/"):
            return None
        for c in candidates:
            rel = os.path.relpath(os.path.normpath(c), directory).replace(os.sep, "/")
            if rel in headers:
                return rel
        return ""

    device = device_macros(headers.values())
    for h in headers.values():
        h.includes = [Include(n, text, name, resolve(h, bracket, name)) for n, text, bracket, name in h.raw_includes]
        for n, line in h.code:
            found = DEVICE_CODE.findall(line) + [w for w in _WORD.findall(line) if w in device]
            if found:
                h.device_code.append((n, found[0]))

    unsafe = {}  # rel -> None (host-safe) or (rel, line, what) of the first device code it reaches

    def device_code_reached(rel):
        if rel not in unsafe:
            unsafe[rel] = None  # a cycle is reported on its own; here it adds nothing
            h = headers[rel]
            reached = [(rel,) + h.device_code[0]] if h.device_code else []
            reached += [device_code_reached(i.target) for i in h.includes if i.target]
            unsafe[rel] = next((r for r in reached if r), None)
        return unsafe[rel]

    edges = 0
    for rel, h in headers.items():
        lay = layer_of(rel, layers)
        if lay is None:
            error(rel, 1, "unlisted", "%s is in no layer of check_includes.py's LAYERS; add it to the table" % rel)
        elif lay.host:
            for n, what in h.device_code:
                error(rel, n, "host-only", "%s: the %s layer is host-only and holds no device code" % (what, lay.name))
        for inc in h.includes:
            what = "'%s'" % inc.text
            if inc.name.startswith("thrust/"):
                if lay and not lay.thrust:
                    allowed = ", ".join(x.name for x in layers if x.thrust is True)
                    error(rel, inc.line, "thrust", "%s: Thrust is known to %s alone, not to %s"
                          % (what, allowed, lay.name))
                continue
            if inc.target == "":
                error(rel, inc.line, "missing", "%s names no header of %s" % (what, directory))
                continue
            if inc.target is None:
                continue
            edges += 1
            to = layer_of(inc.target, layers)
            if lay is None or to is None:
                continue
            if to.rank > lay.rank and to.name not in lay.reaches:
                error(rel, inc.line, "up", "%s: %s (rank %d) includes %s (rank %d), a higher layer"
                      % (what, lay.name, lay.rank, to.name, to.rank))
            elif to.rank == lay.rank and to is not lay:
                error(rel, inc.line, "sideways", "%s: %s and %s are both at rank %d"
                      % (what, lay.name, to.name, lay.rank))
            elif to is lay and not lay.open and unit_of(rel) != unit_of(inc.target):
                error(rel, inc.line, "sideways", "%s: %s/ and %s/ are different directories of the %s layer"
                      % (what, unit_of(rel), unit_of(inc.target), lay.name))
            elif lay.host and not to.host:
                reached = device_code_reached(inc.target)
                if reached:
                    error(rel, inc.line, "host-only", "%s: the %s layer is host-only, and %s is not host-safe "
                          "(device code at %s:%d: %s)" % ((what, lay.name, inc.target) + reached))

    for cycle, members in find_cycles(headers.values()):
        first = next(i for i in headers[cycle[0]].includes if i.target == cycle[1])
        others = sorted(members - set(cycle))
        error(cycle[0], first.line, "cycle", "'%s': include cycle %s%s" % (
            first.text, " -> ".join(cycle),
            " (with %s in the same cycle set)" % ", ".join(others) if others else ""))

    errors.sort(key=lambda e: (e.path, e.line, e.rule))
    return Result(len(headers), edges, errors)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("directory", help="the headers' directory, e.g. include/strata")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.directory):
        parser.error("%s is not a directory" % args.directory)
    result = check(args.directory)
    for e in result.errors:
        print("%s:%d: error [%s]: %s" % e)
    print("check_includes: %d files, %d edges, %d error%s" % (result.files, result.edges, len(result.errors),
                                                              "" if len(result.errors) == 1 else "s"))
    return 1 if result.errors else 0


if __name__ == "__main__":
    sys.exit(main())
