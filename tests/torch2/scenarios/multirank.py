# Two ranks started with torch.multiprocessing.spawn over gloo; each compiles
# the same function after init_process_group (so each writes a rank_<R> trace
# file) and they all-reduce the result.
import logging
import os
import socket
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, world, port):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    # Debian's torch 2.6 is built without libuv, the TCPStore default since 2.4.
    os.environ["USE_LIBUV"] = "0"
    dist.init_process_group("gloo", rank=rank, world_size=world)

    @torch.compile
    def f(x):
        return (x * 2).relu()

    y = f(torch.ones(4) * (rank + 1))
    dist.all_reduce(y)
    print(f"multirank: rank {rank}: {y.tolist()}", flush=True)
    # Both ranks leave together, and without tearing gloo down: a rank that
    # destroys its group, or runs C++'s exit-time destructors, while gloo's
    # threads still run aborts now and then (torch 2.6: "terminate called
    # without an active exception", exit 1, seen in a strict run even after
    # a barrier). The trace and the logs are flushed first (logging.shutdown),
    # then the process leaves at once.
    dist.barrier()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(worker, args=(2, port), nprocs=2)
