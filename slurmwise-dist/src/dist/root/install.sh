#!/usr/bin/env bash
# Installs this unpacked slurmwise archive into a prefix (e.g. a read-only software tree shared by many users) and
# writes its Lmod modulefile with the prefix filled in.
#   ./install.sh --prefix DIR [--modulefiles DIR2]
# DIR gets bin/ lib/ knowledge/ share/ (and runtime/ from the linux-x64 archive); the modulefile goes to
# DIR/share/modulefiles/slurmwise/VERSION.lua, and also to DIR2/slurmwise/VERSION.lua with --modulefiles.
set -euo pipefail
src="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() { echo "usage: $0 --prefix DIR [--modulefiles DIR]" >&2; exit 2; }
prefix="" modulefiles=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || usage; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#*=}"; shift ;;
    --modulefiles) [ $# -ge 2 ] || usage; modulefiles="$2"; shift 2 ;;
    --modulefiles=*) modulefiles="${1#*=}"; shift ;;
    -h | --help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument: $1" >&2; usage ;;
  esac
done
[ -n "$prefix" ] || usage
template=("$src"/share/modulefiles/slurmwise/*.lua)
[ -f "${template[0]}" ] && [ -r "$src/lib/classpath" ] || {
  echo "install.sh: run it from an unpacked slurmwise archive ($src lacks lib/classpath or the modulefile)" >&2; exit 5; }
version="$(basename "${template[0]}" .lua)"

mkdir -p "$prefix"
prefix="$(cd -P "$prefix" && pwd)"
if [ "$prefix" = "$src" ]; then
  echo "install.sh: the prefix is this folder itself; choose another" >&2; exit 2
fi
if [ -n "$(ls -A "$prefix")" ] && [ ! -f "$prefix/lib/classpath" ]; then
  echo "install.sh: $prefix is not empty and holds no slurmwise install; choose an empty or new folder" >&2; exit 2
fi
# a reinstall replaces the jars (their names carry versions)
rm -rf "$prefix/lib" "$prefix/runtime"
for part in bin lib knowledge share runtime LICENSE README; do
  [ -e "$src/$part" ] && cp -R "$src/$part" "$prefix/"
done
chmod -R a+rX,go-w "$prefix"

write_modulefile() { # folder
  mkdir -p "$1/slurmwise"
  sed "s|@PREFIX@|$prefix|" "${template[0]}" > "$1/slurmwise/$version.lua"
  chmod a+r "$1/slurmwise/$version.lua"
  echo "  modulefile: $1/slurmwise/$version.lua"
}
echo "slurmwise $version installed in $prefix"
write_modulefile "$prefix/share/modulefiles"
[ -z "$modulefiles" ] || write_modulefile "$modulefiles"
echo "Users: module use ${modulefiles:-$prefix/share/modulefiles}; module load slurmwise; slurmwise diagnose <jobid>"
