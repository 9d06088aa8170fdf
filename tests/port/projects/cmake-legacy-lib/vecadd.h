#pragma once
void vecadd(const float* a, const float* b, float* c, int n);
