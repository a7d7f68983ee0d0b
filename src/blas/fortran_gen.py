#!/usr/bin/env python3
"""fortran_gen.py: writes fortran_symbols.h and fortran_forward.c from fortran_symbols.txt.

The drop-in exports every Fortran symbol of the reference BLAS; most of them only forward to the
CPU BLAS, and writing 150 near-identical forwarders by hand (or as macros) would hide the one
that is wrong. The table says each symbol's signature once; this script writes the prototypes
(checked by the compiler against the hand-written routines too) and the forwarders. Its output
is committed; the test blas_fortran_generated runs it with --check, which fails when the
committed files are not what the table gives.

    python3 src/blas/fortran_gen.py           # rewrite the two files beside this script
    python3 src/blas/fortran_gen.py --check   # exit 1 if they differ from what it would write
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "fortran_symbols.txt")
HEADER = os.path.join(HERE, "fortran_symbols.h")
FORWARD = os.path.join(HERE, "fortran_forward.c")

CTYPE = {
    "i": "tsl__blas_int",
    "l": "int",
    "s": "float",
    "d": "double",
    "c": "float _Complex",
    "z": "double _Complex",
    "ch": "char",
}
KINDS = ("own", "forward", "sub", "device")

# kind device:FAMILY -> the Fortran arguments a row of that family has (its check-and-route
# function tsl__blas_f_FAMILY of fortran_level3.c takes them in this order, INTEGER and CHARACTER
# ones by value) and the precisions whose calls dispatch.c can run on the device.
# HEMM, HERK and HER2K are families of their own: the Hermitian element kind, and HERK's real
# alpha and beta, HER2K's real beta.
FAMILIES = {
    "gemm": ("transa transb m n k alpha a lda b ldb beta c ldc", "sdcz"),
    "symm": ("side uplo m n alpha a lda b ldb beta c ldc", "sdcz"),
    "hemm": ("side uplo m n alpha a lda b ldb beta c ldc", "cz"),
    "syrk": ("uplo trans n k alpha a lda beta c ldc", "sdcz"),
    "herk": ("uplo trans n k alpha a lda beta c ldc", "cz"),
    "syr2k": ("uplo trans n k alpha a lda b ldb beta c ldc", "sdcz"),
    "her2k": ("uplo trans n k alpha a lda b ldb beta c ldc", "cz"),
    "trmm": ("side uplo transa diag m n alpha a lda b ldb", "sdcz"),
    "trsm": ("side uplo transa diag m n alpha a lda b ldb", "sdcz"),
}

# Symbols that are not the reference's (OpenBLAS's extensions): the CPU BLAS's own when it has
# it, else this symbol of the same arguments (the reference BLAS has no cgemm3m_).
CPU_ALT = {"cgemm3m": "cgemm", "zgemm3m": "zgemm"}


class Symbol:
    def __init__(self, name, kind, result, args, family=None):
        self.name, self.kind, self.result, self.args = name, kind, result, args
        self.family = family

    def ret(self):
        return "void" if self.result == "-" else CTYPE[self.result]

    def params(self):
        """The C parameter list: each argument by address, then the hidden string lengths."""
        out = []
        for name, typ, written in self.args:
            out.append("%s%s *%s" % ("" if written else "const ", CTYPE[typ], name))
        for name, typ, _ in self.args:
            if typ == "ch":
                out.append("size_t %s_len" % name)
        return out

    def call_args(self, args=None):
        """The argument names of a call passing everything through, hidden lengths included."""
        args = self.args if args is None else args
        return [a[0] for a in args] + ["%s_len" % a[0] for a in args if a[1] == "ch"]


def parse(path):
    symbols = []
    for lineno, line in enumerate(open(path), 1):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        where = "%s:%d" % (path, lineno)
        kind, _, family = line[1].partition(":") if len(line) > 1 else ("", "", "")
        if len(line) < 3 or kind not in KINDS or (line[2] != "-" and line[2] not in CTYPE):
            sys.exit("fortran_gen: %s: expected 'symbol kind result args...'" % where)
        if (kind == "device") != bool(family) or (family and family not in FAMILIES):
            sys.exit("fortran_gen: %s: kind device takes a family (device:gemm, one of %s)" %
                     (where, " ".join(FAMILIES)))
        args = []
        for a in line[3:]:
            name, _, typ = a.partition(":")
            written = typ.endswith("&")
            typ = typ.rstrip("&")
            if typ not in CTYPE or typ == "l" or not name.isidentifier():
                sys.exit("fortran_gen: %s: bad argument %r" % (where, a))
            args.append((name, typ, written))
        names = [a[0] for a in args] + ["%s_len" % a[0] for a in args if a[1] == "ch"]
        if len(set(names)) != len(names):
            sys.exit("fortran_gen: %s: two parameters share a name" % where)
        if family:
            want, precs = FAMILIES[family]
            if [a[0] for a in args] != want.split() or line[0][0] not in precs:
                sys.exit("fortran_gen: %s: a %s row has the arguments %s, precisions %s" %
                         (where, family, want, precs))
        symbols.append(Symbol(line[0], kind, line[2], args, family))
    byname = {s.name: s for s in symbols}
    if len(byname) != len(symbols):
        sys.exit("fortran_gen: %s: a symbol is listed twice" % path)
    for s in symbols:
        if s.kind == "sub":
            base = byname.get(s.name[: -len("sub")])
            if not s.name.endswith("sub") or base is None or base.result == "-":
                sys.exit("fortran_gen: %s: a sub row needs the function it wraps" % s.name)
            res = s.args[-1]
            if res[1] != base.result or not res[2] or [a[1] for a in s.args[:-1]] != [
                a[1] for a in base.args
            ]:
                sys.exit("fortran_gen: %s: arguments do not match %s plus a result" %
                         (s.name, base.name))
    return symbols


def wrap(head, params, indent, tail=""):
    """head(params...)tail broken at 100 columns, continuation lines aligned after the paren."""
    lines, cur = [], head + "("
    for i, p in enumerate(params):
        piece = p + (", " if i + 1 < len(params) else ")" + tail)
        if len(cur) + len(piece.rstrip()) > 100 and cur.strip() != head.strip() + "(":
            lines.append(cur.rstrip())
            cur = " " * indent + piece
        else:
            cur += piece
    if not params:
        cur += "void)" + tail
    lines.append(cur)
    return "\n".join(lines)


def header(symbols):
    out = [
        "/* fortran_symbols.h: GENERATED by src/blas/fortran_gen.py from fortran_symbols.txt; do not",
        " * edit. One function type and one prototype per Fortran BLAS symbol (gfortran ABI: every",
        " * argument by address, hidden size_t string lengths last, complex results by value). The",
        " * forwarders, the hand-written routines and the CPU BLAS pointers all use these types, so a",
        " * signature that disagrees with the table does not compile. */",
        "#ifndef TSL_BLAS_FORTRAN_SYMBOLS_H",
        "#define TSL_BLAS_FORTRAN_SYMBOLS_H",
        "",
        "#include <stddef.h>",
        "",
        '#include "blas/blas_internal.h"',
        "",
    ]
    for s in symbols:
        head = "typedef %s tsl__blas_%s_fn" % (s.ret(), s.name)
        out.append(wrap(head, s.params(), len(head) + 1, ";"))
        out.append("TSL_BLAS_API tsl__blas_%s_fn %s_;" % (s.name, s.name))
    out += ["", "#endif", ""]
    return "\n".join(out)


def forwarder(s):
    head = "TSL_BLAS_API %s %s_" % (s.ret(), s.name)
    sig = wrap(head, s.params(), len(head) + 1)
    none = "" if s.result == "-" else " 0"
    body = [
        sig,
        "{",
        '    static tsl__blas_stat st = TSL__BLAS_STAT("%s");' % s.name,
        '    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("%s_");' % s.name,
        "    tsl__blas_%s_fn *f = (tsl__blas_%s_fn *)tsl__blas_cpu_get(&cpu);" % (s.name, s.name),
        "    if (!f) return%s;" % none,
        "    double t0 = tsl__blas_clock();",
    ]
    call = "    f" if s.result == "-" else "    %s r = f" % s.ret()
    body.append(wrap(call, s.call_args(), len(call) + 1, ";"))
    body.append("    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);")
    if s.result != "-":
        body.append("    return r;")
    body.append("}")
    return "\n".join(body)


def device_wrapper(s):
    """The routine tessel can run: its family's check and route, else the CPU BLAS's symbol."""
    head = "TSL_BLAS_API void %s_" % s.name
    sig = wrap(head, s.params(), len(head) + 1)
    if s.name in CPU_ALT:
        cpu = 'TSL__BLAS_CPU_FN_OR("%s_", "%s_")' % (s.name, CPU_ALT[s.name])
    else:
        cpu = 'TSL__BLAS_CPU_FN("%s_")' % s.name
    values = [("*" if typ in ("i", "ch") else "") + name for name, typ, _ in s.args]
    route = "    if (tsl__blas_f_%s" % s.family
    cond = wrap(route, ["&st", "'%s'" % s.name[0], '"%s"' % s.name.upper()] + values,
                len(route) + 1, ")")
    body = [
        sig,
        "{",
        '    static tsl__blas_stat st = TSL__BLAS_STAT("%s");' % s.name,
        "    static tsl__blas_cpu_fn cpu = %s;" % cpu,
        cond,
        "        return;",
        "    tsl__blas_%s_fn *f = (tsl__blas_%s_fn *)tsl__blas_cpu_get(&cpu);" % (s.name, s.name),
        "    if (!f) return;",
        "    double t0 = tsl__blas_clock();",
        wrap("    f", s.call_args(), len("    f") + 1, ";"),
        "    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);",
        "}",
    ]
    return "\n".join(body)


def sub_wrapper(s):
    head = "TSL_BLAS_API void %s_" % s.name
    sig = wrap(head, s.params(), len(head) + 1)
    result = s.args[-1][0]
    call = "    *%s = %s_" % (result, s.name[: -len("sub")])
    return "\n".join([sig, "{", wrap(call, s.call_args(s.args[:-1]), len(call) + 1, ";"), "}"])


def forward_c(symbols):
    out = [
        "/* fortran_forward.c: GENERATED by src/blas/fortran_gen.py from fortran_symbols.txt; do not",
        " * edit. The Level-3 routines that can run on a device (kind device) call their family's",
        " * check and route (fortran_level3.c) and, when that leaves the call to the CPU, the CPU",
        " * BLAS's symbol of the same name. Every other BLAS symbol forwards to the CPU BLAS's symbol",
        " * of the same name (looked up once, hidden lengths passed through) and counts the call for",
        " * TESSEL_BLAS_VERBOSE; when the CPU BLAS lacks it, cpu.c has said so and the call returns",
        " * without computing (0 for a function). The *sub helpers of the reference CBLAS store our",
        " * own function's result. */",
        '#include "blas/fortran.h"',
        "",
    ]
    for s in symbols:
        if s.kind == "device":
            out += [device_wrapper(s), ""]
    for s in symbols:
        if s.kind == "forward":
            out += [forwarder(s), ""]
    for s in symbols:
        if s.kind == "sub":
            out += [sub_wrapper(s), ""]
    return "\n".join(out)


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] and not check:
        sys.exit(__doc__)
    symbols = parse(TABLE)
    stale = []
    for path, text in ((HEADER, header(symbols)), (FORWARD, forward_c(symbols))):
        old = open(path).read() if os.path.exists(path) else None
        if old == text:
            continue
        if check:
            stale.append(path)
        else:
            with open(path, "w") as f:
                f.write(text)
    if stale:
        sys.exit("fortran_gen: %s not what fortran_symbols.txt gives; run python3 "
                 "src/blas/fortran_gen.py" % ", ".join(os.path.basename(p) for p in stale))


if __name__ == "__main__":
    main()
