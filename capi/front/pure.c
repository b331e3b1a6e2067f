// API functions that need no runtime state: data type sizes, float16
// conversions and the exception-info getters. They run in C, without a
// call into Go.

#include <math.h>
#include <string.h>
#include "acl/acl.h"
#include "exception.h"

size_t aclDataTypeSize(aclDataType dataType) {
	switch (dataType) {
	case ACL_BOOL: case ACL_INT8: case ACL_UINT8: case ACL_HIFLOAT8:
	case ACL_FLOAT8_E5M2: case ACL_FLOAT8_E4M3FN: case ACL_FLOAT8_E8M0:
	case ACL_FLOAT6_E3M2: case ACL_FLOAT6_E2M3: case ACL_FLOAT4_E2M1: case ACL_FLOAT4_E1M2:
	case ACL_INT4: case ACL_UINT1:
		return 1; // sub-byte types occupy at least a byte
	case ACL_FLOAT16: case ACL_INT16: case ACL_UINT16: case ACL_BF16:
		return 2;
	case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32:
		return 4;
	case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64:
		return 8;
	case ACL_COMPLEX128:
		return 16;
	default:
		return 0;
	}
}

// aclFloat16ToFloat treats the all-ones exponent as an ordinary one, as
// chips that only saturate do: +Inf reads 65536, NaN (0x7E00) 98304.
float aclFloat16ToFloat(aclFloat16 value) {
	unsigned s = value >> 15, e = (value >> 10) & 0x1f, m = value & 0x3ff;
	float f = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m | 0x400), (int)e - 25);
	return s ? -f : f;
}

// aclFloatToFloat16 rounds to nearest even and saturates: NaN, infinities
// and finite values beyond the range become +-65504.
aclFloat16 aclFloatToFloat16(float value) {
	uint32_t x;
	memcpy(&x, &value, sizeof x);
	uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
	if (isnan(value)) {
		return 0x7bff;
	}
	float a = fabsf(value);
	if (a >= 65520.0f) { // rounds past the largest finite half
		return sign | 0x7bff;
	}
	if (a < 0x1p-25f) {
		return sign;
	}
	int e;
	float frac = frexpf(a, &e); // a = frac * 2^e, frac in [0.5, 1)
	if (e < -13) {                // subnormal half: units of 2^-24
		float units = nearbyintf(ldexpf(a, 24));
		return sign | (uint16_t)units;
	}
	float mant = nearbyintf(ldexpf(frac, 11)); // 11 significant bits
	if (mant >= 2048.0f) {
		mant /= 2;
		e++;
	}
	unsigned he = (unsigned)(e + 14);
	if (he >= 31) {
		return sign | 0x7bff;
	}
	return sign | (uint16_t)(he << 10) | ((uint16_t)mant & 0x3ff);
}

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info) {
	return info ? info->task_id : 0xFFFFFFFFu;
}
uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info) {
	return info ? info->stream_id : 0xFFFFFFFFu;
}
uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info) {
	return info ? info->thread_id : 0xFFFFFFFFu;
}
uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info) {
	return info ? info->device_id : 0xFFFFFFFFu;
}
uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info) {
	return info ? info->error_code : 0xFFFFFFFFu;
}
