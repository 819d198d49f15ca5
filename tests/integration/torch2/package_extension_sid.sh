# ctest-timeout: 1200
# package_extension.sh on the sid flavour of the test bed: real extension wheels built against
# Debian unstable's torch 2.14, read by ptinspect beside auditwheel show and the real loader.
PT_BED=sid
. "$(dirname "${BASH_SOURCE[0]}")/package_extension.sh"
