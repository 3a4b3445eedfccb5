// Test corpus: a disguised copy of reference/matmul/progression/tiled16.cu (names changed, row and
// column computed in the other order, the phase count hoisted into a variable, comments and layout
// changed, an unused device function added).
#define W 16

__device__ float square(float v) { return v * v; }

__global__ void tiledMM(const float* P, const float* Q, float* R, int rows, int cols, int inner)
{
    __shared__ float tp[W][W];
    __shared__ float tq[W][W];
    const int lx = threadIdx.x, ly = threadIdx.y;
    const int cc = blockIdx.x * W + lx;
    const int rr = blockIdx.y * W + ly;
    float dot = 0.0f;
    const int phases = (inner + W - 1) / W;
    for (int ph = 0; ph < phases; ++ph)
    {
        const int pc = ph * W + lx;
        const int qr = ph * W + ly;
        tp[ly][lx] = (rr < rows && pc < inner) ? P[rr * inner + pc] : 0.0f;
        tq[ly][lx] = (qr < inner && cc < cols) ? Q[qr * cols + cc] : 0.0f;
        __syncthreads();
        for (int e = 0; e < W; ++e) dot += tp[ly][e] * tq[e][lx];
        __syncthreads();
    }
    if (rr < rows && cc < cols) R[rr * cols + cc] = dot;
}

void matmul(const float* a, const float* b, float* c, int m, int n, int k)
{
    const dim3 grid((n + W - 1) / W, (m + W - 1) / W);
    const dim3 block(W, W);
    tiledMM<<<grid, block>>>(a, b, c, m, n, k);
}
