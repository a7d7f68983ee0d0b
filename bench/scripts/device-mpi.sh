#!/usr/bin/env bash
# Run in the project root on the development machine (not on the GPU machine). Puts into
# .device/mpi/ the Debian 12 packages of OpenMPI (openmpi-bin, libopenmpi-dev, libopenmpi3,
# openmpi-common) with every package in their Depends/Pre-Depends closure that a bare Debian 12
# system may lack, plus setup.sh, which unpacks them on a GPU machine without OpenMPI (and
# no network). bench/scripts/h200x2-multi.sh runs it there; by hand, carry .device and start with
#   bash .device/setup.sh && bash .device/mpi/setup.sh &&
# It also writes packages.txt (name, version, .deb size, who pulled it in) and base.txt (the
# packages assumed present), which bench/scripts/device-mpi-check.sh reads.
#
# What "a bare Debian 12 system surely has" means here: the packages of Priority required or
# Essential: yes (read with apt-cache show, the archive's Priority) and their own Depends closure,
# i.e. what debootstrap --variant=minbase installs. Priority alone is not enough: libc6,
# libgcc-s1, libstdc++6, zlib1g are "optional" in the archive and are there only because required
# packages depend on them. Priority important (adduser, cron, ...) is not assumed: container
# images built from minbase lack it. setup.sh leaves alone a package dpkg lists as installed.
#
# Only Depends and Pre-Depends are followed (no Recommends: no coarrays, no gfortran from there).
# For "a | b" nothing is taken when one is already in the set or the base, else the one installed
# on this machine (apt's choice here), else the first. Two Depends are cut on purpose:
# - libopenmpi-dev's "gfortran-12 | gfortran-mod-15": gfortran-12 with gcc-12, cpp-12, binutils
#   and the sanitizer runtimes, about 58 MB of .debs, is needed only by the Fortran wrappers
#   (mpifort); tessel is C, built by the C compiler the GPU machine has (FORTRAN=1 keeps it);
# - libltdl-dev's (through libhwloc-dev) automake-1.16: automake, autoconf, m4 and perl, about
#   9 MB, to regenerate configure scripts, which nothing here does.
# The rest of libopenmpi-dev's Depends (libhwloc-dev, libpmix-dev, libevent-dev, libibverbs-dev,
# zlib1g-dev with libc6-dev, jquery for the HTML docs) is kept though a C MPI program needs only
# mpi.h and libmpi.so: small, and skipped by setup.sh where installed. The largest package,
# libicu72 (9 MB), is a runtime need: libopenmpi3 -> libhwloc-plugins -> libxml2 -> libicu72.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
dest=$root/.device/mpi
mkdir -p "$dest"
[ -n "$(ls /var/lib/apt/lists/ 2>/dev/null | grep -i debian | head -1)" ] || apt-get update -qq
o='-oAPT::Architecture=amd64'   # the GPU machine is x86-64
ROOTS=(openmpi-bin libopenmpi-dev libopenmpi3 openmpi-common)
CUT=(gfortran-12 automake-1.16) # a Depends clause starting with one of these is not followed
[ "${FORTRAN:-0}" = 1 ] && CUT=(automake-1.16)

declare -A info       # package -> its candidate's apt-cache show record ("" when purely virtual)
show() {
  [ -n "${info[$1]+x}" ] || info[$1]=$(apt-cache $o show --no-all-versions "$1" 2>/dev/null || true)
}
field() { awk -v f="$2:" '$1 == f { sub(/^[^:]*: /, ""); print; exit }' <<< "${info[$1]}"; }
# clauses PKG: one Depends/Pre-Depends clause a line, alternatives separated by spaces, bare
# names (call show PKG first, in this shell: the cache does not survive a subshell)
clauses() {
  { field "$1" Pre-Depends; field "$1" Depends; } | tr ',' '\n' |
    sed 's/([^)]*)//g; s/\[[^]]*\]//g; s/:any//g; s/|/ /g; s/  */ /g; s/^ //; s/ $//' |
    grep -v '^$' || true
}
# providers NAME: sets provs to NAME when it is a real package, else to the packages that
# Provide it (empty when none)
providers() {
  show "$1"
  provs=("$1")
  [ -n "${info[$1]}" ] && return
  mapfile -t provs < <(apt-cache $o showpkg "$1" 2>/dev/null | sed -n '/^Reverse Provides:/,$p' |
    awk 'NR > 1 && NF { print $1 }' | sort -u)
}
declare -A here=()    # packages installed on this machine: apt's own choice among alternatives
while read -r p st; do [ "$st" = installed ] && here[$p]=1; done < <(
  dpkg-query -W -f '${Package} ${db:Status-Status}\n' 2>/dev/null)

# closure SETNAME ROOT...: the Depends closure of ROOTs into the associative array SETNAME
# (package -> who pulled it in). A clause "a | b" (a virtual name standing for its providers) is
# satisfied by any of them already in base or the set; else it takes the one installed on this
# machine (where apt chose), else the first.
declare -A base=() want=()
closure() {
  local -n acc=$1
  shift
  local queue=("$@") p c alt got pick cands
  for p in "$@"; do acc[$p]=root; done
  while [ ${#queue[@]} -gt 0 ]; do
    p=${queue[0]}
    queue=("${queue[@]:1}")
    show "$p"
    while IFS= read -r c; do
      [ -n "$c" ] || continue
      if [[ " ${CUT[*]} " == *" ${c%% *} "* ]]; then echo "cut: $p Depends: $c" >&2; continue; fi
      cands=()
      for alt in $c; do providers "$alt"; cands+=("${provs[@]}"); done
      got="" pick=""
      for alt in "${cands[@]}"; do
        if [ -n "${base[$alt]+x}" ] || [ -n "${acc[$alt]+x}" ]; then got=1; break; fi
        [ -z "$pick" ] && [ -n "${here[$alt]+x}" ] && pick=$alt
      done
      [ -n "$got" ] && continue
      [ -n "$pick" ] || pick=${cands[0]:-}
      [ -n "$pick" ] || { echo "unresolvable: $p Depends: $c" >&2; continue; }
      show "$pick"
      acc[$pick]=$p
      queue+=("$pick")
    done < <(clauses "$p")
  done
}

mapfile -t required < <(apt-cache $o dumpavail |
  awk '/^Package:/ { p = $2 } /^(Priority: required|Essential: yes)$/ { print p }' | sort -u)
closure base "${required[@]}"
closure want "${ROOTS[@]}"

cd "$dest"
rm -f ./*.deb
mapfile -t pkgs < <(printf '%s\n' "${!want[@]}" | sort)
apt-get $o download -qq "${pkgs[@]}" 2>&1 | grep -v '^W:' || true
for p in "${!base[@]}"; do echo "$p ${base[$p]}"; done | sort > base.txt
{
  printf '%-28s %-28s %9s  %s\n' package version deb_bytes pulled_in_by
  for p in "${pkgs[@]}"; do
    f=$(ls "${p}"_*.deb 2>/dev/null | head -1)
    size=MISSING
    [ -n "$f" ] && size=$(stat -c %s "$f")
    printf '%-28s %-28s %9s  %s\n' "$p" "$(field "$p" Version)" "$size" "${want[$p]}"
  done
} > packages.txt

cat > setup.sh <<'EOF'
#!/usr/bin/env bash
# Runs ON the GPU machine (as root; written by bench/scripts/device-mpi.sh): unpacks the carried
# OpenMPI packages into /, leaving alone any package dpkg already lists as installed. Not with
# dpkg -x: on a merged-/usr system (/lib -> usr/lib) it replaces the /lib link by a folder when a
# package ships ./lib/ (libkeyutils1, libnl-3-200, libtirpc3 do), which breaks every program;
# tar --keep-directory-symlink goes through the link instead. No maintainer scripts run, so this
# does what matters of theirs, the update-alternatives links: openmpi-bin's mpirun, mpiexec,
# mpicc, mpicxx; libopenmpi-dev's mpi include folder, libmpi.so and mpi.pc; libpsm-infinipath1's
# libpsm_infinipath.so.1 (the PSM transport plugin needs it).
# `bash setup.sh ROOT` unpacks everything into the folder ROOT instead, with no ldconfig: the
# form bench/scripts/device-mpi-check.sh tests.
set -e
d=$(cd "$(dirname "$0")" && pwd)
R=${1:-}
R=${R%/}
# A machine that has OpenMPI already (the GPU machine's Ubuntu 24.04 image has 4.1.6, its
# libraries under other package names: libopenmpi3t64, libpmix2t64) keeps it untouched: unpacking
# Debian 12's 4.1.4 libraries over them left an mpirun that crashed on start (2026-11-25).
if [ -z "$R" ] && command -v mpirun > /dev/null 2>&1 && command -v mpicc > /dev/null 2>&1; then
  echo "OpenMPI already installed ($(mpirun --version 2>/dev/null | head -1)): nothing unpacked"
  exit 0
fi
unpacked=0 kept=0
for f in "$d"/*.deb; do
  p=$(dpkg-deb -f "$f" Package)
  if [ -z "$R" ] && dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q ' installed$'; then
    kept=$((kept + 1))
    continue
  fi
  dpkg-deb --fsys-tarfile "$f" | tar -xf - --keep-directory-symlink --no-overwrite-dir -C "${R:-/}"
  unpacked=$((unpacked + 1))
done
echo "OpenMPI packages: $unpacked unpacked into ${R:-/}, $kept already installed"
# link NAME TARGET (both absolute): NAME -> TARGET, relative, when TARGET exists under the root
# and NAME does not (a dangling link, such as one into the absent /etc/alternatives, is replaced)
link() {
  if [ -e "$R$2" ] && [ ! -e "$R$1" ]; then
    mkdir -p "$(dirname "$R$1")"
    ln -sfn "$(realpath -s --relative-to="$(dirname "$R$1")" "$R$2")" "$R$1"
  fi
}
b=/usr/bin
a=/usr/lib/x86_64-linux-gnu
link $b/mpirun $b/mpirun.openmpi
link $b/mpiexec $b/mpiexec.openmpi
link $b/mpicc $b/mpicc.openmpi
for n in mpicxx mpic++ mpiCC; do link $b/$n $b/mpic++.openmpi; done
link /usr/include/x86_64-linux-gnu/mpi $a/openmpi/include
link $a/libmpi.so $a/openmpi/lib/libmpi.so
link $a/libmpi++.so $a/openmpi/lib/libmpi_cxx.so
for pc in mpi mpi-c mpi-cxx; do link $a/pkgconfig/$pc.pc $a/pkgconfig/o$pc.pc; done
for f in "$R"/usr/lib/libpsm1/libpsm_infinipath.so.1.*; do
  link $a/libpsm_infinipath.so.1 "${f#"$R"}"
done
[ -n "$R" ] && exit 0
ldconfig
echo "mpicc: $(command -v mpicc || echo none); mpirun: $(command -v mpirun || echo none)"
mpirun --version 2>/dev/null | head -1 || true
EOF

ls -1 ./*.deb | wc -l | sed 's/$/ packages in .device\/mpi/'
cat packages.txt
awk 'NR > 1 { s += $3 } END { printf "total: %.1f MB of .debs\n", s / 1e6 }' packages.txt
echo "ready: carry .device to the GPU machine (bench/scripts/h200x2-multi.sh runs its setup.sh)"
