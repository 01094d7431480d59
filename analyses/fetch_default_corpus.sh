#!/usr/bin/env bash
# Fetch the default corpus of `make analysis`: Debian's goban-original-games, ~600
# historical Japanese title-match records (komi 0 to 5.5). Small, real, and installable
# anywhere apt works. Idempotent: a second run only prints where the records are.
#
# Usage: analyses/fetch_default_corpus.sh [CACHE_DIR]   (default: cache/ in the project)
# Prints the folder holding the records.
set -euo pipefail

package=goban-original-games
cache=${1:-"$(cd "$(dirname "$0")/.." && pwd)/cache"}
dest="$cache/$package"
records="$dest/usr/share/goban"

if [ -d "$records" ]; then
  echo "$records"
  exit 0
fi

mkdir -p "$cache/debs"
cd "$cache/debs"
if ! compgen -G "${package}_*.deb" >/dev/null; then
  # The package lists of a fresh machine may be empty or stale: refresh them only then.
  apt-get download "$package" >&2 || { apt-get update >&2 && apt-get download "$package" >&2; }
fi
debs=("${package}"_*.deb)

# Unpack beside the destination and move into place, so an interrupted run leaves no
# half-filled folder that a later run would take as done.
partial="$dest.partial"
rm -rf "$partial"
dpkg -x "${debs[-1]}" "$partial"
mv "$partial" "$dest"
echo "$records"
