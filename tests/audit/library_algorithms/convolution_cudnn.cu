// Library algorithm (convolution): both parts through cuDNN's cudnnConvolutionForward, no kernel
// of the submission's own (the 1-D part as a 2-D convolution of one row). Declared by hand where
// the toolkit has no cuDNN headers, as a student could.
#if __has_include(<cudnn.h>)
#include <cudnn.h>
#else
typedef struct cudnnContext* cudnnHandle_t;
typedef struct cudnnTensorStruct* cudnnTensorDescriptor_t;
typedef struct cudnnFilterStruct* cudnnFilterDescriptor_t;
typedef struct cudnnConvolutionStruct* cudnnConvolutionDescriptor_t;
typedef enum { CUDNN_CROSS_CORRELATION = 1 } cudnnConvolutionMode_t;
typedef enum { CUDNN_DATA_FLOAT = 0 } cudnnDataType_t;
typedef enum { CUDNN_TENSOR_NCHW = 0 } cudnnTensorFormat_t;
typedef enum { CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM = 0 } cudnnConvolutionFwdAlgo_t;
typedef int cudnnStatus_t;
extern "C" cudnnStatus_t cudnnCreate(cudnnHandle_t*);
extern "C" cudnnStatus_t cudnnCreateTensorDescriptor(cudnnTensorDescriptor_t*);
extern "C" cudnnStatus_t cudnnCreateFilterDescriptor(cudnnFilterDescriptor_t*);
extern "C" cudnnStatus_t cudnnCreateConvolutionDescriptor(cudnnConvolutionDescriptor_t*);
extern "C" cudnnStatus_t cudnnSetTensor4dDescriptor(cudnnTensorDescriptor_t, cudnnTensorFormat_t, cudnnDataType_t, int,
                                                    int, int, int);
extern "C" cudnnStatus_t cudnnSetFilter4dDescriptor(cudnnFilterDescriptor_t, cudnnDataType_t, cudnnTensorFormat_t, int,
                                                    int, int, int);
extern "C" cudnnStatus_t cudnnSetConvolution2dDescriptor(cudnnConvolutionDescriptor_t, int, int, int, int, int, int,
                                                         cudnnConvolutionMode_t, cudnnDataType_t);
extern "C" cudnnStatus_t cudnnConvolutionForward(cudnnHandle_t, const void*, cudnnTensorDescriptor_t, const void*,
                                                 cudnnFilterDescriptor_t, const void*, cudnnConvolutionDescriptor_t,
                                                 cudnnConvolutionFwdAlgo_t, void*, size_t, const void*,
                                                 cudnnTensorDescriptor_t, void*);
#endif

namespace {
void convolve(const float* in, const float* mask, float* out, int height, int width, int mask_h, int mask_w) {
  static cudnnHandle_t handle = nullptr;
  if (!handle) cudnnCreate(&handle);
  cudnnTensorDescriptor_t image = nullptr;
  cudnnFilterDescriptor_t filter = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnCreateTensorDescriptor(&image);
  cudnnCreateFilterDescriptor(&filter);
  cudnnCreateConvolutionDescriptor(&conv);
  cudnnSetTensor4dDescriptor(image, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, height, width);
  cudnnSetFilter4dDescriptor(filter, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 1, 1, mask_h, mask_w);
  cudnnSetConvolution2dDescriptor(conv, mask_h / 2, mask_w / 2, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT);
  const float one = 1.0f, zero = 0.0f;
  cudnnConvolutionForward(handle, &one, image, in, filter, mask, conv, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM,
                          nullptr, 0, &zero, image, out);
}
}  // namespace

void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width) {
  convolve(in, mask, out, 1, width, 1, mask_width);
}

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  convolve(in, mask, out, height, width, mask_width, mask_width);
}
