# devices.sh: `tessel devices` prints a table with P:D indices, and `--json` is valid JSON with
# every fact the issue lists for each device.
. "$(dirname "$0")/lib.sh"
need_python

expect_ok devices
grep -q '^0:0 ' "$OUT" || fail "the table should list device 0:0"
for col in device type CUs MHz global local max_alloc max_wg fp64 name platform; do
    head -1 "$OUT" | grep -qw -- "$col" || fail "the table header should have '$col'"
done

expect_ok devices --json
"$PY" - "$OUT" <<'PY' || fail "tessel devices --json is not the expected JSON"
import json, sys
d = json.load(open(sys.argv[1]))
devs = d["devices"]
assert len(devs) >= 1
keys = {"index", "platform_index", "device_index", "platform", "name", "type", "compute_units",
        "clock_mhz", "global_mem", "local_mem", "max_alloc", "max_work_group", "fp64"}
for x in devs:
    assert keys <= set(x), keys - set(x)
    assert x["index"] == "%d:%d" % (x["platform_index"], x["device_index"])
    assert x["type"] in ("gpu", "cpu", "accel", "other")
    assert isinstance(x["fp64"], bool)
    assert x["compute_units"] > 0 and x["global_mem"] > 0 and x["max_alloc"] > 0
PY
done_ok
