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
	for soc, base := range map[string]hal.Props{"Ascend910B3": DefaultProfile(), "Ascend910_9362": A3Profile(), "Ascend950DT_9571": Ascend950Profile()} {
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
