#!/usr/bin/env bash
# The oldest versions of gpulab's libraries that a hosted grader's image ships, unpacked into a
# prefix for a build against them (scripts/oldest-libraries-check.sh, a CI step): Debian bullseye's
# fmt 7.1 and nlohmann-json 3.9. The packages are fetched with `apt-get download` through a private
# apt folder that knows only bullseye's archive, and unpacked with `dpkg-deb -x`: nothing is
# installed, and the system's sources, lists and packages are left as they are.
# CLI11 and Howard Hinnant's date are not in bullseye; the oldest hosted image that has them
# (Ubuntu 22.04, Gradescope's) ships CLI11 2.1.2 and date 3.0.1, the versions of Debian bookworm's
# packages, so the system's copies stand for them.
# Usage: oldest-libraries.sh PREFIX     then: cmake -DCMAKE_PREFIX_PATH=PREFIX/usr ...
# GPULAB_BULLSEYE_MIRROR replaces the archive (default http://deb.debian.org/debian).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 PREFIX   (unpacks bullseye's fmt and nlohmann-json under PREFIX/usr)" >&2
  exit 2
fi
prefix=$1
mirror=${GPULAB_BULLSEYE_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
packages=(libfmt-dev libfmt7 nlohmann-json3-dev)
if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
  echo "oldest-libraries: this needs apt-get and dpkg-deb (Debian or Ubuntu)" >&2
  exit 1
fi
if [ ! -r "$keyring" ]; then
  echo "oldest-libraries: $keyring is missing: install debian-archive-keyring to check bullseye's packages" >&2
  exit 1
fi
arch=$(dpkg --print-architecture)
apt_dir=$(mktemp -d)
trap 'rm -rf "$apt_dir"' EXIT
mkdir -p "$apt_dir"/{lists/partial,archives/partial,sources.list.d,preferences.d}
echo "deb [arch=$arch signed-by=$keyring] $mirror bullseye main" >"$apt_dir/sources.list"
touch "$apt_dir/status"
# Every folder apt reads or writes is the private one; downloads run as the caller (root in CI), as
# the private folder is not the _apt user's to write.
apt_options=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
  -o "Dir::Etc::Preferences=$apt_dir/preferences" -o "Dir::Etc::PreferencesParts=$apt_dir/preferences.d"
  -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::State::status=$apt_dir/status" -o "Dir::Cache=$apt_dir"
  -o "Dir::Cache::archives=$apt_dir/archives" -o "APT::Architectures::=$arch" -o "APT::Sandbox::User=$(id -un)"
  -o "Acquire::Languages=none")
# apt-get update may only warn where the mirror cannot be reached: a list of packages must be there.
if ! apt-get "${apt_options[@]}" update -qq >"$apt_dir/update.log" 2>&1 ||
  ! compgen -G "$apt_dir/lists/*_Packages*" >/dev/null; then
  cat "$apt_dir/update.log" >&2
  echo "oldest-libraries: could not read bullseye's package list from $mirror (set GPULAB_BULLSEYE_MIRROR to a Debian mirror)" >&2
  exit 1
fi
(cd "$apt_dir/archives" && apt-get "${apt_options[@]}" download -qq "${packages[@]}") || {
  echo "oldest-libraries: could not download ${packages[*]} from bullseye ($mirror)" >&2
  exit 1
}
rm -rf "$prefix"
mkdir -p "$prefix"
for deb in "$apt_dir"/archives/*.deb; do
  dpkg-deb -x "$deb" "$prefix"
  echo "oldest-libraries: $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version) unpacked into $prefix"
done
