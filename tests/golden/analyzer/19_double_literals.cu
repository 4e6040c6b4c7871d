// Golden: floating literals.  An unsuffixed literal (a double) combined with
// a float operand widens the float arithmetic to double in device code.

__global__ void activations(const float *x, float *y, double *yd, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = x[i];
	float a = v * 0.5;
	float b = v * 0.5f;
	double d = yd[i] * 0.25;
	float c = 3;
	y[i] = a + b + c + (v > 1.0 ? 1.0f : 0.0f);
	yd[i] = d;
}

float host_scale(float v)
{
	return v * 2.5;
}

// expect: SELECT count(*) FROM literal WHERE promotes_to_double = 1 => 1
// expect: SELECT text FROM literal WHERE line = 10 => 0.5
// expect: SELECT kind FROM literal WHERE line = 10 => double
// expect: SELECT promotes_to_double FROM literal WHERE line = 10 => 1
// expect: SELECT kernel FROM literal WHERE line = 10 => activations
// expect: SELECT kind FROM literal WHERE line = 11 => float
// expect: SELECT promotes_to_double FROM literal WHERE line = 11 => 0
// expect: SELECT count(*) FROM literal WHERE line = 14 AND kind = 'float' => 2
// expect: SELECT promotes_to_double FROM literal WHERE line = 12 => 0
// expect: SELECT promotes_to_double FROM literal WHERE line = 14 AND text = '1.0' => 0
// expect: SELECT count(*) FROM literal WHERE line = 20 AND promotes_to_double = 1 => 0
// expect: SELECT in_macro FROM literal WHERE line = 10 => 0
// expect: SELECT col FROM literal WHERE line = 10 => 16
// expect: SELECT end_off - begin_off FROM literal WHERE line = 10 => 3
// A comparison with a constant that a float holds exactly (`v > 1.0`, line
// 14) does not promote: the compiler compares in float.
