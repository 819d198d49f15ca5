// The extension of docs/guide-ptinspect-cuda.md: one kernel, built like PyTorch builds its own.
__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }
