// Package shared is the device state that processes using the same
// simulated machine share, as processes on one host share its NPUs: who is
// attached, how much of each device's memory every process holds, and the
// objects processes export to each other (IPC memory, physical memory
// handles, events, notifies).
//
// # Where it lives
//
// One file per machine and user, /dev/shm/gocann-<uid>-<machine>-v<layout>,
// mapped shared by every attached process (mode 0600). The last process to
// detach removes it; a process that crashed leaves it, and the next attach
// reclaims what the crashed process held. Removing the file by hand is
// safe once no gocann process of that machine runs.
//
// # Protocol
//
// The file is a fixed table (layout_unsafe.go) read and written with
// atomics only; no lock spans processes except the attach lock below.
//
//   - Process slots. A process (precisely: a backend) attaching takes a
//     free slot by locking one byte of the file with an open-file-description
//     lock (F_OFD_SETLK) and then publishing its pid in the slot. The kernel
//     drops the lock when the process dies, however it dies, so a slot whose
//     byte can be locked by someone else belongs to nobody: that is the only
//     liveness test, immune to pid reuse. Each slot carries a generation,
//     bumped at every take, which names the process instance in exports.
//   - Memory. Each slot counts the bytes it holds on each physical device;
//     a device's use is the sum over live slots, and an allocation adds its
//     bytes to its own slot first, then checks the sum against the device's
//     capacity and backs out if it is over. Two racing allocations may both
//     back out near the limit; neither can overcommit.
//   - Exports. An entry is taken free→busy by its exporter (CAS), filled,
//     then published live with a 256-bit random key; a reader copies an
//     entry between two reads of its generation and trusts the copy only if
//     the generation did not move. Only the exporter writes an entry's
//     fields, except the whitelist (exporter) and the signal words below.
//   - Signals. A notify's importers add to the entry's pending count and
//     ring the exporting slot's doorbell (a futex word); the exporter's
//     watcher delivers pending records to its local notify, polls the
//     doorbell for 50 us, then sleeps on it, saying so in the slot first:
//     a ringer makes the futex wake call only for a sleeping watcher. An event's exporter publishes its submitted and
//     completed record numbers in the entry and bumps the entry's futex
//     word on every completion; importers wait on that word. Waits re-check
//     the exporter's liveness at least every LivenessPeriod.
//   - Attach lock. Creating, attaching to and removing the file happen
//     under flock(LOCK_EX) of it, and an attacher checks that the file it
//     locked is still the one at the path, so no process attaches to a
//     file being removed.
package shared
