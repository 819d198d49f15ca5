#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/torch.h>
#include <iostream>
#include <thread>
#include <vector>
// disp N T M: N adds and one mul on the main thread, then T threads of M adds.
int main(int argc, char **argv) {
  int n = atoi(argv[1]), t = atoi(argv[2]), m = atoi(argv[3]);
  auto add = c10::Dispatcher::singleton().findSchemaOrThrow("aten::add", "Tensor")
      .typed<at::Tensor(const at::Tensor&, const at::Tensor&, const c10::Scalar&)>();
  auto mul = c10::Dispatcher::singleton().findSchemaOrThrow("aten::mul", "Tensor")
      .typed<at::Tensor(const at::Tensor&, const at::Tensor&)>();
  at::Tensor a = torch::ones({2}), b = torch::ones({2});
  for (int i = 0; i < n; i++) a = add.call(a, b, 1);
  at::Tensor c = mul.call(a, b);
  std::vector<std::thread> th;
  for (int k = 0; k < t; k++)
    th.emplace_back([&] { at::Tensor x = torch::ones({2}); for (int i = 0; i < m; i++) x = add.call(x, b, 1); });
  for (auto &x : th) x.join();
  std::cout << "calls " << n + 1 + t * m << " value " << c[0].item<float>() << std::endl;
  return 0;
}
