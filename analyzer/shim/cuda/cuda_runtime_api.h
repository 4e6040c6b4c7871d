/* cuda_runtime_api.h for kcheck's shim: everything it would declare is in
 * kcheck_cuda.h, which the shim includes before any file. */
#pragma clang system_header
