// Nine small CUDA kernels profiled to make a further data set for pn-gpu
// (the same nine computations as ../shared/gpu-data, written for this
// project). Built and run only on a machine with an NVIDIA GPU, by
// bench/gpu/profile.sh; the project builds and tests without it.
//
//   kernels --device [ID]        one deviceInfo.csv row for GPU 0 (gpu_id ID)
//   kernels --time  MANIFEST     run every launch of the plan, 1 warm-up and
//                                 5 timed repetitions (CUDA events, median),
//                                 write MANIFEST (one row per launch)
//   kernels --once               run every launch of the plan once (for ncu)
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
    exit(1); } } while (0)

__global__ void vectorAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

// one partial sum per block, tree reduction in shared memory
__global__ void dotProd(const float *a, const float *b, float *part, int n)
{
    extern __shared__ float acc[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    acc[threadIdx.x] = i < n ? a[i] * b[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) acc[threadIdx.x] += acc[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) part[blockIdx.x] = acc[0];
}

// maximum subarray sum: each thread scans a contiguous chunk and keeps
// (total, best prefix, best suffix, best); the block combines the four
// values of its threads in order; one record per block
struct seg { float tot, pre, suf, best; };
__device__ seg seg_join(seg l, seg r)
{
    seg s;
    s.tot = l.tot + r.tot;
    s.pre = fmaxf(l.pre, l.tot + r.pre);
    s.suf = fmaxf(r.suf, r.tot + l.suf);
    s.best = fmaxf(fmaxf(l.best, r.best), l.suf + r.pre);
    return s;
}
__global__ void subSeqMax(const float *a, float *out, long n)
{
    __shared__ seg part[256];
    __shared__ float res[2];
    long nthreads = (long)gridDim.x * blockDim.x;
    long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
    long chunk = (n + nthreads - 1) / nthreads;
    long lo = t * chunk, hi = min(n, lo + chunk);
    seg s = {0.0f, 0.0f, 0.0f, 0.0f};
    float run = 0.0f;
    for (long i = lo; i < hi; i++) {
        float x = a[i];
        s.tot += x;
        s.pre = fmaxf(s.pre, s.tot);
        run = fmaxf(0.0f, run + x);
        s.best = fmaxf(s.best, run);
    }
    s.suf = run;
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = 1; w < (int)blockDim.x; w <<= 1) {
        if (threadIdx.x % (2 * w) == 0 && threadIdx.x + w < blockDim.x)
            part[threadIdx.x] = seg_join(part[threadIdx.x], part[threadIdx.x + w]);
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        res[0] = part[0].best;
        res[1] = part[0].tot;
        out[2 * blockIdx.x] = res[0];
        out[2 * blockIdx.x + 1] = res[1];
    }
}

// x runs along a row: neighbouring threads touch neighbouring words
__global__ void matrix_sum_coalesced(const float *a, const float *b, float *c, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) c[row * n + col] = a[row * n + col] + b[row * n + col];
}

// x runs down a column: neighbouring threads are a row apart
__global__ void matrix_sum_normal(const float *a, const float *b, float *c, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) c[row * n + col] = a[row * n + col] + b[row * n + col];
}

__global__ void matMul_gpu(const float *a, const float *b, float *c, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        float s = 0.0f;
        for (int k = 0; k < n; k++) s += a[row * n + k] * b[k * n + col];
        c[row * n + col] = s;
    }
}

__global__ void matMul_gpu_uncoalesced(const float *a, const float *b, float *c, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        float s = 0.0f;
        for (int k = 0; k < n; k++) s += a[row * n + k] * b[k * n + col];
        c[row * n + col] = s;
    }
}

// square tiles of the block's size in dynamic shared memory
__global__ void matMul_gpu_sharedmem(const float *a, const float *b, float *c, int n)
{
    extern __shared__ float sm[];
    int t = blockDim.x;
    float *ta = sm, *tb = sm + t * t;
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * t + tx, row = blockIdx.y * t + ty;
    float s = 0.0f;
    for (int k0 = 0; k0 < n; k0 += t) {
        ta[ty * t + tx] = (row < n && k0 + tx < n) ? a[row * n + k0 + tx] : 0.0f;
        tb[ty * t + tx] = (k0 + ty < n && col < n) ? b[(k0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < t; k++) s += ta[ty * t + k] * tb[k * t + tx];
        __syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = s;
}

__global__ void matMul_gpu_sharedmem_uncoalesced(const float *a, const float *b, float *c, int n)
{
    extern __shared__ float sm[];
    int t = blockDim.x;
    float *ta = sm, *tb = sm + t * t;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.x * t + tx, col = blockIdx.y * t + ty;
    float s = 0.0f;
    for (int k0 = 0; k0 < n; k0 += t) {
        ta[tx * t + ty] = (row < n && k0 + ty < n) ? a[row * n + k0 + ty] : 0.0f;
        tb[tx * t + ty] = (k0 + tx < n && col < n) ? b[(k0 + tx) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < t; k++) s += ta[tx * t + k] * tb[k * t + ty];
        __syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = s;
}

struct launch { const char *kernel; long size; int bx, by; };

static std::vector<launch> plan()
{
    std::vector<launch> p;
    std::vector<long> vs;
    for (long n = 1L << 17; n <= 1L << 28; n <<= 1) { vs.push_back(n); if (n < (1L << 28)) vs.push_back(n + n / 2); }
    const int b1[] = {64, 256, 1024};
    for (long n : vs) for (int b : b1) p.push_back({"vectorAdd", n, b, 1});
    for (long n : vs) for (int b : b1) p.push_back({"dotProd", n, b, 1});
    for (long n : vs) p.push_back({"subSeqMax", n, 128, 1});
    const int b2[] = {8, 16, 32};
    const char *mk[] = {"matrix_sum_coalesced", "matrix_sum_normal", "matMul_gpu",
                        "matMul_gpu_uncoalesced", "matMul_gpu_sharedmem",
                        "matMul_gpu_sharedmem_uncoalesced"};
    for (const char *k : mk) {
        bool mm = !strncmp(k, "matMul", 6);
        int top = mm ? 4096 : 8192, step = mm ? 256 : 512;
        for (int n = 256; n <= top; n += step) for (int b : b2) p.push_back({k, n, b, b});
    }
    return p;
}

static float *A, *B, *C;

static void run(const launch &l)
{
    const char *k = l.kernel;
    if (!strcmp(k, "vectorAdd") || !strcmp(k, "dotProd")) {
        int n = (int)l.size, g = (n + l.bx - 1) / l.bx;
        if (k[0] == 'v') vectorAdd<<<g, l.bx>>>(A, B, C, n);
        else dotProd<<<g, l.bx, l.bx * sizeof(float)>>>(A, B, C, n);
    } else if (!strcmp(k, "subSeqMax")) {
        subSeqMax<<<32, 128>>>(A, C, l.size);
    } else {
        int n = (int)l.size, g = (n + l.bx - 1) / l.bx;
        dim3 grid(g, g), block(l.bx, l.by);
        size_t sh = 2 * l.bx * l.by * sizeof(float);
        if (!strcmp(k, "matrix_sum_coalesced")) matrix_sum_coalesced<<<grid, block>>>(A, B, C, n);
        else if (!strcmp(k, "matrix_sum_normal")) matrix_sum_normal<<<grid, block>>>(A, B, C, n);
        else if (!strcmp(k, "matMul_gpu")) matMul_gpu<<<grid, block>>>(A, B, C, n);
        else if (!strcmp(k, "matMul_gpu_uncoalesced")) matMul_gpu_uncoalesced<<<grid, block>>>(A, B, C, n);
        else if (!strcmp(k, "matMul_gpu_sharedmem")) matMul_gpu_sharedmem<<<grid, block, sh>>>(A, B, C, n);
        else matMul_gpu_sharedmem_uncoalesced<<<grid, block, sh>>>(A, B, C, n);
    }
    CK(cudaGetLastError());
}

static void fill(float *d, size_t n, unsigned seed)
{
    std::vector<float> h(n);
    for (size_t i = 0; i < n; i++) { seed = seed * 1103515245u + 12345u; h[i] = ((seed >> 8) % 2001) / 1000.0f - 1.0f; }
    CK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: kernels --device | --time MANIFEST | --once\n"); return 2; }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    if (!strcmp(argv[1], "--device")) {
        int clk = 0, mclk = 0, bus = 0;
        cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
        cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, 0);
        cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0);
        int cores_sm = 128;   // FP32 lanes per SM on sm_80+ (Hopper: 128)
        double bw = 2.0 * mclk * 1e3 * (bus / 8) / 1e9;
        printf("compute_version,gpu_id,gpu_name,l1_cache_used,max_clock_rate,num_of_cores,L2,bus,memory_clock,bandwith,GM,num_sm,num_cores_sm,theoretical_flops\n");
        for (char *c = p.name; *c; c++) if (*c == ',') *c = ' ';
        printf("%d.%d,%s,%s,0,%d,%d,%g,%d,%d,%.3f,%.0f,%d,%d,%.3f\n", p.major, p.minor,
               argc > 2 ? argv[2] : "1", p.name,
               clk / 1000, cores_sm * p.multiProcessorCount, p.l2CacheSize / 1048576.0, bus, mclk / 1000,
               bw, p.totalGlobalMem / 1073741824.0, p.multiProcessorCount, cores_sm,
               2.0 * cores_sm * p.multiProcessorCount * clk / 1e6);
        fprintf(stderr, "%s: cc %d.%d, %d SMs, regs/SM %d, smem/SM %zu, max threads/SM %d, blocks/SM %d\n",
                p.name, p.major, p.minor, p.multiProcessorCount, p.regsPerMultiprocessor,
                p.sharedMemPerMultiprocessor, p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
        return 0;
    }
    size_t maxn = 1UL << 28;
    CK(cudaMalloc(&A, maxn * sizeof(float)));
    CK(cudaMalloc(&B, maxn * sizeof(float)));
    CK(cudaMalloc(&C, maxn * sizeof(float)));
    fill(A, maxn, 1);
    fill(B, maxn, 2);
    cudaFuncSetAttribute(matMul_gpu_sharedmem, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
    cudaFuncSetAttribute(matMul_gpu_sharedmem_uncoalesced, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
    std::vector<launch> pl = plan();
    if (argc > 2 && !strcmp(argv[1], "--time")) {
        FILE *m = fopen(argv[2], "w");
        if (!m) { perror(argv[2]); return 1; }
        fprintf(m, "ID,AppName,Input.Size,Block.X,Block.Y,Duration\n");
        cudaEvent_t e0, e1;
        CK(cudaEventCreate(&e0));
        CK(cudaEventCreate(&e1));
        for (size_t i = 0; i < pl.size(); i++) {
            run(pl[i]);
            CK(cudaDeviceSynchronize());
            std::vector<float> ms;
            for (int r = 0; r < 5; r++) {
                CK(cudaEventRecord(e0));
                run(pl[i]);
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                float t;
                CK(cudaEventElapsedTime(&t, e0, e1));
                ms.push_back(t);
            }
            std::sort(ms.begin(), ms.end());
            fprintf(m, "%zu,%s,%ld,%d,%d,%.9g\n", i, pl[i].kernel, pl[i].size, pl[i].bx, pl[i].by, ms[2] / 1e3);
        }
        fclose(m);
        return 0;
    }
    if (!strcmp(argv[1], "--once")) {
        for (size_t i = 0; i < pl.size(); i++) { run(pl[i]); CK(cudaDeviceSynchronize()); }
        return 0;
    }
    fprintf(stderr, "kernels: unknown mode %s\n", argv[1]);
    return 2;
}
