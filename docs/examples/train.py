import sys, time, warnings
import torch
x = torch.ones(3) * 2
for step in range(3):
    print(f"step {step}: {x.sum().item()}")
    x = x * 2
time.sleep(0.5)  # stdout and stderr are two pipes: let the steps arrive first
warnings.warn("learning rate looks high")
print("about to fail", file=sys.stderr)
torch.ones(2) @ torch.ones(3)
