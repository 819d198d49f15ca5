#!/usr/bin/python3
# auditwheel's own answer for each FILE: the policy its versioned_symbols_policy picks from
# the file's DT_VERNEED (auditwheel.wheel_abi.get_versioned_symbols), one "FILE POLICY" line
# each. Needs auditwheel (Debian's python3-auditwheel, or PYTHONPATH at its dist-packages)
# and python3-pyelftools; floor_auditwheel.sh runs it when it can import them.
import sys
from pathlib import Path

from auditwheel.architecture import Architecture
from auditwheel.libc import Libc
from auditwheel.policy import WheelPolicies
from auditwheel.wheel_abi import get_versioned_symbols

policies = WheelPolicies(libc=Libc.GLIBC, arch=Architecture.x86_64)
for f in sys.argv[1:]:
    syms = get_versioned_symbols({Path(f): "x"})["x"]
    print(f, policies.versioned_symbols_policy(syms).name)
