import torch
a = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
b = torch.arange(6.).reshape(3, 2).t()
print(torch.atan2(a, b))
