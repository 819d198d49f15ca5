# Sourced by gdb_tensors.sh in main()'s frame of tensors.cpp: corrupts the metadata of
# t1..t12 (as the second reliability review's probe n_gdb_corrupt.sh did, from its
# corrupt_cases.py) and runs every ptgdb command on each. One line per command:
#   @@corrupt NAME | COMMAND | SECONDS | OUTPUT (newlines as " / ", the first 400 chars)
#   @@corrupt-len NAME | COMMAND | LENGTH OF THE WHOLE OUTPUT
# A case gdb cannot set up (another torch's field names) prints "@@corrupt-skip NAME: why".
import time

import gdb


def ss(name):
    return "%s.impl_.target_->sizes_and_strides_" % name


text = int(gdb.parse_and_eval("(long)&main"))
cases = [
    ("t1", "dim=6, the out-of-line pointer is inline garbage", ["%s.size_ = 6" % ss("t1")]),
    ("t2", "dim=10^8, sizes read from program text",
     ["%s.outOfLineStorage_ = (int64_t *)%d" % (ss("t2"), text), "%s.size_ = 100000000" % ss("t2")]),
    ("t3", "sizes [2^40, 2^40, 4]",
     ["%s.inlineStorage_[0] = 1099511627776" % ss("t3"), "%s.inlineStorage_[1] = 1099511627776" % ss("t3")]),
    ("t4", "a negative size", ["%s.inlineStorage_[0] = -5" % ss("t4")]),
    ("t5", "negative strides", ["%s.inlineStorage_[%d] = %d" % (ss("t5"), i, v) for i, v in ((5, -12), (6, -4), (7, -1))]),
    ("t6", "storage offset -1", ["t6.impl_.target_->storage_offset_ = -1"]),
    ("t7", "storage offset 2^62", ["t7.impl_.target_->storage_offset_ = 4611686018427387904"]),
    ("t8", "dtype index 200", ["t8.impl_.target_->data_type_.index_ = 200"]),
    ("t9", "dim 7, the out-of-line pointer NULL", ["%s.outOfLineStorage_ = 0" % ss("t9")]),
    ("t10", "a key set of all ones", ["t10.impl_.target_->key_set_.repr_ = 0xffffffffffffffff"]),
    ("t11", "a storage impl pointer of 0x10",
     ["t11.impl_.target_->storage_.storage_impl_.target_ = (c10::StorageImpl *)0x10"]),
    ("t12", "sizes [2^62]*3, strides 0",
     ["%s.inlineStorage_[%d] = %d" % (ss("t12"), i, v) for i, v in ((0, 1 << 62), (1, 1 << 62), (2, 1 << 62), (5, 0), (6, 0), (7, 0))]),
]
for name, label, sets in cases:
    try:
        for s in sets:
            gdb.execute("set var " + s)
    except gdb.error as e:
        print("@@corrupt-skip %s: %s" % (name, e))
        continue
    for cmd in ("output %s" % name, "pt-tensor %s" % name, "pt-tensor %s --full" % name,
                "pt-storage %s" % name, "pt-dispatch-keys %s" % name):
        t0 = time.time()
        try:
            out = gdb.execute(cmd, to_string=True)
        except Exception as e:  # a command must never raise on bad data
            out = "EXCEPTION %s: %s" % (type(e).__name__, e)
        print("@@corrupt %s | %s | %.2f | %s" % (name, cmd, time.time() - t0,
                                                 out.strip().replace("\n", " / ")[:400]))
        print("@@corrupt-len %s | %s | %d" % (name, cmd, len(out)))
