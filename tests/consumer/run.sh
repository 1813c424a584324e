#!/usr/bin/env bash
# The consumer test (ctest test.host.consumer): builds tests/consumer as a user's project would, with
# -Wall -Wextra -Wshadow -Werror, once with add_subdirectory(strata) and once with find_package(strata) on a strata
# installed into a scratch prefix. It builds (the consumer runs nothing: no GPU is needed).
#   tests/consumer/run.sh STRATA_SOURCE_DIR WORK_DIR VERSION
set -euo pipefail
src=$1
work=$2
version=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
archs=${CMAKE_CUDA_ARCHITECTURES:-90}
gen=()
command -v ninja > /dev/null && gen=(-G Ninja)

echo "== add_subdirectory(strata)"
cmake -S "$here" -B "$work/subdirectory" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$archs" \
  -DSTRATA_CONSUMER_MODE=subdirectory -DSTRATA_SOURCE_DIR="$src" -DSTRATA_EXPECTED_VERSION="$version"
cmake --build "$work/subdirectory"

echo "== find_package(strata) after cmake --install"
cmake -S "$src" -B "$work/strata" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$archs" \
  -DCMAKE_INSTALL_PREFIX="$work/prefix"
cmake --build "$work/strata"
cmake --install "$work/strata"
cmake -S "$here" -B "$work/package" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$archs" \
  -DSTRATA_CONSUMER_MODE=package -DCMAKE_PREFIX_PATH="$work/prefix" -DSTRATA_EXPECTED_VERSION="$version"
cmake --build "$work/package"
echo "consumer: both modes built with -Wall -Wextra -Wshadow -Werror"
