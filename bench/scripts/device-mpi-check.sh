#!/usr/bin/env bash
# A development-machine check (not a ctest test) that the OpenMPI packages which
# bench/scripts/device-mpi.sh put into .device/mpi are complete for a bare Debian 12 machine.
# It unpacks every .deb into a scratch merged-/usr root (`.device/mpi/setup.sh ROOT`, plus the
# links it makes in place of the maintainer scripts; it must keep /lib a link) and resolves each NEEDED library (readelf -d) of
# the OpenMPI programs (usr/bin/*openmpi*, orterun, orted, opal_wrapper, ssh), of libmpi*.so* and
# libopen-*.so*, of the plugins (openmpi/lib/openmpi3, pmix, ucx, hwloc, libfabric) and, in turn,
# of every carried library they need: either inside the scratch root, or to a library of a
# package in .device/mpi/base.txt (Priority required, Essential, and their Depends: what
# debootstrap minbase installs). A library found only in a package installed here that is
# neither carried nor base would be missing on the GPU machine: printed as MISSING, exit status 1.
# A second opinion: ldd with LD_LIBRARY_PATH into the scratch root, for "not found" (weaker: ldd
# falls back on this machine's libraries). Usage, in the repo root:
#   bash bench/scripts/device-mpi-check.sh [debdir (.device/mpi)] [scratch root (/tmp/mpiroot)]
set -uo pipefail
debs=${1:-.device/mpi}
sr=${2:-/tmp/mpiroot}
if [ ! -f "$debs/base.txt" ]; then
  echo "no $debs/base.txt: run bash bench/scripts/device-mpi.sh first"
  exit 2
fi
rm -rf "$sr"
mkdir -p "$sr/usr"
# a merged-/usr root, as Debian 12's: setup.sh must keep these links (dpkg -x would not)
for d in bin sbin lib lib64; do mkdir -p "$sr/usr/$d"; ln -s "usr/$d" "$sr/$d"; done
bash "$debs/setup.sh" "$sr" || exit 2
for d in bin sbin lib lib64; do
  [ -L "$sr/$d" ] || { echo "setup.sh replaced the /$d link by a folder: it would break /"; exit 1; }
done
declare -A base=()
while read -r p _; do base[$p]=1; done < "$debs/base.txt"

# the folders of the scratch root that hold shared objects: where its libraries are looked up
mapfile -t libdirs < <(find "$sr" \( -type f -o -type l \) -name '*.so*' -printf '%h\n' | sort -u)
LDP=$(IFS=:; echo "${libdirs[*]}")
a=usr/lib/x86_64-linux-gnu
mapfile -t targets < <(cd "$sr" && {
  find usr/bin -name '*openmpi*'; ls usr/bin/orterun usr/bin/orted usr/bin/opal_wrapper usr/bin/ssh
  find $a -maxdepth 1 \( -name 'libmpi*.so*' -o -name 'libopen-*.so*' \)
  find $a/openmpi/lib $a/pmix2 $a/ucx $a/hwloc $a/libfabric -name '*.so*' 2>/dev/null
} | while read -r f; do
  f=$(realpath -m --relative-to=. "$(readlink -f "$f")")   # links to their file, within the root
  case $f in ../* | /*) continue ;; esac                     # a link out of the root
  if [ -f "$f" ] && head -c 4 "$f" | grep -q ELF; then echo "$f"; fi
done | sort -u)

declare -A verdict=() checked=()   # NEEDED name -> how it resolves; files queued
for t in "${targets[@]}"; do checked[$t]=1; done
resolve() {
  local n=$1 d f hostpath pkg
  for d in "${libdirs[@]}"; do
    if [ -e "$d/$n" ]; then
      verdict[$n]="carried"
      f=$(realpath --relative-to="$sr" "$d/$n")   # its own NEEDED are checked too
      [ -n "${checked[$f]+x}" ] || { checked[$f]=1; targets+=("$f"); }
      return
    fi
  done
  hostpath=$(ldconfig -p | awk -v n="$n" '$1 == n && /x86-64/ { print $NF; exit }')
  if [ -z "$hostpath" ]; then verdict[$n]="NOT FOUND anywhere"; return; fi
  pkg=$(dpkg -S "$(readlink -f "$hostpath")" 2>/dev/null | head -1 | cut -d: -f1)
  [ -n "$pkg" ] || pkg=$(dpkg -S "$hostpath" 2>/dev/null | head -1 | cut -d: -f1)
  if [ -n "$pkg" ] && [ -n "${base[$pkg]+x}" ]; then verdict[$n]="base ($pkg)"
  else verdict[$n]="MISSING: only in ${pkg:-no package} ($hostpath), installed here"; fi
}
bad=0
declare -A users=()
for ((i = 0; i < ${#targets[@]}; ++i)); do
  t=${targets[i]}
  while read -r n; do
    [ -n "${verdict[$n]+x}" ] || resolve "$n"
    users[$n]="${users[$n]:-} ${t##*/}"
  done < <(readelf -d "$sr/$t" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
done
echo "scratch root $sr: $(ls "$debs"/*.deb | wc -l) packages, ${#targets[@]} ELF files checked," \
  "${#verdict[@]} distinct NEEDED libraries"
for n in $(printf '%s\n' "${!verdict[@]}" | sort); do
  case ${verdict[$n]} in
    carried) ;;
    base*) printf '  %-34s %s\n' "$n" "${verdict[$n]}" ;;
    *) bad=1; u=(${users[$n]}); printf '  %-34s %s; needed by %s%s\n' "$n" "${verdict[$n]}" \
         "${u[*]:0:4}" "$([ ${#u[@]} -gt 4 ] && echo " and $((${#u[@]} - 4)) more")" ;;
  esac
done
carried=0
for n in "${!verdict[@]}"; do [ "${verdict[$n]}" = carried ] && carried=$((carried + 1)); done
echo "carried in the set: $carried libraries"
nf=$(for t in "${targets[@]}"; do
  LD_LIBRARY_PATH=$LDP ldd "$sr/$t" 2>/dev/null | grep 'not found' | sed "s|^|${t##*/}: |"
done | sort -u)
if [ -n "$nf" ]; then
  bad=1
  echo "ldd: not found:"
  echo "$nf" | sed 's/^/  /'
else
  echo "ldd: every library found"
fi
[ "$bad" = 0 ] && echo "complete: nothing missing for a bare Debian 12" || echo "INCOMPLETE"
exit "$bad"
