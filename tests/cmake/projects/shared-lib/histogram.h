#pragma once
// Counts bytes into 256 bins; returns 0 on success, -1 without a GPU.
int histogram256(const unsigned char* data, int n, unsigned int* bins);
