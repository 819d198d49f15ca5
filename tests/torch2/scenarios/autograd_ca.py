# Compiled autograd over a small MLP, 2 iterations: the backward pass is
# captured by compiled autograd (compile ids [!0], [!1]...).
import torch
from torch._dynamo import compiled_autograd

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
opt_model = torch.compile(model)


def compiler_fn(gm):
    return torch.compile(gm, backend="inductor")


for i in range(2):
    loss = opt_model(torch.randn(16, 4)).sum()
    # torch 2.6 names the context manager _enable (enable in 2.0-2.5).
    with compiled_autograd._enable(compiler_fn):
        loss.backward()
    print("autograd_ca: iteration", i, "grad norm %.3f" % model[0].weight.grad.norm().item())
