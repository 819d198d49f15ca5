. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1800
# `ptinspect build --source` on torch 2.14's generated code: the sid tree of
# tests/torch2/buildtree --flavour sid (Debian unstable; where the archive does
# not serve pytorch's source package, torchgen as python3-torch 2.14.1 ships
# it, run by ninja on the inputs it ships: kind "codegen" in `buildtree info`).
# The same walk as build_source.sh (source_walk.py): every function of every
# generated Register*_N.cpp (2.14 shards RegisterCPU.cpp in four and every
# other key's file as _0), every 4th of Operators_N.cpp, every 10th node of
# autograd's Functions.cpp, each against a truth read independently of
# ptinspect; 100% must resolve. Then 2.14's own facts and whole outputs: the
# wrapper of add.Tensor in RegisterCPU_N.cpp, a node made through
# c10::intrusive_ptr (2.6: std::shared_ptr), a node of an in-place whose
# functional has an overload (ldexp_ -> ldexp.Tensor).
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
BT=$PT_SRC/tests/torch2/buildtree
E=$PT_SRC/tests/integration/torch2/expected-sid
"$BT" --flavour sid create >"$T/create.out" 2>"$T/create.err"
rc=$?
[ $rc = 77 ] && skip "torch 2.14 build bed unavailable: $(grep 'cannot run here' "$T/create.err")"
grep -h 'buildtree: \|testbed: ' "$T/create.err"
check_eq "buildtree --flavour sid create" 0 $rc
[ $rc = 0 ] || { tail -20 "$T/create.err"; finish; }
TREE=$("$BT" --flavour sid path)
SRC=$(dirname "$TREE")
G=$TREE/aten/src/ATen
"$BT" --flavour sid info | grep '^kind:'

# The generator is torch 2.14's.
v=$("$BT" --flavour sid bed run -- dpkg-query -W -f '${Version}' python3-torch 2>/dev/null)
echo "python3-torch $v"
case $v in 2.14.*) pass ;; *) fail "torchgen's package python3-torch is '$v', not 2.14" ;; esac
check_eq "2.14: RegisterCPU.cpp in four shards" "RegisterCPU_0.cpp RegisterCPU_1.cpp RegisterCPU_2.cpp RegisterCPU_3.cpp" \
	"$(cd "$G" && ls RegisterCPU_*.cpp | xargs)"
check_eq "2.14: no RegisterCPU.cpp" no "$([ -e "$G/RegisterCPU.cpp" ] && echo yes || echo no)"
check_eq "2.14: VariableType in ten shards" 10 "$(ls "$SRC/torch/csrc/autograd/generated/" | grep -c '^VariableType_[0-9]*\.cpp$')"

python3 "$PT_SRC/tests/integration/torch2/source_walk.py" "$PTINSPECT" "$TREE" >"$T/walk.out" 2>&1
grep -E '^(total|Functions\.cpp|RegisterCPU_)' "$T/walk.out"
check_eq "every generated function resolves" ok "$(tail -1 "$T/walk.out")"
[ "$(tail -1 "$T/walk.out")" = ok ] || head -60 "$T/walk.out"
check_contains "100% of the functions that implement an operator" "(100.00%)" "$(grep '^total:' "$T/walk.out")"
check_contains "no helper given an operator" "(0 given an operator)" "$(grep '^total:' "$T/walk.out")"
check_contains "the four RegisterCPU shards walked" "RegisterCPU_3.cpp: " "$(cat "$T/walk.out")"

# add.Tensor's CPU wrapper, in whichever shard 2.14 put it, at the path the build used.
f=$(grep -l '^at::Tensor wrapper_CPU_add_Tensor(' "$G"/RegisterCPU_[0-9].cpp)
wl=$(grep -n '^at::Tensor wrapper_CPU_add_Tensor(' "$f" | cut -d: -f1)
YAML=$SRC/aten/src/ATen/native/native_functions.yaml
"$PTINSPECT" build --json --source "/build/pytorch/build/aten/src/ATen/$(basename "$f"):$((wl + 3))" "$TREE" >"$T/src1.json"
check_eq "--source RegisterCPU_N.cpp: exit" 0 $?
yl=$(grep -n '^- func: add.Tensor(' "$YAML" | cut -d: -f1)
el=$(awk -v f="aten/src/ATen/$(basename "$f")" '/^build / { o = $0; sub(/: .*/, "", o); if (index(o " ", " " f " ")) { print NR; exit } }' "$TREE/build.ninja")
check_eq "--source RegisterCPU_N.cpp: the answer" \
	"True torchgen wrapper_CPU_add_Tensor CPU $el add.Tensor $yl add.out at::native::structured_ufunc_add_CPU::impl" \
	"$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
print(j["generated"], j["generated_by"], j["function"], j["dispatch_key"], j["build_ninja_line"], j["operator"]["name"],
      j["operator"]["line"], j["operator"]["structured_delegate"], j["kernel"])' "$T/src1.json" 2>&1)"

# Whole outputs. The bed's path is the only thing that varies (<TREE>).
NORM=(-e "s|$SRC|<TREE>|g")
check_case source_overload_first 0 "$PTINSPECT" build --source wrapper_CPU_Tensor_fill_ "$TREE"
check_case source_autograd 0 "$PTINSPECT" build --source 'torch::autograd::generated::MulBackward0::apply(std::vector<at::Tensor>&&)' "$TREE"
check_case source_autograd_inplace 0 "$PTINSPECT" build --source 'torch::autograd::generated::LdexpBackward0::apply' "$TREE"
check_case source_file_shard 0 "$PTINSPECT" build --source "$f" "$TREE"
finish
