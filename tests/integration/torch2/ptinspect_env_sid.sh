# ctest-timeout: 900
# ptinspect_env.sh on the sid flavour of the test bed: Debian unstable's torch 2.14.
PT_BED=sid
. "$(dirname "${BASH_SOURCE[0]}")/ptinspect_env.sh"
