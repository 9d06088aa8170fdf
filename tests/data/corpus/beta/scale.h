#pragma once
__device__ __forceinline__ float scale(float a, float x) { return a * x; }
