# ctest-timeout: 900
# sqlite_json.sh on the sid flavour of the test bed: the envelope scan's unit tests on Debian
# unstable's SQLite (3.53 when this was written), the newest JSON5 reader.
PT_BED=sid
. "$(dirname "${BASH_SOURCE[0]}")/sqlite_json.sh"
