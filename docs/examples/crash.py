import torch
import segv

def step(x):
    return segv.crash() + x.sum()

print(step(torch.ones(3)))
