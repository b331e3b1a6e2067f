package rt

// AllocatorDesc is a custom allocator as a program registers it on a
// stream (aclrtAllocatorRegister): its object and callbacks, which the
// runtime keeps and returns as given; Handle is the descriptor they came
// from, returned as registered. The simulated runtime has no single-op or
// dynamic-shape model execution to call them from.
type AllocatorDesc struct {
	Handle, Obj, Alloc, Free, AllocAdvise, GetAddrFromBlock uintptr
}

// RegisterAllocator keeps a copy of desc as s's allocator, replacing any
// earlier one (aclrtAllocatorRegister).
func (s *Stream) RegisterAllocator(desc AllocatorDesc) error {
	if err := s.check(); err != nil {
		return err
	}
	s.pool.mu.Lock()
	s.pool.alloc = &desc
	s.pool.mu.Unlock()
	return nil
}

// Allocator returns s's allocator; ok is false if none is registered
// (aclrtAllocatorGetByStream).
func (s *Stream) Allocator() (desc AllocatorDesc, ok bool, err error) {
	if err := s.check(); err != nil {
		return AllocatorDesc{}, false, err
	}
	s.pool.mu.Lock()
	defer s.pool.mu.Unlock()
	if s.pool.alloc == nil {
		return AllocatorDesc{}, false, nil
	}
	return *s.pool.alloc, true, nil
}

// UnregisterAllocator forgets s's allocator, if any
// (aclrtAllocatorUnregister).
func (s *Stream) UnregisterAllocator() {
	s.pool.mu.Lock()
	s.pool.alloc = nil
	s.pool.mu.Unlock()
}
