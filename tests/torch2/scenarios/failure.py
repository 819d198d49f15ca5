# fullgraph=True on a function with a graph break: Dynamo raises Unsupported
# (caught here, so the script exits 0).
import torch


def h(x):
    print("failure: a graph break is not allowed here")
    return x + 1


try:
    torch.compile(h, fullgraph=True)(torch.randn(3))
    print("failure: no exception")
except torch._dynamo.exc.Unsupported as e:
    print("failure: caught Unsupported:", str(e).splitlines()[0])
