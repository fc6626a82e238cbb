package render

import (
	"fmt"
	"image/color"
	"math"
	"testing"
)

// Colour-vision deficiency simulation: Machado, Oliveira and Fernandes
// (2009), severity 1.0, applied in linear RGB.
var cvdMatrices = map[string][3][3]float64{
	"normal": {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
	"deuteranopia": {
		{0.367322, 0.860646, -0.227968},
		{0.280085, 0.672501, 0.047413},
		{-0.011820, 0.042940, 0.968881}},
	"protanopia": {
		{0.152286, 1.052583, -0.204868},
		{0.114503, 0.786281, 0.099216},
		{-0.003882, -0.048116, 1.051998}},
	"tritanopia": {
		{1.255528, -0.076749, -0.178779},
		{-0.078411, 0.930809, 0.147602},
		{0.004733, 0.691367, 0.303900}},
}

func toLinear(c uint8) float64 {
	v := float64(c) / 255
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

func toSRGB(v float64) uint8 {
	v = math.Max(0, math.Min(1, v))
	if v <= 0.0031308 {
		v *= 12.92
	} else {
		v = 1.055*math.Pow(v, 1/2.4) - 0.055
	}
	return uint8(math.Round(v * 255))
}

func simulate(c color.RGBA, m [3][3]float64) color.RGBA {
	l := [3]float64{toLinear(c.R), toLinear(c.G), toLinear(c.B)}
	var o [3]uint8
	for i := 0; i < 3; i++ {
		o[i] = toSRGB(m[i][0]*l[0] + m[i][1]*l[1] + m[i][2]*l[2])
	}
	return color.RGBA{o[0], o[1], o[2], 255}
}

// lab converts sRGB to CIELAB (D65).
func lab(c color.RGBA) [3]float64 {
	r, g, b := toLinear(c.R), toLinear(c.G), toLinear(c.B)
	x := (0.4124*r + 0.3576*g + 0.1805*b) / 0.95047
	y := 0.2126*r + 0.7152*g + 0.0722*b
	z := (0.0193*r + 0.1192*g + 0.9505*b) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

func deltaE(a, b color.RGBA) float64 {
	la, lb := lab(a), lab(b)
	return math.Sqrt((la[0]-lb[0])*(la[0]-lb[0]) + (la[1]-lb[1])*(la[1]-lb[1]) + (la[2]-lb[2])*(la[2]-lb[2]))
}

func hex(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

// TestPlayerColoursColourBlindSafe: South's and North's piece colours stay
// far apart (CIE76 ΔE) for normal vision and under simulated
// deuteranopia, protanopia and tritanopia, and both stay apart from
// neutral grey and from the board. Run with -v to see the simulated
// colours.
func TestPlayerColoursColourBlindSafe(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"normal", "deuteranopia", "protanopia", "tritanopia"} {
		m := cvdMatrices[name]
		s, n, g := simulate(southFill, m), simulate(northFill, m), simulate(neutralFill, m)
		board := simulate(sandSouthL, m)
		t.Logf("%-12s South %s -> %s, North %s -> %s, neutral %s: ΔE South/North %.0f, South/neutral %.0f, North/neutral %.0f, North/board %.0f",
			name, hex(southFill), hex(s), hex(northFill), hex(n), hex(g), deltaE(s, n), deltaE(s, g), deltaE(n, g), deltaE(n, board))
		for _, c := range []struct {
			what string
			a, b color.RGBA
			min  float64
		}{
			{"South and North", s, n, 40},
			{"South and neutral", s, g, 25},
			{"North and neutral", n, g, 25},
			{"South and the board", s, board, 25},
			{"North and the board", n, board, 25},
		} {
			if d := deltaE(c.a, c.b); d < c.min {
				t.Errorf("%s: %s differ by ΔE %.1f, want at least %.0f", name, c.what, d, c.min)
			}
		}
	}
}
