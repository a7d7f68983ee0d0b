#!/usr/bin/env python3
"""run_tester.py: runs a program against libtessel_blas and judges the result, for
tests/dropin_fortran.cmake. The program is a reference BLAS tester (Debian's libblas-test: xblat1*
print to stdout, xblat2*/xblat3* read an input file and write a summary file such as dblat3.out)
or one of our own test programs; it runs in the current directory, one of three ways:

  --way preload       LD_PRELOAD through tests/dropin/preload.sh, as a user runs any program
  --way alternatives  a folder holding libblas.so.3 -> our library, put on LD_LIBRARY_PATH: what
                      Debian's update-alternatives does for every program linked with -lblas
  --way direct        the program is linked with -ltessel_blas already

It fails (exit 1, with the reason on stderr) unless: the program exits 0; our library printed no
warning or error; TESSEL_BLAS_VERBOSE's table is there (so our library really was the BLAS); the
routines named by --device ran on the device at least once (--device none: no routine did); and,
for a tester, every routine it tests passed (error exits included) and none failed.
  run_tester.py --lib LIB --way WAY [--input FILE] [--summary NAME] [--device R1,R2|none]
                [--stderr-only REGEX] -- program args...
--stderr-only REGEX instead requires stderr to be exactly one line matching REGEX (the recursion
test: our library refusing itself as the CPU BLAS must say so once and nothing else).
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(msg):
    sys.stderr.write("run_tester: FAIL: %s\n" % msg)
    sys.exit(1)


def run(args):
    if not os.path.exists(args.program[0]):
        fail("%s is missing: install libblas-test (make deps installs it)" % args.program[0])
    env = dict(os.environ)
    if not args.stderr_only:
        env["TESSEL_BLAS_VERBOSE"] = "1"
    stdin = open(args.input) if args.input else subprocess.DEVNULL
    if args.way == "preload":
        cmd = [os.path.join(HERE, "preload.sh"), args.lib, args.input or "-"] + args.program
        stdin = subprocess.DEVNULL
    elif args.way == "alternatives":
        alt = os.path.abspath("alternatives")
        os.makedirs(alt, exist_ok=True)
        link = os.path.join(alt, "libblas.so.3")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(os.path.abspath(args.lib), link)
        env["LD_LIBRARY_PATH"] = alt + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
        if env.get("TSL_ASAN_RUNTIME"):  # the sanitizer runtime must still come first
            env["LD_PRELOAD"] = env["TSL_ASAN_RUNTIME"]
            env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
        cmd = args.program
    else:
        cmd = args.program
    if args.summary and os.path.exists(args.summary):
        os.remove(args.summary)
    p = subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, universal_newlines=True)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    return p


def verbose_table(stderr):
    """{routine: (cpu_calls, dev_calls)} from TESSEL_BLAS_VERBOSE's lines, or None."""
    rows, seen = {}, False
    for line in stderr.splitlines():
        f = line.split()
        if len(f) == 7 and f[0] == "tessel-blas:":  # routine, cpu calls and s, device calls and s, failed
            if f[1] == "routine":
                seen = True
            elif seen:
                rows[f[1]] = (int(f[2]), int(f[4]))
    return rows if seen else None


def check_level1(text):
    tested = len(re.findall(r"Test of subprogram number", text))
    passed = len(re.findall(r"----- PASS -----", text))
    if tested == 0 or passed != tested or "FAIL" in text:
        fail("the tester ran %d subprograms, %d passed (see its output above)" % (tested, passed))


def check_level23(summary, input_path):
    if not os.path.exists(summary):
        fail("the tester wrote no %s" % summary)
    text = open(summary).read()
    sys.stdout.write("---- %s ----\n%s" % (summary, text))
    lines = open(input_path).read().splitlines()
    errors_on = any(re.match(r"\s*T\s+LOGICAL FLAG, T TO TEST ERROR EXITS", l) for l in lines)
    routines = [m.group(1) for m in (re.match(r"\s*([SDCZ]\w+)\s+T\s", l) for l in lines) if m]
    if not routines:
        fail("no routine is switched on in %s" % input_path)
    for r in routines:
        if not re.search(r"^ %s\s+PASSED THE COMPUTATIONAL TESTS" % r, text, re.M):
            fail("%s did not pass its computational tests (%s)" % (r, summary))
        if errors_on and not re.search(r"^ %s\s+PASSED THE TESTS OF ERROR-EXITS" % r, text, re.M):
            fail("%s did not pass its error-exit tests (%s)" % (r, summary))
    if re.search(r"\*\*\*|FAIL|SUSPECT", text) or "END OF TESTS" not in text:
        fail("%s reports a failure or did not finish" % summary)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--way", choices=("preload", "alternatives", "direct"), required=True)
    ap.add_argument("--input")
    ap.add_argument("--summary")
    ap.add_argument("--level1", action="store_true", help="an xblat1 tester (output on stdout)")
    ap.add_argument("--device", default="")
    ap.add_argument("--stderr-only")
    ap.add_argument("program", nargs="+")
    args = ap.parse_args()
    p = run(args)
    if args.stderr_only:
        lines = p.stderr.splitlines()
        if p.returncode != 0 or len(lines) != 1 or not re.search(args.stderr_only, lines[0]):
            fail("want exit 0 and one stderr line matching %r; got exit %d and %d lines" %
                 (args.stderr_only, p.returncode, len(lines)))
        return
    if p.returncode != 0:
        fail("%s exited %d" % (args.program[0], p.returncode))
    bad = [l for l in p.stderr.splitlines() if re.match(r"tessel-blas: (warning|error)", l)]
    if bad:
        fail("libtessel_blas complained: %s" % bad[0])
    table = verbose_table(p.stderr)
    if table is None:
        fail("no TESSEL_BLAS_VERBOSE table on stderr: libtessel_blas was not the BLAS")
    if args.device == "none":
        on_device = [r for r, (_, dev) in table.items() if dev]
        if on_device:
            fail("TESSEL_BLAS_ROUTE=cpu, yet %s ran on the device" % ", ".join(on_device))
        if not any(cpu for cpu, _ in table.values()):
            fail("no call ran on the CPU either")
    elif args.device:
        for r in args.device.split(","):
            if table.get(r, (0, 0))[1] == 0:
                fail("%s never ran on the device" % r)
    if args.level1:
        check_level1(p.stdout)
    elif args.summary:
        check_level23(args.summary, args.input)


if __name__ == "__main__":
    main()
