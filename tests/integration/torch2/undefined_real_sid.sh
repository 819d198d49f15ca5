# ctest-timeout: 900
# undefined_real.sh on the sid flavour of the test bed: `ptinspect undefined` beside ldd -r on
# Debian unstable's torch 2.14 libraries.
PT_BED=sid
. "$(dirname "${BASH_SOURCE[0]}")/undefined_real.sh"
