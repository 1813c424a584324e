#!/usr/bin/env bash
# Installs, from Debian's packages, what building strata needs and the machine lacks: CMake, Ninja, a C++
# compiler, Catch2 and Google Benchmark. The CUDA toolkit (nvcc with CCCL) must already be installed.
set -euo pipefail

have_cmake_package() {
  local name=$1
  find /usr/lib /usr/lib64 /usr/local /usr/share /opt -maxdepth 5 \
    \( -iname "${name}Config.cmake" -o -iname "${name}-config.cmake" \) -print -quit 2>/dev/null | grep -q .
}

need=()
command -v cmake >/dev/null || need+=(cmake)
command -v ninja >/dev/null || need+=(ninja-build)
command -v g++ >/dev/null || need+=(g++)
have_cmake_package Catch2 || need+=(catch2)
have_cmake_package benchmark || need+=(libbenchmark-dev)

if ((${#need[@]})); then
  if ! command -v apt-get >/dev/null; then
    echo "strata: missing ${need[*]} and no apt-get to install them" >&2
    exit 1
  fi
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  echo "strata: installing ${need[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "strata: the CUDA toolkit (nvcc) is required; install it first" >&2
  exit 1
fi
