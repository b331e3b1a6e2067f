package main

/*
#include "acl/acl.h"
#include "thread.h"

// The members of a random task the Go side reads, by value: cgo cannot
// reach into the anonymous union.
static const aclrtRandomParaInfo *gocann_random_param(const aclrtRandomNumTaskInfo *t, int i) {
	const aclrtRandomParaInfo *p = &t->randomNumFuncParaInfo.paramInfo.uniformDisInfo.min;
	return i == 0 ? p : p + 1;
}
*/
import "C"

import (
	"encoding/binary"
	"unsafe"

	"github.com/gocann/gocann"
)

// The built-in system tasks.

//export gocann_aclrtReduceAsync
func gocann_aclrtReduceAsync(t *C.gocann_thread, dst, src unsafe.Pointer, count C.uint64_t, kind C.aclrtReduceKind, typ C.aclDataType, p C.aclrtStream, reserve unsafe.Pointer) C.aclError {
	const fn = "aclrtReduceAsync"
	switch {
	case dst == nil:
		return nullArg(t, fn, "dst")
	case src == nil:
		return nullArg(t, fn, "src")
	case reserve != nil:
		return failf(t, fn, gocann.KindBadArgument, "reserve %p is invalid: it is reserved and must be NULL", reserve)
	}
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.ReduceAsync(devPtr(dst), devPtr(src), int64(count&(1<<63-1)), gocann.ReduceKind(kind), gocann.DataType(typ)))
}

// randomParam reads an aclrtRandomParaInfo; isAddr must be 0 or 1.
func randomParam(t *C.gocann_thread, fn, name string, p *C.aclrtRandomParaInfo) (gocann.RandomParam, C.aclError) {
	if p.isAddr > 1 {
		return gocann.RandomParam{}, failf(t, fn, gocann.KindInvalidParam, "%s.isAddr %d is invalid, expected 0 (a value) or 1 (an address)", name, p.isAddr)
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&p.valueOrAddr[0])), 8)
	return gocann.RandomParam{Value: binary.LittleEndian.Uint64(b), Size: uint8(p.size), Addr: p.isAddr == 1}, 0
}

//export gocann_aclrtRandomNumAsync
func gocann_aclrtRandomNumAsync(t *C.gocann_thread, info *C.aclrtRandomNumTaskInfo, p C.aclrtStream, reserve unsafe.Pointer) C.aclError {
	const fn = "aclrtRandomNumAsync"
	if info == nil {
		return nullArg(t, fn, "taskInfo")
	}
	if reserve != nil {
		return failf(t, fn, gocann.KindInvalidParam, "reserve %p is invalid: it is reserved and must be NULL", reserve)
	}
	task := gocann.RandomTask{
		Type:     gocann.DataType(info.dataType),
		Func:     gocann.RandomFunc(info.randomNumFuncParaInfo.funcType),
		ParaAddr: devPtr(info.randomParaAddr),
		Result:   devPtr(info.randomResultAddr),
		Counter:  devPtr(info.randomCounterAddr),
	}
	var code C.aclError
	for i, name := range [2]string{"first parameter", "second parameter"} {
		if task.Params[i], code = randomParam(t, fn, name, C.gocann_random_param(info, C.int(i))); code != 0 {
			return code
		}
	}
	if task.Func == gocann.RandomDropoutBitmask {
		task.Params[1] = gocann.RandomParam{} // the union holds one parameter
	}
	if task.Seed, code = randomParam(t, fn, "randomSeed", &info.randomSeed); code != 0 {
		return code
	}
	if task.Num, code = randomParam(t, fn, "randomNum", &info.randomNum); code != 0 {
		return code
	}
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.RandomNumAsync(&task))
}

// Float overflow: the device's mode and status, the stream's switch.

//export gocann_aclrtSetDeviceSatMode
func gocann_aclrtSetDeviceSatMode(t *C.gocann_thread, mode C.aclrtFloatOverflowMode) C.aclError {
	const fn = "aclrtSetDeviceSatMode"
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	return fail(t, fn, c.c.Device().SetSatMode(gocann.FloatOverflowMode(mode)))
}

//export gocann_aclrtGetDeviceSatMode
func gocann_aclrtGetDeviceSatMode(t *C.gocann_thread, mode *C.aclrtFloatOverflowMode) C.aclError {
	const fn = "aclrtGetDeviceSatMode"
	if code := unsupported(t, "aclrtGetDeviceSatMode"); code != 0 {
		return code
	}
	if mode == nil {
		return nullArg(t, fn, "mode")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	*mode = C.aclrtFloatOverflowMode(c.c.Device().SatMode())
	return 0
}

//export gocann_aclrtSetStreamOverflowSwitch
func gocann_aclrtSetStreamOverflowSwitch(t *C.gocann_thread, p C.aclrtStream, flag C.uint32_t) C.aclError {
	const fn = "aclrtSetStreamOverflowSwitch"
	if flag > 1 {
		return failf(t, fn, gocann.KindBadArgument, "flag %d is invalid, expected 0 (off) or 1 (on)", flag)
	}
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.SetOverflowSwitch(flag == 1))
}

//export gocann_aclrtGetStreamOverflowSwitch
func gocann_aclrtGetStreamOverflowSwitch(t *C.gocann_thread, p C.aclrtStream, flag *C.uint32_t) C.aclError {
	const fn = "aclrtGetStreamOverflowSwitch"
	if flag == nil {
		return nullArg(t, fn, "flag")
	}
	s, code := stream(t, fn, p)
	if code != 0 {
		return code
	}
	on, err := s.s.OverflowSwitch()
	if err != nil {
		return fail(t, fn, err)
	}
	*flag = 0
	if on {
		*flag = 1
	}
	return 0
}

// overflowStatus queues the status copy of one of its three names.
func overflowStatus(t *C.gocann_thread, fn string, out unsafe.Pointer, size uint64, p C.aclrtStream) C.aclError {
	if out == nil {
		return nullArg(t, fn, "outputAddr")
	}
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.OverflowStatus(devPtr(out), int64(size&(1<<63-1))))
}

// resetOverflowStatus queues the status reset of one of its three names.
func resetOverflowStatus(t *C.gocann_thread, fn string, p C.aclrtStream) C.aclError {
	s, code := queueStream(t, fn, p)
	if code != 0 {
		return code
	}
	return fail(t, fn, s.s.ResetOverflowStatus())
}

//export gocann_aclrtGetOverflowStatus
func gocann_aclrtGetOverflowStatus(t *C.gocann_thread, out unsafe.Pointer, size C.size_t, p C.aclrtStream) C.aclError {
	return overflowStatus(t, "aclrtGetOverflowStatus", out, uint64(size), p)
}

//export gocann_aclrtResetOverflowStatus
func gocann_aclrtResetOverflowStatus(t *C.gocann_thread, p C.aclrtStream) C.aclError {
	return resetOverflowStatus(t, "aclrtResetOverflowStatus", p)
}

//export gocann_aclrtGetFloatOverflowStatus
func gocann_aclrtGetFloatOverflowStatus(t *C.gocann_thread, out unsafe.Pointer, size C.uint64_t, p C.aclrtStream) C.aclError {
	return overflowStatus(t, "aclrtGetFloatOverflowStatus", out, uint64(size), p)
}

//export gocann_aclrtResetFloatOverflowStatus
func gocann_aclrtResetFloatOverflowStatus(t *C.gocann_thread, p C.aclrtStream) C.aclError {
	return resetOverflowStatus(t, "aclrtResetFloatOverflowStatus", p)
}

//export gocann_aclrtNpuGetFloatOverFlowStatus
func gocann_aclrtNpuGetFloatOverFlowStatus(t *C.gocann_thread, out unsafe.Pointer, size C.uint64_t, checkMode C.uint32_t, p C.aclrtStream) C.aclError {
	return overflowStatus(t, "aclrtNpuGetFloatOverFlowStatus", out, uint64(size), p)
}

//export gocann_aclrtNpuClearFloatOverFlowStatus
func gocann_aclrtNpuClearFloatOverFlowStatus(t *C.gocann_thread, checkMode C.uint32_t, p C.aclrtStream) C.aclError {
	return resetOverflowStatus(t, "aclrtNpuClearFloatOverFlowStatus", p)
}

//export gocann_aclrtCtxGetFloatOverflowAddr
func gocann_aclrtCtxGetFloatOverflowAddr(t *C.gocann_thread, addr *unsafe.Pointer) C.aclError {
	const fn = "aclrtCtxGetFloatOverflowAddr"
	if addr == nil {
		return nullArg(t, fn, "overflowAddr")
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return code
	}
	a, err := c.c.FloatOverflowAddr()
	if err != nil {
		return fail(t, fn, err)
	}
	*(*uintptr)(unsafe.Pointer(addr)) = uintptr(a)
	return 0
}
