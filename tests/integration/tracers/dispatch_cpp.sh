# Rule: a real dispatcher trace is indexed call for call. A C++ program
# compiled WITHOUT -DNDEBUG against Debian's libtorch-dev headers calls
# aten::add and aten::mul through typed dispatcher handles (the trace check
# is inline in Dispatcher.h, so it is compiled into this program; plain
# at::add calls inside the release libtorch print nothing). It prints how
# many calls it made; the index must hold exactly that many, also when four
# threads tear each other's trace lines apart.
#   g++ -std=c++17 -I/usr/include/torch/csrc/api/include disp.cpp -ltorch -ltorch_cpu -lc10 -pthread
# ctest-timeout: 400
. "$PT_TESTLIB/common.sh" || exit 2
need g++
[ -f /usr/include/torch/csrc/api/include/torch/torch.h ] || skip "libtorch-dev headers are not installed"
export PTTRACE_DB="$T/db/pttrace.db"
P="$PTTRACE"
sqlv() { "$P" sql "$1" "$2" | tail -n +2; }

# The program docs/guide-pttrace.md shows.
cp "$PT_SRC/docs/examples/disp.cpp" "$T/disp.cpp"
# No -DNDEBUG, no -O: the dispatcher's trace code stays in.
g++ -std=c++17 -I/usr/include/torch/csrc/api/include "$T/disp.cpp" -o "$T/disp" \
	-ltorch -ltorch_cpu -lc10 -pthread || { echo "FAIL: cannot build the dispatcher program"; exit 1; }

# One thread: every call clean, operator by operator.
"$P" run -q --dispatch --name one -- "$T/disp" 5 0 0 >/dev/null 2>&1
check_eq "one thread: exit 0" 0 $?
check_eq "one thread: the program's own count" "calls 6 value 6" "$("$P" logs --stream stdout one)"
check_eq "one thread: ops" "5|aten::add|Tensor|AutogradCPU|0 1|aten::mul|Tensor|AutogradCPU|0" \
	"$(sqlv one "SELECT COUNT(*), op, overload, dispatch_key, SUM(torn) FROM dispatch_calls WHERE run_id = :run GROUP BY op ORDER BY op" | tr '\t' '|' | tr '\n' ' ' | sed 's/ $//')"
check_eq "one thread: 1.13 prints no depth, so no tree" "6" \
	"$(sqlv one "SELECT COUNT(*) FROM dispatch_calls WHERE run_id = :run AND depth IS NULL AND parent_id IS NULL")"
"$P" ops one >"$T/ops.txt"
check_eq "one thread: pttrace ops" "   CALLS  OPERATOR                                 KEY
       5  aten::add.Tensor                         AutogradCPU
       1  aten::mul.Tensor                         AutogradCPU" "$(cat "$T/ops.txt")"
check_eq "one thread: the lines by kind" "dispatch 6|other 1" \
	"$("$P" --json show one | /usr/bin/python3 -c 'import json,sys; print("|".join("%s %d" % (k["kind"], k["lines"]) for k in json.load(sys.stdin)["lines_by_kind"]))')"

# Four threads tearing lines: still one call per call made.
"$P" run -q --dispatch --name torn -- "$T/disp" 3 4 1500 >/dev/null 2>&1
check_eq "threads: exit 0" 0 $?
made=$("$P" logs --stream stdout torn | sed -n 's/^calls \([0-9]*\) .*/\1/p')
check_eq "threads: the program made 6004 calls" 6004 "$made"
check_eq "threads: indexed calls equal the calls made" "$made" \
	"$(sqlv torn "SELECT COUNT(*) FROM dispatch_calls WHERE run_id = :run")"
check_eq "threads: every call an add but the one mul" "1" \
	"$(sqlv torn "SELECT COUNT(*) FROM dispatch_calls WHERE run_id = :run AND op LIKE '%mul%'")"
# Torn pieces that are not dispatch records are bits like "AutogradCPU]" or
# an empty line: none holds the start of a call.
check_eq "threads: no call hides in an 'other' line" 0 \
	"$(sqlv torn "SELECT COUNT(*) FROM records WHERE run_id = :run AND kind <> 'dispatch' AND text LIKE '%] op=[%'")"
check_eq "threads: every line in a record" "$(("$P" logs --stream stderr torn | wc -l))" \
	"$(sqlv torn "SELECT SUM(nlines) FROM records WHERE run_id = :run AND stream = 2")"

# Without --dispatch the program prints no trace and nothing is indexed as calls.
"$P" run -q --name quiet -- "$T/disp" 2 0 0 >/dev/null 2>&1
check_eq "no --dispatch: no calls" 0 "$(sqlv quiet "SELECT COUNT(*) FROM dispatch_calls WHERE run_id = :run")"
check_rc "no --dispatch: ops says none (exit 1)" 1 "$P" ops quiet
finish
