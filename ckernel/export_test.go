package ckernel

// ProgramFunction is the address of a function of the program itself.
func ProgramFunction() uintptr { return programFunction() }
