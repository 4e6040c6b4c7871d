/* Empty on purpose: CUDA 13 removed this header and clang 19 still includes it. */
