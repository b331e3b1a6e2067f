// Command extract reads the API reference's pages (docs/zh/api_ref/*.md of
// CANN's runtime repository) and prints the product support matrix that
// internal/support/matrix.txt keeps: for every function page, whether each
// product the "产品支持情况" section names supports it.
//
// It is run by hand when the reference changes, never by go generate (the
// generators read only this repository):
//
//	go run ./internal/support/extract <api_ref directory> > internal/support/matrix.txt
//	go generate ./internal/support
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/gocann/gocann/internal/support/matrix"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: extract <api_ref directory>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "extract:", err)
		os.Exit(1)
	}
}

// The reference's product names, as its support lines spell them, and the
// products each stands for.
var productNames = map[string][]matrix.Product{
	"Ascend 950PR/Ascend 950DT": {matrix.Ascend950PR, matrix.Ascend950DT},
	"Ascend 950PR":              {matrix.Ascend950PR},
	"Ascend 950DT":              {matrix.Ascend950DT},
	"Atlas A3 训练系列产品/Atlas A3 推理系列产品": {matrix.AtlasA3},
	"Atlas A2 训练系列产品/Atlas A2 推理系列产品": {matrix.AtlasA2},
	"Atlas 200I/500 A2 推理产品":          {matrix.Atlas200I500A2},
	"Atlas 推理系列产品":                    {matrix.AtlasInference},
	"Atlas 训练系列产品":                    {matrix.AtlasTraining},
	"IPV350":                          {matrix.IPV350},
}

var (
	heading = regexp.MustCompile(`^## (acl[A-Za-z0-9_]+)\s*$`)
	line    = regexp.MustCompile(`^- (.+)：(支持|不支持)\s*$`)
)

func run(dir string, w io.Writer) error {
	pages, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return err
	}
	if len(pages) == 0 {
		return fmt.Errorf("no .md pages in %s", dir)
	}
	rows := map[string]*matrix.Row{}
	for _, p := range pages {
		if err := readPage(p, rows); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(rows))
	for n := range rows {
		names = append(names, n)
	}
	sort.Strings(names)
	list := make([]matrix.Row, len(names))
	for i, n := range names {
		list[i] = *rows[n]
	}
	_, err = io.WriteString(w, matrix.Format(list))
	return err
}

// readPage adds the support sections of one page to rows.
func readPage(path string, rows map[string]*matrix.Row) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	fn, inSupport, n := "", false, 0
	for sc.Scan() {
		n++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.HasPrefix(text, "## ") {
			fn, inSupport = "", false
			if m := heading.FindStringSubmatch(text); m != nil {
				fn = m[1]
			}
			continue
		}
		if strings.HasPrefix(text, "### ") {
			inSupport = fn != "" && strings.TrimSpace(text[4:]) == "产品支持情况"
			continue
		}
		if !inSupport {
			continue
		}
		m := line.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		products, ok := productNames[m[1]]
		if !ok {
			return fmt.Errorf("%s:%d: unknown product %q", path, n, m[1])
		}
		r := rows[fn]
		if r == nil {
			r = &matrix.Row{Func: fn}
			rows[fn] = r
		}
		for _, p := range products {
			r.Stated |= p.Bit()
			if m[2] == "支持" {
				r.Supported |= p.Bit()
			}
		}
	}
	return sc.Err()
}
