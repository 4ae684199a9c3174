#!/usr/bin/env bash
# Installs what the aarch64 tests need when it is missing: qemu's user-mode
# emulator, the cross C compiler and linker, the aarch64 C library, and the
# Rust target. Debian packages: qemu-user, gcc-aarch64-linux-gnu,
# libc6-dev-arm64-cross (`apt-get install -y`; `apt-get update` first only
# when that fails, since a fresh machine's package lists may be stale or
# absent). Run as root, or with sudo available.
#
# Exits non-zero when anything is still missing afterwards: the NEON
# kernels are then not tested, and CI must say so by failing, not by
# skipping the step.
#
# gcc-aarch64-linux-gnu conflicts with gcc-multilib, which apt removes if
# installed; the i686 tests then link through scripts/i686-sysroot.sh.
set -euo pipefail

target=aarch64-unknown-linux-gnu
sysroot=/usr/aarch64-linux-gnu

missing_packages() {
  command -v qemu-aarch64 >/dev/null || echo qemu-user
  command -v aarch64-linux-gnu-gcc >/dev/null || echo gcc-aarch64-linux-gnu
  [ -e "$sysroot/lib/ld-linux-aarch64.so.1" ] && [ -e "$sysroot/include/stdio.h" ] \
    || echo libc6-dev-arm64-cross
}

mapfile -t pkgs < <(missing_packages)
if [ ${#pkgs[@]} -gt 0 ]; then
  echo "   installing ${pkgs[*]} (apt-get)"
  sudo=()
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then sudo=(sudo); fi
  apt_install() {
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -q --no-install-recommends "${pkgs[@]}" >/dev/null
  }
  if ! apt_install; then
    echo "   apt-get install failed: apt-get update, then once more"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
    apt_install
  fi
fi
mapfile -t still < <(missing_packages)
if [ ${#still[@]} -gt 0 ]; then
  echo "error: still missing after apt-get: ${still[*]}" >&2
  exit 1
fi

if ! rustup target list --installed | grep -qx "$target"; then
  echo "   rustup target add $target"
  rustup target add "$target"
fi
rustup target list --installed | grep -qx "$target"

# The emulator and the cross toolchain must work together, not only exist.
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'int main(void){return 0;}' | aarch64-linux-gnu-gcc -x c - -o "$probe/a"
qemu-aarch64 -L "$sysroot" "$probe/a"
