#!/usr/bin/env bash
# Plays `ddz bot` against RLCard's rule-based Dou Dizhu agent (rlcard 1.2.0) under the research protocol
# (54 cards, the landlord fixed with 20 cards, no bidding, every deal played twice with the sides
# swapped, ±2 doubled per bomb or rocket) and prints win rate and score per game with 95% intervals,
# split by side. Our engine runs the deals (`ddz arena --research`); both sides are external bots:
# `ddz bot` and scripts/rlcard_bot.py, which wraps the RLCard agent in our bot protocol.
#
# Usage: scripts/rlcard-arena.sh [--level hard] [--deals 2000] [--seed 1]
# Sets up its own Python environment under target/rlcard-venv (numpy is rlcard's only heavy need).
set -euo pipefail

level=hard
deals=2000
seed=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --level) level="$2"; shift 2 ;;
        --deals) deals="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        *) echo "usage: $0 [--level L] [--deals N] [--seed S]" >&2; exit 2 ;;
    esac
done

root="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="$target/rlcard-venv"
if ! "$venv/bin/python" -c 'import rlcard; assert rlcard.__version__ == "1.2.0"' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet rlcard==1.2.0
fi

(cd "$root" && DDZ_SKIP_WEB="${DDZ_SKIP_WEB:-1}" cargo build --release --quiet -p ddz)
ddz="$target/release/ddz"

"$ddz" arena --research --deals "$deals" --seed "$seed" \
    --a "exec:$ddz bot --level $level --seed $seed" \
    --b "exec:$venv/bin/python $root/scripts/rlcard_bot.py --seed $seed"
