#!/bin/sh
# The long strength run of docs/pepper-ai.md, resumable: run it again to go on where it stopped.
# Heuristic opponents (4, 3 and 2 players) and OpenSpiel's ISMCTS (4 players) alternate in growing
# chunks, so that both tables have figures whenever the run is stopped. One process (one core).
#   nice -n 10 sh benchmarks/run_pepper_strength.sh [RESULTS_DIR]
set -e
dir=${1:-benchmarks/results}
py=${PYTHON:-python}
for sets in 4 8 12 16 20 25 30 35 40 50 60 70 80 90 100; do
    $py benchmarks/bench_pepper_strength.py --out "$dir/strength-heuristic.jsonl" --resume \
        --players 4 3 2 --opponent heuristic --sets "$sets"
    $py benchmarks/bench_pepper_strength.py --out "$dir/strength-ismcts.jsonl" --resume \
        --players 4 --opponent ismcts --sets $((sets / 4 + 1))
done
