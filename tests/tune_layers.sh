# tune_layers.sh: the layers stay apart (docs/design.md, "Layers"). The runtime includes nothing of
# the tuning layer or of the ops, the tuning layer nothing of the ops (data flows cli -> ops -> tune
# -> runtime; ops hand tune what it needs). $1: the source root.
cd "$1" || exit 2
bad=$(grep -nE '#include "(tune|ops)/' src/runtime/*; grep -nE '#include "ops/' src/tune/*)
if [ -n "$bad" ]; then
    echo "FAIL: includes against the layers:"
    echo "$bad"
    exit 1
fi
echo "ok: src/runtime includes neither tune/ nor ops/, src/tune does not include ops/"
