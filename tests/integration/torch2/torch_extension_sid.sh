# ctest-timeout: 1500
# torch_extension.sh on the sid flavour of the test bed: a real C++ extension built against
# Debian unstable's torch 2.14 with its own cpp_extension, both C++ ABIs.
PT_BED=sid
. "$(dirname "${BASH_SOURCE[0]}")/torch_extension.sh"
