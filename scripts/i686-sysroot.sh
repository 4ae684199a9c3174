#!/usr/bin/env bash
# Makes a 32-bit C toolchain for the i686 tests where gcc-multilib cannot
# be installed (on Debian it conflicts with gcc-aarch64-linux-gnu, which the
# NEON tests need): downloads the 32-bit glibc and libgcc packages with
# `apt-get download` (no root, nothing installed), unpacks them under DIR,
# and writes DIR/cc-m32, a `gcc -m32` that compiles and links against them.
# Test binaries are then linked statically (no 32-bit loader is needed).
# Usage: scripts/i686-sysroot.sh DIR; exits non-zero if anything is missing.
set -euo pipefail
dir=$(mkdir -p "$1" && cd "$1" && pwd)
cc="$dir/cc-m32"
probe() { echo 'int main(void){return 0;}' | "$cc" -static -x c - -o "$dir/probe" 2>/dev/null && "$dir/probe"; }
if [ -x "$cc" ] && probe; then exit 0; fi
command -v apt-get >/dev/null && command -v dpkg >/dev/null && command -v gcc >/dev/null
gccv=$(gcc -dumpversion | cut -d. -f1)
mkdir -p "$dir/debs" "$dir/root"
(cd "$dir/debs" && timeout 120 apt-get download -q \
  libc6-i386 libc6-dev-i386 lib32gcc-s1 "lib32gcc-$gccv-dev" >/dev/null 2>&1)
for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir/root"; done
triple=$(gcc -dumpmachine)
cat > "$cc" <<WRAP
#!/bin/sh
S='$dir/root'
exec gcc -m32 -B"\$S/usr/lib/gcc/$triple/$gccv/32/" -B"\$S/usr/lib32/" \\
  -L"\$S/usr/lib/gcc/$triple/$gccv/32" -L"\$S/usr/lib32" \\
  -idirafter "\$S/usr/include/$triple" -idirafter /usr/include/$triple "\$@"
WRAP
chmod +x "$cc"
probe
