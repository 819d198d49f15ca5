import warnings
import torch
x = torch.ones(3) * 2
for step in range(3):
    print(f"step {step}: {x.sum().item()}")
    x = x * 2
warnings.warn("learning rate looks high")
print("about to fail")
torch.ones(2) @ torch.ones(3)
