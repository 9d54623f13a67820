#!/usr/bin/env bash
# install_consumer.sh BUILD_DIR SOURCE_DIR — installs the build into a fresh
# prefix, then builds tests/consumer as a user would: with find_package(grbcuda)
# and with pkg-config; both programs must run and go through grbcuda.
set -eu
build=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/tests/consumer" -B "$tmp/cb" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cb" >/dev/null
"$tmp/cb/consumer"
if ! command -v pkg-config >/dev/null; then
  echo "install_consumer: pkg-config not installed here, pkg-config check skipped"
  echo "install_consumer: 1 passed, 0 failed"; exit 0
fi
libdir=$(dirname "$(find "$tmp/prefix" -name grbcuda.pc | head -1)")
PKG_CONFIG_PATH=$libdir cc -o "$tmp/pc_consumer" "$src/tests/consumer/main.c" \
  $(PKG_CONFIG_PATH=$libdir pkg-config --cflags --libs grbcuda)
"$tmp/pc_consumer"
echo "install_consumer: 2 passed, 0 failed"
