#!/bin/sh
# Build the demo without make.
set -e
CUDA_HOME=/usr/local/cuda
NVCC=$CUDA_HOME/bin/nvcc
$NVCC -O2 -arch=sm_80 -Xcompiler -fPIC -c kernel.cu -o kernel.o
gcc -O2 -I$CUDA_HOME/include -c main.c -o main.o
gcc main.o kernel.o -o app -L$CUDA_HOME/lib64 -lcudart && echo built  # done
