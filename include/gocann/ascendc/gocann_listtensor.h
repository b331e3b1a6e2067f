/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: ListTensorDesc, which reads the list of
 * tensors a host passes in one global-memory block, and TensorDesc, one of
 * them. The block is 64-bit words: the byte offset of the data pointers,
 * then one description per tensor (a word holding the dimension count in
 * its low half and the tensor's index in its high half, then one word per
 * dimension; or, with dimension count 0, two words and no shapes), then
 * the data pointers. The number of tensors is the first description's
 * index when that is not 0, else the last one's plus 1, as the device
 * reads it. A block whose parts do not agree fails the block. Include
 * kernel_operator.h (or kernel_operator_list_tensor_intf.h), not this.
 */
#ifndef GOCANN_ASCENDC_LISTTENSOR_H_
#define GOCANN_ASCENDC_LISTTENSOR_H_

#include "gocann_tensor.h"

namespace AscendC {

class ListTensorDesc;

/* TensorDesc is one tensor of a list: its dimensions, index and data, the
 * shape copied into the words SetShapeAddr gave it. */
template <class T>
class TensorDesc {
public:
    __aicore__ inline TensorDesc() {}

    __aicore__ inline void SetShapeAddr(uint64_t *shapePtr)
    {
        if (shapePtr == nullptr) {
            gocann::Fail("TensorDesc::SetShapeAddr: the shape address is null");
        }
        shape_ = shapePtr;
    }
    __aicore__ inline uint64_t GetDim() { return dim_; }
    __aicore__ inline uint64_t GetIndex() { return index_; }
    __aicore__ inline uint64_t GetShape(uint32_t offset)
    {
        if (offset >= dim_) {
            gocann::Fail("TensorDesc::GetShape(%u): the tensor has %u dimensions", offset, dim_);
        }
        return shape_[offset];
    }
    __aicore__ inline __gm__ T *GetDataPtr() { return ptr_; }

    /* GetDataObj views the tensor's elements, as many as its shape says. */
    __aicore__ inline GlobalTensor<T> GetDataObj()
    {
        uint64_t n = 1;
        for (uint32_t i = 0; i < dim_; i++) {
            n *= shape_[i];
        }
        GlobalTensor<T> t;
        t.SetGlobalBuffer(ptr_, n);
        return t;
    }

private:
    friend class ListTensorDesc;

    uint32_t dim_ = 0;
    uint32_t index_ = 0;
    uint64_t *shape_ = nullptr;
    __gm__ T *ptr_ = nullptr;
};

class ListTensorDesc {
public:
    __aicore__ inline ListTensorDesc() {}
    __aicore__ inline ListTensorDesc(__gm__ void *data, uint32_t length = 0xffffffff,
                                     uint32_t shapeSize = 0xffffffff)
    {
        Init(data, length, shapeSize);
    }

    /* Init reads the list at data; length (its bytes) and shapeSize (its
     * tensors), when both are given, must agree with it. */
    __aicore__ inline void Init(__gm__ void *data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff)
    {
        if (data == nullptr) {
            gocann::Fail("ListTensorDesc::Init: the list's address is null");
        }
        const uint64_t *w = static_cast<const uint64_t *>(data);
        uint64_t offset = w[0];
        dim_ = uint32_t(w[1]);
        words_ = dim_ == 0 ? 2 : 1 + dim_;
        if (offset % 8 != 0 || offset < 8 * (1 + uint64_t(words_))) {
            gocann::Fail("ListTensorDesc::Init: the data pointers at byte %llu leave no room for a description of "
                         "%u words",
                         (unsigned long long)offset, words_);
        }
        descs_ = w + 1;
        ptrs_ = w + offset / 8;
        uint32_t first = uint32_t(w[1] >> 32);
        count_ = first != 0 ? first : uint32_t(ptrs_[-int64_t(words_)] >> 32) + 1;
        bool fits = dim_ != 0 ? (offset - 8) % (8 * words_) == 0 && count_ == (offset - 8) / (8 * words_)
                              : w[2] == 0xffffffff && offset == 24;
        if (!fits) {
            gocann::Fail("ListTensorDesc::Init: the count %u of tensors of %u dimensions does not fill the %llu bytes "
                         "before the data pointers",
                         count_, dim_, (unsigned long long)offset);
        }
        if (length != 0xffffffff && shapeSize != 0xffffffff &&
            (count_ != shapeSize || uint64_t(length) != offset + 8 * uint64_t(count_))) {
            gocann::Fail("ListTensorDesc::Init: the list holds %u tensors in %llu bytes, not %u in %u", count_,
                         (unsigned long long)(offset + 8 * uint64_t(count_)), shapeSize, length);
        }
    }

    /* GetDesc fills desc with tensor index: its shape goes to the words
     * SetShapeAddr gave desc. */
    template <class T>
    __aicore__ inline void GetDesc(TensorDesc<T> &desc, uint32_t index)
    {
        Check(index, "GetDesc");
        if (dim_ == 0) {
            gocann::Fail("ListTensorDesc::GetDesc: the list holds data pointers only, no shapes");
        }
        if (desc.shape_ == nullptr) {
            gocann::Fail("ListTensorDesc::GetDesc: the TensorDesc has nowhere to put the shape (SetShapeAddr)");
        }
        const uint64_t *d = descs_ + uint64_t(index) * words_;
        desc.dim_ = dim_;
        desc.index_ = index;
        desc.ptr_ = reinterpret_cast<__gm__ T *>(ptrs_[index]);
        for (uint32_t i = 0; i < dim_; i++) {
            desc.shape_[i] = d[1 + i];
        }
    }

    template <class T>
    __aicore__ inline __gm__ T *GetDataPtr(uint32_t index)
    {
        Check(index, "GetDataPtr");
        return reinterpret_cast<__gm__ T *>(ptrs_[index]);
    }

    __aicore__ inline uint32_t GetSize() { return count_; }

private:
    void Check(uint32_t index, const char *what) const
    {
        if (ptrs_ == nullptr) {
            gocann::Fail("ListTensorDesc::%s: the list was not read (Init)", what);
        }
        if (index >= count_) {
            gocann::Fail("ListTensorDesc::%s(%u): the list holds %u tensors", what, index, count_);
        }
    }

    const uint64_t *descs_ = nullptr;
    const uint64_t *ptrs_ = nullptr;
    uint32_t dim_ = 0, words_ = 0, count_ = 0;
};

} // namespace AscendC

#endif /* GOCANN_ASCENDC_LISTTENSOR_H_ */
