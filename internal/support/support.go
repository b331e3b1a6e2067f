// Package support knows which CANN function each Ascend product offers: the
// matrix of the API reference's "产品支持情况" sections, kept in matrix.txt
// (extracted from the reference pages by ./extract, a local command) and
// compiled into zz_matrix.go by go generate (./gen).
//
// The matrix is the source of truth for the build: a function the reference
// marks unsupported on a product fails on a simulated chip of that product
// with ACL_ERROR_RT_FEATURE_NOT_SUPPORT (Check). A function the matrix does
// not list, and a chip of no known product, are not restricted.
//
// support imports internal/rterr, its matrix format and the standard
// library.
package support

import (
	"strings"

	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/internal/support/matrix"
)

//go:generate go run ./gen

// Product is an Ascend product line as the API reference names it.
type Product = matrix.Product

// The products of the reference's support sections.
const (
	Ascend950PR    = matrix.Ascend950PR
	Ascend950DT    = matrix.Ascend950DT
	AtlasA3        = matrix.AtlasA3
	AtlasA2        = matrix.AtlasA2
	Atlas200I500A2 = matrix.Atlas200I500A2
	AtlasInference = matrix.AtlasInference
	AtlasTraining  = matrix.AtlasTraining
	IPV350         = matrix.IPV350
)

// ProductOf returns the product of a chip by its SoC name, as
// aclrtGetSocName reports it. The names are those of CANN's platform
// configuration: an Atlas training chip is an Ascend910 with a letter or
// grade after it (Ascend910A, Ascend910ProB, and Ascend910B alone, the
// 30-core part, unlike Ascend910B1..B4 of Atlas A2); an IPV350 is an
// Ascend035 (NPU architecture 3505).
func ProductOf(soc string) (Product, bool) {
	switch {
	case soc == "Ascend910" || soc == "Ascend910B" || strings.HasPrefix(soc, "Ascend910A") || strings.HasPrefix(soc, "Ascend910P"):
		return AtlasTraining, true
	case strings.HasPrefix(soc, "Ascend950PR"):
		return Ascend950PR, true
	case strings.HasPrefix(soc, "Ascend950DT"):
		return Ascend950DT, true
	case strings.HasPrefix(soc, "Ascend910_93"):
		return AtlasA3, true
	case strings.HasPrefix(soc, "Ascend910B"):
		return AtlasA2, true
	case strings.HasPrefix(soc, "Ascend310B"):
		return Atlas200I500A2, true
	case strings.HasPrefix(soc, "Ascend310P"):
		return AtlasInference, true
	case strings.HasPrefix(soc, "Ascend035"):
		return IPV350, true
	}
	return 0, false
}

// Supported reports whether product p offers function fn. listed is false
// when the matrix says nothing of fn on p; supported is then true.
func Supported(fn string, p Product) (supported, listed bool) {
	stated, sup, ok := lookup(fn)
	if !ok || stated&p.Bit() == 0 {
		return true, false
	}
	return sup&p.Bit() != 0, true
}

// Check returns nil if a chip named soc offers function fn, and otherwise
// the error that chip gives (rterr.KindNotSupported: 207000), naming the
// function and the chip. An unknown chip is not restricted.
func Check(fn, soc string) error {
	p, ok := ProductOf(soc)
	if !ok {
		return nil
	}
	if sup, _ := Supported(fn, p); sup {
		return nil
	}
	return rterr.Errorf(rterr.KindNotSupported, "%s is not supported on %s (%s): the API reference marks it unsupported on that product", fn, soc, p)
}

// Unsupported lists the functions some product lacks, sorted.
func Unsupported() []string {
	var out []string
	for _, r := range rows() {
		if r.Stated&^r.Supported != 0 {
			out = append(out, r.Func)
		}
	}
	return out
}
