// Package matrix is the format of the product support matrix
// (internal/support/matrix.txt): products, rows, and their text form. It
// imports only the standard library, so that the generator that compiles
// the matrix builds before the package it writes.
package matrix

import (
	"fmt"
	"strings"
)

// Product is an Ascend product line as the API reference names it.
type Product uint8

// The products of the reference's support sections, in matrix.txt's column
// order.
const (
	Ascend950PR    Product = iota // Ascend 950PR
	Ascend950DT                   // Ascend 950DT
	AtlasA3                       // Atlas A3 training and inference series
	AtlasA2                       // Atlas A2 training and inference series (910B)
	Atlas200I500A2                // Atlas 200I/500 A2 inference products (310B)
	AtlasInference                // Atlas inference series (310P)
	AtlasTraining                 // Atlas training series (910)
	IPV350                        // IPV350
	NumProducts
)

// Products lists every product in column order.
func Products() []Product {
	ps := make([]Product, NumProducts)
	for i := range ps {
		ps[i] = Product(i)
	}
	return ps
}

// Key is the product's column name in matrix.txt.
func (p Product) Key() string {
	k, _ := p.names()
	return k
}

// String is the product's name, in English.
func (p Product) String() string {
	_, n := p.names()
	return n
}

func (p Product) names() (key, name string) {
	switch p {
	case Ascend950PR:
		return "950PR", "Ascend 950PR"
	case Ascend950DT:
		return "950DT", "Ascend 950DT"
	case AtlasA3:
		return "A3", "Atlas A3 training and inference series"
	case AtlasA2:
		return "A2", "Atlas A2 training and inference series"
	case Atlas200I500A2:
		return "310B", "Atlas 200I/500 A2 inference products"
	case AtlasInference:
		return "310P", "Atlas inference series"
	case AtlasTraining:
		return "910", "Atlas training series"
	case IPV350:
		return "IPV350", "IPV350"
	}
	return fmt.Sprintf("product%d", uint8(p)), fmt.Sprintf("product %d", uint8(p))
}

// Bit is the product's bit in a Row's masks.
func (p Product) Bit() uint16 { return 1 << p }

// Row is one function's line of the matrix: which products the reference
// states a support line for, and which of those support it.
type Row struct {
	Func      string
	Stated    uint16 // products with a support line
	Supported uint16 // products whose line says supported
}

// Format renders rows as matrix.txt.
func Format(rows []Row) string {
	var b strings.Builder
	b.WriteString("# Which Ascend product offers which CANN function, from the \"产品支持情况\"\n")
	b.WriteString("# section of each function of the API reference (docs/zh/api_ref/*.md).\n")
	b.WriteString("# Written by: go run ./internal/support/extract <api_ref directory>\n")
	b.WriteString("# Columns after the name, one per product: + supported, - not supported,\n")
	b.WriteString("# . not stated.\n")
	b.WriteString("#")
	for p := range NumProducts {
		b.WriteString(" " + p.Key())
	}
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString(r.Func)
		for p := range NumProducts {
			switch {
			case r.Stated&p.Bit() == 0:
				b.WriteString(" .")
			case r.Supported&p.Bit() != 0:
				b.WriteString(" +")
			default:
				b.WriteString(" -")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Parse reads matrix.txt.
func Parse(text string) ([]Row, error) {
	var rows []Row
	for i, l := range strings.Split(text, "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Fields(l)
		if len(f) != 1+int(NumProducts) {
			return nil, fmt.Errorf("matrix line %d: %d fields, expected a name and %d marks", i+1, len(f), NumProducts)
		}
		r := Row{Func: f[0]}
		for p := range NumProducts {
			switch f[1+p] {
			case "+":
				r.Stated |= p.Bit()
				r.Supported |= p.Bit()
			case "-":
				r.Stated |= p.Bit()
			case ".":
			default:
				return nil, fmt.Errorf("matrix line %d: mark %q for %s is invalid, expected + (supported), - (not supported) or . (not stated)", i+1, f[1+p], p.Key())
			}
		}
		if n := len(rows); n > 0 && rows[n-1].Func >= r.Func {
			return nil, fmt.Errorf("matrix line %d: %s is out of order or repeated", i+1, r.Func)
		}
		rows = append(rows, r)
	}
	return rows, nil
}
