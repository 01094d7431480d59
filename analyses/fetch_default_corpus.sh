#!/usr/bin/env bash
# Fetch the default corpus of `make analysis`, as data/corpora.json describes it: Debian's
# goban-original-games, ~600 historical Japanese title-match records (komi 0 to 5.5).
# Small, real, and installable anywhere apt works. Idempotent: a second run only prints
# where the records are.
#
# Usage: analyses/fetch_default_corpus.sh [CACHE_DIR]   (default: cache/ in the project)
# Prints the folder holding the records.
set -euo pipefail

project="$(cd "$(dirname "$0")/.." && pwd)"
# package, records folder inside it, and the SHA-256 of the .deb the reports were measured with
read -r package records_in sha256 < <(python3 -c '
import json, sys
registry = json.load(open(sys.argv[1], encoding="utf-8"))
corpus = registry["corpora"][registry["default"]]
print(corpus["debian_package"], corpus["records"], corpus["deb_sha256"])' "$project/data/corpora.json")
cache=${1:-"$project/cache"}
dest="$cache/$package"
records="$dest/$records_in"

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
if ! echo "$sha256  ${debs[-1]}" | sha256sum --check --status; then
  echo "warning: ${debs[-1]} is not the .deb of data/corpora.json (SHA-256 $sha256);" \
       "the figures may differ from the published report" >&2
fi

# Unpack beside the destination and move into place, so an interrupted run leaves no
# half-filled folder that a later run would take as done.
partial="$dest.partial"
rm -rf "$partial"
dpkg -x "${debs[-1]}" "$partial"
mv "$partial" "$dest"
echo "$records"
