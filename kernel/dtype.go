package kernel

// DType is an element type of device data, with the values of CANN's
// aclDataType: the built-in tasks' operands and, for kernels, what tensor
// descriptors name.
type DType uint32

const (
	F32  DType = 0
	F16  DType = 1
	I8   DType = 2
	I32  DType = 3
	U8   DType = 4
	I16  DType = 6
	U16  DType = 7
	U32  DType = 8
	I64  DType = 9
	U64  DType = 10
	BF16 DType = 27
)

// Size is the element size in bytes, 0 for a type no built-in task knows.
func (t DType) Size() uint64 {
	switch t {
	case I8, U8:
		return 1
	case F16, BF16, I16, U16:
		return 2
	case F32, I32, U32:
		return 4
	case I64, U64:
		return 8
	}
	return 0
}

// Float reports whether t is a floating-point type.
func (t DType) Float() bool { return t == F32 || t == F16 || t == BF16 }
