package gocann

// Code is a CANN error code (aclError). It implements error, so
// errors.Is(err, gocann.CodeRTStreamSyncTimeout) matches an *Error with that
// code. Its constants (zz_codes.go) and the C headers' result codes are
// generated from one table, internal/cannmap/codes.txt.
type Code int32

// Name is the CANN name of the code, such as ACL_ERROR_RT_STREAM_SYNC_TIMEOUT.
//
// CANN: none.
func (c Code) Name() string {
	if n, ok := codeNames[c]; ok {
		return n
	}
	return "ACL_ERROR_UNKNOWN"
}

// Error renders the code and its name, as in "507046 ACL_ERROR_RT_STREAM_SYNC_TIMEOUT".
func (c Code) Error() string { return itoa(int64(c)) + " " + c.Name() }

func itoa(n int64) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
