/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: the parts of Ascend C the simulated NPU does
 * not model, declared so that using one fails to compile at the user's
 * line with a message naming it: the cube unit (matrix compute and the
 * L1/L0 movement around it) and the register-level vector functions of
 * Ascend 950 (__simd_vf__, asc_vf_call, Reg::). docs/ascendc.md lists
 * them. Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_UNAVAILABLE_H_
#define GOCANN_ASCENDC_UNAVAILABLE_H_

#include <type_traits>

namespace AscendC {

namespace gocann {

/* Unmodelled is false for any arguments, so a static_assert on it fires
 * only where the user's code instantiates the call. */
template <typename... A>
struct Unmodelled : std::false_type {
};

} // namespace gocann

#define GOCANN_ASCENDC_CUBE_MSG(name) \
    #name ": the cube unit (matrix compute, L1/L0A/L0B/L0C movement) is not available on the simulated NPU"

/* A cube call: any arguments, an error where it is used. */
#define GOCANN_ASCENDC_CUBE_CALL(name)                                                           \
    template <typename... Tmpl, typename... A>                                                   \
    __aicore__ inline void name(A &&...)                                                         \
    {                                                                                            \
        static_assert(gocann::Unmodelled<A..., Tmpl...>::value, GOCANN_ASCENDC_CUBE_MSG(name)); \
    }
GOCANN_ASCENDC_CUBE_CALL(Mmad)
GOCANN_ASCENDC_CUBE_CALL(MmadMx)
GOCANN_ASCENDC_CUBE_CALL(MmadWithSparse)
GOCANN_ASCENDC_CUBE_CALL(LoadData)
GOCANN_ASCENDC_CUBE_CALL(LoadDataWithTranspose)
GOCANN_ASCENDC_CUBE_CALL(LoadDataWithStride)
GOCANN_ASCENDC_CUBE_CALL(LoadDataWithSparse)
GOCANN_ASCENDC_CUBE_CALL(LoadImageToLocal)
GOCANN_ASCENDC_CUBE_CALL(Load3DA1ToL0A)
GOCANN_ASCENDC_CUBE_CALL(Load3DB1ToL0B)
GOCANN_ASCENDC_CUBE_CALL(Fixpipe)
GOCANN_ASCENDC_CUBE_CALL(SetFixPipeConfig)
GOCANN_ASCENDC_CUBE_CALL(SetFixpipeNz2ndFlag)
GOCANN_ASCENDC_CUBE_CALL(SetFixpipePreQuantFlag)
GOCANN_ASCENDC_CUBE_CALL(SetLoadDataBoundary)
GOCANN_ASCENDC_CUBE_CALL(SetLoadDataRepeat)
GOCANN_ASCENDC_CUBE_CALL(SetLoadDataPaddingValue)
GOCANN_ASCENDC_CUBE_CALL(SetFmatrix)
GOCANN_ASCENDC_CUBE_CALL(SetHF32Mode)
GOCANN_ASCENDC_CUBE_CALL(InitConstValue)
GOCANN_ASCENDC_CUBE_CALL(BroadCastVecToMM)
#undef GOCANN_ASCENDC_CUBE_CALL

/* A cube call's parameters: declaring one is the error. */
#define GOCANN_ASCENDC_CUBE_PARAMS(name)                                                         \
    struct name {                                                                                \
        template <typename... A>                                                                 \
        __aicore__ name(A &&...)                                                                 \
        {                                                                                        \
            static_assert(gocann::Unmodelled<A...>::value, GOCANN_ASCENDC_CUBE_MSG(name));       \
        }                                                                                        \
    };
GOCANN_ASCENDC_CUBE_PARAMS(MmadParams)
GOCANN_ASCENDC_CUBE_PARAMS(LoadData2DParams)
GOCANN_ASCENDC_CUBE_PARAMS(LoadData2DParamsV2)
GOCANN_ASCENDC_CUBE_PARAMS(LoadData2dTransposeParams)
GOCANN_ASCENDC_CUBE_PARAMS(LoadData2DMxParams)
GOCANN_ASCENDC_CUBE_PARAMS(LoadData3DParamsV2Pro)
GOCANN_ASCENDC_CUBE_PARAMS(LoadDataRepeatParamWithStride)
GOCANN_ASCENDC_CUBE_PARAMS(FixpipeConfig)
GOCANN_ASCENDC_CUBE_PARAMS(FixpipeParamsV220)
#undef GOCANN_ASCENDC_CUBE_PARAMS
using LoadData2dParams = LoadData2DParams;

template <typename T>
struct LoadData3DParamsV2 {
    static_assert(gocann::Unmodelled<T>::value, GOCANN_ASCENDC_CUBE_MSG(LoadData3DParamsV2));
};
#undef GOCANN_ASCENDC_CUBE_MSG

/* Calls of other products that Atlas A2, the simulated NPU, lacks. */
#define GOCANN_ASCENDC_NOT_A2(name)                                                                    \
    template <typename... Tmpl, typename... A>                                                         \
    __aicore__ inline void name(A &&...)                                                               \
    {                                                                                                  \
        static_assert(gocann::Unmodelled<A..., Tmpl...>::value,                                        \
                      #name ": Atlas A2 (the simulated NPU) does not have this call of other products"); \
    }
GOCANN_ASCENDC_NOT_A2(MrgSort4)
GOCANN_ASCENDC_NOT_A2(RpSort16)
GOCANN_ASCENDC_NOT_A2(ProposalConcat)
GOCANN_ASCENDC_NOT_A2(ProposalExtract)
#undef GOCANN_ASCENDC_NOT_A2

/* The register-level vector API of Ascend 950 (dav-3510). */
namespace Reg {
} // namespace Reg

} // namespace AscendC

template <auto fn, typename... A>
__aicore__ inline void asc_vf_call(A &&...)
{
    static_assert(AscendC::gocann::Unmodelled<A...>::value,
                  "asc_vf_call: the register-level vector functions (__simd_vf__, Reg::) of Ascend 950 (dav-3510) are "
                  "not available on the simulated NPU");
}

/* A __simd_vf__ or __simd_callee__ function is the error itself, at its
 * declaration (gocann/kernel.h, for C kernels, defines them away). */
#undef __simd_vf__
#undef __simd_callee__
#define __simd_callee__ __simd_vf__
#define __simd_vf__                                                                                            \
    _Pragma("GCC error \"__simd_vf__: the register-level vector functions (__simd_vf__, Reg::) of Ascend 950 (dav-3510) are not available on the simulated NPU\"")

#endif /* GOCANN_ASCENDC_UNAVAILABLE_H_ */
