. "$PT_TESTLIB/common.sh" || exit 2
# ctest-timeout: 1800
# `ptinspect build --source` on the real torch 2.6 build tree of
# tests/torch2/buildtree (torchgen's generated ATen sources and autograd's):
# every function of every generated Register*.cpp (not the *Everything.cpp
# copies), every 4th of Operators_N.cpp and every 10th node of autograd's
# Functions.cpp is asked at the line after its definition, all in one
# process (--source - reads the queries from stdin). The truth is read here,
# independently of ptinspect: a wrapper's operator from the file's own
# registration (m.impl("op", TORCH_FN(wrapper))), the C++ API function's from
# the wrapper it calls, a structured struct's from the wrapper that makes it,
# Operators' from the ops/*_ops.h name strings, a node's derivatives.yaml
# entry from load_derivatives.py's naming (<Op>Backward<N>). 100% of the
# functions that implement an operator must resolve; the helpers
# (create_out, to_meta, ...) must not be given one. Then whole outputs of a
# few answers (text and --json). The walk is source_walk.py (shared with
# build_source_sid.sh, torch 2.14).
[ "${PT_SANITIZE:-OFF}" = ON ] && not_applicable "the torch2 tier runs from the normal tree only (PT_SANITIZE=ON here)"
BT=$PT_SRC/tests/torch2/buildtree
E=$PT_SRC/tests/integration/torch2/expected
"$BT" create >"$T/create.out" 2>"$T/create.err"
rc=$?
[ $rc = 77 ] && skip "torch 2.x build bed unavailable: $(grep 'cannot run here' "$T/create.err")"
check_eq "buildtree create" 0 $rc
[ $rc = 0 ] || { tail -20 "$T/create.err"; finish; }
TREE=$("$BT" path)
SRC=$(dirname "$TREE")

python3 "$PT_SRC/tests/integration/torch2/source_walk.py" "$PTINSPECT" "$TREE" >"$T/walk.out" 2>&1
grep -E '^total:' "$T/walk.out"
check_eq "every generated function resolves" ok "$(tail -1 "$T/walk.out")"
[ "$(tail -1 "$T/walk.out")" = ok ] || head -60 "$T/walk.out"
check_contains "100% of the functions that implement an operator" "(100.00%)" "$(grep '^total:' "$T/walk.out")"
check_contains "no helper given an operator" "(0 given an operator)" "$(grep '^total:' "$T/walk.out")"

# Whole outputs. The bed's path is the only thing that varies (<TREE>).
NORM=(-e "s|$SRC|<TREE>|g")
G=$TREE/aten/src/ATen
bs=$(grep -n '^at::Tensor _make_dep_token(' "$G/RegisterBackendSelect.cpp" | cut -d: -f1)
check_case source_overload_first 0 "$PTINSPECT" build --source wrapper_CPU_Tensor_fill_ "$TREE"
check_case source_ops_dense 0 "$PTINSPECT" build --source 'at::_ops::add_Tensor::call' "$TREE"
check_case source_composite_implicit 0 "$PTINSPECT" build --source "$G/RegisterCompositeImplicitAutograd.cpp:$(grep -n '^at::Tensor wrapper_CompositeImplicitAutograd__dropout(' "$G/RegisterCompositeImplicitAutograd.cpp" | cut -d: -f1)" "$TREE"
check_case source_autograd 0 "$PTINSPECT" build --source 'torch::autograd::generated::MulBackward0::apply(std::vector<at::Tensor>&&)' "$TREE"
check_case source_autograd_json 0 "$PTINSPECT" build --json --source 'torch::autograd::generated::MulBackward0::apply' "$TREE"
vt=$SRC/torch/csrc/autograd/generated/VariableType_0.cpp
check_case source_variable_type 0 "$PTINSPECT" build --source "$vt:$(($(grep -n '^at::Tensor mul_Tensor(c10::DispatchKeySet' "$vt" | cut -d: -f1) + 5))" "$TREE"
check_case source_backend_select 0 "$PTINSPECT" build --source "/build/pytorch/build/aten/src/ATen/RegisterBackendSelect.cpp:$((bs + 1))" "$TREE"
check_case source_file_alone 0 "$PTINSPECT" build --source "$G/RegisterCPU.cpp" "$TREE"
check_case source_several_json 0 "$PTINSPECT" build --json --source wrapper_CPU__relu --source "$G/RegisterCPU.cpp" "$TREE"
check_case source_helper 0 "$PTINSPECT" build --source "$G/RegisterCPU.cpp:$(($(grep -n '^Tensor create_out(' "$G/RegisterCPU.cpp" | cut -d: -f1) + 1))" "$TREE"
printf '%s\n' wrapper_CPU__relu no_such_op | "$PTINSPECT" build --source - "$TREE" >"$T/stdin.out" 2>"$T/stdin.err"
check_eq "--source -: an unknown name is exit 1" 1 $?
check_eq "--source -: two answers" 2 "$(grep -c '^[^ ]' "$T/stdin.out")"
check_contains "--source -: the unknown one named" "'no_such_op' names no operator" "$(cat "$T/stdin.err")"
finish
