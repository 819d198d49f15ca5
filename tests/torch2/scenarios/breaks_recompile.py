# A graph break (print: Dynamo restarts the frame's analysis, then compiles the
# rest as a resume frame), a recompile on a changed int argument, and shape
# changes that end in a dynamic-shape recompile.
import torch


def g(x, n):
    y = x * n
    print("breaks_recompile: graph break here")
    return y.sin() + n


cg = torch.compile(g)
x = torch.randn(4)
cg(x, 1)
cg(x, 2)                    # int guard fails: recompile
cg(torch.randn(5), 2)       # size guard fails: recompile with a dynamic size
cg(torch.randn(6), 2)       # served by the dynamic graph
print("breaks_recompile: done")
