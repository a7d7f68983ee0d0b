# gemm_shapes.sh: the options that change the computed product (layout, transposes, alpha, beta,
# double precision, rectangular sizes) reach the library and the peers: every row verifies. Every
# variant x transpose combination is the library suite's job; here auto and the peers see all
# combinations, and every variant sees one of them.
. "$(dirname "$0")/lib.sh"
need_python

check_all_ok() {
    "$PY" - "$OUT" <<'PY' || fail "tessel gemm $*: a row did not verify"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert rows
for r in rows:
    assert r["status"] in ("ok", "skipped"), r
    if r["status"] == "ok":
        assert r["max_rel_err"] != "", r
PY
}

for layout in row col; do
    for ta in n t; do
        for tb in n t; do
            variant=auto
            [ "$layout$ta$tb" = "colnt" ] && variant=all
            args="--variant $variant --layout $layout --transa $ta --transb $tb -m 37 -n 19 -k 23"
            args="$args --alpha -1.5 --beta 0.5 --verify --repeat 1 --warmup 0"
            args="$args --peers clblast,openblas --csv -"
            # shellcheck disable=SC2086
            expect_ok gemm $args
            check_all_ok "$args"
        done
    done
done

DOUBLE=$("$TESSEL" devices --json | "$PY" -c \
    'import json,sys; print(int(json.load(sys.stdin)["devices"][0]["fp64"]))')
if [ "$DOUBLE" = 1 ]; then
    expect_ok gemm --device 0:0 --precision double --variant all -m 31 -n 7 -k 65 --verify \
        --repeat 1 --peers clblast,openblas --csv -
    check_all_ok double
fi
expect_ok gemm --variant all --sizes 1,2 --verify --repeat 1 --warmup 0 --csv -
check_all_ok tiny

done_ok
