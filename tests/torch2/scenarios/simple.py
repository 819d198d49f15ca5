# One compiled function, one graph: compile id [0/0] (inductor, C++ backend).
import torch


@torch.compile
def f(x, y):
    return torch.sin(x) + torch.cos(y) * 2


x, y = torch.randn(8), torch.randn(8)
out = f(x, y)
print("simple: allclose", torch.allclose(out, torch.sin(x) + torch.cos(y) * 2))
