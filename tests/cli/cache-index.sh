#!/bin/sh
# The cache's stat index (validator/cli/cache.h): a second run over files unchanged since more
# than 2 s reuses their entries by stat alone, and it never answers for bytes it did not see: a
# file changed in place with its size and mtime put back is validated anew (ctime moved); a file
# mapped writable by another process while it is read is not indexed (its later writes through
# that mapping leave ctime as it was); a damaged index is ignored.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

t=$work/t
cache=$work/cache
mkdir -p "$t"
printf '# Inter-Quake Export\nmesh m\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n# pad\n' >"$t/a.iqe"
cp "$t/a.iqe" "$t/b.iqe"
cp "$srcdir/examples/walk.iqm" "$t/"
counts() {
  sed -n 's/^mdlcheck: cache .*: \([0-9]*\) hits\{0,1\}, \([0-9]*\) miss\(es\)\{0,1\}, \([0-9]*\) stored$/\1 \2/p' "$work/err"
}
# mapped writable and dirtied now; the mapping is kept open by a helper until told to write
"$PYTHON" - "$t/b.iqe" "$work/go" "$work/ready" <<'PY' &
import mmap, os, sys, time
f = open(sys.argv[1], 'r+b')
m = mmap.mmap(f.fileno(), 0)
m[0:1] = b'#'                        # dirty the page: ctime is stamped now, once
open(sys.argv[3], 'w').close()
while not os.path.exists(sys.argv[2]):
    time.sleep(0.05)
i = m.find(b'vp 1')
m[i:i + 2] = b'qq'                   # a dirty page again: no new ctime
m.flush()
open(sys.argv[3] + '.done', 'w').close()
time.sleep(30)
PY
helper=$!
# tmpfs stamps no ctime on a mapping's first write to a page it read: never indexed
shm=""
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && shm=$(mktemp -d /dev/shm/mdl-cli.XXXXXX 2>/dev/null); then
  cp "$t/a.iqe" "$shm/"
fi
while [ ! -f "$work/ready" ]; do sleep 0.1; done
sleep 3 # every file's ctime is now older than the index's 2 s margin
if [ -n "$shm" ]; then
  run --no-config --cache "$work/cache-shm" "$shm"
  run --no-config --cache "$work/cache-shm" "$shm"
  expect_rc 0 "a file on tmpfs"
  [ ! -e "$work/cache-shm/index" ] || fail "a file on tmpfs was indexed"
  rm -rf "$shm"
fi

run --no-config -v --cache "$cache" "$t"
expect_rc 0 "first run"
cp "$work/out" "$work/first.txt"
set -- $(counts)
[ "${2:-}" = 3 ] || fail "first run: expected 3 misses, got '$*'"
case $(stat -f -c %T "$t" 2>/dev/null) in
  ext2/ext3 | xfs | btrfs) ls "$cache/index/"* >/dev/null 2>&1 || fail "no index written" ;;
esac

# the mapped file changes without a new ctime
touch "$work/go"
while [ ! -f "$work/ready.done" ]; do sleep 0.1; done
run --no-config -v --cache "$cache" "$t"
expect_grep out "b\.iqe:4:1: .*\[IQE-CMD-001\]|b\.iqe:4:1: .*qq" "the file changed through a writable mapping is validated anew"
expect_no_grep out "a\.iqe:4:1" "a.iqe did not change"
set -- $(counts)
[ "${1:-}" = 2 ] && [ "${2:-}" = 1 ] || fail "second run: expected 2 hits, 1 miss; got '$*'"
kill "$helper" 2>/dev/null
wait "$helper" 2>/dev/null

# changed in place, size and mtime put back: ctime moved, so a miss and the new answer
"$PYTHON" - "$t/a.iqe" <<'PY'
import os, sys
st = os.stat(sys.argv[1])
b = open(sys.argv[1], 'rb').read().replace(b'vp 1', b'zz 1')
open(sys.argv[1], 'r+b').write(b)
os.utime(sys.argv[1], ns=(st.st_atime_ns, st.st_mtime_ns))
assert os.stat(sys.argv[1]).st_size == st.st_size and os.stat(sys.argv[1]).st_mtime_ns == st.st_mtime_ns
PY
run --no-config -v --cache "$cache" "$t"
expect_grep out "a\.iqe:4:1: " "the file changed with its mtime put back is validated anew"

# a damaged index is no index: the answers stay right
for f in "$cache"/index/*; do
  "$PYTHON" -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[len(b) // 2] ^= 1; open(p, "wb").write(b)' "$f"
done
run --no-config -v --cache "$cache" "$t"
expect_grep out "a\.iqe:4:1: " "with a damaged index"
run --no-config "$t"
cp "$work/out" "$work/plain.txt"
run --no-config --cache "$cache" "$t"
cmp -s "$work/out" "$work/plain.txt" || fail "the cached report differs from the plain one"

[ "$failures" -eq 0 ]
