// Golden: math library calls, fast-math intrinsics and where they sit.

__global__ void softplus_sum(const float *x, float *out, int n, int steps)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = x[i];
	float acc = 0.0f;
	for (int s = 0; s < steps; ++s) {
		acc += logf(1.0f + expf(v));
		acc += powf(v, 2.0f);
		v = v * 0.9f;
	}
	out[i] = acc + sqrtf(fabsf(v)) + __expf(-v) + __fdividef(acc, 3.0f);
}

// expect: SELECT category FROM call WHERE callee = 'expf' => math
// expect: SELECT in_loop FROM call WHERE callee = 'expf' => 1
// expect: SELECT loop_depth FROM call WHERE callee = 'expf' => 1
// expect: SELECT line FROM call WHERE callee = 'logf' => 11
// expect: SELECT category FROM call WHERE callee = 'powf' => math
// expect: SELECT arg1_const FROM call WHERE callee = 'powf' => 2.0
// expect: SELECT arg1_text FROM call WHERE callee = 'powf' => 2.0f
// expect: SELECT arg0_text FROM call WHERE callee = 'powf' => v
// expect: SELECT nargs FROM call WHERE callee = 'powf' => 2
// expect: SELECT arg_is_float FROM call WHERE callee = 'powf' => 1
// expect: SELECT returns_double FROM call WHERE callee = 'powf' => 0
// expect: SELECT is_device_code FROM call WHERE callee = 'powf' => 1
// expect: SELECT in_loop FROM call WHERE callee = 'sqrtf' => 0
// expect: SELECT category FROM call WHERE callee = 'sqrtf' => math
// expect: SELECT category FROM call WHERE callee = '__expf' => fast_math
// expect: SELECT category FROM call WHERE callee = '__fdividef' => fast_math
// expect: SELECT count(*) FROM call WHERE kernel = 'softplus_sum' AND category = 'math' AND in_loop = 1 => 3
// expect: SELECT trip_count FROM loop WHERE line = 10 => NULL
// expect: SELECT count(*) FROM literal WHERE promotes_to_double = 1 => 0
