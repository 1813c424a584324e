#!/usr/bin/env bash
# Checks C++/CUDA sources against the repository's .clang-format, changing nothing: prints each file that
# clang-format would change and exits 1 if there is one.
#
#   scripts/check_format.sh            the files changed since the merge-base with origin/main (where that exists and
#                                      is not HEAD itself), else the files changed by HEAD's last commit
#   scripts/check_format.sh --all      every tracked source file
#   scripts/check_format.sh FILE...    these files
#
# Sources: *.cu, *.cuh, *.cpp, *.hpp, *.h; files deleted (in the range or the working tree) are left out.
# CLANG_FORMAT names the binary (default: clang-format-14 where installed, else clang-format). Without clang-format,
# or with one older than 14 (which cannot read the configuration), the check is skipped and exits 0. Fix a file with
# `clang-format -i FILE` (the same version: another one may format some constructs differently).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
config="$root/.clang-format"
patterns=('*.cu' '*.cuh' '*.cpp' '*.hpp' '*.h')

usage() {
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
}

mode=range
files=()
for arg in "$@"; do
  case "$arg" in
    --all) mode=all ;;
    -h | --help)
      usage
      exit 0
      ;;
    -*)
      echo "check_format: unknown option $arg" >&2
      usage >&2
      exit 2
      ;;
    *)
      mode=files
      files+=("$arg")
      ;;
  esac
done

clang_format=${CLANG_FORMAT:-}
if [ -z "$clang_format" ]; then
  if command -v clang-format-14 >/dev/null; then
    clang_format=clang-format-14
  else
    clang_format=clang-format
  fi
fi
if ! command -v "$clang_format" >/dev/null; then
  echo "check_format: $clang_format not found; format check skipped"
  exit 0
fi
version=$("$clang_format" --version | sed -n 's/.*version \([0-9][0-9]*\).*/\1/p' | head -n 1)
if [ -z "$version" ] || [ "$version" -lt 14 ]; then
  echo "check_format: $("$clang_format" --version) cannot read .clang-format (14 or later needed); format check skipped"
  exit 0
fi

if [ "$mode" != files ]; then
  cd "$root"
  if [ "$mode" = all ]; then
    what="every tracked source file"
    mapfile -t files < <(git ls-files -- "${patterns[@]}")
  else
    base=""
    if git rev-parse --verify --quiet origin/main >/dev/null; then
      base=$(git merge-base origin/main HEAD 2>/dev/null || true)
      what="the files changed since the merge-base with origin/main"
    fi
    if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
      what="the files changed by HEAD's last commit"
      base=""
      if git rev-parse --verify --quiet 'HEAD^' >/dev/null; then
        base=$(git rev-parse 'HEAD^')
      fi
    fi
    if [ -n "$base" ]; then
      mapfile -t files < <(git diff --name-only --diff-filter=d "$base" HEAD -- "${patterns[@]}")
    else
      # A root commit (or a shallow clone's only commit): every file it holds.
      mapfile -t files < <(git diff-tree --no-commit-id --name-only -r --root --diff-filter=d HEAD -- "${patterns[@]}")
    fi
  fi
fi

present=()
for f in "${files[@]}"; do
  if [ -f "$f" ]; then
    present+=("$f")
  elif [ "$mode" = files ]; then
    echo "check_format: $f: no such file" >&2
    exit 2
  fi
done
files=("${present[@]}")
if [ "$mode" != files ]; then
  if [ "${#files[@]}" -eq 0 ]; then
    echo "check_format: no C++/CUDA sources among $what"
    exit 0
  fi
  echo "check_format: $what (${#files[@]} files), $("$clang_format" --version)"
fi
if ! errors=$("$clang_format" --style="file:$config" --dump-config 2>&1 >/dev/null); then
  echo "check_format: $clang_format cannot read $config:" >&2
  echo "$errors" >&2
  exit 2
fi

# One clang-format run for all the files; it names each place it would change as FILE:LINE:COLUMN.
status=0
report=$(printf '%s\0' "${files[@]}" |
  xargs -0 "$clang_format" --style="file:$config" --dry-run -Werror --ferror-limit=1 2>&1 >/dev/null) || status=$?
mapfile -t bad < <(printf '%s\n' "$report" |
  sed -n 's/^\(.*\):[0-9][0-9]*:[0-9][0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
if [ "$status" -ne 0 ] && [ "${#bad[@]}" -eq 0 ]; then
  echo "check_format: $clang_format failed:" >&2
  echo "$report" >&2
  exit 2
fi
if [ "${#bad[@]}" -gt 0 ]; then
  echo "check_format: ${#bad[@]} of ${#files[@]} files are not formatted as .clang-format says:"
  printf '  %s\n' "${bad[@]}"
  echo "check_format: '$clang_format --style=file:$config --dry-run FILE' shows the changes," \
    "'$clang_format -i FILE' makes them"
  exit 1
fi
echo "check_format: nothing to change in ${#files[@]} file(s)"
