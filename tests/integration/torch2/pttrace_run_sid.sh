# ctest-timeout: 1500
# pttrace_run.sh on the sid flavour of the test bed: Debian unstable's torch 2.14.
PT_BED=sid
. "$(dirname "${BASH_SOURCE[0]}")/pttrace_run.sh"
