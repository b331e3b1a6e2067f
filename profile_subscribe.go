package gocann

import (
	"sync"

	"github.com/gocann/gocann/internal/prof"
	"github.com/gocann/gocann/internal/rt"
	"github.com/gocann/gocann/internal/rterr"
)

// Model subscriptions: every run of a subscribed model hands the
// subscription one record per operation as the operations complete, read
// from the device's trace by a collector that runs while any model is
// subscribed. Model ids are those of ModelRI.ID, and those the model
// loader registers with RegisterModelDevice (models of other frameworks;
// they have no runs here).

// OpRecord is one operation of a run of a subscribed model.
type OpRecord = prof.OpRecord

// ModelSubscription configures a subscription.
type ModelSubscription struct {
	// TimeInfo keeps the operations' times; without it Start and End
	// are 0.
	TimeInfo bool
	// Metrics is the AI core metric asked for (an aclprofAicoreMetrics
	// value): the subscriptions of one device must ask the same.
	Metrics int
	// Ops receives the operations of the model's runs as they complete,
	// on the collector's goroutine; it must not block for long, nor call
	// the subscription calls.
	Ops func([]OpRecord)
	// Done, if set, is called once the subscription ended and Ops will
	// not be called again (UnsubscribeModel, or Finalize).
	Done func()
}

type subscription struct {
	ModelSubscription
	dev int
}

// subscriptions are a runtime's model subscriptions.
type subscriptions struct {
	// life serializes subscribing and unsubscribing, which start and stop
	// the collector; it is held across calls into the core, never taken
	// by the collector's callbacks.
	life sync.Mutex
	// mu guards the fields below.
	mu     sync.Mutex
	coll   *prof.Subscriber // while any model is subscribed
	models map[uint32]*subscription
	// loaded maps the model ids RegisterModelDevice registered to their
	// devices; kept across Finalize, as the loader's table is.
	loaded map[uint32]int
}

// RegisterModelDevice records that model id, loaded by a model loader
// outside this runtime, runs on device dev, so that it may be
// subscribed; an id registered already keeps its device.
//
// CANN: MsprofSetDeviceIdByGeModelIdx.
func (r *Runtime) RegisterModelDevice(id uint32, dev int) {
	r.subs.mu.Lock()
	defer r.subs.mu.Unlock()
	if r.subs.loaded == nil {
		r.subs.loaded = map[uint32]int{}
	}
	if _, ok := r.subs.loaded[id]; !ok {
		r.subs.loaded[id] = dev
	}
}

// UnregisterModelDevice forgets model id's registration.
//
// CANN: MsprofUnsetDeviceIdByGeModelIdx.
func (r *Runtime) UnregisterModelDevice(id uint32) {
	r.subs.mu.Lock()
	defer r.subs.mu.Unlock()
	delete(r.subs.loaded, id)
}

// ModelExists reports whether id is the id of a live model run instance
// or of a model RegisterModelDevice registered.
//
// CANN: none (aclprofModelSubscribe's check of its model id).
func (r *Runtime) ModelExists(id uint32) bool {
	r.subs.mu.Lock()
	defer r.subs.mu.Unlock()
	_, ok := r.modelDevice(id)
	return ok
}

// modelDevice is the device of model id, if it exists. subs.mu held.
func (r *Runtime) modelDevice(id uint32) (int, bool) {
	if m, ok := r.rt.LookupModel(id); ok {
		return m.Context().Device().ID(), true
	}
	dev, ok := r.subs.loaded[id]
	return dev, ok
}

// SubscribeModel subscribes model id: the operations of its runs queued
// from now on reach sub.Ops.
//
// CANN: aclprofModelSubscribe.
func (r *Runtime) SubscribeModel(id uint32, sub ModelSubscription) error {
	const op = "Runtime.SubscribeModel (aclprofModelSubscribe)"
	if err := r.require("aclprofModelSubscribe"); err != nil {
		return wrap(op, err)
	}
	if sub.Ops == nil {
		return wrap(op, rterr.Errorf(rterr.KindBadArgument, "Ops is nil, expected a function receiving the operations"))
	}
	if !r.rt.Initialized() {
		return wrap(op, rterr.Errorf(rterr.KindUninitialized, "the runtime is not initialized"))
	}
	s := &r.subs
	s.life.Lock()
	defer s.life.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	dev, ok := r.modelDevice(id)
	if !ok {
		return wrap(op, rterr.Errorf(rterr.KindInvalidModelID, "model id %d does not exist, expected the id of a model run instance or of a registered model", id))
	}
	if _, ok := s.models[id]; ok {
		return wrap(op, rterr.Errorf(rterr.KindProfRepeatSubscribe, "model %d is already subscribed; unsubscribe it first", id))
	}
	for other, o := range s.models {
		if o.dev == dev && (o.TimeInfo != sub.TimeInfo || o.Metrics != sub.Metrics) {
			return wrap(op, rterr.Errorf(rterr.KindInvalidProfilingConfig,
				"model %d on device %d is subscribed with time info %t and metric %d; model %d asks time info %t and metric %d, expected the same",
				other, dev, o.TimeInfo, o.Metrics, id, sub.TimeInfo, sub.Metrics))
		}
	}
	if s.models == nil {
		s.models = map[uint32]*subscription{}
	}
	s.models[id] = &subscription{ModelSubscription: sub, dev: dev}
	if s.coll == nil {
		coll := prof.NewSubscriber(0, r.opts.logger, r.deliverOps)
		s.coll = coll
		s.mu.Unlock()
		r.rt.WatchDevices(coll)
		r.rt.WatchModelRuns(func(run rt.ModelRun) { r.noteRun(coll, run) })
		s.mu.Lock()
	}
	return nil
}

// noteRun has the collector follow run if its model is subscribed.
func (r *Runtime) noteRun(coll *prof.Subscriber, run rt.ModelRun) {
	r.subs.mu.Lock()
	_, ok := r.subs.models[run.Model]
	r.subs.mu.Unlock()
	if ok {
		coll.AddRun(prof.Run{Model: run.Model, Device: run.Device, Queue: run.Queue, Seq: run.Seq, Thread: run.Thread})
	}
}

// deliverOps hands each subscription its operations; the collector's
// lock is held, so no delivery runs after a Flush that follows an
// unsubscription.
func (r *Runtime) deliverOps(ops []OpRecord) {
	for len(ops) > 0 {
		n := 1
		for n < len(ops) && ops[n].Model == ops[0].Model {
			n++
		}
		r.subs.mu.Lock()
		sub := r.subs.models[ops[0].Model]
		r.subs.mu.Unlock()
		if sub != nil {
			batch := ops[:n]
			if !sub.TimeInfo {
				batch = append([]OpRecord(nil), batch...)
				for i := range batch {
					batch[i].Start, batch[i].End = 0, 0
				}
			}
			sub.Ops(batch)
		}
		ops = ops[n:]
	}
}

// UnsubscribeModel ends model id's subscription: the operations that
// completed before the call are delivered, then Done is called.
//
// CANN: aclprofModelUnSubscribe.
func (r *Runtime) UnsubscribeModel(id uint32) error {
	const op = "Runtime.UnsubscribeModel (aclprofModelUnSubscribe)"
	if err := r.require("aclprofModelUnSubscribe"); err != nil {
		return wrap(op, err)
	}
	s := &r.subs
	s.life.Lock()
	defer s.life.Unlock()
	s.mu.Lock()
	sub, coll := s.models[id], s.coll
	s.mu.Unlock()
	if sub == nil {
		return wrap(op, rterr.Errorf(rterr.KindInvalidModelID, "model %d is not subscribed", id))
	}
	coll.Flush()
	r.endSubscriptionsLocked(id)
	return nil
}

// endSubscriptions ends every subscription, at Finalize.
func (r *Runtime) endSubscriptions() {
	r.subs.life.Lock()
	defer r.subs.life.Unlock()
	r.endSubscriptionsLocked()
}

// endSubscriptionsLocked ends the subscriptions of ids, or all of them
// for none, stopping the collector once none is left. subs.life held.
func (r *Runtime) endSubscriptionsLocked(ids ...uint32) {
	s := &r.subs
	s.mu.Lock()
	var ended []*subscription
	if len(ids) == 0 {
		for id := range s.models {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		if sub := s.models[id]; sub != nil {
			ended = append(ended, sub)
			delete(s.models, id)
		}
	}
	coll := s.coll
	last := len(s.models) == 0 && coll != nil
	if last {
		s.coll = nil
	}
	s.mu.Unlock()
	switch {
	case last:
		r.rt.WatchModelRuns(nil)
		r.rt.UnwatchDevices(coll)
		coll.Stop()
	case coll != nil:
		coll.Flush() // no delivery to the ended ones is under way after it
	}
	for _, sub := range ended {
		if sub.Done != nil {
			sub.Done()
		}
	}
}
