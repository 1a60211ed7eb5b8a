#!/usr/bin/env bash
# Runs the workspace's tests, built before by `cargo test --workspace --release --no-run
# --message-format=json-render-diagnostics > FILE`, in two lanes side by side: the browser tests (Chromium
# drawing pages, busy on the CPU) in one, every other test binary in cargo's order and then the doc tests in
# the other (mostly waiting: bots' thinking time, turn clocks, a person's pace, servers starting). Two lanes
# because the two cores are the limit: the waiting lane runs in the browser lane's idle time.
#
# Each binary runs as `cargo test` runs it (from its package's folder, with the same arguments); its whole
# output is printed when it ends, with its time. Every binary runs even after one fails; the run fails if any
# did, naming them.
#
# usage: scripts/run-tests.sh FILE [ARGS FOR EVERY BINARY...]
set -euo pipefail
cd "$(dirname "$0")/.."

artifacts=${1:?usage: scripts/run-tests.sh FILE [ARGS...]}
shift
logs=target/test-logs
rm -rf "$logs"
mkdir -p "$logs"

# The test binaries cargo built: an artifact with `"test":true` in its profile (not its target's, which a
# binary has too) and an executable.
test_profile='"profile":\{[^}]*"test":true'
browser=()
others=()
while IFS= read -r line; do
  [[ $line == *'"reason":"compiler-artifact"'* && $line =~ $test_profile ]] || continue
  [[ $line =~ \"executable\":\"([^\"]+)\" ]] || continue
  executable=${BASH_REMATCH[1]}
  [[ $line =~ \"manifest_path\":\"([^\"]+)\" ]] || continue
  entry="$(dirname "${BASH_REMATCH[1]}")|$executable"
  if [[ $(basename "$executable") == browser-* ]]; then
    browser+=("$entry")
  else
    others+=("$entry")
  fi
done <"$artifacts"
if [ ${#browser[@]} -eq 0 ] || [ ${#others[@]} -lt 20 ]; then
  echo "run-tests: $artifacts does not list the workspace's test binaries (${#others[@]} found)" >&2
  exit 2
fi

# Runs each `folder|executable` in turn; prints each one's output when it ends; the lane's status is
# whether all passed. A binary's log is `target/test-logs/NAME.log`.
run_lane() {
  local lane=$1 entry folder executable name started status failed=()
  shift
  for entry in "$@"; do
    folder=${entry%%|*}
    executable=${entry#*|}
    name=$(basename "$executable")
    started=$SECONDS
    status=0
    (cd "$folder" && "$executable" "${binary_args[@]}") >"$logs/$name.log" 2>&1 || status=$?
    {
      echo "     Running $executable (lane $lane, $((SECONDS - started)) s, exit $status)"
      cat "$logs/$name.log"
    } >>"$logs/lane-$lane.out"
    [ $status -eq 0 ] || failed+=("$name")
    flush_lane "$lane"
  done
  if [ "$lane" = waiting ]; then
    started=$SECONDS
    status=0
    cargo test --workspace --release --doc -- "${binary_args[@]}" >"$logs/doc.log" 2>&1 || status=$?
    echo "     Doc-tests (lane $lane, $((SECONDS - started)) s, exit $status)" >>"$logs/lane-$lane.out"
    cat "$logs/doc.log" >>"$logs/lane-$lane.out"
    [ $status -eq 0 ] || failed+=("doc-tests")
    flush_lane "$lane"
  fi
  if [ ${#failed[@]} -gt 0 ]; then
    echo "${failed[*]}" >"$logs/lane-$lane.failed"
    return 1
  fi
}

# Prints what a lane wrote since its last flush, whole (never two lanes' lines mixed).
flush_lane() {
  (
    flock 9
    cat "$logs/lane-$1.out"
    : >"$logs/lane-$1.out"
  ) 9>"$logs/print.lock"
}

binary_args=("$@")
started=$SECONDS
run_lane browser "${browser[@]}" &
browser_lane=$!
waiting_status=0
run_lane waiting "${others[@]}" || waiting_status=$?
browser_status=0
wait $browser_lane || browser_status=$?

echo "tests: $((SECONDS - started)) s in two lanes"
if [ $waiting_status -ne 0 ] || [ $browser_status -ne 0 ]; then
  echo "failed: $(cat "$logs"/lane-*.failed)" >&2
  exit 101
fi
