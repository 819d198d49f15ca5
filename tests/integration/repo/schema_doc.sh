# docs/internals/index-schema.md describes every table the schema creates:
# each table of a fresh database (every part of tracers/store/schema.c) appears
# there in a CREATE TABLE statement, and every part, at its current version, in its table of parts.
. "$PT_TESTLIB/common.sh" || exit 2
P=$PTTRACE
DOC=$PT_SRC/docs/internals/index-schema.md
export PTTRACE_DB=$T/db/pttrace.db
check_rc "a fresh database" 0 "$P" run -q -- true
tables=$("$P" --json sql "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name" |
	/usr/bin/python3 -c 'import json, sys; print("\n".join(r["name"] for r in json.load(sys.stdin)))')
parts=$("$P" --json sql "SELECT name, version FROM schema_parts ORDER BY name" |
	/usr/bin/python3 -c 'import json, sys; print("\n".join("%s:%d" % (r["name"], r["version"]) for r in json.load(sys.stdin)))')
[ "$(printf '%s\n' "$tables" | wc -l)" -ge 10 ] || fail "too few tables: $tables"
for t in $tables; do
	grep -Eq "^CREATE TABLE $t ?\(" "$DOC" || fail "index-schema.md has no CREATE TABLE $t"
	pass
done
[ "$(printf '%s\n' "$parts" | wc -l)" -ge 4 ] || fail "too few parts: $parts"
for pv in $parts; do
	p=${pv%%:*} v=${pv#*:}
	grep -q "^| \`$p\` |" "$DOC" || { fail "index-schema.md's table of parts has no part '$p'"; continue; }
	grep -q "^| \`$p\` | $v |" "$DOC" || fail "index-schema.md gives part '$p' another version than the schema's $v"
	pass
done
finish
