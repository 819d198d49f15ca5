# ctest-timeout: 1200
# smoke.sh on the sid flavour of the test bed: the bed made or reused, entered clean, Debian
# unstable's torch 2.14 imported and torch.compile's C++ backend run, the project built inside.
PT_BED=sid
. "$(dirname "${BASH_SOURCE[0]}")/smoke.sh"
