# man_page.sh: docs/tessel.1, the installed man page, is kept true to the command's own help.
# Every command that `tessel --help` lists has a subsection `.SS "tessel CMD"` and the man page
# lists no other; within it, the options in the .TP tags are exactly those that
# `tessel CMD --help` prints in its option lines (each spelling: -h and --help, --size and
# --grid); the global options (-h, --help, --version) are in the OPTIONS section, and the
# COMMANDS section names every command. So a new, renamed or removed command or option fails
# here until the man page follows.
. "$(dirname "$0")/lib.sh"
need_python
MAN="$(cd "$(dirname "$0")/../.." && pwd)/docs/tessel.1"
[ -f "$MAN" ] || fail "no man page at $MAN"

expect_ok --help
cp "$OUT" "$WORK/help.txt"
CMDS=$(awk '/^Commands:/ {on = 1; next} on && /^$/ {exit} on {print $1}' "$WORK/help.txt")
[ -n "$CMDS" ] || fail "tessel --help lists no commands"
mkdir -p "$WORK/cmd"
for c in $CMDS; do
    expect_ok "$c" --help
    cp "$OUT" "$WORK/cmd/$c"
done

MISMATCH="docs/tessel.1 does not match tessel's --help (see above)"
"$PY" - "$MAN" "$WORK/help.txt" "$WORK/cmd" $CMDS <<'PY' || fail "$MISMATCH"
import os, re, sys
man_path, help_path, cmd_dir, cmds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
man = open(man_path).read().split("\n")
errors = []

def help_options(text):
    """Option spellings of the option lines: two spaces, a dash, the names before the gap."""
    names = set()
    for line in text.split("\n"):
        m = re.match(r"^  (-[^ ].*?)(?:\s{2,}|$)", line)
        if not m:
            continue
        for piece in m.group(1).split(", "):
            word = piece.split(" ")[0]
            if re.fullmatch(r"--?[A-Za-z0-9][A-Za-z0-9-]*", word):
                names.add(word)
    return names

def roff_options(tag):
    """Option spellings in a .TP tag line: \\-\\-name or \\-x, font escapes removed."""
    tag = re.sub(r"\\f[BIRP]", "", tag).replace("\\-", "-")
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z0-9][A-Za-z0-9-]*)", tag))

# The man page's sections: .SH NAME and .SS "tessel CMD" open them; each collects its .TP tags.
sections, current = {}, None
for i, line in enumerate(man):
    m = re.match(r'^\.S([HS])\s+"?([^"]*)"?\s*$', line)
    if m:
        current = m.group(2).strip()
        sections.setdefault(current, [])
        continue
    if line == ".TP" and current is not None and i + 1 < len(man):
        sections[current].append(man[i + 1])

man_cmds = [s[len("tessel "):] for s in sections if s.startswith("tessel ")]
for c in cmds:
    if c not in man_cmds:
        errors.append(f'command {c}: no subsection .SS "tessel {c}" in the man page')
for c in man_cmds:
    if c not in cmds:
        errors.append(f"man page describes 'tessel {c}', which tessel --help does not list")
listed = set()
for tag in sections.get("COMMANDS", []):
    listed |= set(re.findall(r"[a-z0-9]+", re.sub(r"\\f[BIRP]|^\.B\s+", "", tag)))
for c in cmds:
    if c not in listed:
        errors.append(f"command {c}: not in the COMMANDS section")

def compare(where, from_help, from_man):
    for o in sorted(from_help - from_man):
        errors.append(f"{where}: option {o} is in --help but not in the man page")
    for o in sorted(from_man - from_help):
        errors.append(f"{where}: option {o} is in the man page but not in --help")

glob_help = help_options(open(help_path).read())
glob_man = set().union(*(roff_options(t) for t in sections.get("OPTIONS", [])))
compare("tessel (global options)", glob_help, glob_man)
for c in cmds:
    if c not in man_cmds:
        continue
    h = help_options(open(os.path.join(cmd_dir, c)).read())
    if not h:
        errors.append(f"tessel {c} --help: no option lines found")
    m = set().union(set(), *(roff_options(t) for t in sections["tessel " + c]))
    compare(f"tessel {c}", h, m)

for e in errors:
    print("man page:", e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY
done_ok
