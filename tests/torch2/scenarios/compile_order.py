import sys
import torch

def f(x):
    return torch.sin(x) + 1

def g(x):
    return torch.cos(x) * 2

cf = torch.compile(f, backend="eager")
cg = torch.compile(g, backend="eager")
x = torch.ones(3)
if sys.argv[1] == "fg":
    cf(x); cg(x)
else:
    cg(x); cf(x)
print("done", sys.argv[1])
