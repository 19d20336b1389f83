#!/usr/bin/env bash
# Prints bench/BENCHMARKS.md's table "Every quick run kept" from the raw output
# kept here: each *-quick.txt read by the report (bench/cmd/report), in the
# order of the commits the runs were made at. Run it from the repository's
# root, in a clone with its history:
#
#     bash bench/runs/quick-runs.sh
#
# A figure in bold met its target, a plain one did not, and "–" is what
# the report prints where it declines to judge (see "The floor" in the
# README). eb9098c's run has no raw file kept; its row in BENCHMARKS.md is
# written by hand from its section.
set -euo pipefail

report=$(mktemp)
trap 'rm -f "$report"' EXIT
go build -o "$report" ./bench/cmd/report

echo '| run at | hot key, default clock ≥ 2× | coarse clock ≥ 3.5× | 1M uniform ≥ 1.5×, serial / two goroutines | two cores ≥ 1.8×, 1M keys | two cores ≥ 1.8×, 1k keys (by round, × at handoff ns) | floor ≤ 1.1×, default / coarse / monotonic clock |'
echo '| --- | --- | --- | --- | --- | --- | --- |'
for f in bench/runs/*-quick.txt; do
	name=$(basename "$f" -quick.txt)
	commit=${name%%-*}
	echo "$(git log -1 --format=%ct "$commit") $f $name"
done | sort -n | while read -r _ f name; do
	"$report" "$f" | awk -v name="$name" '
		# One target line: its status in columns 3 to 14 ("met", "not met"
		# or "not measured"), its label, then the value and the
		# parenthesised details.
		function val(line,   s, v, a, n) {
			s = substr(line, 3, 12); sub(/ +$/, "", s)
			# The value is the last field before the details.
			n = split(substr(line, 1, index(line, "  (") - 1), a, " ")
			v = a[n]
			if (s == "met") return "**" v "**"
			return v
		}
		function rounds(line,   r) {
			r = line; sub(/.*× at handoff ns: /, "", r); sub(/\)$/, "", r)
			return r
		}
		/^targets/ { on = 1; next }
		on && /^$/ { on = 0 }
		!on { next }
		/hot key, default clock/ { hot = val($0) }
		/hot key, coarse clock/ { coarse = val($0) }
		/1M uniform.*serial/ { ms = val($0) }
		/1M uniform.*parallel/ { mp = val($0) }
		/keys-1M\)/ { t1m = val($0) }
		/keys-1k\)/ { t1k = val($0) " (" rounds($0) ")" }
		/floor, default clock/ { fd = val($0) }
		/floor, coarse clock/ { fc = val($0) }
		/floor, runtime monotonic/ { fm = val($0) }
		END {
			printf "| `%s` | %s | %s | %s / %s | %s | %s | %s / %s / %s |\n",
				name, hot, coarse, ms, mp, t1m, t1k, fd, fc, fm
		}'
done
