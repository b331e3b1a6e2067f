package sim

import (
	"strings"

	"github.com/gocann/gocann/hal"
)

// The chips the simulator models. Core counts, HBM and L2 sizes are those of
// CANN's platform configuration for each SoC (src/platform/platform_config
// of CANN's runtime) where it gives them, estimates otherwise (each
// profile says which; docs/choices.md lists them); notify limits are the
// API reference's; stream limits, queue depths and priorities are the
// simulator's own and the same for every chip.

// DefaultProfile is the default chip, an Ascend 910B1 (Atlas A2): 24 AI
// cores (each one cube unit and two vector cores), 64 GiB of HBM, 2048
// streams.
func DefaultProfile() hal.Props {
	return hal.Props{
		SoCName:           "Ascend910B1",
		AICores:           24,
		CubeCores:         24,
		VectorCores:       48,
		AICPUs:            6,
		HBMSize:           64 << 30,
		L2Size:            192 << 20,
		StreamLimit:       2048,
		EventLimit:        65536,
		NotifyLimit:       8192,
		QueueDepth:        1024,
		GreatestPriority:  0,
		LeastPriority:     7,
		OpTimeoutInterval: hal.DefaultOpTimeoutInterval,
	}
}

// A3Profile is an Ascend910_9391 (Atlas A3): per die, as the runtime sees
// it, the figures of a 910B1.
func A3Profile() hal.Props {
	p := DefaultProfile()
	p.SoCName = "Ascend910_9391"
	return p
}

// Ascend950Profile is an Ascend950PR_9599: 36 AI cores (cube and vector
// split, 72 vector cores), 128 GiB of HBM, 128 MiB of L2, 65535 notifies.
func Ascend950Profile() hal.Props {
	p := DefaultProfile()
	p.SoCName = "Ascend950PR_9599"
	p.AICores, p.CubeCores, p.VectorCores = 36, 36, 72
	p.HBMSize, p.L2Size = 128<<30, 128<<20
	p.NotifyLimit = 65535
	return p
}

// Ascend310BProfile is an Ascend310B1 (Atlas 200I/500 A2): one AI core
// (one cube unit, one vector core), 4 AI CPUs, 32 GiB of memory, 4 MiB of
// L2. It is the modelled chip with the barrier forms of cache operations.
func Ascend310BProfile() hal.Props {
	p := DefaultProfile()
	p.SoCName = "Ascend310B1"
	p.AICores, p.CubeCores, p.VectorCores, p.AICPUs = 1, 1, 1, 4
	p.HBMSize, p.L2Size = 32<<30, 4<<20
	return p
}

// Ascend310PProfile is an Ascend310P3 (Atlas inference series): 8 AI
// cores, 7 vector cores, 7 AI CPUs, 24 GB of memory, 16 MiB of L2, 1024
// notifies. It is the modelled chip with capability groups; it has none
// until the configuration creates them (Props.Groups).
func Ascend310PProfile() hal.Props {
	p := DefaultProfile()
	p.SoCName = "Ascend310P3"
	p.AICores, p.CubeCores, p.VectorCores, p.AICPUs = 8, 8, 7, 7
	p.HBMSize, p.L2Size = 24000000000, 16<<20
	p.NotifyLimit = 1024
	return p
}

// TrainingProfile is an Ascend910A (Atlas training series): 32 AI cores,
// each with its cube unit and no separate vector cores, 4 AI CPUs, 32 MiB
// of L2, 1024 notifies. CANN's platform configuration gives no memory
// size; 32 GiB is an estimate (the HBM of the product's cards).
func TrainingProfile() hal.Props {
	p := DefaultProfile()
	p.SoCName = "Ascend910A"
	p.AICores, p.CubeCores, p.VectorCores, p.AICPUs = 32, 32, 0, 4
	p.HBMSize, p.L2Size = 32<<30, 32<<20
	p.NotifyLimit = 1024
	return p
}

// IPV350Profile is an Ascend035 (IPV350, NPU architecture 3505): one AI
// core with its cube unit, no vector cores, no AI CPU and no L2, as CANN's
// platform configuration has it. Its memory size, which that leaves
// blank, is an estimate (4 GiB); so is its notify limit, the default
// chip's, which matters little: IPV350 offers no notify functions. It is
// the modelled chip of host-function threads and stream configuration
// handles, and it lacks most other functions, as the matrix says.
func IPV350Profile() hal.Props {
	p := DefaultProfile()
	p.SoCName = "Ascend035"
	p.AICores, p.CubeCores, p.VectorCores, p.AICPUs = 1, 1, 0, 0
	p.HBMSize, p.L2Size = 4<<30, 0
	return p
}

// Profiles returns the modelled chips, the default first.
func Profiles() []hal.Props {
	return []hal.Props{DefaultProfile(), A3Profile(), Ascend950Profile(), Ascend310BProfile(), Ascend310PProfile(),
		TrainingProfile(), IPV350Profile()}
}

// family maps SoC names to the modelled chip whose figures a chip of that
// family takes, by the names of CANN's platform configuration: the bare
// Ascend910B is a training chip, Ascend910B1..B4 are Atlas A2 chips.
func family(soc string) (hal.Props, bool) {
	switch {
	case soc == "Ascend910" || soc == "Ascend910B" || strings.HasPrefix(soc, "Ascend910A") || strings.HasPrefix(soc, "Ascend910P"):
		return TrainingProfile(), true
	case strings.HasPrefix(soc, "Ascend910B"):
		return DefaultProfile(), true
	case strings.HasPrefix(soc, "Ascend910_93"):
		return A3Profile(), true
	case strings.HasPrefix(soc, "Ascend950PR"), strings.HasPrefix(soc, "Ascend950DT"):
		return Ascend950Profile(), true
	case strings.HasPrefix(soc, "Ascend310B"):
		return Ascend310BProfile(), true
	case strings.HasPrefix(soc, "Ascend310P"):
		return Ascend310PProfile(), true
	case strings.HasPrefix(soc, "Ascend035"):
		return IPV350Profile(), true
	}
	return hal.Props{}, false
}

// ProfileFor returns the profile of the chip named soc: a modelled chip's
// own, or, for another SoC of a modelled family (Ascend910B*,
// Ascend910_93*, Ascend950PR*, Ascend950DT*, Ascend310B*, Ascend310P*,
// Ascend910, Ascend910A*, Ascend910P*, Ascend035*), the family's figures
// under that name. "" names the default chip.
func ProfileFor(soc string) (hal.Props, error) {
	if soc == "" {
		return DefaultProfile(), nil
	}
	p, ok := family(soc)
	if !ok {
		return hal.Props{}, hal.Errorf(hal.KindInvalidParam,
			"SoC name %q is not a chip the simulator models, expected Ascend910B1 (Atlas A2), Ascend910_9391 (Atlas A3), Ascend950PR_9599 (Ascend 950), Ascend310B1 (Atlas 200I/500 A2), Ascend310P3 (Atlas inference series), Ascend910A (Atlas training series), Ascend035 (IPV350) or another SoC of those families", soc)
	}
	p.SoCName = soc
	return p, nil
}
