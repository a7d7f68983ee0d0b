#!/bin/bash
# include_dag.sh: the source files' dependency graph is a DAG. A file depends on another when it
# uses a function or global the other defines (not static), which it sees through a header: so
# "A includes B's header and B includes A's" and "A and B call each other through one shared
# header" are both cycles. Every cycle is printed with the names each edge uses, and fails the
# check. $1: the source root (src/ and cli/ are read); --self-test: the check must find a cycle
# planted in a temporary tree, and pass once it is broken. No build, no device; well under 2 s.
set -u

check() {
    python3 - "$1" <<'PY'
import collections, os, re, sys

root = sys.argv[1]
files = sorted(os.path.relpath(os.path.join(d, f), root)
               for top in ('src', 'cli') if os.path.isdir(os.path.join(root, top))
               for d, _, names in os.walk(os.path.join(root, top))
               for f in names if f.endswith(('.c', '.h')))

def strip(text):
    """The text without comments, string and character literals, and preprocessor lines."""
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\\n])*'", "''", text)
    return re.sub(r'^\s*#(.*\\\n)*.*$', ' ', text, flags=re.M)

def definitions(text):
    """Names of the functions and variables a file defines with external linkage."""
    names, start, depth, body = set(), 0, 0, False
    decl = []  # the top-level text of the declaration being read
    for m in re.finditer(r'[{};]', text):
        ch, at = m.group(0), m.start()
        if depth:  # inside braces: a function body, or a braced part of a declaration
            depth += {'{': 1, '}': -1}.get(ch, 0)
            if depth == 0:
                start = at + 1
                if not body: decl.append(' {} ')
            continue
        decl.append(text[start:at])
        start = at + 1
        head = ''.join(decl)
        if ch == '{':
            fn = re.search(r'([A-Za-z_]\w*)\s*\(([^()]|\([^()]*\))*\)\s*$', head)
            body = bool(fn) and '=' not in head
            if body:
                if not re.search(r'\bstatic\b', head): names.add(fn.group(1))
                decl = []
            depth = 1
        elif ch == ';':  # the end of a declaration: a variable definition unless static/extern
            decl = []
            top = head.split('=')[0]
            if not re.search(r'\b(static|extern|typedef)\b', head) and '(' not in top:
                var = re.search(r'([A-Za-z_]\w*)\s*(\[[^\]]*\]\s*)*$', top.strip())
                if var: names.add(var.group(1))
    return names - {'main'}

text = {f: strip(open(os.path.join(root, f), errors='replace').read()) for f in files}
sources = [f for f in files if f.endswith('.c')]
defs = {f: definitions(text[f]) for f in sources}
owners = collections.defaultdict(list)
for f in sources:
    for name in defs[f]: owners[name].append(f)
# the headers that declare each name, for the report
declared = collections.defaultdict(set)
for h in files:
    if h.endswith('.h'):
        for name in set(re.findall(r'[A-Za-z_]\w*', text[h])) & owners.keys():
            declared[name].add(h)

edges = collections.defaultdict(dict)
for f in sources:
    for name in set(re.findall(r'[A-Za-z_]\w*', text[f])) - defs[f]:
        for o in owners.get(name, ()):
            if o != f: edges[f].setdefault(o, set()).add(name)

# strongly connected components (Tarjan, iterative): each one with more than one file is a cycle
index, low, on, stack, comps = {}, {}, set(), [], []
for start in sources:
    if start in index: continue
    work = [(start, iter(sorted(edges[start])))]
    index[start] = low[start] = len(index); stack.append(start); on.add(start)
    while work:
        v, it = work[-1]
        w = next(it, None)
        if w is not None:
            if w not in index:
                index[w] = low[w] = len(index); stack.append(w); on.add(w)
                work.append((w, iter(sorted(edges[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
            continue
        work.pop()
        if work: low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: comps.append(sorted(comp))

if not comps:
    print(f"ok: {len(sources)} source files under src/ and cli/, no dependency cycle")
    sys.exit(0)
for comp in comps:
    print("FAIL: these files depend on each other: " + ", ".join(comp))
    for a in comp:
        for b in sorted(edges[a]):
            if b in comp:
                names = sorted(edges[a][b])
                via = sorted(set().union(*(declared[x] for x in names)))
                print(f"    {a} -> {b}: {', '.join(names[:6])}{' ...' if len(names) > 6 else ''}"
                      f" ({', '.join(via) if via else 'declared in no header'})")
print("Move what both sides use to a file below them (its header declares it), so that one of "
      "the two no longer needs the other.")
sys.exit(1)
PY
}

if [ "${1:-}" = "--self-test" ]; then
    t=$(mktemp -d) || exit 2
    trap 'rm -rf "$t"' EXIT
    mkdir -p "$t/src"
    printf '#include "b.h"\nint a_get(void) { return 1; }\n' >"$t/src/a.c"
    printf 'int a_use(void) { return b_get(); }\n' >>"$t/src/a.c"
    printf 'int a_get(void);\n' >"$t/src/a.h"
    printf '#include "a.h"\nint b_get(void) { return a_get(); }\n' >"$t/src/b.c"
    printf 'int b_get(void);\n' >"$t/src/b.h"
    if check "$t" >"$t/out"; then
        echo "FAIL: the cycle between src/a.c and src/b.c was not found"; exit 1
    fi
    grep -q 'src/a.c -> src/b.c: b_get (src/b.h)' "$t/out" || { cat "$t/out"; exit 1; }
    printf 'int a_use(void) { return 2; }\n' >"$t/src/a.c" # a.c no longer needs b.c
    printf 'int a_get(void) { return 1; }\n' >>"$t/src/a.c"
    check "$t" >"$t/out" || { cat "$t/out"; exit 1; }
    echo "ok: a planted cycle is found, and its absence passes"
    exit 0
fi
cd "${1:-.}" || exit 2
check .
