package sim

import (
	"strings"
	"testing"

	"github.com/gocann/gocann/hal"
)

func TestProfileFor(t *testing.T) {
	for _, want := range Profiles() {
		got, err := ProfileFor(want.SoCName)
		if err != nil || got != want {
			t.Errorf("ProfileFor(%s) = %+v, %v", want.SoCName, got, err)
		}
	}
	if p, err := ProfileFor(""); err != nil || p != DefaultProfile() {
		t.Errorf(`ProfileFor("") = %+v, %v; want the default chip`, p, err)
	}
	// Another SoC of a family: the family's figures, its own name.
	for soc, base := range map[string]hal.Props{
		"Ascend910B3": DefaultProfile(), "Ascend910_9362": A3Profile(), "Ascend950DT_9571": Ascend950Profile(),
		"Ascend910ProB": TrainingProfile(), "Ascend910B": TrainingProfile(), "Ascend910": TrainingProfile(),
		"Ascend035B": IPV350Profile(),
	} {
		p, err := ProfileFor(soc)
		base.SoCName = soc
		if err != nil || p != base {
			t.Errorf("ProfileFor(%s) = %+v, %v; want %+v", soc, p, err, base)
		}
	}
	if _, err := ProfileFor("Ascend310"); err == nil || !strings.Contains(err.Error(), `"Ascend310" is not a chip the simulator models`) {
		t.Errorf("ProfileFor(Ascend310) = %v", err)
	}
}

// TestNewProfiles: the figures of the Atlas training and IPV350 chips, from
// CANN's platform configuration (Ascend910A.ini, Ascend035.ini) and the
// reference's notify limit; the memory sizes are estimates.
func TestNewProfiles(t *testing.T) {
	for _, c := range []struct {
		p                            hal.Props
		soc                          string
		ai, cube, vec, cpu, notifies int
		hbm, l2                      uint64
	}{
		{TrainingProfile(), "Ascend910A", 32, 32, 0, 4, 1024, 32 << 30, 32 << 20},
		{IPV350Profile(), "Ascend035", 1, 1, 0, 0, 8192, 4 << 30, 0},
	} {
		p := c.p
		if p.SoCName != c.soc || p.AICores != c.ai || p.CubeCores != c.cube || p.VectorCores != c.vec || p.AICPUs != c.cpu ||
			p.NotifyLimit != c.notifies || p.HBMSize != c.hbm || p.L2Size != c.l2 {
			t.Errorf("profile %+v, want %s with %d AI, %d cube, %d vector cores, %d AI CPUs, %d notifies, %d bytes of memory, %d of L2",
				p, c.soc, c.ai, c.cube, c.vec, c.cpu, c.notifies, c.hbm, c.l2)
		}
		// A configuration naming the chip gets it whole: its zero figures
		// stay zero.
		cfg, err := Config{Profile: hal.Props{SoCName: c.soc}}.withDefaults()
		if err != nil || cfg.Profile != p {
			t.Errorf("Config naming %s: profile %+v, %v; want %+v", c.soc, cfg.Profile, err, p)
		}
	}
}

// TestConfigProfile: the configured SoC picks the figures a zero field
// takes; a figure set in the configuration stays.
func TestConfigProfile(t *testing.T) {
	c, err := Config{Profile: hal.Props{SoCName: "Ascend950PR_9599", AICores: 4}}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	want := Ascend950Profile()
	want.AICores = 4
	if c.Profile != want {
		t.Errorf("profile %+v, want %+v", c.Profile, want)
	}
	if _, err := (Config{Profile: hal.Props{SoCName: "FakeNPU"}}).withDefaults(); err == nil {
		t.Error("an unknown SoC name was accepted")
	}
}
