#!/usr/bin/env bash
# tests/doc_links.sh [ROOT]: every repository path that README.md, docs/*.md and bench/*.md
# mention exists. It looks for words starting bench/results/, bench/scripts/, docs/, src/, cli/
# or tests/ (in bench/*.md also results/ and scripts/, relative to bench/), cuts trailing
# punctuation, skips globs and placeholders (*, ?, <device>, {a,b}, $VAR, _NAME) and prints each one
# missing from the tree as FILE:LINE: PATH. Exit 0 when none is missing, 1 otherwise. Plain bash
# and grep: no build, no GPU.
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$root"
shopt -s nullglob
broken=0
checked=0
for f in README.md docs/*.md bench/*.md; do
  [ -f "$f" ] || continue
  prefixes='bench/results|bench/scripts|docs|src|cli|tests'
  [[ $f == bench/* ]] && prefixes="$prefixes|results|scripts"
  # a path starts the text or follows a character that cannot be part of a path (so
  # shared/docs/x or https://host/src/y are not taken for docs/x and src/y)
  re="(^|[^A-Za-z0-9_./-])(($prefixes)/[A-Za-z0-9_./*?<>{}\$-]*)"
  while IFS= read -r hit; do
    line=${hit%%:*}
    p=${hit#*:}
    [[ $p =~ ^[^A-Za-z0-9_./-] ]] && p=${p:1}
    case $p in *[*?\<\>{}\$]*) continue ;; esac
    [[ $p =~ _[A-Z]{2,}([._/]|$) ]] && continue # a placeholder word: study_NAME.c, l3_PREC_OP.csv
    while [[ $p == *. ]]; do p=${p%.}; done
    case $p in results/* | scripts/*) [[ $f == bench/* ]] && p=bench/$p ;; esac
    checked=$((checked + 1))
    if [ ! -e "$p" ]; then
      echo "$f:$line: $p"
      broken=$((broken + 1))
    fi
  done < <(grep -noE "$re" "$f" || true)
done
if [ "$broken" != 0 ]; then
  echo "doc_links: $broken of $checked referenced paths do not exist" >&2
  exit 1
fi
echo "doc_links: all $checked referenced paths exist"
