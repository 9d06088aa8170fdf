# CMake toolchain file: build an unmodified CUDA project for AMD GPUs with cass-cc.
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=<cass-cc checkout>/cmake/cass-cc.cmake -S . -B build
#
# CMake's CUDA language then compiles with cass-cc, through the bin/nvcc of the shim
# toolkit that `cass-cc toolkit` generates; CMake identifies it as NVIDIA's nvcc from its
# --version and -v output. find_package(CUDAToolkit) finds the same toolkit, whose
# headers and lib64 (CUDA::cudart, CUDA::cuda_driver, ...) call and link HIP.
#
# CUDA_ARCHITECTURES keep their NVIDIA values (80;86, 86-real, native, all): cass-cc
# maps every one to AMD targets by its arch-map/offload-arch settings (default gfx1100).
# To choose AMD targets here:  -DCASS_OFFLOAD_ARCH="gfx1100;gfx1030"
# The host compiler is CMake's choice as usual (CMAKE_CUDA_HOST_COMPILER, CUDAHOSTCXX).

# Read again for every try_compile: work out the toolkit once per build tree.
if(NOT CASS_CC_TOOLKIT)
  find_program(CASS_CC_EXECUTABLE NAMES cass-cc
    HINTS "${CMAKE_CURRENT_LIST_DIR}/../bin"
    DOC "cass-cc, the nvcc-compatible driver for AMD GPUs")
  if(NOT CASS_CC_EXECUTABLE)
    message(FATAL_ERROR "cass-cc.cmake: cannot find cass-cc (looked in ${CMAKE_CURRENT_LIST_DIR}/../bin and PATH)")
  endif()
  execute_process(COMMAND "${CASS_CC_EXECUTABLE}" toolkit
    OUTPUT_VARIABLE _cass_toolkit ERROR_VARIABLE _cass_error
    RESULT_VARIABLE _cass_result OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _cass_result EQUAL 0 OR NOT IS_DIRECTORY "${_cass_toolkit}")
    string(STRIP "${_cass_error}" _cass_error)
    message(FATAL_ERROR "cass-cc.cmake: `${CASS_CC_EXECUTABLE} toolkit` failed: ${_cass_error}")
  endif()
  set(CASS_CC_TOOLKIT "${_cass_toolkit}" CACHE PATH "The shim CUDA toolkit cass-cc generated")
endif()

set(CMAKE_CUDA_COMPILER "${CASS_CC_TOOLKIT}/bin/nvcc" CACHE FILEPATH "cass-cc, as the toolkit's nvcc")
set(CUDAToolkit_ROOT "${CASS_CC_TOOLKIT}" CACHE PATH "The shim CUDA toolkit (find_package(CUDAToolkit))")

# try_compile projects must see the same choices.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES CASS_CC_TOOLKIT CASS_OFFLOAD_ARCH)

if(CASS_OFFLOAD_ARCH AND NOT CMAKE_CUDA_FLAGS_INIT MATCHES "--cass-offload-arch=")
  string(REPLACE ";" "," _cass_archs "${CASS_OFFLOAD_ARCH}")
  string(APPEND CMAKE_CUDA_FLAGS_INIT " --cass-offload-arch=${_cass_archs}")
endif()
