# pttrace run indexes the TORCH_TRACE directory of its own run when the child
# ends. Debian's torch 1.13 writes no TORCH_TRACE, so the child here is a shell
# that puts real torch 2.6.0 trace files (two ranks) where TORCH_TRACE points.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTTRACE
F=$PT_FIXTURES/traces/generated/torch-2.6.0/multirank/trace
[ -d "$F" ] || fail "no trace fixtures at $F"
export PTTRACE_DB=$T/db/pttrace.db

check_rc "run" 0 "$P" run --name two -q -- sh -c 'mkdir -p "$TORCH_TRACE" && cp "$0"/*.log "$TORCH_TRACE"/' "$F"
json=$("$P" --json show two)
jq_() { printf '%s' "$json" | /usr/bin/python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
check_eq "both files indexed" 2 "$(jq_ 'd["torch_trace"]["files"]')"
check_eq "every record" "$(cat "$F"/*.log | grep -a -c '^V')" "$(jq_ 'sum(d["records_by_kind"].values())')"
check_eq "ranks" "[0, 1]" "$(jq_ 'd["ranks"]')"
check_eq "trace part done" "done" "$(jq_ '[p["state"] for p in d["indexed"] if p["part"] == "trace"][0]')"
check_contains "ranks agree" "all ranks compiled the same compile ids in the same order" "$("$P" ranks two)"
check_contains "compiles per rank" "rank 1 [0/0] ok" "$("$P" compiles two)"

# A run whose child writes no trace: nothing indexed, nothing reported.
check_rc "run without trace" 0 "$P" run --name none -q -- true
check_eq "no trace files" 0 "$("$P" --json show none | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["torch_trace"]["files"])')"
finish
