#include <cublas_v2.h>
int main() { cublasHandle_t h; return cublasCreate(&h) != CUBLAS_STATUS_SUCCESS; }
